import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { certify, judgeRequirement, overallVerdict, testOutcome, verdictLine } from '../../fixtures/certification.ts';
import type { RequirementResult, TestEvidence } from '../../fixtures/certification.ts';
import type { Requirement } from '../../fixtures/requirements.ts';

const req = (id: string, level: Requirement['level']): Requirement => ({
  id,
  level,
  statement: `${id} statement`,
  basis: `${id} basis`,
  section: 'Pagination',
  operations: ['listGroups'],
  kind: 'pagination',
});

const MUST = req('PAG-01', 'MUST');
const SHOULD = req('SEC-03', 'SHOULD');
const VARIANT = req('VAR-01', 'VARIANT');
const UNSPECIFIED = req('UNS-01', 'UNSPECIFIED');

function evidence(requirementIds: string[], status: TestEvidence['status'], overrides: Partial<TestEvidence> = {}): TestEvidence {
  return {
    title: `test of ${requirementIds.join(', ')} (${status})`,
    location: 'tests/x.spec.ts:1',
    requirementIds,
    status,
    expectedStatus: status === 'skipped' ? 'skipped' : 'passed',
    skipReasons: [],
    casesNotAssessed: [],
    findings: [],
    ...overrides,
  };
}

describe('testOutcome', () => {
  it('maps each final status, and a failure under test.fail() to a known deviation', () => {
    const table: [TestEvidence['status'], TestEvidence['expectedStatus'], string][] = [
      ['passed', 'passed', 'passed'],
      ['failed', 'passed', 'failed'],
      ['timedOut', 'passed', 'failed'],
      ['failed', 'failed', 'known deviation'],
      ['timedOut', 'failed', 'known deviation'],
      ['passed', 'failed', 'passed'],
      ['skipped', 'skipped', 'skipped'],
      ['interrupted', 'passed', 'not run'],
      ['not run', 'passed', 'not run'],
    ];
    for (const [status, expectedStatus, outcome] of table) {
      assert.equal(testOutcome(evidence(['PAG-01'], status, { expectedStatus })), outcome, `${status} expecting ${expectedStatus}`);
    }
  });
});

describe('judgeRequirement', () => {
  it('passes a MUST requirement whose citing tests all passed', () => {
    const result = judgeRequirement(MUST, [evidence(['PAG-01'], 'passed'), evidence(['PAG-01'], 'passed')], []);
    assert.equal(result.verdict, 'passed');
    assert.equal(result.partlyAssessed, false);
  });

  it('fails it when one citing test failed, and lists that test with its failure line', () => {
    const failing = evidence(['PAG-01'], 'failed', { failure: 'Response does not match operation listGroups' });
    const result = judgeRequirement(MUST, [evidence(['PAG-01'], 'passed'), failing], []);
    assert.equal(result.verdict, 'failed');
    assert.deepEqual(
      result.tests.filter((test) => test.outcome === 'failed').map((test) => test.detail),
      ['Response does not match operation listGroups'],
    );
  });

  it('fails it on a known deviation (expected failure), which Playwright counts as passing', () => {
    const deviation = evidence(['PAG-01'], 'failed', { expectedStatus: 'failed', failure: 'Expected status 200, received 500.' });
    assert.equal(judgeRequirement(MUST, [deviation], []).verdict, 'failed');
  });

  it('does not assess it when every citing test was skipped, giving the skip reasons', () => {
    const skipped = [
      evidence(['PAG-01'], 'skipped', { skipReasons: ['not assessed: needs TARGET_GROUP_ID (no group)'] }),
      evidence(['PAG-01'], 'skipped', { skipReasons: ['not assessed: needs TARGET_GROUP_ID (no group)'] }),
    ];
    const result = judgeRequirement(MUST, skipped, []);
    assert.equal(result.verdict, 'not assessed');
    assert.deepEqual(result.notAssessedBecause, ['not assessed: needs TARGET_GROUP_ID (no group)']);
  });

  it('does not assess it when no test cites it', () => {
    assert.deepEqual(judgeRequirement(MUST, [], []).notAssessedBecause, ['no test of this run cites it']);
  });

  it('passes it partly assessed when some citing tests were skipped or left cases unassessed, saying why', () => {
    const skipped = evidence(['PAG-01'], 'skipped', { skipReasons: ['not assessed: needs TARGET_ALLOW_WRITES=1'] });
    const result = judgeRequirement(MUST, [evidence(['PAG-01'], 'passed'), skipped], []);
    assert.equal(result.verdict, 'passed');
    assert.deepEqual(result.partlyAssessedBecause, ['not assessed: needs TARGET_ALLOW_WRITES=1']);
    const cases = evidence(['PAG-01'], 'passed', { casesNotAssessed: ['apiKey header: needs TARGET_OTHER_API_KEY'] });
    assert.deepEqual(judgeRequirement(MUST, [cases], []).partlyAssessedBecause, ['apiKey header: needs TARGET_OTHER_API_KEY']);
    assert.equal(judgeRequirement(MUST, [evidence(['PAG-01'], 'passed')], []).partlyAssessed, false);
  });

  it('reads SHOULD warnings, VARIANT forms and UNSPECIFIED observations of its own ID only', () => {
    const findings = [
      { kind: 'warning' as const, requirementId: 'SEC-03', text: 'a 3-character passphrase was accepted' },
      { kind: 'observed' as const, requirementId: 'VAR-01', text: 'bare array' },
      { kind: 'observed' as const, requirementId: 'UNS-01', text: '404 for an unknown group' },
    ];
    const should = judgeRequirement(SHOULD, [evidence(['SEC-03'], 'passed')], findings);
    assert.equal(should.verdict, 'passed with warnings');
    assert.deepEqual(should.warnings, ['a 3-character passphrase was accepted']);
    assert.equal(judgeRequirement(SHOULD, [evidence(['SEC-03'], 'passed')], []).verdict, 'passed');
    const variant = judgeRequirement(VARIANT, [evidence(['VAR-01'], 'passed')], findings);
    assert.equal(variant.verdict, 'observed variant');
    assert.deepEqual(variant.observations, ['bare array']);
    const unspecified = judgeRequirement(UNSPECIFIED, [evidence(['UNS-01'], 'passed')], findings);
    assert.equal(unspecified.verdict, 'observed unspecified');
    assert.deepEqual(unspecified.observations, ['404 for an unknown group']);
  });
});

