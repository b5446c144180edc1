import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { certify, judgeRequirement, outcomeFor, overallVerdict, suiteError, verdictLine } from '../../fixtures/verdict/certification.ts';
import type { Certification, RequirementResult, TestEvidence } from '../../fixtures/verdict/certification.ts';
import type { CheckRecord } from '../../fixtures/verdict/checks.ts';
import type { Finding } from '../../fixtures/verdict/annotation-structure.ts';
import { closingLines, REQUIREMENT_NOT_MET } from '../../fixtures/reporters/certification.ts';
import { codeSpan, problemsByOperation, renderMarkdown } from '../../fixtures/reporters/certificate-markdown.ts';
import { listsOnly } from '../../fixtures/reporters/fresh-start.ts';
import { because } from '../../fixtures/verdict/not-assessed.ts';
import type { Requirement } from '../../fixtures/verdict/requirements.ts';
import { acmeRun } from './sample-run.ts';

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
const OTHER = req('PAG-05', 'MUST');
const SHOULD = req('SEC-08', 'SHOULD');
const VARIANT = req('VAR-01', 'VARIANT');
const UNSPECIFIED = req('UNS-01', 'UNSPECIFIED');

const passed = (requirementId: string, text = 'a check'): CheckRecord => ({ requirementId, outcome: 'passed', text });
const failed = (requirementId: string, text = 'a check: Expected 3, received 4'): CheckRecord => ({ requirementId, outcome: 'failed', text });

function evidence(requirementIds: string[], status: TestEvidence['status'], overrides: Partial<TestEvidence> = {}): TestEvidence {
  return {
    title: `test of ${requirementIds.join(', ')} (${status})`,
    location: 'tests/x.spec.ts:1',
    requirementIds,
    status,
    expectedStatus: status === 'skipped' ? 'skipped' : 'passed',
    checks: status === 'passed' ? requirementIds.map((id) => passed(id)) : [],
    failuresRecordedByChecks: false,
    skipReasons: [],
    casesNotAssessed: [],
    fixedDeviations: [],
    findings: [],
    ...overrides,
  };
}

