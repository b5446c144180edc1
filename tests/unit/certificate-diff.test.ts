/**
 * `npm run diff-certificates` (scripts/lib/certificate-diff.ts, scripts/commands/diff-certificates.ts) on two
 * real certificates, trimmed and committed under tests/unit/certificates/: `npm run conformance` on
 * the reference, and the same with `REFERENCE_ARGS="--fault page-stuck-at-first"`. The diff must
 * name exactly the requirements that fault declares, and nothing else.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FAULTS } from '../../reference/faults/index.ts';
import { diffCertificates, diffExitCode, observedForms, parseCertificate, renderMarkdown, renderText, unchanged } from '../../scripts/lib/certificate-diff.ts';
import type { DiffableCertificate } from '../../scripts/lib/certificate-diff.ts';
import { loadCertificate, NotACertificate } from '../../fixtures/reporters/certificate.ts';
import { renderRunSummary } from '../../scripts/lib/job-summary.ts';
import { bip39Observation } from '../support/key-material.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO_ROOT, 'tests/unit/certificates');
const PLAIN = join(FIXTURES, 'plain.json');
const FAULTY = join(FIXTURES, 'page-stuck-at-first.json');
const load = (file: string): DiffableCertificate => parseCertificate(readFileSync(file, 'utf8'), file);
const labels = { before: 'old.json', after: 'new.json' };

/** A copy of a certificate with one requirement changed. */
function withRequirement(certificate: DiffableCertificate, id: string, change: Partial<DiffableCertificate['requirements'][number]>): DiffableCertificate {
  const copy = structuredClone(certificate);
  const entry = copy.requirements.find((requirement) => requirement.id === id);
  assert.ok(entry !== undefined, `${id} is in the certificate`);
  Object.assign(entry, change);
  return copy;
}

