import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FullConfig, Suite, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { allureDescription, allureLabels, livingDocumentation } from '../../fixtures/reporters/allure-labels.ts';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig, secretValues } from '../../fixtures/config/profile.ts';
import { areaOf, citedIds, findingsOf, referenceLinks, severityOf, shortStatement } from '../../fixtures/reporters/report-metadata.ts';
import { documentationLabelsFirst, withTranscript } from '../../fixtures/reporters/allure.ts';
import { errorLine } from '../../fixtures/verdict/error-line.ts';
import { recordAttachment } from '../../fixtures/verdict/records.ts';
import { describeRun } from '../../fixtures/reporters/run-info.ts';
import { openapiSha256 } from '../../fixtures/contract/index.ts';
import RedactionReporter, { WITHHELD, isTextContentType, redactColoured, reporterSecrets, unredactedReporters } from '../../fixtures/reporters/redaction.ts';
import { SecretList, SecretListError } from '../../fixtures/evidence/secrets.ts';
import { generatedSecret, redact } from '../../fixtures/evidence/redact.ts';
import { requirement, requirements } from '../../fixtures/verdict/requirements.ts';

const referenceSecrets = secretValues(loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE }));
const [password = '', apiKey = ''] = referenceSecrets;

describe('report metadata', () => {
  it('files every requirement of the catalogue under an interface area, with links and a severity', () => {
    for (const entry of requirements()) {
      assert.ok(areaOf(entry.id).length > 0, entry.id);
      assert.equal(referenceLinks(entry, '../').length, entry.operations.length + 1, entry.id);
    }
    assert.equal(areaOf('MSUM-01'), 'Meeting statistics');
    assert.throws(() => areaOf('NOPE-01'), /no known prefix/);
    assert.equal(severityOf(['UNSPECIFIED', 'MUST']), 'critical');
    assert.equal(severityOf(['VARIANT']), 'minor');
  });

  it('links to the operation page of the OpenAPI reference and the section of the specification', () => {
    assert.deepEqual(
      referenceLinks(requirement('GRP-01'), '../').map((link) => link.url),
      ['../interface-reference.html#operation/listGroups', '../interface-spec.html#2-list-groups'],
    );
  });

  it('shortens long statements at a word boundary', () => {
    assert.equal(shortStatement('short one'), 'short one');
    const short = shortStatement('word '.repeat(40), 20);
    assert.ok(short.length <= 21 && short.endsWith('word…'), short);
  });

  it('reads the citations the fixtures write as annotations and the findings they record', () => {
    const annotations = [
      { type: 'requirement', description: 'VAR-01' },
      { type: 'observed', description: 'VAR-01: bare array (recordings)' },
      { type: 'skip', description: 'not assessed: needs X' },
    ];
    const attachments = [
      recordAttachment({ kind: 'observed', requirementId: 'VAR-01', form: 'bare array', detail: 'recordings' }),
      recordAttachment({ kind: 'warning', requirementId: 'SEC-03', text: 'accepted a 3-character passphrase' }),
    ];
    assert.deepEqual(citedIds(annotations), ['VAR-01']);
    assert.deepEqual(findingsOf(attachments), [
      { kind: 'observed', requirementId: 'VAR-01', form: 'bare array', detail: 'recordings' },
      { kind: 'warning', requirementId: 'SEC-03', text: 'accepted a 3-character passphrase' },
    ]);
  });

  it('gives Allure one epic (the first requirement), a story per requirement and the highest severity', () => {
    const labels = allureLabels([requirement('GRP-01'), requirement('PAG-01')]);
    assert.deepEqual(
      labels.filter((label) => label.name === 'epic').map((label) => label.value),
      ['Groups'],
    );
    assert.deepEqual(
      labels.filter((label) => label.name === 'story').map((label) => label.value.split(' ')[0]),
      ['GRP-01', 'PAG-01'],
    );
    assert.deepEqual(
      labels.filter((label) => label.name === 'severity').map((label) => label.value),
      ['critical'],
    );
    assert.match(
      allureDescription([requirement('GRP-01')], '../'),
      /^\*\*GRP-01\*\* \(MUST\): .+\[2\. List groups\]\(\.\.\/interface-spec\.html#2-list-groups\)/s,
    );
  });

  it('documents a test from its annotations and records: requirements, findings, parameters and notes', () => {
    const messages = livingDocumentation(
      [
        { type: 'requirement', description: 'VAR-05' },
        { type: 'observed', description: 'VAR-05: without error (login)' },
        { type: 'parameter', description: 'header: apiKey' },
        { type: 'note', description: 'uses a shared key' },
        { type: 'skip', description: 'not assessed: needs X' },
      ],
      {
        startTime: new Date(1_000),
        duration: 500,
        attachments: [recordAttachment({ kind: 'observed', requirementId: 'VAR-05', form: 'without error', detail: 'login' })],
      },
      'https://reports.example/',
    );
    const [metadata, ...steps] = messages;
    assert.equal(metadata?.type, 'metadata');
    const data = metadata?.type === 'metadata' ? metadata.data : {};
    assert.deepEqual(
      data.labels?.filter((label) => label.name === 'epic').map((label) => label.value),
      ['Variants'],
    );
    assert.match(data.description ?? '', /^\*\*VAR-05\*\* \(VARIANT\)/);
    assert.ok(
      (data.links ?? []).every((link) => link.url.startsWith('https://reports.example/')),
      'links point at the reports base',
    );
    assert.deepEqual(data.parameters, [
      { name: 'observed VAR-05', value: 'without error (login)', excluded: true },
      { name: 'header', value: 'apiKey' },
    ]);
    assert.deepEqual(
      steps.map((message) => (message.type === 'step_start' ? message.data.name : message.type)),
      ['observed VAR-05: without error (login)', 'step_stop', 'note: uses a shared key', 'step_stop'],
    );
    assert.ok(
      steps.every((message) => message.type !== 'step_start' || message.data.start === 1_500),
      'steps are dated at the end of the test',
    );
  });
});

describe('redact: credentials that no configuration knows', () => {
  it('removes a run of BIP-39 words (a secretKey) in prose, a JSON array or a JSON string, and leaves prose alone', () => {
    const words = 'abandon ability able about above absent absorb abstract absurd abuse access accident'.split(' ');
    assert.equal(redact(`Kx: ${words.join(' ')}. Zq`, []), 'Kx: [REDACTED]. Zq');
    assert.equal(redact(JSON.stringify(words), []), '["[REDACTED]"]');
    assert.equal(redact(JSON.stringify(words.join('\n')), []), '"[REDACTED]"');
    const prose = 'The 200 body of listGroups MUST be a pagination envelope whose data is an array of Group objects.';
    assert.equal(redact(prose, []), prose);
    assert.equal(redact(words.slice(0, 11).join(' '), []), words.slice(0, 11).join(' '), 'eleven words are not a key');
  });

  it('removes credential fields of single-quoted literals and of JSON inside a JSON string', () => {
    assert.equal(redact(`{'passphrase':'Input-Key!'}`, []), `{'passphrase':'[REDACTED]'}`);
    assert.equal(redact(JSON.stringify(JSON.stringify({ password: 'pw-123456' })), []), '"{\\"password\\":\\"[REDACTED]\\"}"');
  });

  it('removes the secrets the suite generates itself', () => {
    const passphrase = generatedSecret();
    assert.match(passphrase, /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z\d]).{8,64}$/, 'it follows the interface recommendation');
    assert.equal(redact(`expected "${passphrase}"`, []), 'expected "[REDACTED]"');
  });
});

