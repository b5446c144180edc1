/**
 * What a mutant's run says: killed (a check of the suite noticed it), survived, timed out, or an
 * error (the mutated reference did not start). Pure, from the per-test outcomes of the mutant's run
 * and of the baseline run (the same instrumented reference with no mutant active).
 *
 * Killed means the certificate is not what the baseline's was: a MUST or VARIANT check failed, a
 * SHOULD check warned where the baseline's did not, a test failed outside its checks, or a
 * requirement the baseline assessed could not be assessed (the certificate then says why: most
 * often an answer that never came). A mutant whose only notice is tests that timed out is `Timeout`
 * (Stryker's status: it counts as detected).
 */
import { skippedAsNotApplicable } from '../../../fixtures/verdict/records.ts';
import { variationVerdict, type TestOutcome } from '../kill-matrix.ts';

/** The statuses of Stryker's report schema that a mutation run gives. */
export type MutantStatus = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'RuntimeError';

export interface Baseline {
  /** MUST requirements no check of the baseline run assessed. */
  mustNotAssessed: string[];
  /** SHOULD requirements with a warning in the baseline run. */
  warned: string[];
  /** Requirements a check of the baseline run judged (or that a test found not applicable). */
  assessed: string[];
  /** How many checks of each requirement the baseline recorded as not assessed (most have none). */
  notAssessedChecks: Record<string, number>;
  /** The tests that ran to the end in the baseline (not skipped), by location and title. */
  ran: string[];
}

export interface MutantVerdict {
  status: MutantStatus;
  /** Requirements whose checks noticed the mutant (failed, or warned anew). */
  killedBy: string[];
  /** What noticed it, or why it was not noticed, in a line. */
  reason: string;
}

const warnedIn = (tests: readonly TestOutcome[]): string[] =>
  [...new Set(tests.flatMap((test) => test.checks.filter((record) => record.outcome === 'warning').map((record) => record.requirementId)))].sort();

/** Requirements some check judged, or that a test skipped as not applicable settles, as the certificate counts them. */
function assessedIn(tests: readonly TestOutcome[]): string[] {
  const notApplicable = (test: TestOutcome): boolean => test.status === 'skipped' && skippedAsNotApplicable(test);
  return [
    ...new Set([
      ...tests.flatMap((test) => test.checks.filter((record) => record.outcome !== 'not assessed').map((record) => record.requirementId)),
      ...tests.filter(notApplicable).flatMap((test) => test.requirements),
    ]),
  ].sort();
}

export function baselineOf(tests: readonly TestOutcome[]): Baseline {
  const verdict = variationVerdict({ name: 'baseline', kind: 'plain', description: 'no mutant active' }, tests, undefined);
  return {
    mustNotAssessed: verdict.mustNotAssessed,
    warned: warnedIn(tests),
    assessed: assessedIn(tests),
    notAssessedChecks: notAssessedChecksIn(tests),
    ran: tests.filter((test) => test.status !== 'skipped').map(testKey),
  };
}

const testKey = (test: TestOutcome): string => `${test.location} ${test.title}`;

function notAssessedChecksIn(tests: readonly TestOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of tests.flatMap((test) => test.checks))
    if (record.outcome === 'not assessed') counts[record.requirementId] = (counts[record.requirementId] ?? 0) + 1;
  return counts;
}

/** Why the baseline cannot serve: it must certify as the plain reference does (CONFORMANT). */
export function baselineProblems(tests: readonly TestOutcome[]): string[] {
  const verdict = variationVerdict({ name: 'baseline', kind: 'plain', description: 'no mutant active' }, tests, undefined);
  return [
    ...(tests.length === 0 ? ['no test ran'] : []),
    ...verdict.failures.map((entry) => `${entry.requirementId} failed in ${entry.location} ${entry.title}`),
    ...verdict.brokenTests,
  ];
}

export function judgeMutant(tests: readonly TestOutcome[], baseline: Baseline): MutantVerdict {
  const verdict = variationVerdict({ name: 'mutant', kind: 'variation', description: '' }, tests, baseline.mustNotAssessed);
  const newWarnings = warnedIn(tests).filter((id) => !baseline.warned.includes(id));
  const failed = [...new Set(verdict.failures.map((entry) => entry.requirementId))].sort();
  const killedBy = [...new Set([...failed, ...newWarnings])].sort();
  const timedOut = tests.filter((test) => test.status === 'timedOut');
  if (killedBy.length > 0) {
    const parts = [...(failed.length > 0 ? [`failed ${failed.join(', ')}`] : []), ...(newWarnings.length > 0 ? [`warned ${newWarnings.join(', ')}`] : [])];
    return { status: 'Killed', killedBy, reason: parts.join('; ') };
  }
  if (timedOut.length > 0 && timedOut.length === verdict.brokenTests.length) {
    return { status: 'Timeout', killedBy: [], reason: `${timedOut.length} tests timed out (${timedOut[0]?.location ?? ''})` };
  }
  if (verdict.brokenTests.length > 0) return { status: 'Killed', killedBy: [], reason: verdict.brokenTests.slice(0, 3).join('; ') };
  const assessed = new Set(assessedIn(tests));
  const unassessed = baseline.assessed.filter((id) => !assessed.has(id));
  if (unassessed.length > 0) return { status: 'Killed', killedBy: unassessed, reason: `not assessed here, assessed in the baseline: ${unassessed.join(', ')}` };
  // A check that could not judge (an answer that never came) where the baseline's judged: the certificate says so.
  const counts = notAssessedChecksIn(tests);
  const more = Object.keys(counts)
    .filter((id) => (counts[id] ?? 0) > (baseline.notAssessedChecks[id] ?? 0))
    .sort();
  // A test that ran in the baseline and was skipped as not assessed (it met an answer that never came).
  const ranThere = new Set(baseline.ran);
  const skippedHere = tests.filter((test) => test.status === 'skipped' && ranThere.has(testKey(test)));
  if (skippedHere.length > 0) {
    const ids = [...new Set(skippedHere.flatMap((test) => test.requirements))].sort();
    const first = skippedHere[0] as TestOutcome;
    return {
      status: 'Killed',
      killedBy: ids,
      reason: `${skippedHere.length} tests that ran in the baseline were skipped; the first, ${first.location}: ${first.skipReasons?.[0] ?? 'no reason given'}`,
    };
  }
  if (more.length > 0) {
    const first = tests.flatMap((test) => test.checks).find((record) => record.outcome === 'not assessed' && more.includes(record.requirementId));
    const counted = more.map((id) => `${id} ${counts[id] ?? 0} (baseline ${baseline.notAssessedChecks[id] ?? 0})`).join(', ');
    return { status: 'Killed', killedBy: more, reason: `checks not assessed: ${counted}; the first: ${first?.text ?? ''}` };
  }
  return { status: 'Survived', killedBy: [], reason: `${tests.length} tests, no check noticed it` };
}
