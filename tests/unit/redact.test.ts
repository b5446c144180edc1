import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import fc from 'fast-check';
import { REDACTED, mnemonicSpans, redact, redactHeaders, toCurl } from '../../fixtures/evidence/redact.ts';

const SECRETS = ['pa ss/wörd&1', 'key-123456', 'cid-abcdef', 'sec"ret\\x'];
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSIsImV4cCI6MX0.c2lnbmF0dXJl';

describe('redact', () => {
  it('replaces each secret in plain, URL-encoded, form-encoded and JSON-escaped form', () => {
    const text = [
      'plain pa ss/wörd&1 and key-123456 and cid-abcdef',
      `url ?p=${encodeURIComponent('pa ss/wörd&1')}`,
      'form p=pa+ss%2Fw%C3%B6rd%261',
      `json ${JSON.stringify({ note: 'sec"ret\\x' })}`,
    ].join('\n');
    const result = redact(text, SECRETS);
    assert.equal(result, ['plain [REDACTED] and [REDACTED] and [REDACTED]', 'url ?p=[REDACTED]', 'form p=[REDACTED]', 'json {"note":"[REDACTED]"}'].join('\n'));
  });

  it('ignores empty secrets', () => {
    assert.equal(redact('nothing to hide', ['']), 'nothing to hide');
  });

  it('redacts JWT-looking strings that no configuration knows', () => {
    assert.equal(redact(`token ${JWT} end`, []), `token ${REDACTED} end`);
    assert.equal(redact('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', []), REDACTED, 'unsigned tokens too');
  });

  it('redacts Authorization values whatever the case of the header name', () => {
    assert.equal(redact('authorization: Bearer abc.def', []), `authorization: Bearer ${REDACTED}`);
    assert.equal(redact('AUTHORIZATION: bearer opaque-token', []), `AUTHORIZATION: bearer ${REDACTED}`);
    assert.equal(redact('{"Authorization":"Basic dXNlcjpwdw=="}', []), `{"Authorization":"Basic ${REDACTED}"}`);
    assert.equal(redact('Bearer authentication is required', []), 'Bearer authentication is required', 'prose stays readable');
  });

  it('redacts credential JSON fields in any case and keeps other fields', () => {
    const body = JSON.stringify({
      password: 'p1',
      access_token: 'opaque',
      apiKey: 'k1',
      APIKEY: 'k2',
      secret: 's1',
      Client_Id: 'c1',
      passphrase: 'pp',
      privateKey: 'pk',
      secretKey: 'word word',
      name: 'Ada',
      nested: { password: 'esc\\"aped' },
    });
    const result = JSON.parse(redact(body, [])) as Record<string, unknown>;
    assert.deepEqual(result, {
      password: REDACTED,
      access_token: REDACTED,
      apiKey: REDACTED,
      APIKEY: REDACTED,
      secret: REDACTED,
      Client_Id: REDACTED,
      passphrase: REDACTED,
      privateKey: REDACTED,
      secretKey: REDACTED,
      name: 'Ada',
      nested: { password: REDACTED },
    });
  });

  it('redacts pretty-printed JSON fields and leaves non-string values', () => {
    assert.equal(redact('{\n  "password" : "x",\n  "secret": null\n}', []), `{\n  "password" : "${REDACTED}",\n  "secret": null\n}`);
  });

  it('ends an unterminated credential value at the end of its line, keeping the lines after it', () => {
    const cut = `--data-raw '{"email":"a@b.test","password":"unknown-pw'\nnext "line" stays`;
    assert.equal(redact(cut, []), `--data-raw '{"email":"a@b.test","password":"${REDACTED}\nnext "line" stays`);
    const escaped = JSON.stringify({ message: cut, after: 'kept' });
    const redacted = redact(escaped, []);
    assert.ok(!redacted.includes('unknown-pw'), redacted);
    assert.deepEqual(JSON.parse(redacted), { message: `--data-raw '{"email":"a@b.test","password":"${REDACTED}\nnext "line" stays`, after: 'kept' });
    assert.equal(redact(`{'secret':'unknown-s\n'x': 'y'}`, []), `{'secret':'${REDACTED}\n'x': 'y'}`);
  });

  it('finds nothing more in a report file that holds messages redacted one by one (the last pass of the redaction reporter)', () => {
    // A login test sends a body cut short after the password; each failure quotes it in a curl line
    // (the unreachable-target run before the pre-flight stopped it: junit.xml and an Allure result).
    const failure = (port: number): string =>
      `login: POST http://127.0.0.1:${port}/login got no response: connection refused\n` +
      `curl -sS -i -X POST 'http://127.0.0.1:${port}/login' -H 'Content-Type: application/json' --data-raw '{"email":"dev@ref.test","password":"Dev-Passw0rd!'\n` +
      `    at ApiClient.#send (fixtures/transport/client.ts:434:13)`;
    const secrets = ['Dev-Passw0rd!'];
    const messages = [failure(1), failure(2), `expected "status" to be 400`].map((message) => redact(message, secrets));
    for (const message of messages) assert.ok(!message.includes('Dev-Passw0rd!'));
    const junit = messages.map((message) => `<failure><![CDATA[${message}]]></failure>`).join('\n');
    assert.equal(redact(junit, secrets), junit, 'junit.xml');
    const allure = JSON.stringify({ statusDetails: { message: messages[0], trace: messages[0] }, steps: messages.map((name) => ({ name })) });
    assert.equal(redact(allure, secrets), allure, 'an Allure result');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...messages, 'x', '"', "'", '\n', ' "password":"'), { maxLength: 8 }), (parts) => {
        const file = parts.join('');
        const once = redact(file, secrets);
        assert.equal(redact(once, secrets), once);
        const json = JSON.stringify(parts);
        assert.equal(redact(redact(json, secrets), secrets), redact(json, secrets));
      }),
    );
  });

  it('finds nothing more in an XML attribute that quotes a redacted curl line (a skip reason in junit.xml)', () => {
    // A request that got no answer is not assessed, and its reason (with the curl line) becomes a property of junit.xml.
    const reason = redact(
      `not assessed: listGroups got no response\ncurl -sS -X GET 'http://127.0.0.1:1/groups' -H 'Authorization: Bearer eyJa.b.c' -H 'apikey: rk_dev_0123456789abcdef'`,
      ['rk_dev_0123456789abcdef'],
    );
    const attribute = `<property name="skip" value="${reason.replace(/&/g, '&amp;').replace(/'/g, '&apos;').replace(/"/g, '&quot;')}">`;
    assert.ok(!attribute.includes('eyJa.b.c') && !attribute.includes('rk_dev_0123456789abcdef'), attribute);
    assert.equal(redact(attribute, ['rk_dev_0123456789abcdef']), attribute);
  });

  it('redacts credential query and form parameters', () => {
    assert.equal(redact('https://h/x?apikey=abc&page=2&Password=p', []), `https://h/x?apikey=${REDACTED}&page=2&Password=${REDACTED}`);
  });

  it('redacts PEM blocks, also inside JSON strings', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\nBgkqhkiG9w0B\n-----END PRIVATE KEY-----';
    assert.equal(redact(`key:\n${pem}\nafter`, []), `key:\n-----BEGIN PRIVATE KEY-----${REDACTED}-----END PRIVATE KEY-----\nafter`);
    assert.equal(
      redact(JSON.stringify({ publicKey: pem.replace(/PRIVATE/g, 'PUBLIC') }), []),
      `{"publicKey":"-----BEGIN PUBLIC KEY-----${REDACTED}-----END PUBLIC KEY-----"}`,
    );
  });
});