describe('redactColoured', () => {
  it('finds a secret that colour codes split, and keeps the colours when there is nothing to hide', () => {
    const split = `+ "token": "${password.slice(0, 3)}\u001b[7m${password.slice(3)}\u001b[27m"`;
    assert.equal(redactColoured(split, referenceSecrets), '+ "token": "[REDACTED]"');
    const harmless = '\u001b[31m- Expected\u001b[39m';
    assert.equal(redactColoured(harmless, referenceSecrets), harmless);
  });
});

describe("errorLine of a test's failure", () => {
  it('keeps the first line, and the Expected and Received values after a bare expect header', () => {
    assert.equal(
      errorLine('Response does not match operation listGroups (GET /groups): check "status" failed.\nReceived: status 500', 'a test'),
      'Response does not match operation listGroups (GET /groups): check "status" failed.',
    );
    assert.equal(
      errorLine(
        'Error: \u001b[2mexpect(\u001b[22mreceived).toBe(expected)\n\nExpected: \u001b[32m500\u001b[39m\nReceived: \u001b[31m200\u001b[39m\n    at x.spec.ts:3',
        'a test',
      ),
      'expect(received).toBe(expected); Expected: 500; Received: 200',
    );
  });
});

describe('Allure failure categories (allurerc.mjs)', () => {
  /** Allure 3 files a failure under the first category whose status and message match. */
  async function categoryOf(message: string, status = 'failed'): Promise<string | undefined> {
    const configUrl: string = new URL('../../allurerc.mjs', import.meta.url).href;
    const config = ((await import(configUrl)) as { default: { categories: { name: string; matchers: { statuses: string[]; message?: string } }[] } }).default;
    return config.categories.find(
      ({ matchers }) => matchers.statuses.includes(status) && (matchers.message === undefined || new RegExp(matchers.message).test(message)),
    )?.name;
  }

  it('sorts the messages of the harness and of Playwright', async () => {
    const UNREACHABLE = 'Target unreachable or misconfigured';
    const AUTHENTICATION = 'Authentication: credentials rejected, or accepted where they must not be';
    const table: [string, string, string][] = [
      ['listGroups: GET http://127.0.0.1:1/groups got no response: connection refused: nothing listens at the target address', 'failed', UNREACHABLE],
      ['Test timeout of 30000ms exceeded.', 'broken', UNREACHABLE],
      ['Target configuration is invalid (TARGET_FILE=x). Fix these variables:', 'failed', UNREACHABLE],
      ['Login of the developer account (TARGET_EMAIL) failed: HTTP 401', 'failed', AUTHENTICATION],
      ['Response does not match operation listGroups (GET /groups): check "status" failed.\nExpected status 200, received 401.', 'failed', AUTHENTICATION],
      ['Response does not match operation listGroups (GET /groups): check "body" failed.', 'failed', 'Contract violation'],
      ['Error: expect(received).toBe(expected) // Object.is equality', 'failed', 'Contract violation'],
      ['TypeError: Cannot read properties of undefined', 'failed', 'Suite error'],
    ];
    for (const [message, status, category] of table) assert.equal(await categoryOf(message, status), category, message);
  });
});

