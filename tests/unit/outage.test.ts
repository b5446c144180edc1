/**
 * A target that stops answering partway, or answers on one interface only (issue 31): the rule that
 * decides it (fixtures/transport/outage.ts), the run's watch that applies it across the workers'
 * journals and stops the run (fixtures/transport/run-stop.ts), and what the certificate makes of it
 * (fixtures/verdict/certification.ts, fixtures/reporters/provenance.ts, fixtures/reporters/certification.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import {
  AnswerWatch,
  InterfaceLiveness,
  journalLine,
  parseJournal,
  SILENT_TIMEOUTS,
  UNANSWERED_AT_ONCE,
  UNANSWERED_IN_A_ROW,
} from '../../fixtures/transport/outage.ts';
import { carriedOutages, carryOutages, readOutageState, writeOutageState } from '../../fixtures/evidence/outages.ts';
import type { Outage } from '../../fixtures/evidence/outages.ts';
import { POLL_MS, startRunStop } from '../../fixtures/transport/run-stop.ts';
import type { RunStop, RunStopOptions } from '../../fixtures/transport/run-stop.ts';
import { certify, exitCodeFor, verdictLine } from '../../fixtures/verdict/certification.ts';
import type { TestEvidence } from '../../fixtures/verdict/certification.ts';
import type { Requirement } from '../../fixtures/verdict/requirements.ts';
import { runOutages } from '../../fixtures/reporters/run-outages.ts';
import { VALID_PROFILE } from './valid-profile.ts';

const MAIN = 'http://127.0.0.1:4010';
const REALTIME = 'http://127.0.0.1:4010/v2';
const TIMEOUT_MS = 1_000;

describe('AnswerWatch: when an interface stopped answering', () => {
  const started = 1_000_000;
  const silent = started + SILENT_TIMEOUTS * TIMEOUT_MS;

  it(`needs ${UNANSWERED_IN_A_ROW} requests in a row without an answer and none answered for the profile's whole timeout`, () => {
    const watch = new AnswerWatch(TIMEOUT_MS, started);
    watch.record({ at: started + 10, address: MAIN, answered: true });
    for (let index = 1; index < UNANSWERED_IN_A_ROW; index += 1) watch.record({ at: started + 500, address: MAIN, answered: false, cause: 'timeout' });
    assert.equal(watch.stalled(MAIN, silent + 100), undefined, 'one request too few');
    watch.record({ at: started + 600, address: MAIN, answered: false, cause: 'timeout' });
    assert.equal(watch.stalled(MAIN, started + 10 + TIMEOUT_MS - 1), undefined, 'an answer less than a timeout ago');
    assert.deepEqual(watch.stalled(MAIN, started + 10 + TIMEOUT_MS), {
      address: MAIN,
      unanswered: UNANSWERED_IN_A_ROW,
      silentSince: started + 10,
      cause: 'timeout',
    });
    assert.equal(watch.answered, 1);
  });

  it('starts again at every answer, and keeps each interface apart', () => {
    const watch = new AnswerWatch(TIMEOUT_MS, started);
    for (let index = 0; index < 10; index += 1) {
      watch.record({ at: started + index, address: MAIN, answered: false, cause: 'timeout' });
      watch.record({ at: started + index, address: MAIN, answered: true });
      watch.record({ at: started + index, address: REALTIME, answered: false, cause: 'refused' });
    }
    assert.equal(watch.stalled(MAIN, silent + 5_000), undefined, 'a slow request among answered ones stops nothing');
    assert.equal(watch.stalled(REALTIME, silent + 5_000)?.unanswered, 10);
  });

  it(`stops at ${UNANSWERED_AT_ONCE} in a row whatever the time: connections refused end at once`, () => {
    const watch = new AnswerWatch(TIMEOUT_MS, started);
    for (let index = 0; index < UNANSWERED_AT_ONCE - 1; index += 1) watch.record({ at: started, address: MAIN, answered: false, cause: 'refused' });
    assert.equal(watch.stalled(MAIN, started + 1), undefined);
    watch.record({ at: started, address: MAIN, answered: false, cause: 'refused' });
    assert.equal(watch.stalled(MAIN, started + 1)?.unanswered, UNANSWERED_AT_ONCE);
  });
});

describe('the journals and the state file', () => {
  it('reads complete lines only, leaving a torn last line for the next read', () => {
    const text =
      journalLine({ at: 5, address: MAIN, answered: true }) + journalLine({ at: 6, address: MAIN, answered: false, cause: 'a\tb\nc' }) + '7\tn\thttp';
    const { entries, consumed } = parseJournal(text);
    assert.deepEqual(entries, [
      { at: 5, address: MAIN, answered: true },
      { at: 6, address: MAIN, answered: false, cause: 'a b c' },
    ]);
    assert.equal(text.slice(consumed), '7\tn\thttp');
  });

  it('tells a worker which interfaces are down once the runner wrote them, and a stop of the whole run covers both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outage-test-'));
    try {
      const liveness = new InterfaceLiveness(dir);
      assert.equal(liveness.down(MAIN, 1_000), undefined);
      const realtime: Outage = {
        interface: 'realtime',
        address: REALTIME,
        kind: 'unreachable',
        at: 'now',
        cause: 'the realtime interface could not be reached',
      };
      writeOutageState(dir, { outages: [realtime] });
      assert.deepEqual(liveness.down(REALTIME, 2_000), realtime);
      assert.equal(liveness.down(MAIN, 2_000), undefined);
      const budget: Outage = { kind: 'budget', at: 'later', cause: 'the run reached its budget' };
      writeOutageState(dir, { outages: [realtime, budget] });
      assert.equal(liveness.down(MAIN, 3_000), undefined, 'a budget stops the tests, not the archives of their teardown');
      const stop: Outage = { kind: 'stopped answering', at: 'later', cause: 'the target stopped answering' };
      writeOutageState(dir, { outages: [realtime, budget, stop] });
      assert.deepEqual(liveness.down(MAIN, 3_050), undefined, 'read again at most every 100 ms');
      assert.deepEqual(liveness.down(MAIN, 4_000), stop);
      assert.deepEqual(readOutageState(dir).outages, [realtime, budget, stop]);
      liveness.unanswered(MAIN, 'timeout', 10);
      liveness.answered(REALTIME, 11);
      assert.equal(new InterfaceLiveness(undefined).down(MAIN), undefined, 'outside a run nothing is ever down');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function referenceTarget(extra: Record<string, string> = {}): ReturnType<typeof loadTargetConfig> {
  return loadTargetConfig({
    ...VALID_PROFILE,
    TARGET_BASE_URL: MAIN,
    TARGET_REALTIME_URL: REALTIME,
    TARGET_TIMEOUT_MS: String(TIMEOUT_MS),
    ...extra,
  });
}

/**
 * The run's stop watch as global setup starts it (against referenceTarget(), no process hooks), with
 * what it says and how often it interrupts recorded; closed and its directory removed after `body`.
 */
