/**
 * The verdict records' writers and readers (fixtures/verdict/annotation-structure.ts) beside each
 * other: what one writes the other reads back whole, and redaction keeps the structured head.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CHECK_OUTCOMES,
  findingAnnotation,
  findingsOf,
  fixedDeviationsOf,
  formatCheck,
  observationParts,
  observationText,
  readCheck,
  splitStructure,
} from '../../fixtures/verdict/annotation-structure.ts';

describe('verdict records', () => {
  it('a check record reads back as written, for every outcome, and its head is structure', () => {
    for (const outcome of CHECK_OUTCOMES) {
      const record = { requirementId: 'PAG-13', outcome, text: 'next page: Expected 2\nReceived: 1 (PAG-01 failed: x)' };
      const description = formatCheck(record);
      assert.deepEqual(readCheck(description), record);
      assert.equal(splitStructure('check', description).structure, `PAG-13 ${outcome}: `);
    }
    assert.equal(readCheck('PAG-13 maybe: text'), undefined);
  });

  it('findings and fixed deviations read back as written', () => {
    const annotations = [
      findingAnnotation('observed', 'GRP-05', observationText('a 404', 'getGroup')),
      findingAnnotation('warning', 'INP-09', 'a 500 for an unusual id'),
      findingAnnotation('fixed deviation', 'RT-03', 'reason: the old one'),
    ];
    assert.deepEqual(findingsOf(annotations), [
      { kind: 'observed', requirementId: 'GRP-05', text: 'a 404 (getGroup)' },
      { kind: 'warning', requirementId: 'INP-09', text: 'a 500 for an unusual id' },
    ]);
    assert.deepEqual(fixedDeviationsOf(annotations), ['RT-03']);
    for (const annotation of annotations) assert.match(splitStructure(annotation.type, annotation.description).structure, /^[A-Z]+-\d{2}: $/);
  });

  it("an observation's form and detail read back as written; a text without detail is its form", () => {
    assert.deepEqual(observationParts(observationText('differs from "x"', 'status 200 (twice)')), {
      form: 'differs from "x"',
      detail: 'status 200 (twice)',
    });
    assert.deepEqual(observationParts(observationText('a bare array')), { form: 'a bare array' });
    assert.deepEqual(observationParts(observationText('empty', '')), { form: 'empty', detail: '' });
  });
});

describe('records of what was not assessed', () => {
  it('reads the cases and skip reasons a test recorded, in order', async () => {
    const { casesNotAssessedOf, skipReasonsOf, CASE_NOT_ASSESSED_ANNOTATION } = await import('../../fixtures/verdict/not-assessed.ts');
    const annotations = [
      { type: CASE_NOT_ASSESSED_ANNOTATION, description: 'the second page (needs more than 10 groups)' },
      { type: 'skip', description: 'not applicable: no channel' },
      { type: CASE_NOT_ASSESSED_ANNOTATION },
      { type: 'fixme' },
      { type: 'warning', description: 'INP-09: x' },
    ];
    assert.deepEqual(casesNotAssessedOf(annotations), ['the second page (needs more than 10 groups)', 'a case']);
    assert.deepEqual(skipReasonsOf(annotations), ['not applicable: no channel', 'fixme']);
  });
});
