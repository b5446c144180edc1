/**
 * npm run mutation's pure parts: the reproducible, spread sample and its shards
 * (scripts/lib/mutation/sample.ts), the triage file and its matching (triage.ts), a mutant's verdict
 * from its run's checks against the baseline's (verdict.ts), and the tally and last line (report.ts).
 * The machinery end to end (a mutant the suite must kill, one triaged equivalent that must survive)
 * is npm run check:mutation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { TestOutcome } from '../../scripts/lib/kill-matrix.ts';
import type { MutantInfo } from '../../scripts/lib/mutation/instrument.ts';
import { strykerReport, summaryLine, tally, type MutantOutcome } from '../../scripts/lib/mutation/report.ts';
import { parseShard, sampleMutants, shardOf, shares } from '../../scripts/lib/mutation/sample.ts';
import { codeKey, entryFor, keyOf, parseTriage, type TriageEntry } from '../../scripts/lib/mutation/triage.ts';
import { baselineOf, judgeMutant } from '../../scripts/lib/mutation/verdict.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function mutant(id: number, file: string, line = id + 1, original = `a${id}`, replacement = `b${id}`, mutatorName = 'EqualityOperator'): MutantInfo {
  return { id: String(id), file, mutatorName, location: { start: { line, column: 1 }, end: { line, column: 5 } }, original, replacement };
}

/** 100 mutants in three files of 60, 30 and 10. */
const MUTANTS: MutantInfo[] = Array.from({ length: 100 }, (_, id) =>
  mutant(id, id < 60 ? 'reference/store.ts' : id < 90 ? 'reference/pagination.ts' : 'reference/ids.ts'),
);

describe('the sample', () => {
  it('gives each file its share by largest remainders', () => {
    const counts = new Map([
      ['a', 60],
      ['b', 30],
      ['c', 10],
    ]);
    assert.deepEqual(
      [...shares(counts, 10)],
      [
        ['a', 6],
        ['b', 3],
        ['c', 1],
      ],
    );
    assert.deepEqual(
      [...shares(counts, 7)].map(([, share]) => share).reduce((sum, share) => sum + share, 0),
      7,
    );
    assert.deepEqual([...shares(counts, 500)], [...counts], 'a sample larger than the set takes every mutant');
  });

  it('is the same for the same seed and spread over the files', () => {
    const first = sampleMutants(MUTANTS, 10, 7).map((entry) => entry.id);
    assert.deepEqual(
      sampleMutants(MUTANTS, 10, 7).map((entry) => entry.id),
      first,
    );
    assert.notDeepEqual(
      sampleMutants(MUTANTS, 10, 8).map((entry) => entry.id),
      first,
      'another seed draws another sample',
    );
    const perFile = (ids: string[]): Record<string, number> =>
      ids.reduce<Record<string, number>>((sum, id) => {
        const file = MUTANTS[Number(id)]?.file ?? '';
        return { ...sum, [file]: (sum[file] ?? 0) + 1 };
      }, {});
    assert.deepEqual(perFile(first), { 'reference/store.ts': 6, 'reference/pagination.ts': 3, 'reference/ids.ts': 1 });
    assert.deepEqual(
      [...first].sort((a, b) => Number(a) - Number(b)),
      first,
      "in Stryker's order",
    );
  });

  it('refuses a size that is not a positive integer', () => {
    assert.throws(() => sampleMutants(MUTANTS, 0, 1), /--sample/);
    assert.throws(() => sampleMutants(MUTANTS, 2.5, 1), /--sample/);
  });

  it('splits into shards that partition it', () => {
    const sample = sampleMutants(MUTANTS, 25, 3);
    const shards = [1, 2, 3].map((index) => shardOf(sample, parseShard(`${index}/3`)));
    assert.deepEqual(
      shards
        .flat()
        .map((entry) => entry.id)
        .sort((a, b) => Number(a) - Number(b)),
      sample.map((entry) => entry.id),
    );
    assert.deepEqual(
      shards.map((shard) => shard.length),
      [9, 8, 8],
    );
    for (const bad of ['0/3', '4/3', '1/0', 'two/3', '1-3']) assert.throws(() => parseShard(bad), /--shard/, bad);
  });
});

const CONTEXT = {
  root: REPO_ROOT,
  requirementIds: new Set(['PAG-05', 'GRP-01']),
  faults: new Map<string, readonly string[]>([['total-pages-off-by-one', ['PAG-05']]]),
};

