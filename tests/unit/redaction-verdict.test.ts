/**
 * Redaction never changes a verdict: the certificate of a run is the same with redaction on, off,
 * or fed any secret list, because the verdict is computed from structured facts (requirement IDs,
 * check outcomes, kinds of skips and findings) that redaction never touches.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import * as fc from 'fast-check';
import type { FullConfig, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { redactDescription, splitStructure } from '../../fixtures/verdict/annotation-structure.ts';
import { certify } from '../../fixtures/verdict/certification.ts';
import { CHECK_OUTCOMES } from '../../fixtures/verdict/checks.ts';
import { recordAttachment, recordsOf, redactRecord, writeRecord } from '../../fixtures/verdict/records.ts';
import type { VerdictRecord } from '../../fixtures/verdict/records.ts';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { REDACTED } from '../../fixtures/evidence/redact.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import { testEvidence } from '../../fixtures/reporters/certification.ts';
import { redactEvidence } from '../../fixtures/reporters/certificate.ts';
import { renderMarkdown } from '../../fixtures/reporters/certificate-markdown.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import RedactionReporter, { WITHHELD } from '../../fixtures/reporters/redaction.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CATALOGUE = requirements();
const OUTCOMES = ['passed', 'failed', 'warning', 'observed', 'not assessed', 'skipped', 'not applicable'] as const;
type Outcome = (typeof OUTCOMES)[number];

/**
 * Everyday English words a secretKey may hold, among them words that spell requirement prefixes,
 * level names, check outcomes and operation names, and the words of the certificate's own prose.
 */
const EVERYDAY = [
  'part',
  'login',
  'close',
  'meeting',
  'the',
  'status',
  'participant',
  'channel',
  'with',
  'from',
  'which',
  'should',
  'must',
  'passed',
  'failed',
  'not',
  'assessed',
  'applicable',
  'observed',
  'warning',
  'variant',
  'unspecified',
  'conformant',
  'requirement',
  'check',
  'security',
  'key',
  'group',
  'recording',
  'answers',
];

/** Secrets no sane profile holds, but which a secret list could: structure itself. */
const STRUCTURE_AS_SECRETS = [
  ...new Set(CATALOGUE.flatMap((entry) => [entry.id, entry.id.split('-')[0] ?? '', entry.level, ...entry.operations])),
  ...CHECK_OUTCOMES,
  'not applicable: ',
  'not assessed: ',
  'known deviation',
];

/** A test citing one requirement and ending with `outcome`, as the harness records it (its verdict records and their lines). */
function testOf(id: string, outcome: Outcome, index: number): TestCase {
  const label = `the ${id.toLowerCase()} check of the meeting status with login`;
  const annotations: { type: string; description?: string }[] = [];
  const attachments: TestResult['attachments'] = [];
  const recorded = { annotations, attachments };
  let status: TestResult['status'] = 'passed';
  switch (outcome) {
    case 'passed':
    case 'failed':
    case 'warning':
    case 'observed':
      writeRecord(recorded, { kind: 'check', requirementId: id, outcome, text: `${label}${outcome === 'passed' ? '' : ': Expected part, received login'}` });
      if (outcome === 'warning') writeRecord(recorded, { kind: 'warning', requirementId: id, text: `${label} (channel)` });
      if (outcome === 'observed') writeRecord(recorded, { kind: 'observed', requirementId: id, form: label, detail: 'channel' });
      if (outcome === 'failed') status = 'failed';
      break;
    case 'not assessed':
      writeRecord(recorded, {
        kind: 'check',
        requirementId: id,
        outcome: 'not assessed',
        text: `${label}: the answers it relies on fail PART-01`,
        operationId: 'getMeeting',
        curl: 'curl -sS http://h/meetings/m1',
      });
      break;
    case 'skipped':
      writeRecord(recorded, { kind: 'skip', outcome: 'not assessed', reason: `the list of ${id} is empty` });
      status = 'skipped';
      break;
    case 'not applicable':
      writeRecord(recorded, { kind: 'skip', outcome: 'not applicable', reason: `${id} concerns the envelope` });
      status = 'skipped';
      break;
  }
  const result = {
    status,
    annotations,
    errors: status === 'failed' ? [{ message: `[${id}] ${label}: Expected part, received login` }] : [],
    attachments,
    steps: [],
    stdout: [],
    stderr: [],
  } as unknown as TestResult;
  return {
    title: label,
    titlePath: () => ['', 'chromium', `${id.toLowerCase()}.spec.ts`, label],
    location: { file: `${ROOT}tests/${id.toLowerCase()}.spec.ts`, line: index + 1, column: 1 },
    annotations: [{ type: 'requirement', description: id }],
    results: [result],
    expectedStatus: status === 'failed' ? 'failed' : status,
  } as unknown as TestCase;
}

