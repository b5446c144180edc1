import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { request } from '@playwright/test';
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig, secretValues } from '../../fixtures/config/profile.ts';
import { ApiClient, RequestGate, TokenStore, operationsById } from '../../fixtures/transport/client.ts';
import { WorkerTelemetry } from '../../fixtures/run/telemetry.ts';
import { buildApp } from '../../reference/app.ts';
import { findFault } from '../../reference/faults/index.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { LiteralMatcher, replaceSpans } from '../../fixtures/evidence/literals.ts';
import { REDACTED, redact } from '../../fixtures/evidence/redact.ts';
import {
  MAX_SECRET_LENGTH,
  SecretList,
  SecretListError,
  createSecretFile,
  credentialsIn,
  isOrdinaryText,
  isSecretValue,
  removeSecretFile,
  secretParts,
} from '../../fixtures/evidence/secrets.ts';

const PEM =
  '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFLTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\nAbCdEfGhIjKlMnOp\nshort\n-----END ENCRYPTED PRIVATE KEY-----\n';

describe('credentialsIn', () => {
  it('finds the string values of credential fields at any depth, whatever their spelling', () => {
    const body = {
      access_token: 'opaque-token-1',
      name: 'Ada',
      nested: [{ privateKey: 'pk-value-1', client_secret: 'cs-value-1' }, { secretKey: 'words of a key' }],
      apiKey: 'k-value-1',
      Passphrase: 'pp-value-1',
      token: 'plain-token-1',
      count: 3,
      secret: 12,
    };
    assert.deepEqual(
      credentialsIn(body).sort(),
      ['k-value-1', 'opaque-token-1', 'pk-value-1', 'cs-value-1', 'plain-token-1', 'pp-value-1', 'words of a key'].sort(),
    );
    assert.deepEqual(credentialsIn('access_token'), []);
    assert.deepEqual(credentialsIn(undefined), []);
  });
});

describe('secretParts', () => {
  it('adds each long line of a PEM body, so that a part of a key is redacted too', () => {
    assert.deepEqual(secretParts(PEM), [PEM, 'MIIFLTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI', 'AbCdEfGhIjKlMnOp']);
    assert.deepEqual(secretParts(JSON.stringify(PEM).slice(1, -1)).length, 3, 'also when its line breaks are escaped');
    assert.deepEqual(secretParts('just-a-token'), ['just-a-token']);
  });
});

