/**
 * The verdicts of self-verification, from the checks each test recorded (fixtures/verdict/checks.ts):
 *
 * - A fault is CAUGHT only for the right reason: a check attributed to one of the requirements the
 *   fault declares failed (for a declared SHOULD requirement, recorded its warning). Any other failed check is collateral, listed per fault with its
 *   requirement: the blast radius of the fault is the number of distinct requirements outside its
 *   declared ones that failed. A fault whose only failures are timeouts or tests that failed outside
 *   their checks (a crashed or stuck target, a suite error) is reported as such, not as caught.
 * - A variant or an allowed variation PASSES when it certifies CONFORMANT: no check of a MUST or
 *   VARIANT requirement failed, no test failed outside its checks, and it leaves no more MUST
 *   requirements unassessed than the plain reference does.
 */
import type { CheckRecord } from '../../fixtures/verdict/checks.ts';
import type { SkipRecord } from '../../fixtures/verdict/records.ts';
import { requirement } from '../../fixtures/verdict/requirements.ts';
import { skippedAsNotApplicable } from '../../fixtures/verdict/records.ts';
import { median } from './median.ts';

/** One test of a self-verification run, as scripts/lib/self-verify-reporter.ts writes it. */
export interface TestOutcome {
  project: string;
  title: string;
  /** file:line of the test */
  location: string;
  /** What happened, whatever was expected (a fault project expects any failure). */
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  requirements: string[];
  checks: CheckRecord[];
  /** True when every error of the failed test was recorded by its checks. */
  failuresRecordedByChecks: boolean;
  /** First line of the first error. */
  error?: string;
  /** The first lines of the first error (which check, what was received), for diagnosing a failure. */
  detail?: string;
  /** Why the test was skipped, when it was (Playwright's skip annotations). */
  skipReasons?: string[];
  /** The skips it recorded, not assessed or not applicable (fixtures/verdict/records.ts). */
  skips?: SkipRecord[];
  /** How long the test ran, and in which worker: where the run's time goes. */
  durationMs?: number;
  workerIndex?: number;
}

export interface FailedCheck {
  requirementId: string;
  location: string;
  title: string;
  text: string;
}

export interface FaultVerdict {
  name: string;
  description: string;
  requirements: readonly string[];
  operations: readonly string[];
  caught: boolean;
  /** Why it was not caught. */
  reason?: string;
  testsRun: number;
  /** Failed checks of declared requirements: the right reason. */
  caughtBy: FailedCheck[];
  /** Distinct requirements outside the declared ones with a failed check, with one example each. */
  collateral: FailedCheck[];
  /** Tests that timed out or failed outside their checks. */
  brokenTests: string[];
}

export interface VariationVerdict {
  name: string;
  kind: 'plain' | 'variant' | 'variation';
  description: string;
  passed: boolean;
  testsRun: number;
  skipped: number;
  /** MUST requirements none of whose checks ran in this instance. */
  mustNotAssessed: string[];
  failures: FailedCheck[];
  brokenTests: string[];
}

const failedCheck = (test: TestOutcome, record: CheckRecord): FailedCheck => ({
  requirementId: record.requirementId,
  location: test.location,
  title: test.title,
  text: record.text,
});

/** A test that failed or timed out with errors no check recorded (settled tests carry the marker). */
function broken(test: TestOutcome): string | undefined {
  if (test.status === 'timedOut') return `${test.location} timed out`;
  if (test.status === 'failed' && !test.failuresRecordedByChecks && !test.checks.some((record) => record.outcome === 'failed')) {
    return `${test.location} failed outside its checks${test.error === undefined ? '' : `: ${test.error}`}`;
  }
  return undefined;
}

const failedChecks = (tests: readonly TestOutcome[]): FailedCheck[] =>
  tests.flatMap((test) =>
    test.checks.filter((record) => record.outcome === 'failed' || record.outcome === 'deviation').map((record) => failedCheck(test, record)),
  );