describe('diff-certificates on two real runs', () => {
  const plain = load(PLAIN);
  const faulty = load(FAULTY);
  const declared = FAULTS.find((fault) => fault.name === 'page-stuck-at-first')?.requirements ?? [];

  it('names exactly the requirements the fault declares as newly failed, and nothing else', () => {
    const diff = diffCertificates(plain, faulty);
    assert.deepEqual(
      diff.newlyFailed.map((change) => change.id),
      [...declared],
    );
    assert.deepEqual(diff.newlyFailed[0], { id: 'PAG-13', level: 'MUST', statement: '', before: 'passed', after: 'failed' });
    for (const list of [diff.newlyPassed, diff.newlyNotAssessed, diff.newlyWarned, diff.variantsChanged, diff.unspecifiedChanged, diff.added, diff.removed])
      assert.deepEqual(list, []);
    assert.equal(diffExitCode(diff), 1);
  });

  it('states the overall verdict change with both verdict lines', () => {
    const diff = diffCertificates(plain, faulty);
    assert.equal(diff.verdict.changed, true);
    assert.match(diff.verdict.before, /^certification: CONFORMANT \(MUST 121\/121 passed/);
    assert.match(diff.verdict.after, /^certification: NOT CONFORMANT \(MUST 120\/121 passed \(1 failed\)/);
    const text = renderText(diff, labels);
    assert.match(text, /^verdict before: CONFORMANT /m);
    assert.match(text, /^verdict now: {4}NOT CONFORMANT /m);
    assert.match(text, /^Requirements newly failed: 1\n {2}PAG-13 \(MUST\): passed -> failed$/m);
    assert.match(text, /^1 requirement\(s\) newly failed: PAG-13$/m);
  });

  it('the other way round: newly passed, exit code 0', () => {
    const diff = diffCertificates(faulty, plain);
    assert.deepEqual(
      diff.newlyPassed.map((change) => change.id),
      ['PAG-13'],
    );
    assert.deepEqual(diff.newlyFailed, []);
    assert.equal(diffExitCode(diff), 0);
  });

  it('a certificate against itself: no change', () => {
    const diff = diffCertificates(plain, plain);
    assert.ok(unchanged(diff));
    assert.match(renderText(diff, labels), /^verdict unchanged: CONFORMANT .*\n(?:.*: none\n){6}no change\n$/m);
    assert.match(renderMarkdown(diff, labels), /No requirement changed its verdict/);
  });

  it('Markdown for a job summary: both verdicts, a table of what changed, one line for what did not', () => {
    const markdown = renderMarkdown(diffCertificates(plain, faulty), labels);
    assert.match(markdown, /^\| old\.json \| CONFORMANT \(MUST 121\/121 passed/m);
    assert.match(markdown, /^\| new\.json \| NOT CONFORMANT \(MUST 120\/121 passed \(1 failed\)/m);
    assert.match(
      markdown,
      /^\*\*Requirements newly failed \(1\)\*\*\n\n\| Requirement \| Level \| Before \| Now \|\n\|---\|---\|---\|---\|\n\| PAG-13 \| MUST \| passed \| failed \|$/m,
    );
    assert.match(markdown, /^No requirement newly passed, .*no unspecified behaviour observed otherwise\.$/m);
  });
});

describe('diff-certificates: each kind of change', () => {
  const plain = load(PLAIN);

  it('newly not assessed is not newly failed', () => {
    const diff = diffCertificates(plain, withRequirement(plain, 'REC-07', { verdict: 'not assessed' }));
    assert.deepEqual(
      diff.newlyNotAssessed.map((change) => change.id),
      ['REC-07'],
    );
    assert.equal(diffExitCode(diff), 0);
  });

  it('a SHOULD requirement newly with warnings', () => {
    const diff = diffCertificates(plain, withRequirement(plain, 'SEC-08', { verdict: 'passed with warnings' }));
    assert.deepEqual(
      diff.newlyWarned.map((change) => change.id),
      ['SEC-08'],
    );
    assert.deepEqual(diff.newlyPassed, []);
  });

  it('a variant whose observed form changed; a form seen in one more place is no change', () => {
    const other = withRequirement(plain, 'VAR-01', { observations: [{ form: 'pagination envelope', detail: 'the description' }] });
    assert.deepEqual(diffCertificates(plain, other).variantsChanged, [
      { id: 'VAR-01', level: 'VARIANT', statement: '', before: ['bare array'], after: ['pagination envelope'] },
    ]);
    const elsewhere = withRequirement(plain, 'VAR-01', {
      observations: [{ form: 'bare array' }, { form: 'bare array', detail: 'listRecordings with take=3' }],
    });
    assert.ok(unchanged(diffCertificates(plain, elsewhere)));
  });

  it('unspecified behaviour whose observation changed, at any UNSPECIFIED requirement', () => {
    const diff = diffCertificates(
      plain,
      withRequirement(withRequirement(plain, 'UNS-07', { observations: [{ form: 'exp - iat = 7200 s' }] }), 'PAG-06', { observations: [] }),
    );
    assert.deepEqual(
      diff.unspecifiedChanged.map((change) => [change.id, change.before, change.after]),
      [
        ['PAG-06', ['pages numbered from 1'], []],
        ['UNS-07', ['exp - iat = 3600 s'], ['exp - iat = 7200 s']],
      ],
    );
    assert.match(renderText(diff, labels), /^ {2}PAG-06: pages numbered from 1 -> nothing observed$/m);
  });

  it('a requirement only one certificate lists: named; failed in the new one, it newly failed', () => {
    const added = structuredClone(plain);
    added.requirements.push({ id: 'PAG-99', level: 'MUST', verdict: 'failed', statement: '', observations: [] });
    const diff = diffCertificates(plain, added);
    assert.deepEqual(diff.added, ['PAG-99']);
    assert.deepEqual(
      diff.newlyFailed.map((change) => [change.id, change.before]),
      [['PAG-99', undefined]],
    );
    assert.deepEqual(diffCertificates(added, plain).removed, ['PAG-99']);
  });

  it('observed forms: each form once, sorted, whatever its detail', () => {
    assert.deepEqual(observedForms([{ form: 'b', detail: 'x' }, { form: 'a' }, { form: 'b', detail: 'y' }, { form: 'a', detail: 'z (nested)' }]), ['a', 'b']);
  });

  it('reads a certificate written before observations were data (texts `form (detail)`) into forms and details', () => {
    // page-stuck-at-first.json is of the older format, plain.json of the current one: the same observations either way.
    assert.ok(JSON.parse(readFileSync(FAULTY, 'utf8')).requirements.some((entry: { observations: unknown[] }) => typeof entry.observations[0] === 'string'));
    assert.ok(
      JSON.parse(readFileSync(PLAIN, 'utf8')).requirements.every((entry: { observations: unknown[] }) =>
        entry.observations.every((item) => typeof item === 'object'),
      ),
    );
    assert.equal(JSON.parse(readFileSync(FAULTY, 'utf8')).format, undefined, 'a certificate of format 1 names no format');
    const faulty = load(FAULTY);
    assert.equal(loadCertificate(FAULTY).format, 1);
    assert.equal(loadCertificate(PLAIN).format, 2);
    const observationsOf = (certificate: DiffableCertificate, id: string) => certificate.requirements.find((entry) => entry.id === id)?.observations;
    assert.deepEqual(observationsOf(faulty, 'VAR-01'), [{ form: 'bare array' }, { form: 'bare array', detail: 'the sample' }]);
    for (const id of ['VAR-01', 'VAR-05', 'UNS-10', 'UNS-21']) assert.deepEqual(observationsOf(faulty, id), observationsOf(plain, id), id);
  });

  it("compares an observation's form, not the count in its detail (SEC-08: 40 of 128 words, then 39)", () => {
    /** SEC-08 as the suite observes it (tests/security-keys.spec.ts): its form and detail, as the observe fixture records them. */
    const sec08 = (outside: number): DiffableCertificate => {
      const words = [...Array.from({ length: outside }, () => 'zzzz'), ...Array.from({ length: 128 - outside }, () => 'abandon')];
      const { form, detail } = bip39Observation(words);
      return withRequirement(plain, 'SEC-08', { level: 'UNSPECIFIED', verdict: 'observed unspecified', observations: [{ form, detail }] });
    };
    assert.equal(bip39Observation(['zzzz', 'abandon']).detail, '1 of 2 words');
    assert.deepEqual(diffCertificates(sec08(40), sec08(39)).unspecifiedChanged, []);
    assert.deepEqual(
      diffCertificates(sec08(0), sec08(39)).unspecifiedChanged.map((change) => [change.id, change.before, change.after]),
      [['SEC-08', ['every word is in the BIP-39 English list'], ['some words are not in the BIP-39 English list']]],
    );
  });
});

describe('diff-certificates: what it refuses and what it never prints', () => {
  const text = readFileSync(PLAIN, 'utf8');

  it('refuses what is not a certificate, naming the file and why', () => {
    const cases: [string, RegExp][] = [
      ['not json', /^x\.json is not JSON/],
      ['[]', /^x\.json is not a certification report: it is not a JSON object/],
      ['{"name":"meeting-realtime-conformance"}', /its verdict is not one of CONFORMANT, NOT CONFORMANT, INCOMPLETE, TARGET UNREACHABLE/],
      [JSON.stringify({ ...JSON.parse(text), totals: undefined }), /it has no totals/],
      [JSON.stringify({ ...JSON.parse(text), requirements: [] }), /it lists no requirements/],
      [JSON.stringify({ ...JSON.parse(text), requirements: [{ id: 'PAG-13', level: 'OFTEN', verdict: 'passed' }] }), /PAG-13 has no level of MUST/],
      [JSON.stringify({ ...JSON.parse(text), requirements: [{ id: 'PAG-13', level: 'MUST', verdict: 'fine' }] }), /PAG-13 has no verdict of passed/],
      [
        JSON.stringify({
          ...JSON.parse(text),
          requirements: [{ id: 'VAR-01', level: 'VARIANT', verdict: 'observed variant', observations: [{ detail: 'x' }] }],
        }),
        /the observations of VAR-01 are not a list of observations/,
      ],
      // A text is an observation of format 1 only: a certificate of format 2 lists { form, detail? }.
      [
        JSON.stringify({
          ...JSON.parse(text),
          requirements: [{ id: 'VAR-01', level: 'VARIANT', verdict: 'observed variant', observations: ['bare array (the sample)'] }],
        }),
        /the observations of VAR-01 are not a list of observations \(\{ form, detail\? \}\)/,
      ],
      [JSON.stringify({ ...JSON.parse(text), format: 'two' }), /its format "two" is not a whole number from 1/],
      [JSON.stringify({ ...JSON.parse(text), format: 3 }), /^x\.json is a certificate of format 3, newer than this suite reads \(formats 1 to 2\)/],
    ];
    for (const [input, message] of cases) {
      assert.throws(
        () => parseCertificate(input, 'x.json'),
        (error: unknown) => error instanceof NotACertificate && message.test(error.message),
        input.slice(0, 40),
      );
    }
  });

  it('prints no address and no evidence of the certificate: only IDs, levels, verdicts, totals and observed forms', () => {
    const full = JSON.parse(text) as Record<string, unknown> & { requirements: Record<string, unknown>[] };
    full['target'] = { name: 'staging', baseUrl: 'https://staging.example.test/api', realtimeUrl: 'https://rt.example.test' };
    const pag13 = full.requirements.find((entry) => entry['id'] === 'PAG-13');
    assert.ok(pag13 !== undefined);
    Object.assign(pag13, {
      verdict: 'failed',
      tests: [{ title: 't', location: 'tests/x.spec.ts:1', outcome: 'failed', detail: 'received {"email":"jane@example.test"}' }],
      notAssessedBecause: ['TARGET_PASSWORD was rejected'],
    });
    const before = parseCertificate(text, 'old.json');
    const after = parseCertificate(JSON.stringify(full), 'new.json');
    for (const output of [renderText(diffCertificates(before, after), labels), renderMarkdown(diffCertificates(before, after), labels)]) {
      assert.match(output, /PAG-13/);
      assert.doesNotMatch(output, /example\.test|jane|TARGET_PASSWORD|http/);
    }
  });
});

describe("the workflow's job summary (scripts/lib/job-summary.ts)", () => {
  const markdown = [
    '# Certification report: staging',
    '',
    '**Verdict: NOT CONFORMANT (MUST 120/121 passed (1 failed))**',
    '',
    '| Main interface | https://staging.example.test |',
    '',
    '## Totals',
    '',
    '| Level | Requirements |',
    '|---|---:|',
    '| MUST | 121 |',
    '',
  ].join('\n');

  it('the verdict line, the totals and what changed since the previous run, and no address', () => {
    const summary = renderRunSummary({
      markdown,
      certificate: load(FAULTY),
      previous: { label: '[run 41](https://github.test/o/r/actions/runs/41)', certificate: load(PLAIN) },
      artifactName: 'conformance-reports',
    });
    assert.match(
      summary,
      /^## Conformance of staging\n\n\*\*Verdict: NOT CONFORMANT .*\*\*\n\n\| Level \| Requirements \|\n\|---\|---:\|\n\| MUST \| 121 \|\n/,
    );
    assert.match(summary, /^### What changed since the previous run$/m);
    assert.match(summary, /^\| \[run 41\]\(https:\/\/github\.test\/o\/r\/actions\/runs\/41\) \| CONFORMANT /m);
    assert.match(summary, /^\| PAG-13 \| MUST \| passed \| failed \|$/m);
    assert.match(summary, /artifact `conformance-reports`/);
    assert.doesNotMatch(summary, /staging\.example\.test/);
  });

  it('says why there is nothing to compare with', () => {
    const summary = renderRunSummary({
      markdown,
      certificate: load(FAULTY),
      previous: { label: 'the previous run', missing: 'No previous certificate.' },
      artifactName: 'x',
    });
    assert.match(summary, /^### What changed since the previous run\n\nNo previous certificate\.$/m);
    assert.match(
      renderRunSummary({ previous: { label: 'p', certificate: load(PLAIN) }, artifactName: 'x' }),
      /\*\*No verdict\*\*.*\n[^]*This run wrote no certificate/,
    );
  });
});

describe('npm run diff-certificates (the command)', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/commands/diff-certificates.ts'), ...args], { cwd: REPO_ROOT, encoding: 'utf8' });

  it('exit 1 when a requirement newly failed, with --markdown too', () => {
    const text = run(PLAIN, FAULTY);
    assert.equal(text.status, 1, text.stderr);
    assert.match(text.stdout, /^1 requirement\(s\) newly failed: PAG-13$/m);
  });

  it('exit 0 when none did; --markdown for a job summary', () => {
    const result = run('--markdown', FAULTY, PLAIN);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^### What changed since the previous run$/m);
    assert.match(result.stdout, /^\*\*Requirements newly passed \(1\)\*\*$/m);
  });

  it('exit 2, with one clear line, for a file it cannot read or that is not a certificate', () => {
    const missing = run(PLAIN, join(FIXTURES, 'missing.json'));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^diff-certificates: cannot read .*missing\.json \(ENOENT\)$/m);
    const notCertificate = run(join(REPO_ROOT, 'package.json'), PLAIN);
    assert.equal(notCertificate.status, 2);
    assert.match(notCertificate.stderr, /package\.json is not a certification report/);
    assert.equal(notCertificate.stdout, '');
  });
});
