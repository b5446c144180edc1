/**
 * The verdict records (fixtures/verdict/records.ts): what writeRecord writes, recordsOf reads back
 * whole, from the attachment alone; the human-readable line beside it is rendered, never read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestInfo } from '@playwright/test';
import { CHECK_OUTCOMES, findingText, observationText, splitStructure } from '../../fixtures/verdict/annotation-structure.ts';
import { readObservation } from '../../fixtures/reporters/certificate.ts';
import {
  casesNotAssessedOf,
  checksOf,
  findingsOf,
  fixedDeviationsOf,
  RECORD_CONTENT_TYPE,
  recordAttachment,
  recordsOf,
  skipsOf,
  writeRecord,
} from '../../fixtures/verdict/records.ts';
import { skippedAsNotApplicable } from '../../fixtures/verdict/records.ts';
import type { VerdictRecord } from '../../fixtures/verdict/records.ts';

const blank = (): Pick<TestInfo, 'annotations' | 'attachments'> => ({ annotations: [], attachments: [] });

describe('verdict records', () => {
  it('a check record reads back as written, for every outcome, and its line has a structured head', () => {
    for (const outcome of CHECK_OUTCOMES) {
      const info = blank();
      const record = { requirementId: 'PAG-13', outcome, text: 'next page: Expected 2\nReceived: 1 (PAG-01 failed: x)' };
      writeRecord(info, { kind: 'check', ...record });
      assert.deepEqual(checksOf(info.attachments), [record]);
      assert.equal(info.annotations.length, 1);
      assert.equal(splitStructure('check', info.annotations[0]?.description ?? '').structure, `PAG-13 ${outcome}: `);
    }
  });

  it('a check carries the request that reproduces it, and its line is followed by a reproduce line', () => {
    const info = blank();
    const record = {
      requirementId: 'INP-08',
      outcome: 'warning' as const,
      text: 'skip=-1: answered 500',
      operationId: 'listGroups',
      curl: "curl 'http://t/groups?skip=-1'",
    };
    writeRecord(info, { kind: 'check', ...record });
    assert.deepEqual(checksOf(info.attachments), [record]);
    assert.deepEqual(
      info.annotations.map((annotation) => annotation.type),
      ['check', 'reproduce'],
    );
  });

  it('observations keep their form and detail apart, and findings, fixed deviations and cases read back as written', () => {
    const info = blank();
    writeRecord(info, { kind: 'observed', requirementId: 'GRP-05', form: 'a 404', detail: 'getGroup (twice)' });
    writeRecord(info, { kind: 'warning', requirementId: 'INP-09', text: 'a 500 for an unusual id' });
    writeRecord(info, { kind: 'fixed deviation', requirementId: 'RT-03', reason: 'reason: the old one' });
    writeRecord(info, { kind: 'case not assessed', reason: 'the second page (needs more than 10 groups)' });
    assert.deepEqual(recordsOf(info.attachments, 'observed'), [{ kind: 'observed', requirementId: 'GRP-05', form: 'a 404', detail: 'getGroup (twice)' }]);
    assert.deepEqual(findingsOf(info.attachments), [
      { kind: 'observed', requirementId: 'GRP-05', form: 'a 404', detail: 'getGroup (twice)' },
      { kind: 'warning', requirementId: 'INP-09', text: 'a 500 for an unusual id' },
    ]);
    assert.deepEqual(fixedDeviationsOf(info.attachments), ['RT-03']);
    assert.deepEqual(casesNotAssessedOf(info.attachments), ['the second page (needs more than 10 groups)']);
    assert.deepEqual(
      info.annotations.map((annotation) => annotation.type),
      ['observed', 'warning', 'fixed deviation', 'not assessed'],
    );
    for (const annotation of info.annotations.slice(0, 3))
      assert.match(splitStructure(annotation.type, annotation.description ?? '').structure, /^[A-Z]+-\d{2}: $/);
  });

  it('reads nothing from a line, another attachment, a body that is not JSON or a record of an unknown shape', () => {
    const record: VerdictRecord = { kind: 'warning', requirementId: 'INP-09', text: 'x' };
    const attachments = [
      { name: 'GET /groups', contentType: 'text/plain', body: Buffer.from(JSON.stringify(record)) },
      { name: 'verdict record', contentType: RECORD_CONTENT_TYPE, body: Buffer.from('not json') },
      {
        name: 'verdict record',
        contentType: RECORD_CONTENT_TYPE,
        body: Buffer.from(JSON.stringify({ kind: 'check', requirementId: 'PAG-13', outcome: 'maybe', text: 'x' })),
      },
      { name: 'verdict record', contentType: RECORD_CONTENT_TYPE, body: Buffer.from(JSON.stringify({ kind: 'verdict', requirementId: 'PAG-13' })) },
      { name: 'verdict record', contentType: RECORD_CONTENT_TYPE },
      recordAttachment(record),
    ];
    assert.deepEqual(recordsOf(attachments), [record]);
  });

  it("an observation's line is `form (detail)`; an older certificate's text reads back into its form and detail", () => {
    assert.equal(findingText({ kind: 'observed', requirementId: 'VAR-01', form: 'bare array', detail: 'recordings' }), 'bare array (recordings)');
    assert.equal(findingText({ kind: 'warning', requirementId: 'SEC-03', text: 'short' }), 'short');
    assert.deepEqual(readObservation(observationText('differs from "x"', 'status 200 (twice)')), {
      form: 'differs from "x"',
      detail: 'status 200 (twice)',
    });
    assert.deepEqual(readObservation(observationText('a bare array')), { form: 'a bare array' });
    assert.deepEqual(readObservation(observationText('empty', '')), { form: 'empty', detail: '' });
    assert.deepEqual(readObservation({ form: 'a (b)', detail: 'c' }), { form: 'a (b)', detail: 'c' });
    assert.deepEqual(readObservation({ form: 'a' }), { form: 'a' });
    for (const bad of [3, null, {}, { form: 1 }, { form: 'a', detail: 2 }]) assert.equal(readObservation(bad), undefined);
  });
});

describe('skips', () => {
  it("reads a test's skip and fixme lines, in order, for people", async () => {
    const { skipReasonsOf } = await import('../../fixtures/verdict/not-assessed.ts');
    const annotations = [{ type: 'skip', description: 'not applicable: no channel' }, { type: 'fixme' }, { type: 'warning', description: 'INP-09: x' }];
    assert.deepEqual(skipReasonsOf(annotations), ['not applicable: no channel', 'fixme']);
  });

  it('a test is skipped as not applicable when every skip it recorded says so, whatever the words of its reasons', () => {
    const info = blank();
    writeRecord(info, { kind: 'skip', outcome: 'not applicable', reason: 'not assessed: REC-10 concerns the envelope' });
    assert.deepEqual(skipsOf(info.attachments), [{ outcome: 'not applicable', reason: 'not assessed: REC-10 concerns the envelope' }]);
    assert.deepEqual(info.annotations, [{ type: 'skip', description: 'not applicable: not assessed: REC-10 concerns the envelope' }]);
    assert.equal(skippedAsNotApplicable({ skipReasons: ['x'], skips: skipsOf(info.attachments) }), true);
    assert.equal(skippedAsNotApplicable({ skipReasons: ['not applicable: x'], skips: [{ outcome: 'not assessed', reason: 'not applicable: x' }] }), false);
    assert.equal(skippedAsNotApplicable({ skipReasons: ['not applicable: x'], skips: [] }), false, 'a line alone decides nothing');
  });

  it('reads a certificate written before skips were records from its skip reasons', () => {
    assert.equal(skippedAsNotApplicable({ skipReasons: ['not applicable: x', 'not applicable: y'] }), true);
    assert.equal(skippedAsNotApplicable({ skipReasons: ['not applicable: x', 'not assessed: y'] }), false);
    assert.equal(skippedAsNotApplicable({ skipReasons: [] }), false);
  });
});
