/**
 * Compares two self-verification runs requirement by requirement: "behaviour unchanged" for a
 * change of the harness, on the plain reference, every variant, every variation and every fault at
 * once. Each run's per-test results are kept with SELF_VERIFY_KEEP_RESULTS=FILE (scripts/maintainer/self-verify.ts);
 * for each instance (a Playwright project) the certification engine (fixtures/verdict/certification.ts
 * certify) computes the verdict of every requirement from the checks its tests recorded, as the
 * certificate of a run against that instance would, and the two runs' verdicts are compared.
 *
 * A difference of verdict is a change of behaviour (exit 1). A requirement whose verdict is the same
 * but whose checks ran or failed another number of times is listed as a note (a refactoring may
 * split or join checks); an instance present in one run only is a difference.
 *
 * Usage: npx tsx scripts/maintainer/compare-self-verify.ts BEFORE.json AFTER.json
 * e.g.   SELF_VERIFY_KEEP_RESULTS=/tmp/before.json npm run self-verify -- --variations   (on the old commit)
 *        SELF_VERIFY_KEEP_RESULTS=/tmp/after.json npm run self-verify -- --variations    (on the new one)
 */
import { readFileSync } from 'node:fs';
import { certify, type TestEvidence } from '../../fixtures/verdict/certification.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import type { RunResults, TestOutcome } from '../lib/self-verify-reporter.ts';

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

interface Judged {
  verdict: string;
  checksRun: number;
  checksFailed: number;
}

/** Per instance, per requirement concerned by its tests: the verdict and the counts of checks. */
function verdictsOf(file: string): Map<string, Map<string, Judged>> {
  const results = JSON.parse(readFileSync(file, 'utf8')) as RunResults;
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

function main(): number {
  const [beforeFile, afterFile] = process.argv.slice(2);
  if (beforeFile === undefined || afterFile === undefined) {
    console.error('usage: npx tsx scripts/maintainer/compare-self-verify.ts BEFORE.json AFTER.json (files of SELF_VERIFY_KEEP_RESULTS)');
    return 2;
  }
  let before: Map<string, Map<string, Judged>>;
  let after: Map<string, Map<string, Judged>>;
  try {
    before = verdictsOf(beforeFile);
    after = verdictsOf(afterFile);
  } catch (error) {
    console.error(`cannot read the results: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
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
  for (const line of notes) console.log(`note: ${line}`);
  for (const line of differences) console.log(`DIFFERS: ${line}`);
  console.log(
    `${before.size} and ${after.size} instances, ${compared} requirement verdicts compared: ${differences.length} differ, ` +
      `${notes.length} with the same verdict from other numbers of checks`,
  );
  return differences.length === 0 ? 0 : 1;
}

process.exitCode = main();