async function withRunStop(
  options: Partial<RunStopOptions>,
  body: (run: { stop: RunStop; said: string[]; interrupts: () => number }) => Promise<void>,
): Promise<void> {
  const said: string[] = [];
  let interrupts = 0;
  const stop = startRunStop({
    target: referenceTarget(),
    secrets: [],
    startedAt: Date.now(),
    wholeRun: true,
    say: (line) => said.push(line),
    interrupt: () => (interrupts += 1),
    processHooks: false,
    ...options,
  });
  try {
    await body({ stop, said, interrupts: () => interrupts });
  } finally {
    stop.close();
    rmSync(stop.dir, { recursive: true, force: true });
  }
}

describe('the run watch (fixtures/transport/run-stop.ts)', () => {
  it('declares the interface the pre-flight could not reach down, says so once, and stops nothing', async () => {
    await withRunStop({}, async ({ stop, said, interrupts }) => {
      stop.unreachable('realtime', 'connection refused: nothing listens at the target address');
      assert.equal(said.length, 1);
      assert.match(
        said[0] ?? '',
        /^Pre-flight: the realtime interface \(http:\/\/127\.0\.0\.1:4010\/v2\) could not be reached at the pre-flight: connection refused/,
      );
      assert.equal(stop.isDown(REALTIME)?.kind, 'unreachable');
      assert.equal(stop.isDown(MAIN), undefined);
      assert.deepEqual(
        readOutageState(stop.dir).outages.map((outage) => outage.interface),
        ['realtime'],
      );
      assert.equal(interrupts(), 0);
    });
  });

  it("stops the whole run when the workers' requests to the last interface up get no answer: one line, one interrupt", async () => {
    await withRunStop({ secrets: ['pw-S3cret!'] }, async ({ stop, said, interrupts }) => {
      stop.unreachable('realtime', 'target did not finish its response within 1000 ms');
      // Two workers, each with its journal.
      const first = new InterfaceLiveness(stop.dir);
      const second = new InterfaceLiveness(stop.dir);
      first.answered(MAIN);
      first.unanswered(MAIN, 'target did not finish its response within 1000 ms');
      await delay(POLL_MS * 2);
      assert.equal(interrupts(), 0, 'one request without an answer stops nothing');
      second.unanswered(MAIN, 'target did not finish its response within 1000 ms');
      await delay(TIMEOUT_MS + POLL_MS * 2);
      assert.equal(interrupts(), 1);
      const stopped = readOutageState(stop.dir).outages.find((outage) => outage.interface === undefined);
      assert.equal(stopped?.kind, 'stopped answering');
      assert.match(
        stopped?.cause ?? '',
        /^the target stopped answering at \d\d:\d\d:\d\d UTC after 1 exchanges \(main interface: 2 requests in a row got no answer/,
      );
      assert.equal(said.filter((line) => line.startsWith('Run stopped: the target stopped answering')).length, 1);
      assert.equal(first.down(MAIN, Date.now() + 1_000)?.kind, 'stopped answering');
      assert.equal(stop.unanswering(MAIN)?.kind, 'stopped answering', 'global teardown sends nothing there');
    });
  });

  it('declares an interface that stops answering during the run down and goes on judging the other', async () => {
    await withRunStop({}, async ({ stop, said, interrupts }) => {
      const worker = new InterfaceLiveness(stop.dir);
      worker.answered(MAIN);
      worker.answered(REALTIME);
      for (let index = 0; index < UNANSWERED_IN_A_ROW; index += 1) worker.unanswered(REALTIME, 'connection reset by the target');
      await delay(TIMEOUT_MS + POLL_MS * 2);
      assert.equal(interrupts(), 0, 'the main interface still answers: the run goes on');
      assert.equal(stop.isDown(REALTIME)?.kind, 'stopped answering');
      assert.equal(stop.isDown(MAIN), undefined);
      assert.deepEqual(said.length, 1);
      assert.match(
        said[0] ?? '',
        /^Run: the realtime interface \(http:\/\/127\.0\.0\.1:4010\/v2\) stopped answering at \d\d:\d\d:\d\d UTC after 2 exchanges \(2 requests in a row got no answer: connection reset by the target; none answered for 1 s\)\. Its checks are not assessed from now on; the other interface is still judged\.$/,
      );
    });
  });

  it('stops the whole run when the realtime probe fails after the main interface stopped answering', async () => {
    await withRunStop({}, async ({ stop, said, interrupts }) => {
      const worker = new InterfaceLiveness(stop.dir);
      for (let index = 0; index < UNANSWERED_AT_ONCE; index += 1) worker.unanswered(MAIN, 'connection refused: nothing listens at the target address');
      await delay(POLL_MS * 2);
      assert.equal(stop.isDown(MAIN)?.kind, 'stopped answering');
      assert.equal(interrupts(), 0);
      stop.unreachable('realtime', 'target did not finish its response within 1000 ms');
      assert.equal(interrupts(), 1);
      assert.match(
        said.at(-1) ?? '',
        /^Run stopped: the target stopped answering at .* \(main interface: 20 requests in a row .*; realtime interface: no answer at the pre-flight/,
      );
    });
  });

  it('stops the run at TARGET_RUN_BUDGET_S, counted from the start of the run', async () => {
    await withRunStop({ target: referenceTarget({ TARGET_RUN_BUDGET_S: '1' }), startedAt: Date.now() - 800 }, async ({ stop, said, interrupts }) => {
      await delay(600);
      assert.equal(interrupts(), 1);
      assert.match(said.join('\n'), /^Run stopped: the run reached its budget of 1 s \(TARGET_RUN_BUDGET_S\) at \d\d:\d\d:\d\d UTC after 0 exchanges\./);
      assert.equal(readOutageState(stop.dir).outages[0]?.kind, 'budget');
      assert.equal(stop.isDown(MAIN)?.kind, 'budget', 'no request is sent after the stop');
      assert.equal(stop.unanswering(MAIN), undefined, 'but the target still answers: global teardown archives what the run created');
    });
  });
});

const CATALOGUE: Requirement[] = [
  { id: 'GRP-01', level: 'MUST', kind: 'shape', statement: 's', basis: 'b', section: 'Groups', operations: ['listGroups'] },
  { id: 'RT-01', level: 'MUST', kind: 'shape', statement: 's', basis: 'b', section: 'Realtime', operations: ['getChannelInfo'] },
];

function evidence(id: string, status: TestEvidence['status'], checks: TestEvidence['checks'] = []): TestEvidence {
  return {
    title: `a test of ${id}`,
    location: 'tests/x.spec.ts:1',
    requirementIds: [id],
    status,
    expectedStatus: 'passed',
    checks,
    skipReasons: [],
    casesNotAssessed: [],
    failuresRecordedByChecks: false,
    fixedDeviations: [],
    findings: [],
  };
}

describe('the certificate of a run with an outage', () => {
  const stopped: Outage = { kind: 'stopped answering', at: 'x', cause: 'the target stopped answering at 14:02:11 UTC after 412 exchanges (...)' };
  const realtime: Outage = { interface: 'realtime', address: REALTIME, kind: 'unreachable', at: 'x', cause: 'the realtime interface could not be reached' };

  it('says why the tests that did not run were not assessed, is INCOMPLETE and exits 2', () => {
    const tests = [evidence('GRP-01', 'passed', [{ requirementId: 'GRP-01', outcome: 'passed', text: 'ok' }]), evidence('RT-01', 'not run')];
    const certification = certify(CATALOGUE, tests, [realtime, stopped]);
    assert.equal(certification.verdict, 'INCOMPLETE');
    assert.deepEqual(certification.requirements.find((result) => result.id === 'RT-01')?.notAssessedBecause, [`did not run: ${stopped.cause}`]);
    assert.equal(exitCodeFor(certification), 2);
    assert.match(
      verdictLine(certification),
      /^certification: INCOMPLETE \(not judged: the target stopped answering at 14:02:11 UTC after 412 exchanges \(\.\.\.\)\) \(MUST 1\/2/,
    );
    assert.equal(certify(CATALOGUE, tests).outages, undefined, 'no outage, no field');
  });

  it('is never CONFORMANT, names the interface that was down, and exits 1 when something failed', () => {
    const judged = [
      evidence('GRP-01', 'passed', [{ requirementId: 'GRP-01', outcome: 'passed', text: 'ok' }]),
      evidence('RT-01', 'passed', [{ requirementId: 'RT-01', outcome: 'passed', text: 'ok' }]),
    ];
    assert.equal(certify(CATALOGUE, judged).verdict, 'CONFORMANT');
    const down = certify(CATALOGUE, judged, [realtime]);
    assert.equal(down.verdict, 'INCOMPLETE');
    assert.match(verdictLine(down), /\(not judged: the realtime interface could not be reached\)/);
    const failed = certify(CATALOGUE, [evidence('GRP-01', 'failed', [{ requirementId: 'GRP-01', outcome: 'failed', text: 'no' }])], [stopped]);
    assert.equal(failed.verdict, 'NOT CONFORMANT');
    assert.equal(exitCodeFor(failed), 1);
  });

  it('takes a run Playwright reports interrupted, with no stop recorded, as cancelled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outage-test-'));
    try {
      const now = new Date('2026-11-29T14:02:11Z');
      assert.deepEqual(runOutages('passed', undefined, now), []);
      assert.deepEqual(runOutages('interrupted', undefined, now), [
        { kind: 'cancelled', at: now.toISOString(), cause: 'the run was cancelled (interrupted) at 14:02:11 UTC' },
      ]);
      writeOutageState(dir, { outages: [stopped] });
      assert.deepEqual(runOutages('interrupted', dir, now), [stopped], 'the stop the run recorded');
      assert.match(readFileSync(join(dir, 'state.json'), 'utf8'), /stopped answering/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('carries the outages of each shard in the run metadata, and reads every shard back from the merged metadata', () => {
    const realtime: Outage = {
      interface: 'realtime',
      address: 'http://x/v2',
      kind: 'unreachable',
      at: '2026-11-29T14:02:11.000Z',
      cause: 'the realtime interface could not be reached',
    };
    const first: Record<string, unknown> = { ci: 'x' };
    const second: Record<string, unknown> = {};
    carryOutages(first, { current: 1, total: 2 }, [realtime]);
    carryOutages(second, { current: 2, total: 2 }, [stopped]);
    // merge-reports merges the shards' metadata key by key.
    const merged = { ...second, ...first };
    assert.deepEqual(carriedOutages(merged), [
      { ...realtime, cause: 'shard 1 of 2: the realtime interface could not be reached' },
      { ...stopped, cause: `shard 2 of 2: ${stopped.cause}` },
    ]);
    assert.deepEqual(carriedOutages({ 'conformance-outages-shard-3': [{ kind: 'nonsense' }], other: [realtime] }), [], 'only outages, only under their keys');
    // The merge has no run state: the carried outages are the run's.
    assert.deepEqual(runOutages('failed', undefined, new Date(), carriedOutages(merged)).length, 2);
  });
});