function runOf(outcomes: readonly Outcome[]): TestCase[] {
  return CATALOGUE.map((entry, index) => testOf(entry.id, outcomes[index % outcomes.length] ?? 'passed', index));
}

function certificate(tests: readonly TestCase[]): ReturnType<typeof certify> {
  return certify(
    CATALOGUE,
    tests.map((test) => testEvidence(test, ROOT)),
  );
}

/** The facts a verdict consists of: overall verdict, totals, each requirement's verdict and check counts. */
function facts(certification: ReturnType<typeof certify>): unknown {
  return {
    verdict: certification.verdict,
    totals: certification.totals,
    requirements: certification.requirements.map(({ id, level, verdict, checksRun, checksFailed, partlyAssessed }) => ({
      id,
      level,
      verdict,
      checksRun,
      checksFailed,
      partlyAssessed,
    })),
    knownDeviations: certification.knownDeviations.length,
    suiteErrors: certification.suiteErrors.length,
    unknownCitations: certification.unknownCitations,
  };
}

/** Runs every test through the redaction reporter with `secrets` added to the run's secret list, as the workers add what they meet. */
async function redacted(tests: readonly TestCase[], secrets: readonly string[]): Promise<void> {
  const previous = { file: process.env['TARGET_FILE'], base: process.env['TARGET_BASE_URL'], secrets: process.env['CONFORMANCE_SECRETS_FILE'] };
  process.env['TARGET_FILE'] = REFERENCE_TARGET_FILE;
  delete process.env['TARGET_BASE_URL'];
  try {
    const reporter = new RedactionReporter();
    // Raw lines: the list a worker could write, without the worker's own filter.
    appendFileSync(process.env['CONFORMANCE_SECRETS_FILE'] ?? '', secrets.map((secret) => `${JSON.stringify(secret)}\n`).join(''));
    reporter.onBegin({ configFile: `${ROOT}playwright.config.ts`, projects: [] } as unknown as FullConfig, {} as Suite);
    for (const test of tests) reporter.onTestEnd(test, test.results[0] as TestResult);
    await reporter.onExit();
  } finally {
    for (const [name, value] of [
      ['TARGET_FILE', previous.file],
      ['TARGET_BASE_URL', previous.base],
      ['CONFORMANCE_SECRETS_FILE', previous.secrets],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('annotation structure', () => {
  it('splits each structured annotation into its facts and its evidence', () => {
    assert.deepEqual(splitStructure('check', 'PART-01 passed: login answers'), { structure: 'PART-01 passed: ', evidence: 'login answers' });
    assert.deepEqual(splitStructure('check', 'SEC-08 not assessed: no key'), { structure: 'SEC-08 not assessed: ', evidence: 'no key' });
    assert.deepEqual(splitStructure('requirement', 'LOGIN-03'), { structure: 'LOGIN-03', evidence: '' });
    assert.deepEqual(splitStructure('warning', 'SEC-08: 70 of 128 words'), { structure: 'SEC-08: ', evidence: '70 of 128 words' });
    assert.deepEqual(splitStructure('skip', 'not applicable: REC-10 concerns the envelope'), {
      structure: 'not applicable: ',
      evidence: 'REC-10 concerns the envelope',
    });
    assert.deepEqual(splitStructure('fail', 'known deviation PAG-05: see #3'), { structure: 'known deviation PAG-05: ', evidence: 'see #3' });
  });

  it('treats a description that breaks its grammar, or of a type without one, as evidence whole', () => {
    assert.deepEqual(splitStructure('requirement', 'PART-01 and a secret'), { structure: '', evidence: 'PART-01 and a secret' });
    assert.deepEqual(splitStructure('note', 'PART-01: a note'), { structure: '', evidence: 'PART-01: a note' });
  });

  it('hands only the evidence to redaction', () => {
    assert.equal(
      redactDescription('check', 'PART-01 failed: Received secret', (text) => text.replace('secret', REDACTED)),
      `PART-01 failed: Received ${REDACTED}`,
    );
    assert.equal(
      redactDescription('check', 'PART-01 failed: x', () => 'gone'),
      'PART-01 failed: gone',
    );
  });
});

describe('verdict records', () => {
  const records: VerdictRecord[] = [
    { kind: 'check', requirementId: 'PART-01', outcome: 'failed', text: 'login answers: Received secret', operationId: 'login', curl: "curl -d 'secret'" },
    { kind: 'observed', requirementId: 'GRP-05', form: 'a secret form', detail: 'getGroup secret' },
    { kind: 'warning', requirementId: 'SEC-08', text: '70 of 128 secret words' },
    { kind: 'fixed deviation', requirementId: 'PAG-05', reason: 'see secret #3' },
    { kind: 'case not assessed', reason: 'the secret page' },
    { kind: 'skip', outcome: 'not applicable', reason: 'the secret envelope' },
    { kind: 'exchanges', tallies: [{ operationId: 'login', status: 200, count: 2 }] },
  ];
  /** A record's structure: every field but its evidence. */
  const structureOf = (record: VerdictRecord): Record<string, unknown> =>
    Object.fromEntries(Object.entries(record).filter(([name]) => !['text', 'curl', 'form', 'detail', 'reason'].includes(name)));

  it('hands only the evidence fields to redaction: text, curl, form, detail, reason', () => {
    const seen: string[] = [];
    for (const record of records)
      redactRecord(record, (text) => {
        seen.push(text);
        return text;
      });
    assert.deepEqual(seen, [
      'login answers: Received secret',
      "curl -d 'secret'",
      'a secret form',
      'getGroup secret',
      '70 of 128 secret words',
      'see secret #3',
      'the secret page',
      'the secret envelope',
    ]);
    const gone = records.map((record) => redactRecord(record, () => REDACTED));
    assert.deepEqual(gone.map(structureOf), records.map(structureOf));
  });

  it("a secret equal to an outcome word, a requirement prefix, a kind or an operation changes no record's structure", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...STRUCTURE_AS_SECRETS, ...EVERYDAY, 'check', 'exchanges', 'kind', 'outcome', '"', '{', ':'], { minLength: 1 }),
        async (secrets) => {
          const test = testOf('PART-01', 'not assessed', 0);
          const result = test.results[0] as TestResult;
          result.attachments.push(...records.map(recordAttachment));
          const before = recordsOf(result.attachments).map(structureOf);
          await redacted([test], secrets);
          assert.deepEqual(recordsOf(result.attachments).map(structureOf), before);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('withholds the evidence of a record and keeps its structure when the secret list cannot be built (fail closed)', () => {
    const previous = process.env['TARGET_FILE'];
    process.env['TARGET_FILE'] = '/nonexistent/target.env';
    try {
      const test = testOf('PART-01', 'failed', 0);
      const result = test.results[0] as TestResult;
      result.attachments.push(...records.map(recordAttachment));
      const reporter = new RedactionReporter();
      reporter.onBegin({ configFile: `${ROOT}playwright.config.ts`, projects: [] } as unknown as FullConfig, {} as Suite);
      reporter.onTestEnd(test, result);
      const after = recordsOf(result.attachments);
      assert.equal(after.length, records.length + 1, 'every record still reads');
      const written = [...(testOf('PART-01', 'failed', 0).results[0]?.attachments ?? []), ...records.map(recordAttachment)];
      assert.deepEqual(after.map(structureOf), recordsOf(written).map(structureOf));
      for (const record of after)
        for (const field of ['text', 'curl', 'form', 'detail', 'reason'] as const) {
          const value = (record as Record<string, unknown>)[field];
          if (value !== undefined) assert.equal(value, WITHHELD, `${record.kind} ${field} is withheld`);
        }
    } finally {
      if (previous === undefined) delete process.env['TARGET_FILE'];
      else process.env['TARGET_FILE'] = previous;
    }
  });
});

describe('redaction never changes a verdict', () => {
  const key = Array.from({ length: 128 }, (_, index) => EVERYDAY[(index * 7) % EVERYDAY.length] ?? 'the').join(' ');

  it('a run whose secretKey is everyday English words: the same verdict, totals and requirement verdicts as without redaction, and the evidence still reads', async () => {
    const outcomes: Outcome[] = ['passed', 'failed', 'warning', 'observed', 'not assessed', 'skipped', 'not applicable', 'passed'];
    const plain = certificate(runOf(outcomes));
    const tests = runOf(outcomes);
    await redacted(tests, [key]);
    const after = certificate(tests);
    assert.deepEqual(facts(after), facts(plain));
    const checkTexts = tests.flatMap((test) => [
      ...(test.results[0]?.annotations ?? []).map((annotation) => annotation.description ?? ''),
      ...recordsOf(test.results[0]?.attachments ?? []).map((record) => JSON.stringify(record)),
    ]);
    assert.ok(
      checkTexts.every((text) => !text.includes(REDACTED)),
      `no word of the key is taken for a secret: ${checkTexts.find((text) => text.includes(REDACTED))}`,
    );
  });

  it('any secret list, structure itself included: the verdict, totals and requirement verdicts stay those of the unredacted run', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...OUTCOMES), { minLength: 1, maxLength: 12 }),
        fc.subarray([...STRUCTURE_AS_SECRETS, ...EVERYDAY, key, 'passed: ', ' failed: ', ': '], { minLength: 1 }),
        async (outcomes, secrets) => {
          const plain = certificate(runOf(outcomes));
          const tests = runOf(outcomes);
          await redacted(tests, secrets);
          assert.deepEqual(facts(certificate(tests)), facts(plain));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the certificate written redacts its evidence, never its facts', () => {
    const tests = runOf(['passed', 'failed', 'warning']);
    const certification = certificate(tests);
    const report = {
      ...certification,
      target: { name: 'x', baseUrl: 'http://h', realtimeUrl: 'http://h/v2' },
      suiteVersion: '0',
      openapiSha256: '0',
      startTime: '',
      durationMs: 0,
      runStatus: 'failed',
    } as unknown as CertificationReport;
    const shown = redactEvidence(report, [...STRUCTURE_AS_SECRETS, 'Expected part, received login', key]);
    assert.deepEqual(facts(shown), facts(certification));
    const failedDetail = shown.requirements.find((result) => result.verdict === 'failed')?.tests[0]?.detail ?? '';
    assert.ok(failedDetail.includes(REDACTED), `evidence is redacted: ${failedDetail}`);
    const markdown = renderMarkdown(shown);
    for (const entry of CATALOGUE) assert.ok(markdown.includes(`| ${entry.id} | ${entry.level} |`), `${entry.id} keeps its row`);
  });
});
