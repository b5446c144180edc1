/**
 * `npm run check:standalone`: no file of the repository (code, tests, scripts, docs, spec, workflow)
 * names a path outside it, so that a clone with nothing beside it is all a team or a vendor needs.
 * Reads the files git tracks (every file but node_modules/, reports/ and .git/ when this is not a git
 * checkout); the rules are in scripts/lib/outside-paths.ts. Exits 1 with one line per finding.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outsidePaths, repositoryShape } from '../lib/outside-paths.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NOT_SOURCES = new Set(['node_modules', 'reports', '.git', 'test-results', 'blob-report', 'playwright-report']);

/**
 * Texts that look like paths outside the repository and are not file paths, each with why. The texts
 * are joined from pieces so that this file does not hold them.
 */
const ALLOWED: readonly { file: string; text: string; why: string }[] = [
  { file: 'tests/bad-input.spec.ts', text: ['..', '..', 'groups'].join('/'), why: 'a path parameter the suite sends to the target, percent-encoded' },
];

function walk(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCES.has(entry.name)) return [];
    const path = join(directory, entry.name);
    return entry.isDirectory() ? walk(path) : [relative(ROOT, path).split('\\').join('/')];
  });
}

function repositoryFiles(): string[] {
  const git = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (git.status === 0) return git.stdout.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)));
  return walk(ROOT);
}

const files = repositoryFiles();
const gitignore = existsSync(join(ROOT, '.gitignore')) ? readFileSync(join(ROOT, '.gitignore'), 'utf8') : '';
const shape = repositoryShape(files, gitignore);
let read = 0;
const everything = files.flatMap((file) => {
  const content = readFileSync(join(ROOT, file));
  if (content.includes(0)) return [];
  read += 1;
  return outsidePaths(file, content.toString('utf8'), shape);
});
const allowed = (finding: { file: string; text: string }) => ALLOWED.some((entry) => entry.file === finding.file && entry.text === finding.text);
const findings = everything.filter((finding) => !allowed(finding));
// An allowance that matches nothing any more would hide the next real finding of that text.
const stale = ALLOWED.filter((entry) => !everything.some((finding) => finding.file === entry.file && finding.text === entry.text));
for (const { file, line, text, reason } of findings) console.log(`${file}:${line}: ${text}: ${reason}`);
for (const { file, text } of stale) console.log(`${file}: the allowance for ${text} in scripts/checks/check-standalone.ts matches nothing: remove it`);
console.log(
  findings.length === 0
    ? `check:standalone: ${read} files of the repository read; none names a path outside it${stale.length === 0 ? '' : `; ${stale.length} stale allowances`}`
    : `check:standalone: ${findings.length} paths outside the repository in ${new Set(findings.map((finding) => finding.file)).size} files; point them at the project's own documents`,
);
process.exitCode = findings.length === 0 && stale.length === 0 ? 0 : 1;
