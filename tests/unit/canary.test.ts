import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { REFERENCE_TARGET_FILE, loadTargetConfig, parseDotenv } from '../../fixtures/config.ts';
import { REDACTED, generatedSecret, redact } from '../../fixtures/redact.ts';
import { parseCli } from '../../reference/cli.ts';
import { verifyPassword } from '../../reference/passwords.ts';
import type { SeedFile } from '../../reference/seed-types.ts';
import { ISSUED_SECRET_PATTERNS, base64Fragments, canaryCredentials, canaryProfile, canarySeed, needles, search } from '../../scripts/canary.ts';

const seedText = readFileSync(new URL('../../fixtures/seed/seed.json', import.meta.url), 'utf8');
const profileText = readFileSync(REFERENCE_TARGET_FILE, 'utf8');

describe('canary seed and profile', () => {
  const canary = canaryCredentials();

  it('replace every credential of the reference seed, with password hashes the reference verifies', async () => {
    const seed = JSON.parse(seedText) as SeedFile;
    const result = canarySeed(seed, canary);
    const text = JSON.stringify(result);
    for (const old of [seed.jwtSecret, ...seed.apiKeys.map((key) => key.key), ...seed.clients.flatMap((client) => [client.clientId, client.secret])]) {
      assert.ok(!text.includes(old), `${old} is still in the canary seed`);
    }
    assert.deepEqual(result.apiKeys.map((key) => key.key), [canary.developmentApiKey, canary.productionApiKey]);
    assert.equal(result.clients[0]?.apiKey, canary.developmentApiKey, 'the client still acts for the development key');
    const developer = result.users.find((user) => user.id === 'usr-0001');
    assert.equal(await verifyPassword(canary.developerPassword, developer?.passwordHash ?? ''), true);
  });

  it('write a profile that configures the canary credentials and no address (so global setup starts the reference)', () => {
    const { values } = parseDotenv(canaryProfile(profileText, canary, 'expired.token.value'));
    assert.equal(values['TARGET_PASSWORD'], canary.developerPassword);
    assert.equal(values['TARGET_SECRET'], canary.developmentSecret);
    assert.equal(values['TARGET_EXPIRED_TOKEN'], 'expired.token.value');
    assert.equal(values['TARGET_BASE_URL'], undefined);
    const config = loadTargetConfig({ ...values, TARGET_BASE_URL: 'http://127.0.0.1:1', TARGET_REALTIME_URL: 'http://127.0.0.1:1/v2' });
    assert.equal(config.clientId, canary.developmentClientId);
  });

  it('reach the reference through its --seed option', () => {
    assert.deepEqual(parseCli(['--port', '0', '--seed', '/tmp/canary/seed.json']), { kind: 'serve', port: 0, options: { variants: [] }, seedFile: '/tmp/canary/seed.json' });
  });
});

describe('needles', () => {
  it('find a value inside base64 text whatever its alignment', () => {
    const value = 'rs_dev_0123456789abcdef';
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const encoded = Buffer.from(`${prefix}${value} and more`).toString('base64');
      assert.ok(base64Fragments(value).some((fragment) => encoded.includes(fragment)), `prefix "${prefix}"`);
    }
  });

  it('cover the plain, URL-encoded and Basic-auth spellings', () => {
    const list = needles([{ name: 'password', value: 'Cn-dev-x!y z' }], [{ name: 'login', user: 'a@b.test', password: 'Cn-dev-x!y z' }]);
    const texts = list.map((needle) => needle.text);
    assert.ok(texts.includes('Cn-dev-x!y z'));
    assert.ok(texts.includes(encodeURIComponent('Cn-dev-x!y z')));
    const basic = Buffer.from('a@b.test:Cn-dev-x!y z').toString('base64');
    assert.ok(list.some((needle) => needle.name.includes('user:password') && basic.includes(needle.text)));
  });
});

describe('search', () => {
  it('reports each hit with a context that masks it', () => {
    const needle = { name: 'TARGET_SECRET', text: 'rs_dev_0123456789abcdef' };
    const hits = search('junit.xml', '<failure message="secret rs_dev_0123456789abcdef leaked"/>', [needle], []);
    assert.equal(hits.length, 1);
    assert.ok(!hits[0]?.context.includes(needle.text));
    assert.match(hits[0]?.context ?? '', /\[CANARY: TARGET_SECRET\] leaked/);
  });

  it('finds issued credentials by their form, and nothing in redacted text', () => {
    const passphrase = generatedSecret();
    const leaky = [
      'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2ln',
      '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIGbMFcGCSqGSIb3DQEFDTBK\n-----END ENCRYPTED PRIVATE KEY-----',
      `passphrase ${passphrase}`,
    ].join('\n');
    assert.equal(search('x', leaky, [], ISSUED_SECRET_PATTERNS).length, 3);
    assert.deepEqual(search('x', redact(leaky, []), [], ISSUED_SECRET_PATTERNS), []);
    assert.ok(redact(`{"note":"${encodeURIComponent(passphrase)}"}`, []).includes(REDACTED), 'URL-encoded generated secrets are redacted too');
  });
});
