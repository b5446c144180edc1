import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, Suite } from '@playwright/test/reporter';
import { describe, it } from 'node:test';
import { parseDotenv } from '../../fixtures/config/dotenv.ts';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { REDACTED, generatedSecret, redact } from '../../fixtures/evidence/redact.ts';
import RedactionReporter from '../../fixtures/reporters/redaction.ts';
import { parseCli } from '../../reference/cli.ts';
import { verifyPassword } from '../../reference/passwords.ts';
import type { SeedFile } from '../../reference/seed-types.ts';
import { deflateRawSync } from 'node:zlib';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { buildApp } from '../../reference/app.ts';
import {
  ISSUED_SECRET_PATTERNS,
  IssuedSecrets,
  base64Fragments,
  foreignWords,
  keySlicePattern,
  lastPassFindings,
  needles,
  pemLines,
  search,
  zipEntries,
} from '../../scripts/lib/canary.ts';
import { canaryCredentials, canaryProfile, canarySeed } from '../../scripts/lib/canary-seed.ts';

const seedText = readFileSync(new URL('../../reference/seed/seed.json', import.meta.url), 'utf8');
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
    assert.deepEqual(
      result.apiKeys.map((key) => key.key),
      [canary.developmentApiKey, canary.productionApiKey, canary.foreignApiKey],
    );
    const outsider = result.users.find((user) => user.id === 'usr-0101');
    assert.equal(await verifyPassword(canary.foreignPassword, outsider?.passwordHash ?? ''), true);
    assert.equal(result.clients[0]?.apiKey, canary.developmentApiKey, 'the client still acts for the development key');
    const developer = result.users.find((user) => user.id === 'usr-0001');
    assert.equal(await verifyPassword(canary.developerPassword, developer?.passwordHash ?? ''), true);
  });

  it('write a profile that configures the canary credentials and no address (so global setup starts the reference)', () => {
    const { values } = parseDotenv(canaryProfile(profileText, canary, 'expired.token.value'));
    assert.equal(values['TARGET_PASSWORD'], canary.developerPassword);
    assert.equal(values['TARGET_SECRET'], canary.developmentSecret);
    assert.equal(values['TARGET_EXPIRED_TOKEN'], 'expired.token.value');
    assert.equal(values['TARGET_FOREIGN_API_KEY'], canary.foreignApiKey);
    assert.equal(values['TARGET_BASE_URL'], undefined);
    const config = loadTargetConfig({ ...values, TARGET_BASE_URL: 'http://127.0.0.1:1', TARGET_REALTIME_URL: 'http://127.0.0.1:1/v2' });
    assert.equal(config.clientId, canary.developmentClientId);
  });

  it('reach the reference through its --seed option', () => {
    assert.deepEqual(parseCli(['--port', '0', '--seed', '/tmp/canary/seed.json']), {
      kind: 'serve',
      port: 0,
      options: { variants: [] },
      seedFile: '/tmp/canary/seed.json',
    });
  });
});

