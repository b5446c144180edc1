/**
 * `npx tsx scripts/checks/check-expectations.ts`: proves the known-deviation flow of
 * fixtures/verdict/expectations.ts end to end, in one bounded run against the embedded reference.
 *
 * The reference is started with the fault `login-wrong-password-accepted` (it violates LOGIN-03),
 * and a temporary expectations file lists LOGIN-03 (the fault makes it fail) and GRP-01 (the
 * reference passes it). Only the tests citing one of the two run. Known deviations apply to the
 * checks of the listed requirement (fixtures/verdict/checks.ts), not to whole tests. Expected:
 *   - every test citing LOGIN-03 records a failed check of LOGIN-03 as the known deviation, and is
 *     not an unexpected failure (the run stays green for the known deviation);
 *   - tests citing GRP-01 pass their checks, and so fail the run with
 *     "known deviation GRP-01 now passes: remove it from fixtures/expectations/<name>.yaml";
 *   - the certification report counts LOGIN-03 as failed (a known deviation) and lists the GRP-01
 *     tests as known deviations that passed.
 * The temporary file and target name are unique to this process and removed afterwards.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { EXPECTATIONS_DIR } from '../../fixtures/verdict/expectations.ts';
import { writeCheckConfig } from '../lib/check-config.ts';
import { cleanEnv, readJsonReport, REPO_ROOT, runPlaywright, seconds } from '../lib/playwright-run.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/expectations');
const RUN_TIMEOUT_MS = 180_000;
const FAULT = 'login-wrong-password-accepted';
const DEVIATING = 'LOGIN-03';
const PASSING = 'GRP-01';
const name = `check-expectations-${process.pid}`;
const expectationsFile = join(EXPECTATIONS_DIR, `${name}.yaml`);
const relativeFile = `fixtures/expectations/${name}.yaml`;

rmSync(OUTPUT_DIR, { recursive: true, force: true });
mkdirSync(OUTPUT_DIR, { recursive: true });
const reportFile = join(OUTPUT_DIR, 'report.json');
const config = writeCheckConfig(OUTPUT_DIR, [
  ['json', { outputFile: reportFile }],
  [join(REPO_ROOT, 'fixtures/reporters/certification.ts'), { outputDir: OUTPUT_DIR }],
  ['line'],
]);
writeFileSync(
  expectationsFile,
  [
    '# Temporary, written by scripts/checks/check-expectations.ts.',
    'deviations:',
    `  - requirement: ${DEVIATING}`,
    `    reason: the reference runs with the fault ${FAULT}`,
    '    link: https://example.com/check-expectations/1',
    `  - requirement: ${PASSING}`,
    '    reason: listed although the reference passes it',
    '    link: https://example.com/check-expectations/2',
    '',
  ].join('\n'),
);

const problems: string[] = [];
try {
  console.log(`check-expectations: reference with --fault ${FAULT}; ${relativeFile} lists ${DEVIATING} and ${PASSING}`);
  const run = await runPlaywright({
    args: ['test', '--config', config, `--grep=@(?:${DEVIATING}|${PASSING})\\b`],
    env: { ...cleanEnv(), TARGET_NAME: name, REFERENCE_ARGS: `--fault ${FAULT}` },
    timeoutMs: RUN_TIMEOUT_MS,
    onLine: (line) => console.log(`  | ${line}`),
  });
  if (run.timedOut) problems.push(`the run exceeded ${seconds(RUN_TIMEOUT_MS)}`);
  if (run.code !== 1) problems.push(`exit code ${String(run.code)}; expected 1 (a known deviation now passes)`);

  const report = readJsonReport(reportFile);
  const citing = (id: string): typeof report.tests =>
    report.tests.filter((test) => test.title.includes(`@${id}`) || test.annotations.some((annotation) => annotation.description === id));
  const deviating = citing(DEVIATING);
  const passing = citing(PASSING);
  if (deviating.length === 0 || passing.length === 0) problems.push(`no test cites ${deviating.length === 0 ? DEVIATING : PASSING}`);
  for (const test of deviating) {
    const recorded = test.annotations.some((annotation) => annotation.type === 'check' && annotation.description?.startsWith(`${DEVIATING} deviation: `));
    const unexpected = test.status !== 'skipped' && test.status !== test.expectedStatus;
    if (!recorded || unexpected) {
      problems.push(
        `${test.title}: expected a check of ${DEVIATING} recorded as the known deviation and no unexpected failure, got ${recorded ? 'the deviation' : 'no deviation'}, ${test.status} (expected ${test.expectedStatus})`,
      );
    }
  }
  const nowPasses = `known deviation ${PASSING} now passes: remove it from ${relativeFile}`;
  for (const test of passing) {
    if (test.status !== 'failed' || !test.errors.some((error) => error.includes(nowPasses)))
      problems.push(`${test.title}: expected a failure "${nowPasses}", got ${test.status}: ${test.errors[0] ?? 'no message'}`);
  }

  const certification = JSON.parse(readFileSync(join(OUTPUT_DIR, 'certification.json'), 'utf8')) as CertificationReport;
  const verdictOf = (id: string): string | undefined => certification.requirements.find((entry) => entry.id === id)?.verdict;
  if (verdictOf(DEVIATING) !== 'failed') problems.push(`certification: ${DEVIATING} is "${verdictOf(DEVIATING) ?? 'missing'}", expected failed`);
  if (certification.knownDeviations.length !== deviating.length)
    problems.push(`certification lists ${certification.knownDeviations.length} known deviations, expected ${deviating.length}`);
  if (certification.fixedDeviations.length !== passing.length)
    problems.push(`certification lists ${certification.fixedDeviations.length} fixed deviations, expected ${passing.length}`);
  console.log(
    `\n${deviating.length} test(s) of ${DEVIATING} recorded the known deviation, ${passing.length} test(s) of ${PASSING} reported "now passes"; ` +
      `certification: ${DEVIATING} ${verdictOf(DEVIATING) ?? 'missing'}, ${certification.knownDeviations.length} known and ${certification.fixedDeviations.length} fixed deviation(s), verdict ${certification.verdict}; ${seconds(run.durationMs)}`,
  );
} finally {
  rmSync(expectationsFile, { force: true });
}
for (const problem of problems) console.log(`FAIL: ${problem}`);
console.log(problems.length === 0 ? 'check-expectations passed' : 'check-expectations FAILED');
process.exit(problems.length === 0 ? 0 : 1);