describe('SecretList', () => {
  it('keeps the profile values whatever their length, and learns only plausible secrets', () => {
    const list = new SecretList(['abc']);
    list.add(['short', ' '.repeat(10), 'x'.repeat(MAX_SECRET_LENGTH + 1), 'opaque-token-1', 'opaque-token-1']);
    assert.deepEqual(list.values, ['abc', 'opaque-token-1']);
  });

  it('hands what a worker learns to the runner through the run secret file, written before it is used', () => {
    const file = createSecretFile();
    try {
      assert.equal(statSync(file).mode & 0o777, 0o600, 'readable by its owner only');
      const worker = new SecretList(['profile-secret'], file);
      const runner = new SecretList(['profile-secret'], file);
      const values = runner.values;
      worker.add(['opaque-token-1', PEM]);
      assert.equal(
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line !== '').length,
        2,
        'one JSON line per secret, not per part',
      );
      runner.refresh();
      assert.equal(runner.values, values, 'the same live array, grown');
      assert.deepEqual(runner.values, ['profile-secret', 'opaque-token-1', PEM, 'MIIFLTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI', 'AbCdEfGhIjKlMnOp']);
      assert.equal(redact('echo opaque-token-1', runner.values), `echo ${REDACTED}`);
      worker.add(['opaque-token-2']);
      runner.refresh();
      assert.equal(redact('then opaque-token-2', runner.values), `then ${REDACTED}`, 'a list that grew is compiled again');
    } finally {
      removeSecretFile(file);
    }
  });

  it('reads a line being written only once it is complete', () => {
    const directory = mkdtempSync(join(tmpdir(), 'secrets-test-'));
    try {
      const file = join(directory, 'secrets.jsonl');
      writeFileSync(file, `${JSON.stringify('first-secret')}\n"second-sec`);
      const runner = new SecretList([], file);
      runner.refresh();
      assert.deepEqual(runner.values, ['first-secret']);
      writeFileSync(file, `${JSON.stringify('first-secret')}\n${JSON.stringify('second-secret')}\n`);
      runner.refresh();
      assert.deepEqual(runner.values, ['first-secret', 'second-secret']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('fails closed: a secret that cannot be written is refused, a file that cannot be read is an error', () => {
    const directory = mkdtempSync(join(tmpdir(), 'secrets-test-'));
    try {
      // A file whose directory is gone (the run ended, tmp was cleaned): not even root can append to it.
      const worker = new SecretList([], join(directory, 'gone', 'secrets.jsonl'));
      assert.throws(
        () => worker.add(['opaque-token-1']),
        (error: unknown) => error instanceof SecretListError && !error.message.includes('opaque-token-1'),
      );
      assert.deepEqual(worker.values, [], 'and not used');
      writeFileSync(join(directory, 'broken.jsonl'), 'not json\n');
      assert.throws(() => new SecretList([], join(directory, 'broken.jsonl')).refresh(), SecretListError);
      assert.throws(() => new SecretList([], join(directory, 'missing.jsonl')).refresh(), SecretListError);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('LiteralMatcher', () => {
  it('finds exactly the occurrences that indexOf finds, for literals of every length', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', 'é', '-', '%', '\n');
    const literal = fc.array(alphabet, { minLength: 1, maxLength: 14 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(literal, { minLength: 1, maxLength: 8 }), fc.array(alphabet, { maxLength: 200 }), (literals, chars) => {
        const text = chars.join('') + literals.join('x');
        const expected: [number, number][] = [];
        for (const needle of new Set(literals)) {
          for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) expected.push([index, index + needle.length]);
        }
        const found = new LiteralMatcher(literals).find(text);
        const key = (spans: [number, number][]): string[] => spans.map(([start, end]) => `${start}:${end}`).sort();
        // Literals of 8 characters or more: every occurrence, overlapping ones included.
        assert.deepEqual(key(found.filter(([start, end]) => end - start >= 8)), key(expected.filter(([start, end]) => end - start >= 8)));
        // All of them: nothing is left once what was found is replaced (the marker holds none of the alphabet).
        const replaced = replaceSpans(text, found, '[#]');
        for (const needle of literals) assert.ok(!replaced.includes(needle), `${JSON.stringify(needle)} left in ${JSON.stringify(replaced)}`);
      }),
      { seed: 20261125, numRuns: 400 },
    );
  });

  it('finds the same when its literals are added in parts as when they are given at once', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', '-', '%');
    const literal = fc.array(alphabet, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(fc.array(literal, { maxLength: 4 }), { minLength: 1, maxLength: 5 }), fc.array(alphabet, { maxLength: 200 }), (parts, chars) => {
        const literals = parts.flat();
        const text = chars.join('') + literals.join('x');
        const grown = new LiteralMatcher();
        for (const part of parts) grown.add(part);
        assert.deepEqual(grown.find(text), new LiteralMatcher(literals).find(text));
        assert.equal(grown.size, new Set(literals).size);
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });
});

describe('redact with a list that grows', () => {
  it('redacts what a list compiled afresh redacts, each time the same list has grown or changed', () => {
    const key = Array.from({ length: 16 }, (_, index) => ['abandon', 'ability', 'able', 'about', 'zebra', 'qzvkt'][index % 6]).join(' ');
    const later = ['opaque-token-000001', 'short', key, 'CsSecret-unknown-form', 'tok%2Fen with space'];
    const text = `a opaque-token-000001 b short c ${key.split(' ').slice(3, 8).join(', ')} d tok%252Fen%20with%20space e ${Buffer.from('xx' + later[0]).toString('base64')} f qzvkt`;
    const list: string[] = ['profile-password-1'];
    for (const secret of later) {
      list.push(secret);
      assert.equal(redact(text, list), redact(text, [...list]), `after adding ${JSON.stringify(secret)}`);
    }
    // Changed in place rather than grown: compiled again, not extended.
    list[1] = 'another-token-000002';
    assert.equal(redact(text, list), redact(text, [...list]));
    assert.ok(redact(text, list).includes('opaque-token-000001'), 'a secret no longer in the list is no longer redacted as a literal');
  });

  it('extends only its own compiled form: another list of the same contents does not take the new secrets', () => {
    const grown = ['shared-secret-0001'];
    const other = ['shared-secret-0001'];
    const text = 'shared-secret-0001 and later-secret-0002';
    redact(text, grown);
    redact(text, other);
    grown.push('later-secret-0002');
    assert.equal(redact(text, grown), `${REDACTED} and ${REDACTED}`);
    assert.equal(redact(text, other), `${REDACTED} and later-secret-0002`, 'the list without the new secret is redacted as it is');
  });

  it('tells lists apart whose secrets joined would read the same', () => {
    const [a, b] = ['k3y-a1-one', 'k3y-b2-two'];
    const text = `one ${a}\u0000${b} two ${a} three ${b}`;
    assert.equal(redact(text, [a, b]), `one ${REDACTED}\u0000${REDACTED} two ${REDACTED} three ${REDACTED}`);
    assert.equal(redact(text, [`${a}\u0000${b}`]), `one ${REDACTED} two ${a} three ${b}`, 'not the compiled form of [a, b]');
  });
});

describe('the API client', () => {
  it('makes an opaque token a secret before anything records it, and no evidence shows it, echoed or not', async () => {
    const faults = ['opaque-access-token', 'echo-credentials-in-header', 'echo-credentials-in-error-message'].map((name) => findFault(name));
    const options = faults.reduce<ReferenceOptions>((current, fault) => fault?.apply(current) ?? current, { recordingDelayMs: 1000 });
    const app = await buildApp(options);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const context = await request.newContext();
    const file = createSecretFile();
    try {
      const target = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: baseUrl, TARGET_REALTIME_URL: `${baseUrl}/v2` });
      const telemetry = new WorkerTelemetry();
      const secrets = new SecretList(secretValues(target), file);
      const transport = { context, gate: new RequestGate(4, 100), telemetry, target, secrets, operations: operationsById() };
      const testInfo = { annotations: [], attachments: [], attach: async () => {} } as unknown as TestInfo;
      const api = new ApiClient(transport, new TokenStore({ email: target.email, password: target.password }, telemetry), testInfo);
      const token = await api.bearer();
      assert.doesNotMatch(token, /^eyJ/, 'the fault hands out an opaque token');
      assert.ok(secrets.values.includes(token));
      const runner = new SecretList([], file);
      runner.refresh();
      assert.ok(runner.values.includes(token), 'and the reporters can learn it');
      const answered = await api.call('listGroups');
      assert.equal(answered.headers['x-echo-1'], token, 'the target echoes it in a header');
      await api.call('listGroups', { auth: { apiKey: 'never-issued-key' } });
      const evidence = testInfo.attachments.map((attachment) => attachment.body?.toString('utf8') ?? '').join('\n');
      assert.ok(evidence.includes('x-echo-1: [REDACTED]'));
      for (const secret of [token, target.apiKey, target.password]) assert.ok(!evidence.includes(secret), 'no secret in the evidence');
    } finally {
      removeSecretFile(file);
      await context.dispose();
      await app.close();
    }
  });
});

describe('what is never a secret by itself', () => {
  it('a value shorter than the shortest secret the run can hold, an ordinary word, an operation or field name, a requirement ID, prefix or level', () => {
    for (const value of [
      'abc12',
      'part',
      'Meeting',
      'login',
      'PART',
      'MUST',
      'UNSPECIFIED',
      'participants',
      'createSecurityKey',
      'listRoomChannelParticipants',
      'totalPages',
      'PART-01',
      'LOGIN-03',
    ]) {
      assert.equal(isOrdinaryText(value) || !isSecretValue(value), true, value);
      assert.equal(isSecretValue(value), false, value);
      assert.equal(redact(`text with ${value} in it`, [value]), `text with ${value} in it`, value);
    }
  });

  it('a credential of any other shape is one', () => {
    for (const value of ['Dev-Passw0rd!', 'rk_dev_f6fe25ccf56f4b9cd4b3b36beb220532', 'kqzmwpxtrlbvnhgfdsakqzmwpxtrlbvn', 'part login meeting', 'abcdef1']) {
      assert.equal(isSecretValue(value), true, value);
      assert.equal(redact(`text with ${value} in it`, [value]), `text with ${REDACTED} in it`, value);
    }
  });

  it("a worker does not add one to the run's list", () => {
    const list = new SecretList([]);
    list.add(['meeting', 'PART-01', 'opaque-Zx81-token']);
    assert.deepEqual(list.values, ['opaque-Zx81-token']);
  });
});