describe('the triage file', () => {
  it('reads equivalent and gap entries, and names every problem', () => {
    const good = parseTriage(
      [
        'survivors:',
        '  - { file: reference/app.ts, line: 3, mutator: X, original: a, replacement: b, triage: equivalent, why: only a log line }',
        "  - { file: reference/pagination.ts, line: 9, mutator: Y, original: c, replacement: d, triage: gap, requirement: PAG-05, sentence: 'totalPages: number of pages', check: 'tests/pagination.spec.ts › totalPages', fault: total-pages-off-by-one }",
      ].join('\n'),
      CONTEXT,
    );
    assert.deepEqual(good.problems, []);
    assert.deepEqual(
      good.entries.map((entry) => entry.triage),
      ['equivalent', 'gap'],
    );
    const bad = parseTriage(
      [
        'survivors:',
        '  - { file: reference/nowhere.ts, line: 0, mutator: X, original: a, replacement: b, triage: equivalent }',
        '  - { file: reference/app.ts, line: 1, mutator: X, original: a, replacement: b, triage: gap, requirement: XYZ-01, sentence: s, check: tests/none.spec.ts › t, fault: nope }',
        '  - { file: reference/app.ts, line: 1, mutator: X, original: a, replacement: b, triage: maybe, colour: red }',
      ].join('\n'),
      CONTEXT,
    );
    assert.deepEqual(bad.problems, [
      'survivors[0]: line must be a positive integer',
      'survivors[0]: no file reference/nowhere.ts',
      'survivors[0]: why must be a non-empty string',
      'survivors[1]: no requirement XYZ-01 in the catalogue',
      'survivors[1]: no fault nope in reference/faults/',
      'survivors[1]: check names no file of the repository (tests/none.spec.ts)',
      'survivors[2]: unknown keys colour',
      'survivors[2]: triage must be equivalent or gap',
    ]);
    assert.deepEqual(parseTriage('{}', CONTEXT).problems, ['expected a top-level list `survivors:`']);
  });

  it('matches a mutant on its line, or the only mutant of its code when the line moved', () => {
    const moved = mutant(1, 'reference/store.ts', 40, 'skip >= total', 'skip > total');
    const twin = mutant(2, 'reference/store.ts', 80, 'x', 'y');
    const twinElsewhere = mutant(3, 'reference/store.ts', 90, 'x', 'y');
    const entries: TriageEntry[] = [
      { ...keyOf(moved), line: 12, triage: 'equivalent', why: 'w' },
      { ...keyOf(twin), line: 70, triage: 'equivalent', why: 'w' },
    ];
    const keys = [moved, twin, twinElsewhere].map(keyOf);
    assert.equal(entryFor(keyOf(moved), entries, keys), entries[0]);
    assert.equal(entryFor(keyOf(twin), entries, keys), undefined, 'the same code twice in a file: only its line names it');
    assert.equal(entryFor({ ...keyOf(twin), line: 70 }, entries, keys), entries[1]);
  });

  it('folds whitespace and cuts long code', () => {
    assert.equal(codeKey('{\n  return   x;\n}'), '{ return x; }');
    assert.equal(codeKey('y'.repeat(200)).length, 161);
  });
});

function outcome(requirementId: string, checkOutcome: 'passed' | 'failed' | 'warning' | 'not assessed', status: TestOutcome['status'] = 'passed'): TestOutcome {
  return {
    project: 'p',
    title: `test of ${requirementId}`,
    location: 'tests/x.spec.ts:1',
    status,
    requirements: [requirementId],
    checks: [{ requirementId, outcome: checkOutcome, text: 'the check' }],
    failuresRecordedByChecks: true,
  };
}