describe('judgeRequirement', () => {
  it('passes a MUST requirement whose own checks passed', () => {
    const result = judgeRequirement(MUST, [evidence(['PAG-01'], 'passed'), evidence(['PAG-01'], 'passed')], []);
    assert.equal(result.verdict, 'passed');
    assert.equal(result.checksRun, 2);
    assert.equal(result.partlyAssessed, false);
  });

  it('fails it when one of its checks failed, and lists that test with the failed check', () => {
    const failing = evidence(['PAG-01'], 'failed', { checks: [failed('PAG-01', 'limit for take=3: Expected 3, received 10')], failuresRecordedByChecks: true });
    const result = judgeRequirement(MUST, [evidence(['PAG-01'], 'passed'), failing], []);
    assert.equal(result.verdict, 'failed');
    assert.equal(result.checksFailed, 1);
    assert.deepEqual(
      result.tests.filter((test) => test.outcome === 'failed').map((test) => test.detail),
      ['limit for take=3: Expected 3, received 10'],
    );
  });

  it('never judges a requirement by the outcome of a test that also cites it: a failed check of another requirement does not fail it', () => {
    const test = evidence(['PAG-01', 'PAG-05'], 'failed', { checks: [passed('PAG-01'), failed('PAG-05')], failuresRecordedByChecks: true });
    assert.equal(judgeRequirement(MUST, [test], []).verdict, 'passed');
    assert.equal(judgeRequirement(OTHER, [test], []).verdict, 'failed');
  });

  it('does not assess a cited requirement whose check never ran, even in a test that passed', () => {
    const test = evidence(['PAG-01', 'PAG-05'], 'passed', { checks: [passed('PAG-05')] });
    const result = judgeRequirement(MUST, [test], []);
    assert.equal(result.verdict, 'not assessed');
    assert.deepEqual(result.notAssessedBecause, ['the test ran no check of PAG-01']);
  });

  it('does not assess a requirement whose test failed outside its checks before the check ran, and names the suite error', () => {
    const test = evidence(['PAG-01', 'PAG-05'], 'failed', { checks: [passed('PAG-05')], failure: 'TypeError: x is undefined' });
    const result = judgeRequirement(MUST, [test], []);
    assert.equal(result.verdict, 'not assessed');
    assert.match(result.notAssessedBecause[0] ?? '', /failed outside its checks: TypeError: x is undefined before a check of PAG-01 ran/);
    assert.equal(suiteError(test), 'failed outside its checks: TypeError: x is undefined');
  });

  it('records a check that could not be judged as not assessed, with its reason', () => {
    const test = evidence(['PAG-01'], 'passed', {
      checks: [{ requirementId: 'PAG-01', outcome: 'not assessed', text: 'walk: the answers it relies on fail FMT-04' }],
    });
    const result = judgeRequirement(MUST, [test], []);
    assert.equal(result.verdict, 'not assessed');
    assert.deepEqual(result.notAssessedBecause, ['walk: the answers it relies on fail FMT-04']);
  });

  it('fails it on a known deviation, which Playwright counts as an expected failure', () => {
    const deviation = evidence(['PAG-01'], 'failed', {
      expectedStatus: 'failed',
      checks: [{ requirementId: 'PAG-01', outcome: 'deviation', text: 'Expected status 200, received 500.' }],
    });
    assert.equal(judgeRequirement(MUST, [deviation], []).verdict, 'failed');
    assert.equal(outcomeFor(deviation, 'PAG-01').outcome, 'known deviation');
    assert.equal(suiteError(deviation), undefined);
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

  it('calls it not applicable, which counts as passed, when every citing test says its condition does not hold for the target', () => {
    const skipped = evidence(['PAG-01'], 'skipped', { skipReasons: ['not applicable: listRecordings answers with a bare array (VAR-01)'] });
    const result = judgeRequirement(MUST, [skipped], []);
    assert.equal(result.verdict, 'not applicable');
    assert.equal(overallVerdict([result]), 'CONFORMANT');
    const mixed = judgeRequirement(MUST, [skipped, evidence(['PAG-01'], 'skipped', { skipReasons: ['not assessed: needs TARGET_X'] })], []);
    assert.equal(mixed.verdict, 'not assessed');
  });

  it('calls it not applicable from its checks recorded not applicable, in a test that passes the others it cites (the unknown group of issue 32)', () => {
    const grp05 = req('GRP-05', 'MUST');
    const inapplicable: CheckRecord = {
      requirementId: 'GRP-05',
      outcome: 'not applicable',
      text: 'getGroup of an unknown id: a 200 is the group asked for: getGroup 400, not 200 (GRP-05 states what a 200 holds)',
    };
    // getGroup answered 400 and listGroupParticipants 200: UNS-01 observed both, GRP-05 applies to neither.
    const unknownGroup = evidence(['UNS-01', 'GRP-05'], 'passed', { checks: [passed('UNS-01'), passed('UNS-01'), inapplicable] });
    const result = judgeRequirement(grp05, [unknownGroup], []);
    assert.equal(result.verdict, 'not applicable');
    assert.equal(result.tests[0]?.outcome, 'not applicable');
    assert.match(result.tests[0]?.detail ?? '', /getGroup 400, not 200/);
    assert.equal(overallVerdict([result, judgeRequirement(UNSPECIFIED, [unknownGroup], [])]), 'CONFORMANT');
    // The same test before the decision was made per requirement: no record of GRP-05, so INCOMPLETE.
    const before = evidence(['UNS-01', 'GRP-05'], 'passed', { checks: [passed('UNS-01'), passed('UNS-01')] });
    const unassessed = judgeRequirement(grp05, [before], []);
    assert.deepEqual([unassessed.verdict, unassessed.notAssessedBecause], ['not assessed', ['the test ran no check of GRP-05']]);
    assert.equal(overallVerdict([unassessed]), 'INCOMPLETE');
    // A check that could not be judged outweighs one that does not apply; one that passed elsewhere makes it passed.
    const blocked = evidence(['GRP-05'], 'passed', { checks: [{ requirementId: 'GRP-05', outcome: 'not assessed', text: 'no usable token' }, inapplicable] });
    assert.equal(judgeRequirement(grp05, [blocked], []).verdict, 'not assessed');
    assert.equal(judgeRequirement(grp05, [unknownGroup, evidence(['GRP-05'], 'passed')], []).verdict, 'passed');
  });

  it('does not assess it when no test cites it', () => {
    assert.deepEqual(judgeRequirement(MUST, [], []).notAssessedBecause, ['no test of this run cites it']);
  });

  it('says what data would assess a partly assessed requirement fully (PAG-02 on a list of 8 groups)', () => {
    const reason = `not assessed: ${because('the list holds 8 items, not more than 10', { lacking: 'more than 10 groups' })}`;
    const short = evidence(['PAG-01'], 'skipped', { skipReasons: [reason] });
    const result = judgeRequirement(MUST, [evidence(['PAG-01'], 'passed'), short], []);
    assert.equal(result.verdict, 'passed');
    assert.deepEqual(result.partlyAssessedBecause, ['not assessed: needs more than 10 groups (the list holds 8 items, not more than 10)']);
    assert.equal(because('a realtime channel', { enable: 'TARGET_CHANNEL' }), 'needs TARGET_CHANNEL (a realtime channel)');
    assert.equal(because('archives a member', { enable: 'TARGET_ALLOW_DESTRUCTIVE' }), 'needs TARGET_ALLOW_DESTRUCTIVE=1 (archives a member)');
    assert.equal(because('the list is empty', undefined), 'the list is empty');
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

  it('reads SHOULD warnings, VARIANT forms and UNSPECIFIED observations of its own ID only; a warning or observation is a check that ran', () => {
    const findings = [
      { kind: 'warning' as const, requirementId: 'SEC-08', text: '70 of 128 words are not in the list' },
      { kind: 'observed' as const, requirementId: 'VAR-01', form: 'bare array' },
      { kind: 'observed' as const, requirementId: 'UNS-01', form: '404 for an unknown group', detail: 'getGroup' },
    ];
    const warned = evidence(['SEC-08'], 'passed', {
      checks: [{ requirementId: 'SEC-08', outcome: 'warning', text: 'words: 70 of 128 words are not in the list' }],
    });
    const should = judgeRequirement(SHOULD, [warned], findings);
    assert.equal(should.verdict, 'passed with warnings');
    assert.deepEqual(should.warnings, ['70 of 128 words are not in the list']);
    assert.equal(judgeRequirement(SHOULD, [evidence(['SEC-08'], 'passed')], []).verdict, 'passed');
    const variant = judgeRequirement(VARIANT, [evidence(['VAR-01'], 'passed')], findings);
    assert.equal(variant.verdict, 'observed variant');
    assert.deepEqual(variant.observations, [{ form: 'bare array' }]);
    const observed = evidence(['UNS-01'], 'passed', { checks: [{ requirementId: 'UNS-01', outcome: 'observed', text: 'x' }] });
    const unspecified = judgeRequirement(UNSPECIFIED, [observed], findings);
    assert.equal(unspecified.verdict, 'observed unspecified');
    assert.deepEqual(unspecified.observations, [{ form: '404 for an unknown group', detail: 'getGroup' }]);
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
    assert.equal(overallVerdict([result('MUST', 'passed'), result('VARIANT', 'failed')]), 'NOT CONFORMANT');
  });

  it('is INCOMPLETE when nothing failed but a MUST requirement was not assessed', () => {
    assert.equal(overallVerdict([result('MUST', 'passed'), result('MUST', 'not assessed')]), 'INCOMPLETE');
  });
});

describe('certify', () => {
  it('judges every catalogue entry, totals them per level and prints one verdict line', () => {
    const tests = [
      evidence(['PAG-01', 'VAR-01'], 'passed', { findings: [{ kind: 'observed', requirementId: 'VAR-01', form: 'envelope' }] }),
      evidence(['SEC-08'], 'passed', {
        checks: [{ requirementId: 'SEC-08', outcome: 'warning', text: 'words' }],
        findings: [{ kind: 'warning', requirementId: 'SEC-08', text: '70 of 128 words are not in the list' }],
      }),
      evidence(['UNS-01'], 'skipped', { skipReasons: ['not assessed: needs TARGET_CHANNEL (x)'] }),
    ];
    const certification = certify([MUST, SHOULD, VARIANT, UNSPECIFIED], tests);
    assert.equal(certification.verdict, 'CONFORMANT');
    assert.deepEqual(
      certification.requirements.map((entry) => [entry.id, entry.verdict]),
      [
        ['PAG-01', 'passed'],
        ['SEC-08', 'passed with warnings'],
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

  it('counts a check recorded in a test that does not cite its requirement (the contract matcher attributes content type and formats)', () => {
    const fmt = req('FMT-04', 'MUST');
    const test = evidence(['PAG-01'], 'failed', {
      checks: [failed('FMT-04', 'listGroups answers with a JSON content type'), passed('PAG-01')],
      failuresRecordedByChecks: true,
    });
    const certification = certify([MUST, fmt], [test]);
    assert.deepEqual(
      certification.requirements.map((entry) => [entry.id, entry.verdict]),
      [
        ['PAG-01', 'passed'],
        ['FMT-04', 'failed'],
      ],
    );
    assert.deepEqual(certification.suiteErrors, []);
  });

  it('lists known deviations, those that passed, suite errors and citations of unknown IDs', () => {
    const tests = [
      evidence(['PAG-01'], 'failed', {
        expectedStatus: 'failed',
        checks: [{ requirementId: 'PAG-01', outcome: 'deviation', text: 'Expected status 200, received 500.' }],
      }),
      evidence(['SEC-08'], 'failed', { fixedDeviations: ['SEC-08'], failuresRecordedByChecks: true }),
      evidence(['XYZ-01'], 'passed', { checks: [] }),
      evidence(['PAG-05'], 'timedOut', { failure: 'Test timeout of 30000ms exceeded.' }),
    ];
    const certification = certify([MUST, SHOULD, OTHER], tests);
    assert.equal(certification.verdict, 'NOT CONFORMANT');
    assert.deepEqual(
      certification.knownDeviations.map((test) => test.detail),
      ['Expected status 200, received 500.'],
    );
    assert.equal(certification.fixedDeviations.length, 1);
    assert.deepEqual(certification.unknownCitations, [{ test: tests[2]?.title, id: 'XYZ-01' }]);
    assert.deepEqual(
      certification.suiteErrors.map((entry) => entry.detail),
      ['timed out: Test timeout of 30000ms exceeded.'],
    );
    assert.equal(certification.requirements.find((entry) => entry.id === 'PAG-05')?.verdict, 'not assessed');
    assert.match(verdictLine(certification), /; 1 known deviation\(s\); 1 suite error\(s\)\)$/);
  });
});

describe('the closing lines of a run', () => {
  const categories = [
    { name: 'Target unreachable or misconfigured', matchers: { message: 'got no (?:usable )?response' } },
    { name: 'Contract violation', matchers: { message: 'Response does not match operation' } },
    { name: 'Suite error', matchers: {} },
  ];
  const failing = (id: string, detail: string): RequirementResult => ({
    ...judgeRequirement(req(id, 'MUST'), [evidence([id], 'failed', { checks: [failed(id, detail)], failuresRecordedByChecks: true })], []),
  });

  it('group the failed requirements by cause, the largest group first, after the verdict, then say where the reports are', () => {
    const results = [
      failing('PAG-01', 'the list: Response does not match operation listGroups'),
      failing('PAG-05', 'listGroups: GET http://h/groups got no response: connection refused'),
      failing('GRP-01', 'a group: GET http://h/groups/1 got no usable response: too large'),
      failing('SEC-01', 'a key: Expected 3, received 4'),
    ];
    const report = {
      verdict: 'NOT CONFORMANT',
      totals: certify([], []).totals,
      requirements: results,
      knownDeviations: [],
      fixedDeviations: [],
      suiteErrors: [],
      unknownCitations: [],
    } satisfies Certification;
    const lines = closingLines(report, categories, ['reports/certification.md', 'reports/junit.xml']);
    assert.match(lines[0] ?? '', /^certification: NOT CONFORMANT/);
    assert.deepEqual(lines.slice(1), [
      '  failed requirements by cause:',
      '    Target unreachable or misconfigured: 2 (PAG-05, GRP-01)',
      '    Contract violation: 1 (PAG-01)',
      `    ${REQUIREMENT_NOT_MET}: 1 (SEC-01)`,
      '  reports: reports/certification.md, reports/junit.xml',
    ]);
  });

  it('name no cause when nothing failed', () => {
    const report = certify([MUST], [evidence([MUST.id], 'passed')]);
    assert.deepEqual(closingLines(report, categories, []), [verdictLine(report)]);
  });
});

describe('a run that only lists the tests', () => {
  it('is told apart by --list among the runner arguments, so that it leaves the last certificate alone', () => {
    assert.equal(listsOnly(['node', 'playwright', 'test', '--list']), true);
    assert.equal(listsOnly(['node', 'playwright', 'test', '--grep', '@PAG']), false);
    assert.equal(listsOnly(['node', '--list', 'playwright']), false, 'an option of node, not of the runner');
  });
});

describe('certification.md: each failure and warning once per operation, with its curl line', () => {
  const curl = (query: string): string => `curl -sS -i -X GET 'http://127.0.0.1:4010/groups?${query}' -H 'Authorization: Bearer [REDACTED]'`;
  const warned = (query: string, operationId = 'listGroups'): CheckRecord => ({
    requirementId: 'SEC-08',
    outcome: 'warning',
    text: `${operationId} with ${query}: answered with 200 or a 4xx: answered HTTP 500: expected 200 or a 4xx`,
    operationId,
    curl: curl(query),
  });
  // As recordCheck leaves a warning: the check record, and the finding the verdict reads.
  const finding = (record: CheckRecord): Finding => ({ kind: 'warning', requirementId: record.requirementId, text: record.text });
  const tests = [
    evidence(['SEC-08'], 'passed', {
      location: 'tests/bad-input.spec.ts:240',
      checks: [warned('skip=-1'), warned('take=abc'), warned('skip=-1', 'listRecordings')],
      findings: [finding(warned('skip=-1'))],
    }),
    evidence(['SEC-08'], 'passed', { location: 'tests/support/generated.ts:43', checks: [warned('skip=1.5'), passed('SEC-08')] }),
  ];

  it('groups the checks of a requirement by operation, the first of each counted, with its request', () => {
    assert.deepEqual(problemsByOperation(tests, 'SEC-08', ['warning']), [
      { operationId: 'listGroups', text: warned('skip=-1').text, curl: curl('skip=-1'), count: 3, location: 'tests/bad-input.spec.ts:240' },
      {
        operationId: 'listRecordings',
        text: warned('skip=-1', 'listRecordings').text,
        curl: curl('skip=-1'),
        count: 1,
        location: 'tests/bad-input.spec.ts:240',
      },
    ]);
    assert.deepEqual(problemsByOperation(tests, 'SEC-08', ['failed']), []);
  });

  it('renders one entry per operation under the requirement, each with a reproduce line', () => {
    const markdown = renderMarkdown({
      ...acmeRun('passed'),
      ...certify([SHOULD], tests),
      evidence: tests,
    });
    const section = markdown.slice(markdown.indexOf('## Passed with warnings (SHOULD)'), markdown.indexOf('## All requirements'));
    assert.match(section, /^### SEC-08 \(SHOULD\): SEC-08 statement$/m);
    assert.deepEqual(
      section.split('\n').filter((line) => line.startsWith('- ') || line.startsWith('  - ')),
      [
        `- **listGroups** (3 times, first in tests/bad-input.spec.ts:240): ${warned('skip=-1').text}`,
        `  - reproduce: \`${curl('skip=-1')}\``,
        `- **listRecordings** (tests/bad-input.spec.ts:240): ${warned('skip=-1', 'listRecordings').text}`,
        `  - reproduce: \`${curl('skip=-1')}\``,
      ],
    );
  });

  it('quotes a curl line that holds backticks in a longer fence, on one line', () => {
    assert.equal(codeSpan('curl -d \'{"a":"`x`"}\''), '`` curl -d \'{"a":"`x`"}\' ``');
    assert.equal(codeSpan('a\nb'), '`a b`');
  });
});