describe('isTextContentType', () => {
  it('treats text, JSON and XML types (with parameters) as text, and images as binary', () => {
    for (const type of ['text/plain', 'application/json; charset=utf-8', 'application/vnd.allure.message+json', 'application/xml']) {
      assert.equal(isTextContentType(type), true, type);
    }
    assert.equal(isTextContentType('image/png'), false);
  });
});

describe('RedactionReporter', () => {
  function step(title: string, error?: string): TestStep {
    return {
      title,
      titlePath: () => [title],
      category: 'test.step',
      duration: 1,
      startTime: new Date(),
      steps: [],
      attachments: [],
      annotations: [],
      ...(error === undefined ? {} : { error: { message: error } }),
    };
  }

  /** Runs `body` with these variables set (undefined: unset), and puts the environment back afterwards: the reporter names its secret file in it. */
  async function withEnvironment(variables: Record<string, string | undefined>, body: () => Promise<void>): Promise<void> {
    const names = [...Object.keys(variables), 'CONFORMANCE_SECRETS_FILE'];
    const previous = new Map(names.map((name) => [name, process.env[name]]));
    for (const [name, value] of Object.entries(variables)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    try {
      await body();
    } finally {
      for (const [name, value] of previous) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  const config = { configFile: fileURLToPath(new URL('../../playwright.config.ts', import.meta.url)), projects: [] } as unknown as FullConfig;

  it('redacts in place what later reporters read: errors, steps, attachments, annotations and output', () =>
    withEnvironment({ TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: undefined }, async () => {
      const directory = mkdtempSync(join(tmpdir(), 'redaction-'));
      try {
        const attachmentFile = join(directory, 'body.txt');
        writeFileSync(attachmentFile, `key ${apiKey}`);
        const reportFile = join(directory, 'junit.xml');
        const reporter = new RedactionReporter({ outputs: [reportFile] });
        reporter.onBegin(config, {} as Suite);

        const diff = `expect(received).toEqual(expected)\n+   "privateKey": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----",\n+   "password": "${password}"`;
        const annotation = { type: 'observed', description: `UNS-01: echoed ${apiKey}` };
        const result = {
          errors: [{ message: diff, stack: `Error: ${diff}\n    at x.spec.ts:1` }],
          error: { message: diff },
          attachments: [
            { name: 'HTTP 200 GET /groups', contentType: 'text/plain', body: Buffer.from(`apikey: ${apiKey}`) },
            { name: 'from file', contentType: 'text/plain', path: attachmentFile },
            { name: 'image', contentType: 'image/png', body: Buffer.from(apiKey) },
          ],
          annotations: [annotation],
          steps: [step(`GET ?apikey=${apiKey}`, `failed with ${password}`)],
          stdout: [`console ${password}\n`],
          stderr: [Buffer.from(`err ${apiKey}`)],
        } as unknown as TestResult;
        reporter.onTestEnd({ annotations: [annotation] } as unknown as TestCase, result);

        const everything = JSON.stringify(result, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('utf8') : value));
        const readable = everything.replace(/"image","contentType":"image\/png","body":"[^"]*"/, '');
        for (const secret of [password, apiKey, 'MIIE']) assert.ok(!readable.includes(secret), `${secret} left in ${readable}`);
        assert.equal(readFileSync(attachmentFile, 'utf8'), 'key [REDACTED]');
        assert.equal(result.attachments[2]?.body?.toString('utf8'), apiKey, 'binary attachments are left alone');

        writeFileSync(reportFile, `<failure message="${password}"/>`);
        const warnings: string[] = [];
        const write = process.stderr.write;
        process.stderr.write = ((chunk: string) => warnings.push(chunk) > 0) as typeof process.stderr.write;
        try {
          await reporter.onExit();
        } finally {
          process.stderr.write = write;
        }
        assert.equal(readFileSync(reportFile, 'utf8'), '<failure message="[REDACTED]"/>', 'the last pass redacts report files');
        assert.match(
          warnings.join(''),
          /credentials were still present in 1 report file\(s\)[\s\S]*junit\.xml/,
          'and says so, because an earlier layer missed it',
        );
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    }));

  it('redacts what a worker learned during the run, read from the secret file it names to the workers', () =>
    withEnvironment({ TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: undefined }, async () => {
      const reporter = new RedactionReporter();
      const file = process.env['CONFORMANCE_SECRETS_FILE'] ?? '';
      assert.ok(existsSync(file), 'created before any worker starts');
      reporter.onBegin(config, {} as Suite);
      // As a worker does when login answers an opaque token (fixtures/transport/client.ts).
      new SecretList([], file).add(['opaque-Zx81-token-value']);
      const result = {
        errors: [{ message: 'expect(received).toBe(expected)\nReceived: "opaque-Zx81-token-value"' }],
        attachments: [],
        annotations: [],
        steps: [],
        stdout: [],
        stderr: [],
      } as unknown as TestResult;
      reporter.onTestEnd({ annotations: [] } as unknown as TestCase, result);
      assert.equal(result.errors[0]?.message, 'expect(received).toBe(expected)\nReceived: "[REDACTED]"');
      await reporter.onExit();
      assert.equal(existsSync(file), false, 'and removed when the run ends');
    }));

  it('fails closed: without a secret list it withholds every message, attachment, annotation and output, and says why', () =>
    withEnvironment({ TARGET_FILE: undefined, TARGET_BASE_URL: 'https://staging.example.test', TARGET_PASSWORD: undefined }, async () => {
      const warnings: string[] = [];
      const write = process.stderr.write;
      process.stderr.write = ((chunk: string) => warnings.push(chunk) > 0) as typeof process.stderr.write;
      try {
        const reporter = new RedactionReporter();
        reporter.onBegin(config, {} as Suite);
        const result = {
          errors: [{ message: 'Received: "anything at all"', stack: 'Error: anything\n    at x.spec.ts:1', value: 'v', snippet: 's' }],
          attachments: [
            { name: 'HTTP 200 GET /groups', contentType: 'text/plain', body: Buffer.from('apikey: whatever') },
            { name: 'image', contentType: 'image/png', body: Buffer.from([1, 2]) },
          ],
          annotations: [{ type: 'warning', description: 'SEC-08: 70 of 128 words' }],
          steps: [step('GET /groups?x=1', 'failed')],
          stdout: ['printed\n'],
          stderr: [],
        } as unknown as TestResult;
        const test = { annotations: [{ type: 'requirement', description: 'SEC-08' }] } as unknown as TestCase;
        reporter.onTestEnd(test, result);
        assert.deepEqual(result.errors, [{ message: WITHHELD, stack: WITHHELD }]);
        assert.deepEqual(
          result.attachments.map((attachment) => attachment.body?.toString('utf8')),
          [WITHHELD, WITHHELD],
        );
        assert.equal(result.annotations[0]?.description, `SEC-08: ${WITHHELD}`, 'the requirement a finding concerns is structure, its text evidence');
        assert.equal(test.annotations[0]?.description, 'SEC-08', 'the requirement a test cites is no evidence: the certificate still counts it');
        assert.equal(result.steps[0]?.title, WITHHELD);
        assert.equal(result.steps[0]?.error?.message, WITHHELD);
        assert.deepEqual(result.stdout, []);
        await reporter.onExit();
        assert.match(warnings.join(''), /redaction: the target configuration cannot be loaded[\s\S]*withheld/);
        assert.throws(() => reporterSecrets(), SecretListError, 'and a reporter that asks for the list gets an error, not an empty list');
      } finally {
        process.stderr.write = write;
      }
    }));
});

describe('unredactedReporters', () => {
  it('refuses a blob or HTML report that the redaction reporter does not precede, and nothing else', () => {
    assert.match(
      unredactedReporters([['blob']]) ?? '',
      /the blob reporter would write every failure message and attachment unredacted: .*--reporter=\.\/fixtures\/reporters\/redaction\.ts,line,blob/,
    );
    assert.match(unredactedReporters([['html'], ['/repo/fixtures/reporters/redaction.ts']]) ?? '', /the html reporter/);
    assert.equal(unredactedReporters([['./fixtures/reporters/redaction.ts'], ['line'], ['blob']]), undefined);
    assert.equal(
      unredactedReporters([
        ['/repo/fixtures/reporters/redaction.ts', {}],
        ['blob', { outputDir: 'x' }],
      ]),
      undefined,
    );
    assert.equal(unredactedReporters([['dot'], ['json']]), undefined, 'the checks read their JSON reports themselves');
  });
});

describe('withTranscript', () => {
  it('joins the HTTP exchanges of a test into one transcript where the first stood, and keeps every other attachment', () => {
    const text = (name: string, body: string) => ({ name, contentType: 'text/plain', body: Buffer.from(body) });
    const note = text('note', 'n');
    const failure = text('HTTP error GET /x', 'e');
    const result = withTranscript([note, text('HTTP 200 GET /groups', 'first'), failure, text('HTTP 401 POST /login', 'second')]);
    assert.deepEqual(
      result.map((attachment) => attachment.name),
      ['note', 'HTTP exchanges (2)', 'HTTP error GET /x'],
    );
    assert.equal(result[1]?.body?.toString('utf8'), '=== 1 of 2: HTTP 200 GET /groups ===\nfirst\n=== 2 of 2: HTTP 401 POST /login ===\nsecond');
    const single = [text('HTTP 200 GET /groups', 'only')];
    assert.deepEqual(withTranscript(single), single, 'a single exchange keeps its own name');
  });
});

describe('documentationLabelsFirst', () => {
  it('puts epic, feature, story and severity before the labels allure-playwright adds, each group in its order', () => {
    const labels = ['language', 'epic', 'host', 'feature', 'feature', 'story', 'tag', 'severity'].map((name, index) => ({ name, value: String(index) }));
    const arranged = documentationLabelsFirst({ uuid: 'u', name: 't', labels } as unknown as Parameters<typeof documentationLabelsFirst>[0]);
    assert.deepEqual(
      arranged.labels.map((label) => `${label.name}=${label.value}`),
      ['epic=1', 'feature=3', 'feature=4', 'story=5', 'severity=7', 'language=0', 'host=2', 'tag=6'],
    );
  });
});

describe('describeRun', () => {
  it('fingerprints the OpenAPI document exactly as the contract validator that checked the responses', () => {
    assert.equal(describeRun().openapiSha256, openapiSha256());
  });
});
