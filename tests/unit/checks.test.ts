import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestInfo } from '@playwright/test';
import { check, CHECKS_FAILED_ANNOTATION, exchangeAnswered, recordCheck, setCheckScope } from '../../fixtures/verdict/checks.ts';
import { errorLine } from '../../fixtures/verdict/error-line.ts';
import { checksOf } from '../../fixtures/verdict/records.ts';
import { settleCheckFailures } from '../../fixtures/verdict/settlement.ts';
import { notApplicable, notAssessed, refusalOfWholeTest } from '../../fixtures/verdict/not-assessed.ts';
import { requestEnded, requestSent } from '../../fixtures/verdict/waits.ts';

// As in a run with the outcomes reporter, which lets workers settle failures recorded by checks
// (fixtures/index.ts reads it from the harness's settings).
const RESTORED = { outcomesRestored: true };

/** The parts of TestInfo that fixtures/verdict/checks.ts reads and writes. */
function fakeTestInfo(cited: string[], status: TestInfo['status'] = 'passed', errors: { message: string }[] = []): TestInfo {
  return {
    title: 'a test',
    status,
    expectedStatus: 'passed',
    errors: [...errors],
    annotations: cited.map((id) => ({ type: 'requirement', description: id })),
    attachments: [],
  } as unknown as TestInfo;
}

const outcomes = (info: TestInfo): string[] => checksOf(info.attachments).map((record) => `${record.requirementId} ${record.outcome}`);