describe('needles', () => {
  it('find a value inside base64 text whatever its alignment', () => {
    const value = 'rs_dev_0123456789abcdef';
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const encoded = Buffer.from(`${prefix}${value} and more`).toString('base64');
      assert.ok(
        base64Fragments(value).some((fragment) => encoded.includes(fragment)),
        `prefix "${prefix}"`,
      );
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

describe('parts of a secretKey', () => {
  const key = Array.from({ length: 128 }, (_, index) => wordlist[(index * 53) % wordlist.length]).join(' ');
  const words = key.split(' ');
  const foreign = foreignWords(128).join(' ');
  const pattern = keySlicePattern([key, foreign]);

  it('are three words of a key in their order, in any surroundings, and nothing less', () => {
    assert.equal(pattern.find(`["${words[3]}",\n  "${words[4]}",\n  "${words[5]}"]`).length, 1);
    assert.equal(pattern.find(`${words[3]}\\n${words[4]}\\n${words[5]}`).length, 1, 'escaped line breaks');
    assert.equal(pattern.find(`${words[3]} ${words[4]}`).length, 0, 'two words');
    assert.equal(pattern.find(`${words[5]} ${words[4]} ${words[3]}`).length, 0, 'out of order');
    assert.equal(pattern.find(redact(`${words[3]} ${words[4]} ${words[5]}`, [key])).length, 0, 'and the harness redacts what it finds');
  });

  it('are not one word of a key alone, whatever list it comes from: reports write English words of their own accord', () => {
    const single = [0, 7, 19, 40, 99].map((index) => foreign.split(' ')[index]).join(', ');
    assert.equal(pattern.find(`e.g. ${single}`).length, 0, 'words of a key out of their order');
    assert.equal(pattern.find(`e.g. ${foreign.split(' ').slice(7, 10).join(' ')}`).length, 1, 'three in their order are a part');
    assert.ok(foreign.split(' ').every((word) => !wordlist.includes(word) && /^[a-z]+$/.test(word)));
  });
});

describe('blob reports', () => {
  /** A zip record of `size` bytes: its signature, then each field [offset, bytes, value] in little-endian order. */
  function record(size: number, signature: number, fields: readonly [number, 2 | 4, number][]): Buffer {
    const buffer = Buffer.alloc(size);
    buffer.writeUInt32LE(signature, 0);
    for (const [offset, bytes, value] of fields) {
      if (bytes === 2) buffer.writeUInt16LE(value, offset);
      else buffer.writeUInt32LE(value, offset);
    }
    return buffer;
  }

  /** A zip archive as yazl writes one: local headers, then the central directory. */
  function zip(files: { name: string; data: Buffer; deflate: boolean }[]): Buffer {
    const locals: Buffer[] = [];
    const central: Buffer[] = [];
    let offset = 0;
    for (const file of files) {
      const stored = file.deflate ? deflateRawSync(file.data) : file.data;
      const name = Buffer.from(file.name);
      const method = file.deflate ? 8 : 0;
      // The central entry repeats the local header's method, sizes and name length, two bytes further on.
      const local = record(30, 0x04034b50, [
        [8, 2, method],
        [18, 4, stored.length],
        [22, 4, file.data.length],
        [26, 2, name.length],
      ]);
      const entry = record(46, 0x02014b50, [
        [10, 2, method],
        [20, 4, stored.length],
        [24, 4, file.data.length],
        [28, 2, name.length],
        [42, 4, offset],
      ]);
      locals.push(local, name, stored);
      central.push(entry, name);
      offset += local.length + name.length + stored.length;
    }
    const directory = Buffer.concat(central);
    const end = record(22, 0x06054b50, [
      [10, 2, files.length],
      [12, 4, directory.length],
      [16, 4, offset],
    ]);
    return Buffer.concat([...locals, directory, end]);
  }

  it('are read file by file, deflated or stored, so that a compressed leak is found', () => {
    const report = Buffer.from('{"method":"onTestEnd","params":{"errors":[{"message":"rs_dev_0123456789abcdef"}]}}\n');
    const entries = zipEntries(
      zip([
        { name: 'report.jsonl', data: report, deflate: true },
        { name: 'resources/a.txt', data: Buffer.from('plain'), deflate: false },
      ]),
    );
    assert.deepEqual(
      entries.map((entry) => [entry.name, entry.data.toString('utf8')]),
      [
        ['report.jsonl', report.toString('utf8')],
        ['resources/a.txt', 'plain'],
      ],
    );
    assert.throws(() => zipEntries(Buffer.from('not a zip')), /not a zip archive/);
  });
});

describe('the tap of the reference', () => {
  it('records every access token, secretKey, private key and passphrase the reference hands out or is given', async () => {
    const issued = new IssuedSecrets();
    const app = await buildApp({ recordingDelayMs: 1000, beforeRoutes: [issued.tap()] });
    try {
      const { email, password } = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
      const login = await app.inject({ method: 'POST', url: '/login', payload: { email, password } });
      const token = (login.json() as { access_token: string }).access_token;
      const key = await app.inject({
        method: 'POST',
        url: '/security',
        headers: { authorization: `Bearer ${token}` },
        payload: { passphrase: 'Tap-Passphrase-1!' },
      });
      const result = key.json() as { secretKey: string; privateKey: string };
      assert.deepEqual([...issued.tokens], [token]);
      assert.deepEqual([...issued.secretKeys], [result.secretKey]);
      assert.deepEqual([...issued.passphrases], ['Tap-Passphrase-1!']);
      const names = issued.values().map((entry) => entry.name);
      assert.ok(names.includes('a line of a privateKey the target issued'));
      assert.ok(pemLines(result.privateKey).length > 10);
      assert.equal(issued.answers.get('2xx'), 2);
    } finally {
      await app.close();
    }
  });
});

describe("the redaction reporter's last pass", () => {
  it('counts as a hit when it still found credentials in a report file, naming the file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'last-pass-'));
    const { password } = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
    writeFileSync(join(directory, 'junit.xml'), `<failure>--data-raw '{"password":"${password}"}'</failure>`);
    writeFileSync(join(directory, 'clean.json'), '{"password":"[REDACTED]"}');
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      // The reference profile's secrets, as in a run against the embedded reference.
      const reporter = new RedactionReporter({ outputs: [directory] });
      reporter.onBegin({ configFile: join(directory, 'playwright.config.ts'), projects: [] } as unknown as FullConfig, {} as Suite);
      await reporter.onExit();
    } finally {
      process.stderr.write = write;
      // The reporter names its secret file to the workers this process does not have.
      delete process.env['CONFORMANCE_SECRETS_FILE'];
      rmSync(directory, { recursive: true, force: true });
    }
    const output = `earlier output\n${written.join('')}later output\n`;
    const hits = lastPassFindings('console output', output);
    assert.equal(hits.length, 1, output);
    assert.match(hits[0]?.context ?? '', /junit\.xml/);
    assert.doesNotMatch(hits[0]?.context ?? '', /clean\.json|later output/);
    assert.deepEqual(lastPassFindings('console output', 'redaction: nothing to say\n'), []);
  });
});