describe('overallVerdict', () => {
  const result = (level: Requirement['level'], verdict: RequirementResult['verdict']): RequirementResult => ({
    ...judgeRequirement(req('PAG-01', level), [], []),
    verdict,
  });

  it('is CONFORMANT only when every MUST passed', () => {
    assert.equal(overallVerdict([result('MUST', 'passed'), result('SHOULD', 'passed with warnings'), result('VARIANT', 'not assessed')]), 'CONFORMANT');
  });

  it('is NOT CONFORMANT when any requirement failed, whatever else', () => {
    assert.equal(overallVerdict([result('MUST', 'failed'), result('MUST', 'not assessed')]), 'NOT CONFORMANT');
    assert.equal(overallVerdict([result('MUST', 'passed'), result('UNSPECIFIED', 'failed')]), 'NOT CONFORMANT');
  });

  it('is INCOMPLETE when nothing failed but a MUST requirement was not assessed', () => {
    assert.equal(overallVerdict([result('MUST', 'passed'), result('MUST', 'not assessed')]), 'INCOMPLETE');
  });
});

describe('certify', () => {
  it('judges every catalogue entry, totals them per level and prints one verdict line', () => {
    const tests = [
      evidence(['PAG-01', 'VAR-01'], 'passed', { findings: [{ kind: 'observed', requirementId: 'VAR-01', text: 'envelope' }] }),
      evidence(['SEC-03'], 'passed', { findings: [{ kind: 'warning', requirementId: 'SEC-03', text: 'short passphrase accepted' }] }),
      evidence(['UNS-01'], 'skipped', { skipReasons: ['not assessed: needs TARGET_CHANNEL (x)'] }),
    ];
    const certification = certify([MUST, SHOULD, VARIANT, UNSPECIFIED], tests);
    assert.equal(certification.verdict, 'CONFORMANT');
    assert.deepEqual(
      certification.requirements.map((entry) => [entry.id, entry.verdict]),
      [
        ['PAG-01', 'passed'],
        ['SEC-03', 'passed with warnings'],
        ['VAR-01', 'observed variant'],
        ['UNS-01', 'not assessed'],
      ],
    );
    assert.deepEqual(certification.totals.SHOULD, { total: 1, passed: 1, withWarnings: 1, failed: 0, notAssessed: 0 });
    assert.equal(
      verdictLine(certification),
      'certification: CONFORMANT (MUST 1/1 passed, SHOULD 1/1 passed (1 with warnings), VARIANT 1/1 passed, UNSPECIFIED 0/1 passed (1 not assessed))',
    );
  });

  it('lists known deviations, those that no longer fail, and citations of unknown IDs', () => {
    const tests = [
      evidence(['PAG-01'], 'failed', { expectedStatus: 'failed', failure: 'Expected status 200, received 500.', deviation: 'PAG-01: ISSUE-12' }),
      evidence(['SEC-03'], 'passed', { expectedStatus: 'failed' }),
      evidence(['XYZ-01'], 'passed'),
    ];
    const certification = certify([MUST, SHOULD], tests);
    assert.equal(certification.verdict, 'NOT CONFORMANT');
    assert.deepEqual(certification.knownDeviations.map((test) => test.detail), ['PAG-01: ISSUE-12: Expected status 200, received 500.']);
    assert.equal(certification.fixedDeviations.length, 1);
    assert.deepEqual(certification.unknownCitations, [{ test: tests[2]?.title, id: 'XYZ-01' }]);
    assert.match(verdictLine(certification), /; 1 known deviation\(s\)\)$/);
  });
});