/** What `body` threw (notAssessed.check never returns). */
function thrownBy(body: () => unknown): unknown {
  try {
    body();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

/** The outcomes of a test citing one requirement that failed with this error outside any check, once its failures are settled. */
function settledOutsideACheck(requirementId: string, thrown: unknown): string[] {
  const error = thrown as Error;
  const info = fakeTestInfo([requirementId], 'failed', [{ message: error.message, stack: error.stack ?? '' } as { message: string }]);
  settleCheckFailures(info, RESTORED);
  return outcomes(info);
}

describe('notAssessed.check', () => {
  it('throws the error a check records as not assessed, its reason naming what would enable it', () => {
    const plain = thrownBy(() => notAssessed.check('the list is empty'));
    assert.equal(notAssessed.is(plain), true);
    assert.equal((plain as Error).message, 'the list is empty');
    assert.equal(
      (thrownBy(() => notAssessed.check('a realtime channel', { enable: 'TARGET_CHANNEL' })) as Error).message,
      'needs TARGET_CHANNEL (a realtime channel)',
    );
    assert.equal(
      (thrownBy(() => notAssessed.check('creates and archives participants', { enable: 'TARGET_ALLOW_WRITES' })) as Error).message,
      'needs TARGET_ALLOW_WRITES=1 (creates and archives participants)',
      'a permission is enabled by setting it to 1',
    );
    assert.equal(
      (thrownBy(() => notAssessed.check('no record to check', { lacking: 'records on the target' })) as Error).message,
      'needs records on the target (no record to check)',
    );
    assert.equal(notAssessed.is(new Error('the list is empty')), false, 'any other error is a failure');
  });

  it('outside any check, is recognised from the stack Playwright keeps of the error', () => {
    const thrown = thrownBy(() => notAssessed.check('no usable token'));
    assert.deepEqual(settledOutsideACheck('GRP-01', thrown), ['GRP-01 not assessed']);
  });
});

describe('notApplicable', () => {
  it('inside a check records that check not applicable, with the reason from the answer it judged; the test goes on', () => {
    const info = fakeTestInfo(['UNS-01', 'GRP-05']);
    recordCheck('UNS-01', 'getGroup of an unknown id: answers the documented 200 body or an error status', undefined, info);
    const error = thrownBy(() => notApplicable.check('getGroup 400, not 200 (GRP-05 states what a 200 holds)'));
    assert.equal(notApplicable.is(error), true);
    assert.equal(notAssessed.is(error), false);
    assert.equal(recordCheck('GRP-05', 'getGroup of an unknown id: a 200 is the group asked for', error, info), false);
    assert.deepEqual(outcomes(info), ['UNS-01 passed', 'GRP-05 not applicable']);
    assert.equal(info.status, 'passed');
    assert.deepEqual(info.errors, []);
  });

  it('outside any check of a test citing one requirement, is recognised from the stack Playwright keeps', () => {
    const thrown = thrownBy(() => notApplicable.check('listRecordings answers a bare array'));
    assert.deepEqual(settledOutsideACheck('PAG-12', thrown), ['PAG-12 not applicable']);
  });

  it('skips a whole test only when it cites one requirement: with several, the skip would settle them all from answers that concern some', () => {
    assert.equal(refusalOfWholeTest(['REC-10']), undefined);
    assert.match(refusalOfWholeTest(['UNS-01', 'GRP-05']) ?? '', /cites UNS-01, GRP-05: say which requirement does not apply/);
  });
});

describe('recordCheck', () => {
  it('fails a MUST check softly: the error is added, the test goes on', () => {
    const info = fakeTestInfo(['PAG-05', 'PAG-06']);
    assert.equal(recordCheck('PAG-05', 'totalPages', new Error('Expected 3, received 4'), info), false);
    assert.equal(recordCheck('PAG-06', 'page', undefined, info), true);
    assert.deepEqual(outcomes(info), ['PAG-05 failed', 'PAG-06 passed']);
    assert.equal(info.status, 'failed');
    assert.match(info.errors[0]?.message ?? '', /^\[PAG-05\] Expected 3/);
  });

  it('turns a failed SHOULD check into a warning and an UNSPECIFIED one into an observation, without failing the test', () => {
    const info = fakeTestInfo(['INP-01', 'UNS-05']);
    recordCheck('INP-01', 'truncated JSON', new Error('answered HTTP 500'), info);
    recordCheck('UNS-05', 'large take refused', new Error('Expected 400, received 200'), info);
    assert.deepEqual(outcomes(info), ['INP-01 warning', 'UNS-05 observed']);
    assert.equal(info.status, 'passed');
    assert.deepEqual(
      info.annotations.filter((annotation) => annotation.type === 'warning' || annotation.type === 'observed').map((annotation) => annotation.type),
      ['warning', 'observed'],
    );
  });

  it('records notAssessed.check as not assessed, and a failure of a known deviation as the deviation', () => {
    const info = fakeTestInfo(['PAG-05']);
    setCheckScope(info, {
      file: 'fixtures/expectations/x.yaml',
      deviation: (id) => (id === 'PAG-05' ? 'take above 100 (https://tracker.example/1)' : undefined),
    });
    recordCheck(
      'PAG-06',
      'walk',
      thrownBy(() => notAssessed.check('the answers it relies on fail FMT-04')),
      info,
    );
    recordCheck('PAG-05', 'totalPages', new Error('Expected 3'), info);
    assert.deepEqual(outcomes(info), ['PAG-06 not assessed', 'PAG-05 deviation']);
    assert.equal(info.status, 'passed');
  });

  it('marks a known deviation whose check passed as fixed, which fails the test when settled', () => {
    const info = fakeTestInfo(['PAG-05']);
    setCheckScope(info, { file: 'fixtures/expectations/x.yaml', deviation: () => 'reason (https://tracker.example/1)' });
    recordCheck('PAG-05', 'totalPages', undefined, info);
    settleCheckFailures(info, RESTORED);
    assert.equal(info.status, 'failed');
    assert.match(info.errors[0]?.message ?? '', /known deviation PAG-05 now passes: remove it from fixtures\/expectations\/x.yaml/);
  });
});

describe('the request that reproduces a failure or a warning', () => {
  const groups = { operationId: 'listGroups', curl: "curl -sS -i -X GET 'http://t/groups?skip=-1'" };
  const participants = { operationId: 'listGroupParticipants', curl: "curl -sS -i -X GET 'http://t/groups/g1/participants?take=x'" };

  it('is recorded with a failed or warned check, and read back onto its record; a passed check names none', () => {
    const info = fakeTestInfo(['INP-08', 'PAG-05']);
    recordCheck('INP-08', 'skip=-1', new Error('answered HTTP 500'), info, groups);
    recordCheck('PAG-05', 'totalPages', undefined, info, participants);
    recordCheck('PAG-05', 'totalPages for take=3', new Error('Expected 2, received 3'), info, participants);
    recordCheck('PAG-05', 'no request', new Error('Expected 1'), info);
    assert.deepEqual(
      checksOf(info.attachments).map(({ requirementId, outcome, operationId, curl }) => [requirementId, outcome, operationId, curl]),
      [
        ['INP-08', 'warning', 'listGroups', groups.curl],
        ['PAG-05', 'passed', undefined, undefined],
        ['PAG-05', 'failed', 'listGroupParticipants', participants.curl],
        ['PAG-05', 'failed', undefined, undefined],
      ],
    );
  });

  it('is rendered as a reproduce line right after its check line, for people; the record alone carries it', () => {
    const info = fakeTestInfo(['INP-08']);
    recordCheck('INP-08', 'skip=-1', new Error('answered HTTP 500'), info, groups);
    assert.deepEqual(
      info.annotations.slice(1).map((annotation) => annotation.type),
      ['check', 'reproduce', 'warning'],
    );
    assert.equal(info.annotations[2]?.description, `INP-08 listGroups: ${groups.curl}`);
    // A line is never read back: without the record there is no check.
    assert.deepEqual(checksOf([]), []);
  });

  it('is the last request the check sent, else the test sent before it', async () => {
    const info = fakeTestInfo(['INP-08']);
    exchangeAnswered(info, groups);
    const original = (await import('@playwright/test')).test.info;
    // check() runs in a Playwright test; here the fake TestInfo stands in for it.
    const playwright = (await import('@playwright/test')).test as unknown as { info: () => TestInfo };
    playwright.info = () => info;
    try {
      await check('INP-08', 'take=x', () => {
        exchangeAnswered(info, participants);
        throw new Error('answered HTTP 500');
      });
      await check('INP-08', 'judged an earlier answer', () => {
        throw new Error('answered HTTP 500');
      });
    } finally {
      playwright.info = original;
    }
    assert.deepEqual(
      checksOf(info.attachments).map((record) => record.operationId),
      ['listGroupParticipants', 'listGroupParticipants'],
    );
  });
});

describe('settleCheckFailures', () => {
  it('marks a test whose every error came from checks as an expected failure when the outcomes reporter restores it, and only then', () => {
    const info = fakeTestInfo(['PAG-05', 'PAG-06']);
    recordCheck('PAG-05', 'totalPages', new Error('Expected 3'), info);
    settleCheckFailures(info, RESTORED);
    assert.equal(info.expectedStatus, 'failed');
    assert.ok(info.annotations.some((annotation) => annotation.type === CHECKS_FAILED_ANNOTATION));
    const alone = fakeTestInfo(['PAG-05', 'PAG-06']);
    recordCheck('PAG-05', 'totalPages', new Error('Expected 3'), alone);
    settleCheckFailures(alone, { outcomesRestored: false });
    assert.equal(alone.expectedStatus, 'passed', 'without the outcomes reporter (--reporter=dot) a failure stays unexpected');
    assert.ok(alone.annotations.some((annotation) => annotation.type === CHECKS_FAILED_ANNOTATION));
  });

  it('leaves a failure outside the checks of a multi-requirement test unexpected (a suite error)', () => {
    const info = fakeTestInfo(['PAG-05', 'PAG-06'], 'failed', [{ message: 'TypeError: x is undefined' }]);
    settleCheckFailures(info, RESTORED);
    assert.equal(info.expectedStatus, 'passed');
    assert.deepEqual(outcomes(info), []);
  });

  it("records a single-requirement test as that requirement's check, by its level", () => {
    const passed = fakeTestInfo(['PAG-05']);
    settleCheckFailures(passed, RESTORED);
    assert.deepEqual(outcomes(passed), ['PAG-05 passed']);

    const failed = fakeTestInfo(['PAG-05'], 'failed', [{ message: 'Error: expect(received).toBe(expected)\nExpected: 3\nReceived: 4' }]);
    settleCheckFailures(failed, RESTORED);
    assert.deepEqual(outcomes(failed), ['PAG-05 failed']);
    assert.equal(failed.expectedStatus, 'failed');

    const should = fakeTestInfo(['INP-01'], 'failed', [{ message: 'answered HTTP 500' }]);
    settleCheckFailures(should, RESTORED);
    assert.deepEqual(outcomes(should), ['INP-01 warning']);
    assert.equal(should.status, 'passed');
    assert.deepEqual(should.errors, []);
  });

  it('settles a test skipped after a check recorded a failure: no implicit check of the cited requirement, and an expected failure, not a suite error', () => {
    // A discovery read that failed: recorded against its operation's requirement, then the test is skipped.
    const info = fakeTestInfo(['GRP-03']);
    recordCheck('GRP-01', 'listGroups answers its list (read by discovery)', new Error('listGroups answered HTTP 500'), info);
    info.expectedStatus = 'skipped';
    settleCheckFailures(info, RESTORED);
    assert.deepEqual(outcomes(info), ['GRP-01 failed']);
    assert.equal(info.expectedStatus, 'failed');
    assert.ok(info.annotations.some((annotation) => annotation.type === CHECKS_FAILED_ANNOTATION));
  });

  it('never settles a timeout', () => {
    const info = fakeTestInfo(['PAG-05'], 'timedOut', [{ message: 'Test timeout of 30000ms exceeded.' }]);
    settleCheckFailures(info, RESTORED);
    assert.equal(info.expectedStatus, 'passed');
    assert.deepEqual(outcomes(info), []);
  });

  it('skips as not assessed a test that judged nothing: only not-assessed errors (a request that got no answer), whatever it cites', () => {
    const error = thrownBy(() =>
      notAssessed.check('listGroups: GET http://t/groups got no response: target did not finish its response within 10000 ms\ncurl ...'),
    ) as Error;
    const info = fakeTestInfo(['GRP-01', 'PAG-10'], 'failed', [
      { message: `NotAssessable: ${error.message}`, stack: error.stack ?? '' } as { message: string },
    ]);
    settleCheckFailures(info, RESTORED);
    assert.equal(info.status, 'skipped');
    assert.equal(info.expectedStatus, 'skipped');
    assert.deepEqual(info.errors, []);
    assert.deepEqual(
      info.annotations.filter((annotation) => annotation.type === 'skip').map((annotation) => annotation.description),
      ['not assessed: listGroups: GET http://t/groups got no response: target did not finish its response within 10000 ms'],
    );
  });

  it('skips as not assessed a test that timed out after a request got no answer, and only then', () => {
    const waiting = fakeTestInfo(['PAG-05'], 'timedOut', [{ message: 'Test timeout of 30000ms exceeded.' }]);
    requestSent(waiting);
    requestEnded(waiting, 'target did not finish its response within 10000 ms');
    requestSent(waiting);
    settleCheckFailures(waiting, RESTORED);
    assert.equal(waiting.status, 'skipped');
    assert.match(
      waiting.annotations.find((annotation) => annotation.type === 'skip')?.description ?? '',
      /^not assessed: the test timed out waiting for the target, which gave no answer to 1 of its requests \(target did not finish its response within 10000 ms\)$/,
    );
    const slow = fakeTestInfo(['PAG-05'], 'timedOut', [{ message: 'Test timeout of 30000ms exceeded.' }]);
    requestSent(slow);
    requestEnded(slow);
    settleCheckFailures(slow, RESTORED);
    assert.equal(slow.status, 'timedOut', "every request was answered: the timeout is the suite's");
  });

  it('keeps a failed check of a test that then got no answer, and blames the rest on no requirement', () => {
    const error = thrownBy(() => notAssessed.check('getGroup got no response: connection reset by the target')) as Error;
    const info = fakeTestInfo(['GRP-01', 'GRP-03']);
    recordCheck('GRP-01', 'the envelope', new Error('expected an array'), info);
    info.errors.push({ message: error.message, stack: error.stack ?? '' } as { message: string });
    settleCheckFailures(info, RESTORED);
    assert.equal(info.status, 'failed');
    assert.deepEqual(outcomes(info), ['GRP-01 failed']);
    assert.ok(
      info.annotations.some((annotation) => annotation.type === CHECKS_FAILED_ANNOTATION),
      'no suite error',
    );
    assert.ok(info.annotations.some((annotation) => annotation.type === 'not assessed' && /connection reset/.test(annotation.description ?? '')));
  });
});

describe('errorLine', () => {
  it('gives the first line, with Expected and Received for a bare expect, colours removed', () => {
    assert.equal(
      errorLine(new Error('\u001b[2mexpect(\u001b[22mreceived).toBe(expected)\n\nExpected: 3\nReceived: 4\n  at x')),
      'expect(received).toBe(expected); Expected: 3; Received: 4',
    );
    assert.equal(errorLine('plain text\nmore'), 'plain text');
  });

  it("adds the contract matcher's Received and Expected lines, not a line that only introduces a body", () => {
    const message = [
      'Response does not match operation listGroups (GET /groups): check "status" failed.',
      'Received: status 500, content-type application/json',
      'Expected status 400, received 500.',
      'Received body:',
      '{"statusCode":500}',
    ].join('\n');
    assert.equal(
      errorLine(new Error(message)),
      'Response does not match operation listGroups (GET /groups): check "status" failed.; Received: status 500, content-type application/json; Expected status 400, received 500.',
    );
  });
});
