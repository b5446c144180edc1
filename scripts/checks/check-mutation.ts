/**
 * `npm run check:mutation`: the mutation machinery cannot silently stop killing, nor start killing
 * what changes no answer. Runs `npm run mutation -- --mutant` on fixed mutants of the reference,
 * named by their code (their ids move with the sources), and requires each to end as stated:
 *
 * - a boundary moved in the error handler (`status >= 400` to `status > 400`: a 400 answered as a
 *   500), which the suite must kill;
 * - the error handler's log line switched off, triaged equivalent in reference/mutation-triage.yaml
 *   (the interface has no logs), which must survive, so that the run ends with `untriaged 0`.
 *
 * Its reports must hold no credential of the reference profile. Writes under reports/.checks/mutation/,
 * never to reports/. Exits 1 when a mutant ends otherwise or
 * cannot be found, 2 when the run could not judge.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig, secretValues } from '../../fixtures/config/profile.ts';
import { join } from 'node:path';
import { instrument, type MutantInfo } from '../lib/mutation/instrument.ts';
import type { MutantOutcome } from '../lib/mutation/report.ts';
import { codeKey } from '../lib/mutation/triage.ts';
import { REPO_ROOT } from '../lib/playwright-run.ts';

const OUT = 'reports/.checks/mutation';

interface Fixed {
  what: string;
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  expected: MutantOutcome['status'];
}

const FIXED: readonly Fixed[] = [
  {
    what: 'a 4xx error answered as a 500 (boundary moved)',
    file: 'reference/app.ts',
    mutator: 'EqualityOperator',
    original: 'status >= 400',
    replacement: 'status > 400',
    expected: 'Killed',
  },
  {
    what: "the error handler's log line switched off (triaged equivalent)",
    file: 'reference/app.ts',
    mutator: 'ConditionalExpression',
    original: 'status >= 500 && !(error instanceof HttpError)',
    replacement: 'false',
    expected: 'Survived',
  },
];

const instrumented = await instrument(REPO_ROOT);
const found = FIXED.map((fixed) => {
  const matches = instrumented.mutants.filter(
    (mutant: MutantInfo) =>
      mutant.file === fixed.file &&
      mutant.mutatorName === fixed.mutator &&
      codeKey(mutant.original) === fixed.original &&
      codeKey(mutant.replacement) === fixed.replacement,
  );
  if (matches.length !== 1) {
    console.error(
      `check:mutation: expected one mutant ${fixed.mutator} \`${fixed.original}\` -> \`${fixed.replacement}\` in ${fixed.file}, found ${matches.length}`,
    );
    process.exit(1);
  }
  return { fixed, mutant: matches[0] as MutantInfo };
});

const ids = found.map(({ mutant }) => mutant.id).join(',');
console.log(`check:mutation: npm run mutation -- --mutant ${ids} --out ${OUT}`);
const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/maintainer/mutation.ts', '--mutant', ids, '--out', OUT], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const printed = `${run.stdout}${run.stderr}`;
process.stdout.write(printed);
if (run.status === 2 || run.status === null) {
  console.error(`check:mutation: the mutation run could not judge (exit ${String(run.status)})`);
  process.exit(2);
}
const results = JSON.parse(readFileSync(join(REPO_ROOT, OUT, 'results-mutants.json'), 'utf8')) as { outcomes: MutantOutcome[] };
const problems: string[] = [];
for (const { fixed, mutant } of found) {
  const outcome = results.outcomes.find((entry) => entry.id === mutant.id);
  const status = outcome?.status ?? 'not run';
  const line = `${fixed.what}: #${mutant.id} ${fixed.file}:${mutant.location.start.line} ${status}${outcome === undefined ? '' : ` (${outcome.reason})`}`;
  console.log(`${status === fixed.expected ? 'ok  ' : 'FAIL'} ${line}; expected ${fixed.expected}`);
  if (status !== fixed.expected) problems.push(line);
}
// Redacted like every report: no credential of the profile in what the run left.
const secrets = secretValues(loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE }));
const left = readdirSync(join(REPO_ROOT, OUT), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
for (const entry of left) {
  const path = join(entry.parentPath, entry.name);
  const text = readFileSync(path, 'utf8');
  const leaked = secrets.filter((secret) => text.includes(secret)).length;
  if (leaked > 0) problems.push(`${path} holds ${leaked} credentials of the reference profile`);
}
const printedLeaks = secrets.filter((secret) => printed.includes(secret)).length;
if (printedLeaks > 0) problems.push(`the run printed ${printedLeaks} credentials of the reference profile`);
console.log(`${left.length} files left under ${OUT} and the run's console, checked for the profile's ${secrets.length} credentials`);
if (run.status !== 0) problems.push(`npm run mutation exited ${String(run.status)}: a survivor is untriaged or an equivalent mutant was killed`);
console.log(
  problems.length === 0 ? 'check:mutation: the suite killed what it must and spared what changes no answer' : `check:mutation: ${problems.length} problems`,
);
process.exit(problems.length === 0 ? 0 : 1);
