import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { harnessSettings } from '../../fixtures/config/settings.ts';
import { selfVerifyProjects } from '../../fixtures/run/self-verify-projects.ts';
import { mustNotAssessed, variationVerdict, type TestOutcome } from '../../scripts/lib/kill-matrix.ts';
import { compareVerdicts, verdictsOf } from '../../scripts/lib/self-verify-comparison.ts';
import { resultsFileOf, type RunResults } from '../../scripts/lib/self-verify-reporter.ts';

const directory = mkdtempSync(join(tmpdir(), 'self-verify-test-'));
after(() => rmSync(directory, { recursive: true, force: true }));

function targetsFile(content: unknown): string {
  const file = join(directory, `targets-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('self-verification projects', () => {
  it('makes one project per instance, pointed at it, with its grep', () => {
    const file = targetsFile([
      { name: 'plain', baseUrl: 'http://127.0.0.1:1', realtimeUrl: 'http://127.0.0.1:1/v2', grepInvert: '@generated', recordingWatchFile: '/tmp/watch-0.json' },
      {
        name: 'fault:skip-ignored',
        baseUrl: 'http://127.0.0.1:2',
        realtimeUrl: 'http://127.0.0.1:2/v2',
        grep: '^(?=.*@PAG-08)',
        faulty: true,
      },
    ]);
    const [plain, fault] = selfVerifyProjects(file);
    assert.deepEqual(plain, {
      name: 'plain',
      grepInvert: /@generated/,
      use: {
        targetOverride: { baseUrl: 'http://127.0.0.1:1', realtimeUrl: 'http://127.0.0.1:1/v2' },
        failuresExpected: false,
        recordingWatchFile: '/tmp/watch-0.json',
      },
    });
    // A faulty instance runs in one worker, where its failures are expected; one that does not declare REC-07 has no watch of the recording.
    assert.deepEqual(fault, {
      name: 'fault:skip-ignored',
      grep: /^(?=.*@PAG-08)/,
      workers: 1,
      use: { targetOverride: { baseUrl: 'http://127.0.0.1:2', realtimeUrl: 'http://127.0.0.1:2/v2' }, failuresExpected: true, recordingWatchFile: undefined },
    });
  });

  it('refuses a file that is not a non-empty list of instances', () => {
    for (const content of [[], {}, [{ name: 'x' }], [{ name: 'x', baseUrl: 'u', realtimeUrl: 'u', faulty: 'yes' }]]) {
      assert.throws(() => selfVerifyProjects(targetsFile(content)), /SELF_VERIFY_TARGETS .*: expected a non-empty JSON array/);
    }
  });

  it('reads the instances file from SELF_VERIFY_TARGETS, and puts the results next to it', () => {
    assert.equal(harnessSettings({ SELF_VERIFY_TARGETS: '/tmp/run/targets.json' }).selfVerifyTargets, '/tmp/run/targets.json');
    assert.equal(harnessSettings({}).selfVerifyTargets, undefined);
    assert.equal(resultsFileOf('/tmp/run/targets.json'), '/tmp/run/results.json');
  });
});

describe('kill matrix: MUST requirements not assessed', () => {
  const outcome = (overrides: Partial<TestOutcome>): TestOutcome => ({
    project: 'plain',
    title: 'a test',
    location: 'x.spec.ts:1',
    status: 'passed',
    requirements: [],
    checks: [],
    failuresRecordedByChecks: false,
    ...overrides,
  });

  it('counts a MUST whose checks were all not assessed, and settles one whose test does not apply to the target', () => {
    const tests = [
      outcome({ requirements: ['REC-07'], checks: [{ requirementId: 'REC-07', outcome: 'not assessed', text: 'already available at the first read' }] }),
      outcome({ requirements: ['REC-10'], status: 'skipped', skipReasons: ['not applicable: recordings are served as a bare array'] }),
      outcome({ requirements: ['REC-01'], status: 'skipped', skipReasons: ['needs TARGET_ROOM_ID'] }),
      outcome({ requirements: ['PAG-01'], checks: [{ requirementId: 'PAG-01', outcome: 'passed', text: 'default take' }] }),
    ];
    assert.deepEqual(mustNotAssessed(tests), ['REC-01', 'REC-07']);
  });

  it('fails a variation that leaves a MUST unassessed which the plain run assessed, transitions included', () => {
    const tests = [
      outcome({ project: 'variation:x', requirements: ['REC-07'], checks: [{ requirementId: 'REC-07', outcome: 'not assessed', text: 'already available' }] }),
    ];
    const verdict = variationVerdict({ name: 'variation:x', kind: 'variation', description: 'x' }, tests, []);
    assert.equal(verdict.passed, false);
    assert.deepEqual(verdict.mustNotAssessed, ['REC-07']);
  });
});

describe('comparing two self-verifications requirement by requirement', () => {
  const outcome = (project: string, outcomes: readonly ('passed' | 'failed' | 'not assessed')[]): TestOutcome => ({
    project,
    title: 'listing groups',
    location: 'groups.spec.ts:10',
    status: outcomes.includes('failed') ? 'failed' : 'passed',
    requirements: ['GRP-01'],
    checks: outcomes.map((value) => ({ requirementId: 'GRP-01', outcome: value, text: 'listGroups answers 200' })),
    failuresRecordedByChecks: outcomes.includes('failed'),
  });
  const run = (...tests: TestOutcome[]): RunResults => ({ status: 'passed', errors: [], tests });

  it('finds no difference between a run and itself', () => {
    const results = verdictsOf(run(outcome('plain', ['passed']), outcome('fault:x', ['failed'])));
    assert.deepEqual(compareVerdicts(results, results), { compared: 2, differences: [], notes: [] });
  });

  it('names the instance and requirement whose verdict changed, and an instance of one run only', () => {
    const before = verdictsOf(run(outcome('plain', ['passed']), outcome('fault:x', ['failed'])));
    const after = verdictsOf(run(outcome('plain', ['not assessed']), outcome('variation:y', ['passed'])));
    assert.deepEqual(compareVerdicts(before, after).differences, [
      'fault:x: in the first run only',
      'plain GRP-01: passed -> not assessed',
      'variation:y: in the second run only',
    ]);
  });

  it('notes the same verdict reached through another number of checks', () => {
    const { differences, notes } = compareVerdicts(verdictsOf(run(outcome('plain', ['passed']))), verdictsOf(run(outcome('plain', ['passed', 'passed']))));
    assert.deepEqual(differences, []);
    assert.deepEqual(notes, ['plain GRP-01: passed, checks run 1 -> 2, failed 0 -> 0']);
  });
});