describe('redact: secretKeys in any surroundings', () => {
  it('leaves no run of 12 BIP-39 words, whatever the gaps between the words and the text around them', () => {
    const word = fc.constantFrom(...wordlist);
    const gap = fc.array(fc.constantFrom(' ', '\n', '\t', '"', ',', '[', ']', '\\n'), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
    const run = fc.tuple(fc.array(word, { minLength: 12, maxLength: 40 }), gap).map(([words, separator]) => words.join(separator));
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), run, fc.string({ maxLength: 40 }), (before, key, after) => {
        assert.deepEqual(mnemonicSpans(redact(`${before} ${key} ${after}`, [])), []);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });
});

/** mnemonicSpans as first written, with regular expressions: the one-pass version must find the same spans. */
function spansByRegExp(text: string): [number, number][] {
  const words = new Set(wordlist);
  const spans: [number, number][] = [];
  let start = 0;
  let end = 0;
  let count = 0;
  for (const token of text.matchAll(/\\n|[A-Za-z0-9]+/g)) {
    if (token[0] === '\\n') continue;
    const word = words.has(token[0]);
    const joined = count > 0 && /^(?:[\s",[\]]|\\n)+$/.test(text.slice(end, token.index));
    if (word && joined) {
      count += 1;
    } else {
      if (count >= 12) spans.push([start, end]);
      start = token.index;
      count = word ? 1 : 0;
    }
    end = token.index + token[0].length;
  }
  if (count >= 12) spans.push([start, end]);
  return spans;
}

describe('mnemonicSpans', () => {
  it('finds the same spans as the regular-expression version, on texts made of words, gaps and their near misses', () => {
    const piece = fc.oneof(
      fc.constantFrom(...wordlist),
      fc.constantFrom(' ', '  ', '\n', '\t', '"', ',', '[', ']', '\\n', '\\', 'n', '\\\\n', '\u00a0', '\u2028', '.', '-', '{', ':'),
      fc.constantFrom('Abandon', 'ABLE', 'abc1', '7', 'zz', 'abandonx', 'é'),
    );
    const gap = fc.constantFrom(' ', ', ', '", "', '\\n', ' \\n', '\n', '\u00a0', ' . ', '\\', '-', '');
    // Runs long enough to count, whose gaps are mostly (not always) ones that join two words.
    const run = fc.array(fc.tuple(fc.constantFrom(...wordlist), gap), { minLength: 10, maxLength: 30 }).map((pairs) => pairs.flat().join(''));
    let found = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, run), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const spans = mnemonicSpans(text);
        if (spans.length > 0) found += 1;
        assert.deepEqual(spans, spansByRegExp(text));
      }),
      { seed: 20261122, numRuns: 2000 },
    );
    assert.ok(found > 100, `only ${found} of 2000 texts held a run of 12 words`);
  });
});