describe("a mutant's verdict", () => {
  // PAG-05 is a MUST, SEC-02 a SHOULD of the catalogue.
  const baseline = baselineOf([outcome('PAG-05', 'passed'), outcome('GRP-01', 'passed')]);

  it('is killed by a failed MUST check, naming the requirement', () => {
    assert.deepEqual(judgeMutant([outcome('PAG-05', 'failed', 'failed'), outcome('GRP-01', 'passed')], baseline), {
      status: 'Killed',
      killedBy: ['PAG-05'],
      reason: 'failed PAG-05',
    });
  });

  it('is killed by a warning the baseline did not have, not by one it had', () => {
    const warned = baselineOf([outcome('INP-01', 'warning')]);
    assert.equal(judgeMutant([outcome('INP-01', 'warning')], warned).status, 'Survived');
    assert.deepEqual(judgeMutant([outcome('INP-01', 'warning')], baseline).killedBy, ['INP-01']);
  });

  it('is killed when a MUST the baseline assessed cannot be assessed', () => {
    assert.equal(judgeMutant([outcome('PAG-05', 'not assessed'), outcome('GRP-01', 'passed')], baseline).status, 'Killed');
  });

  it('is killed when any requirement the baseline assessed is left not assessed (an answer that never came)', () => {
    const judged = baselineOf([outcome('INP-09', 'passed'), outcome('PAG-05', 'passed')]);
    assert.deepEqual(judgeMutant([outcome('INP-09', 'not assessed'), outcome('PAG-05', 'passed')], judged), {
      status: 'Killed',
      killedBy: ['INP-09'],
      reason: 'not assessed here, assessed in the baseline: INP-09',
    });
  });

  it('is killed when more checks of a requirement could not judge than in the baseline', () => {
    const judged = baselineOf([outcome('INP-09', 'passed'), outcome('INP-09', 'passed')]);
    const verdict = judgeMutant([outcome('INP-09', 'passed'), outcome('INP-09', 'not assessed')], judged);
    assert.equal(verdict.status, 'Killed');
    assert.deepEqual(verdict.killedBy, ['INP-09']);
    assert.match(verdict.reason, /^checks not assessed: INP-09 1 \(baseline 0\); the first: the check$/);
  });

  it('is killed when a test that ran in the baseline is skipped as not assessed', () => {
    const judged = baselineOf([outcome('INP-09', 'passed'), { ...outcome('INP-09', 'passed'), title: 'another' }]);
    const skipped: TestOutcome = { ...outcome('INP-09', 'passed'), title: 'another', status: 'skipped', checks: [], skipReasons: ['not assessed: no answer'] };
    const verdict = judgeMutant([outcome('INP-09', 'passed'), skipped], judged);
    assert.equal(verdict.status, 'Killed');
    assert.deepEqual(verdict.killedBy, ['INP-09']);
    assert.match(verdict.reason, /1 tests that ran in the baseline were skipped; the first, tests\/x\.spec\.ts:1: not assessed: no answer/);
  });

  it('times out when only timeouts noticed it, and survives when nothing did', () => {
    assert.equal(judgeMutant([{ ...outcome('PAG-05', 'passed'), status: 'timedOut' }], baseline).status, 'Timeout');
    assert.equal(judgeMutant([outcome('PAG-05', 'passed'), outcome('GRP-01', 'passed')], baseline).status, 'Survived');
  });
});

describe('the tally and its line', () => {
  const mutants = [0, 1, 2, 3, 4, 5].map((id) => mutant(id, 'reference/ids.ts'));
  const result = (id: number, status: MutantOutcome['status']): MutantOutcome => ({ id: String(id), status, killedBy: [], reason: 'r', durationMs: 1 });
  const entries: TriageEntry[] = [
    { ...keyOf(mutants[1] as MutantInfo), triage: 'equivalent', why: 'w' },
    { ...keyOf(mutants[2] as MutantInfo), triage: 'gap', requirement: 'PAG-05', sentence: 's', check: 'c', fault: 'f' },
  ];

  it('counts equivalents apart from the score, gaps closed among the killed, and open survivors as untriaged', () => {
    const statuses: MutantOutcome['status'][] = ['Killed', 'Survived', 'Killed', 'NoCoverage', 'Timeout', 'RuntimeError'];
    const outcomes = statuses.map((status, id) => result(id, status));
    const figures = tally(mutants, outcomes, entries);
    assert.equal(
      summaryLine(figures, 'reports/mutation/index.html'),
      'mutants: 6 sampled, killed 2, survived 2 (equivalent 1, gaps closed 1, untriaged 1), timed out 1, errors 1; score 75.0% of non-equivalent; report reports/mutation/index.html',
    );
    assert.deepEqual(
      figures.untriagedMutants.map((entry) => entry.mutant.id),
      ['3'],
    );
  });

  it('calls a killed mutant triaged equivalent a contradiction', () => {
    assert.deepEqual(
      tally(mutants, [result(1, 'Killed')], entries).contradicted.map((entry) => entry.mutant.id),
      ['1'],
    );
  });

  it("writes Stryker's schema, the mutants outside the run Ignored", () => {
    const report = strykerReport({
      mutants,
      originals: new Map([['reference/ids.ts', 'source']]),
      outcomes: [result(0, 'Killed')],
      entries,
      notRun: 'not sampled',
    });
    const statuses = report.files['reference/ids.ts']?.mutants.map((entry) => entry.status);
    assert.deepEqual(statuses, ['Killed', 'Ignored', 'Ignored', 'Ignored', 'Ignored', 'Ignored']);
    assert.equal(report.schemaVersion, '2');
  });
});
