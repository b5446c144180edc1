/**
 * Two self-verification runs compared requirement by requirement (scripts/maintainer/compare-self-verify.ts):
 * for each instance (a Playwright project) the certification engine (fixtures/verdict/certification.ts
 * certify) computes the verdict of every requirement its tests concern from the checks they
 * recorded, as the certificate of a run against that instance would; a difference of verdict is a
 * change of behaviour, the same verdict from other numbers of checks a note.
 */
import { certify, type TestEvidence } from '../../fixtures/verdict/certification.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import type { RunResults, TestOutcome } from './self-verify-reporter.ts';

/** The evidence the certification engine reads, from what the self-verify reporter keeps of a test. */
function evidenceOf(test: TestOutcome): TestEvidence {
  return {
    title: test.title,
    location: test.location,
    requirementIds: test.requirements,
    status: test.status,
    // A test whose failures its checks recorded ran as an expected failure (fixtures/verdict/checks.ts).
    expectedStatus: test.failuresRecordedByChecks ? 'failed' : test.status === 'skipped' ? 'skipped' : 'passed',
    checks: test.checks,
    skipReasons: test.skipReasons ?? [],
    casesNotAssessed: [],
    failuresRecordedByChecks: test.failuresRecordedByChecks,
    fixedDeviations: [],
    ...(test.error === undefined ? {} : { failure: test.error }),
    // The findings are the checks' own: a warning's text, an observation's label as its form (no verdict reads more of them).
    findings: test.checks.flatMap((record): TestEvidence['findings'] =>
      record.outcome === 'warning'
        ? [{ kind: 'warning', requirementId: record.requirementId, text: record.text }]
        : record.outcome === 'observed'
          ? [{ kind: 'observed', requirementId: record.requirementId, form: record.text }]
          : [],
    ),
  };
}

export interface Judged {
  verdict: string;
  checksRun: number;
  checksFailed: number;
}

/** Per instance, per requirement concerned by its tests: the verdict and the counts of checks. */
export function verdictsOf(results: RunResults): Map<string, Map<string, Judged>> {
  const byProject = new Map<string, TestEvidence[]>();
  for (const test of results.tests) byProject.set(test.project, [...(byProject.get(test.project) ?? []), evidenceOf(test)]);
  const catalogue = requirements();
  const verdicts = new Map<string, Map<string, Judged>>();
  for (const [project, tests] of byProject) {
    const concerned = new Set(tests.flatMap((test) => [...test.requirementIds, ...test.checks.map((record) => record.requirementId)]));
    const judged = new Map<string, Judged>();
    for (const result of certify(catalogue, tests).requirements)
      if (concerned.has(result.id)) judged.set(result.id, { verdict: result.verdict, checksRun: result.checksRun, checksFailed: result.checksFailed });
    verdicts.set(project, judged);
  }
  return verdicts;
}

export interface Comparison {
  /** Requirement verdicts compared (instance by instance). */
  compared: number;
  /** `<instance> <ID>: <before> -> <after>`, and instances present in one run only. */
  differences: string[];
  /** The same verdict from other numbers of checks run or failed. */
  notes: string[];
}

export function compareVerdicts(before: Map<string, Map<string, Judged>>, after: Map<string, Map<string, Judged>>): Comparison {
  const differences: string[] = [];
  const notes: string[] = [];
  let compared = 0;
  for (const project of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const was = before.get(project);
    const is = after.get(project);
    if (was === undefined || is === undefined) {
      differences.push(`${project}: in the ${was === undefined ? 'second' : 'first'} run only`);
      continue;
    }
    for (const id of [...new Set([...was.keys(), ...is.keys()])].sort()) {
      const old = was.get(id);
      const now = is.get(id);
      compared += 1;
      if (old?.verdict !== now?.verdict) differences.push(`${project} ${id}: ${old?.verdict ?? 'not concerned'} -> ${now?.verdict ?? 'not concerned'}`);
      else if (old !== undefined && now !== undefined && (old.checksRun !== now.checksRun || old.checksFailed !== now.checksFailed))
        notes.push(`${project} ${id}: ${old.verdict}, checks run ${old.checksRun} -> ${now.checksRun}, failed ${old.checksFailed} -> ${now.checksFailed}`);
    }
  }
  return { compared, differences, notes };
}