describe('redactHeaders', () => {
  it('redacts credential headers by name in any case, keeping the auth scheme', () => {
    assert.deepEqual(
      redactHeaders(
        {
          AUTHORIZATION: 'Bearer opaque',
          apiKey: 'anything',
          Client_ID: 'x',
          SECRET: 'y',
          'Set-Cookie': 'sid=1',
          accept: 'application/json',
          'x-note': 'has key-123456',
        },
        SECRETS,
      ),
      {
        AUTHORIZATION: `Bearer ${REDACTED}`,
        apiKey: REDACTED,
        Client_ID: REDACTED,
        SECRET: REDACTED,
        'Set-Cookie': REDACTED,
        accept: 'application/json',
        'x-note': `has ${REDACTED}`,
      },
    );
  });

  it('keeps an empty credential header visible, since tests send empty values on purpose', () => {
    assert.deepEqual(redactHeaders({ apikey: '' }, SECRETS), { apikey: '' });
  });
});

describe('toCurl', () => {
  it('builds a copy-pasteable command with redacted headers, URL and body', () => {
    const curl = toCurl(
      {
        method: 'get',
        url: 'http://127.0.0.1:4010/meeting/close/m1?apikey=key-123456',
        headers: { Authorization: `Bearer ${JWT}`, 'Content-Type': 'application/json', APIKEY: 'key-123456' },
        body: JSON.stringify({ apiKey: 'key-123456', note: "it's" }),
      },
      SECRETS,
    );
    assert.equal(
      curl,
      `curl -sS -i -X GET 'http://127.0.0.1:4010/meeting/close/m1?apikey=${REDACTED}'` +
        ` -H 'Authorization: Bearer ${REDACTED}' -H 'Content-Type: application/json' -H 'APIKEY: ${REDACTED}'` +
        ` --data-raw '{"apiKey":"${REDACTED}","note":"it'\\''s"}'`,
    );
    for (const secret of ['key-123456', JWT]) assert.ok(!curl.includes(secret));
  });

  it('omits --data-raw without a body', () => {
    assert.equal(toCurl({ method: 'POST', url: 'https://h/login', headers: {} }, []), `curl -sS -i -X POST 'https://h/login'`);
  });
});

describe('redact: secrets met during the run', () => {
  const key = Array.from({ length: 128 }, (_, index) => wordlist[(index * 37) % wordlist.length]).join(' ');
  const words = key.split(' ');

  it('removes a secretKey whole, and any three or more of its words in their order, whatever separates them', () => {
    assert.equal(redact(`key: ${key}`, [key]), `key: ${REDACTED}`);
    const diff = `Received: ["${words[4]}",\n    "${words[5]}",\n    "${words[6]}",\n+   "${words[7]}"]`;
    assert.ok(!redact(diff, [key]).includes(words[5] ?? ''), redact(diff, [key]));
    const prose = `e.g. ${words[10]}, ${words[11]}, ${words[12]}`;
    assert.equal(redact(prose, [key]), `e.g. ${REDACTED}`);
    assert.equal(redact(JSON.stringify(words.slice(20, 23).join('\n')), [key]), `"${REDACTED}"`, 'JSON-escaped line breaks separate too');
  });

  it("keeps two words of a key, or words out of their order: common words would otherwise be taken from the reports' own text", () => {
    assert.equal(redact(`${words[1]} ${words[2]}`, [key]), `${words[1]} ${words[2]}`);
    assert.equal(redact(`${words[3]} ${words[1]} ${words[2]}`, [key]).includes(words[3] ?? ''), true);
  });

  it('keeps a single word of a key, whatever list it comes from: a key of everyday words shares them with IDs and prose', () => {
    const everyday = Array.from({ length: 128 }, (_, index) => ['part', 'login', 'meeting', 'the', 'status', 'must', 'passed', 'channel'][index % 8]).join(' ');
    const text = 'PART-01 passed: login answers 200; the meeting status MUST hold (channel)';
    assert.equal(redact(text, [everyday]), text);
    assert.equal(redact(`key: ${everyday}`, [everyday]), `key: ${REDACTED}`, 'the key itself goes');
    assert.equal(redact('Received: "part login meeting"', [everyday]), `Received: "${REDACTED}"`, 'and three of its words in their order');
  });

  it('removes a secret in base64 whatever its alignment', () => {
    const secret = 'opaque-token-0123456789';
    for (const prefix of ['', 'a', 'ab']) {
      const encoded = Buffer.from(`${prefix}${secret} and more`).toString('base64');
      assert.ok(redact(encoded, [secret]).includes(REDACTED), `prefix "${prefix}"`);
    }
  });
});