export function faultVerdict(
  fault: { name: string; description: string; requirements: readonly string[]; operations?: readonly string[] },
  tests: readonly TestOutcome[],
): FaultVerdict {
  const declared = new Set(fault.requirements);
  const failures = failedChecks(tests);
  // A fault of a SHOULD requirement is caught by the warning its check records: that is all a SHOULD can do.
  const warnings = tests.flatMap((test) =>
    test.checks.filter((record) => record.outcome === 'warning' && declared.has(record.requirementId)).map((record) => failedCheck(test, record)),
  );
  const caughtBy = [...failures.filter((entry) => declared.has(entry.requirementId)), ...warnings];
  const collateralByRequirement = new Map<string, FailedCheck>();
  for (const entry of failures)
    if (!declared.has(entry.requirementId) && !collateralByRequirement.has(entry.requirementId)) collateralByRequirement.set(entry.requirementId, entry);
  const brokenTests = tests.map(broken).filter((line): line is string => line !== undefined);
  const ran = tests.filter((test) => test.status !== 'skipped');
  const ids = [...declared].join(', ');
  const reason =
    caughtBy.length > 0
      ? undefined
      : tests.length === 0
        ? `no test of the run cites ${ids}`
        : ran.length === 0
          ? `the ${tests.length} tests were all skipped`
          : brokenTests.length > 0 && collateralByRequirement.size === 0
            ? `only timeouts or failures outside checks (${brokenTests.length}): not caught for a reason`
            : collateralByRequirement.size > 0
              ? `only checks of other requirements failed (${[...collateralByRequirement.keys()].join(', ')}): caught for the wrong reason`
              : `every check of ${ids} passed`;
  return {
    name: fault.name,
    description: fault.description,
    requirements: [...fault.requirements],
    operations: [...(fault.operations ?? [])],
    caught: caughtBy.length > 0,
    ...(reason === undefined ? {} : { reason }),
    testsRun: ran.length,
    caughtBy,
    collateral: [...collateralByRequirement.values()],
    brokenTests,
  };
}

/** MUST requirements cited or checked in the run none of whose checks ran to a result. */
export function mustNotAssessed(tests: readonly TestOutcome[]): string[] {
  // A test skipped as not applicable (the target chose the other documented form) settles its requirements, as in the certificate.
  const notApplicable = (test: TestOutcome): boolean => test.status === 'skipped' && skippedAsNotApplicable(test);
  const ranFor = new Set([
    ...tests.flatMap((test) => test.checks.filter((record) => record.outcome !== 'not assessed').map((record) => record.requirementId)),
    ...tests.filter(notApplicable).flatMap((test) => test.requirements),
  ]);
  const concerned = new Set(tests.flatMap((test) => [...test.requirements, ...test.checks.map((record) => record.requirementId)]));
  return [...concerned].filter((id) => !ranFor.has(id) && isMust(id)).sort();
}

function isMust(id: string): boolean {
  try {
    return requirement(id).level === 'MUST';
  } catch {
    return false;
  }
}

export function variationVerdict(
  instance: { name: string; kind: VariationVerdict['kind']; description: string },
  tests: readonly TestOutcome[],
  plainNotAssessed: readonly string[] | undefined,
): VariationVerdict {
  const failures = failedChecks(tests).filter((entry) => {
    const level = requirement(entry.requirementId).level;
    return level === 'MUST' || level === 'VARIANT';
  });
  const brokenTests = tests.map(broken).filter((line): line is string => line !== undefined);
  const notAssessed = mustNotAssessed(tests);
  // Every instance's clock starts with its first request (scripts/maintainer/self-verify.ts), so a transition is
  // there to be seen in a project that starts late as in the first one: no requirement is left out.
  const extra = plainNotAssessed === undefined ? [] : notAssessed.filter((id) => !plainNotAssessed.includes(id));
  const skipped = tests.filter((test) => test.status === 'skipped').length;
  return {
    name: instance.name,
    kind: instance.kind,
    description: instance.description,
    passed: tests.length > 0 && failures.length === 0 && brokenTests.length === 0 && extra.length === 0,
    testsRun: tests.length - skipped,
    skipped,
    mustNotAssessed: notAssessed,
    failures,
    brokenTests: [...brokenTests, ...extra.map((id) => `${id} not assessed here but assessed on the plain reference`)],
  };
}

export interface BlastRadius {
  /** Collateral requirements per fault, in catalogue order. */
  perFault: { name: string; collateral: number }[];
  median: number;
  max: number;
}

export function blastRadius(faults: readonly FaultVerdict[]): BlastRadius {
  const perFault = faults.map((fault) => ({ name: fault.name, collateral: fault.collateral.length }));
  const collateral = perFault.map((entry) => entry.collateral);
  return { perFault, median: median(collateral), max: Math.max(0, ...collateral) };
}
