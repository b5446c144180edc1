/**
 * `npm run check:imports`: the layering that docs/architecture.md states, kept by a check rather
 * than by prose (as Kubernetes generates its conformance list from the code instead of trusting a tag).
 *
 * - Specs and the helpers they share (tests/*.spec.ts, tests/support/) take the harness only through
 *   its entry, fixtures/index.ts.
 * - The reference (reference/) imports nothing from the harness, the tests or the scripts, and reads
 *   no file of theirs: it is one implementation among many and knows nothing about the suite.
 * - The verdict engine (fixtures/checks.ts, fixtures/certification.ts, fixtures/annotation-structure.ts)
 *   imports no presentation code (report-metadata, the Allure labels, the reporters).
 * - Only fixtures/config.ts reads the environment: no other module of the harness, the specs or the
 *   reference reads a variable (`process.env.X`, `process.env[...]`, `env['X']`); handing the whole
 *   environment to config.ts's functions is not reading it.
 * - One way to say "cannot judge": the harness, the specs and their helpers say it with the words of
 *   fixtures/not-assessed.ts (`notAssessed`, its forms, `notApplicable`), never with the idioms they
 *   replaced (a skip written by hand, its reason prefix, the error class, a raw annotation).
 *
 * Prints each breach with its file and line, and exits 1 when there is one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from './lib/playwright-run.ts';

export interface Breach {
  file: string;
  line: number;
  rule: string;
  detail: string;
}

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
const VERDICT_ENGINE = ['fixtures/checks.ts', 'fixtures/certification.ts', 'fixtures/annotation-structure.ts'];
const PRESENTATION = [/^fixtures\/report-metadata\.ts$/, /^fixtures\/allure\.ts$/, /^fixtures\/reporters\//];
const ENV_READ = /process\.env\s*(?:\[|\.[A-Za-z_])|\benv\s*(?:\[\s*['"`][A-Z][A-Z0-9_]*['"`]\s*\]|\.[A-Z][A-Z0-9_]+\b)/g;
/** The module of the one vocabulary for "cannot judge", the only place its mechanism may be named. */
const CANNOT_JUDGE = 'fixtures/not-assessed.ts';
/** The idioms the vocabulary replaced, each with the word that says it now. */
const OTHER_CANNOT_JUDGE: readonly { pattern: RegExp; instead: string }[] = [
  { pattern: /\b(?:test|base|testInfo|test\.info\(\))\.(?:skip|fixme)\s*\(/g, instead: 'notAssessed(reason, need) or notApplicable(reason)' },
  { pattern: /['"`]not (?:assessed|applicable): /g, instead: 'notAssessed(reason) or notApplicable(reason), which write the prefix' },
  { pattern: /\bNotAssessable\b/g, instead: 'notAssessed.check(reason) inside a check, notAssessed.is(error) to recognise it' },
  { pattern: /\bcheckNotAssessed\b/g, instead: 'notAssessed.record(id, label, reason)' },
  { pattern: /\bneeds\(/g, instead: "value ?? notAssessed(reason, { enable: 'TARGET_X' })" },
  { pattern: /\brequire(?:Writes|Destructive)\b/g, instead: "if (!target.allowWrites) notAssessed(reason, { enable: 'TARGET_ALLOW_WRITES' })" },
  { pattern: /(?:\btype:\s*|\bannotate\(\s*)['"`]not assessed['"`]/g, instead: 'notAssessed.case(description)' },
];

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(?:ts|mts)$/.test(name) ? [path] : [];
  });
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** The repository-relative paths a source imports (relative specifiers only), with their lines. */
export function importsOf(file: string, text: string, root: string = REPO_ROOT): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? '';
    if (!specifier.startsWith('.')) continue;
    found.push({
      target: relative(root, resolve(dirname(file), specifier))
        .split('\\')
        .join('/'),
      line: lineOf(text, (match.index ?? 0) + Math.max(0, match[0].search(/\S/))),
    });
  }
  return found;
}

/** The breaches of one source file (`path` relative to the repository). */
export function breachesOf(path: string, text: string, root: string = REPO_ROOT): Breach[] {
  const breaches: Breach[] = [];
  const file = join(root, path);
  const imports = importsOf(file, text, root);
  const isSpecSide = /^tests\/[^/]+\.spec\.ts$/.test(path) || path.startsWith('tests/support/');
  if (isSpecSide) {
    for (const { target, line } of imports) {
      if (target.startsWith('fixtures/') && target !== 'fixtures/index.ts')
        breaches.push({ file: path, line, rule: 'specs take the harness through fixtures/index.ts', detail: `imports ${target}` });
    }
  }
  if (path.startsWith('reference/')) {
    for (const { target, line } of imports) {
      if (/^(?:fixtures|tests|scripts)\//.test(target))
        breaches.push({ file: path, line, rule: 'the reference knows nothing of the suite', detail: `imports ${target}` });
    }
    const reported = new Set(breaches.map((breach) => breach.line));
    // A path into the suite outside an import: a file read at run time (a seed, a profile).
    for (const match of text.matchAll(/['"`](?:\.\.\/)+(?:fixtures|tests|scripts)\/[^'"`]*['"`]/g)) {
      const line = lineOf(text, match.index ?? 0);
      if (!reported.has(line)) breaches.push({ file: path, line, rule: 'the reference knows nothing of the suite', detail: `names ${match[0]}` });
    }
  }
  if (VERDICT_ENGINE.includes(path)) {
    for (const { target, line } of imports) {
      if (PRESENTATION.some((pattern) => pattern.test(target)))
        breaches.push({ file: path, line, rule: 'the verdict engine imports no presentation code', detail: `imports ${target}` });
    }
  }
  if ((path.startsWith('fixtures/') || isSpecSide) && path !== CANNOT_JUDGE) {
    for (const { pattern, instead } of OTHER_CANNOT_JUDGE) {
      for (const match of text.matchAll(pattern)) {
        breaches.push({
          file: path,
          line: lineOf(text, match.index ?? 0),
          rule: `one way to say "cannot judge" (${CANNOT_JUDGE})`,
          detail: `${match[0]}: say ${instead}`,
        });
      }
    }
  }
  const readsEnvironment = (path.startsWith('fixtures/') || isSpecSide || path.startsWith('reference/')) && path !== 'fixtures/config.ts';
  if (readsEnvironment) {
    for (const match of text.matchAll(ENV_READ)) {
      breaches.push({ file: path, line: lineOf(text, match.index ?? 0), rule: 'only fixtures/config.ts reads the environment', detail: `reads ${match[0]}` });
    }
  }
  return breaches;
}

function main(): void {
  const sources = ['fixtures', 'tests', 'reference']
    .flatMap((dir) => filesUnder(join(REPO_ROOT, dir)))
    .filter((file) => !file.includes(`${join('tests', 'unit')}`));
  const breaches = sources.flatMap((file) => breachesOf(relative(REPO_ROOT, file).split('\\').join('/'), readFileSync(file, 'utf8')));
  for (const breach of breaches) console.log(`${breach.file}:${breach.line}: ${breach.rule}: ${breach.detail}`);
  console.log(`check:imports: ${sources.length} files, ${breaches.length} breach(es) of the layering of docs/architecture.md`);
  process.exit(breaches.length === 0 ? 0 : 1);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(REPO_ROOT, 'scripts/check-imports.ts')) main();
