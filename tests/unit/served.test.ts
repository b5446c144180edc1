import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { TargetConfig } from '../../fixtures/config/profile.ts';
import type { Exchange } from '../../fixtures/contract/index.ts';
import type { ApiClient, CallOptions } from '../../fixtures/transport/client.ts';
import { findKeyPath, sendKeyRequest } from '../../fixtures/data/served.ts';

/** A client whose answers depend only on the path a request goes to: POST /security or POST /participants. */
function fakeClient(answers: { security: number; participants: number }): { api: ApiClient; sent: { operationId: string; options: CallOptions }[] } {
  const sent: { operationId: string; options: CallOptions }[] = [];
  const call = async (operationId: string, options: CallOptions = {}): Promise<Exchange> => {
    sent.push({ operationId, options });
    const status = operationId === 'createSecurityKey' ? answers.security : answers.participants;
    const path = operationId === 'createSecurityKey' ? '/security' : '/participants';
    return {
      operationId,
      request: { method: 'POST', url: `http://target${path}`, headers: {} },
      status,
      headers: {},
      text: '',
      json: undefined,
      curl: `curl -X POST http://target${path}`,
    };
  };
  return { api: { call } as unknown as ApiClient, sent };
}

const target = (allowWrites: boolean): TargetConfig => ({ allowWrites }) as TargetConfig;

describe('the security-key path the target serves (VAR-03)', () => {
  it('is /security when the sample path answers a key, without trying /participants', async () => {
    const { api, sent } = fakeClient({ security: 200, participants: 401 });
    const found = await findKeyPath(api, target(true), 'Pass-Phrase-1!', 'a test');
    assert.deepEqual([found.path, found.served, found.undecided, found.createdBy], ['/security', true, undefined, 'a test']);
    assert.equal(sent.length, 1);
  });

  it('is /participants when /security answers anything but a success and /participants answers a key', async () => {
    for (const status of [400, 401, 403, 404, 405, 422, 500]) {
      const { api, sent } = fakeClient({ security: status, participants: 200 });
      const found = await findKeyPath(api, target(true), 'Pass-Phrase-1!', 'a test');
      assert.deepEqual(
        [found.path, found.served, found.creation.path, found.creation.exchange.status],
        ['/participants', true, '/participants', 200],
        `HTTP ${status} at /security`,
      );
      // The key request at /participants carries the bearer token alone and is named createSecurityKey.
      assert.deepEqual(sent[1], { operationId: 'upsertParticipant', options: { body: { passphrase: 'Pass-Phrase-1!' }, auth: { apiKey: null } } });
      assert.equal(found.creation.exchange.operationId, 'createSecurityKey');
    }
  });

  it('stays the sample path, judged there, when neither path answers a key', async () => {
    const { api } = fakeClient({ security: 400, participants: 401 });
    const found = await findKeyPath(api, target(true), 'Pass-Phrase-1!', 'a test');
    assert.deepEqual([found.path, found.served, found.undecided, found.creation.exchange.status], ['/security', false, undefined, 400]);
  });

  it('is undecided when /security fails and participant writes are not allowed: /participants is not tried', async () => {
    const { api, sent } = fakeClient({ security: 400, participants: 200 });
    const found = await findKeyPath(api, target(false), 'Pass-Phrase-1!', 'a test');
    assert.equal(found.served, false);
    assert.match(found.undecided ?? '', /HTTP 400.*TARGET_ALLOW_WRITES/);
    assert.equal(sent.length, 1);
  });

  it('keeps a credential the caller sets at /participants', async () => {
    const { api, sent } = fakeClient({ security: 404, participants: 401 });
    await sendKeyRequest(api, '/participants', { body: {}, auth: { bearer: null, apiKey: 'explicit' } });
    assert.deepEqual(sent[0]?.options.auth, { apiKey: 'explicit', bearer: null });
  });
});

describe('one discovery, every layer', () => {
  // Every request of createSecurityKey goes through fixtures/data/served.ts, at the path the worker found;
  // only VAR-03's own test sends both paths itself, to observe them.
  const allowed = new Set(['fixtures/data/served.ts', 'tests/variants.spec.ts']);
  const files = [
    ...readdirSync(new URL('../../fixtures/', import.meta.url), { recursive: true, encoding: 'utf8' }).map((name) => `fixtures/${name}`),
    ...readdirSync(new URL('../', import.meta.url), { recursive: true, encoding: 'utf8' }).map((name) => `tests/${name}`),
  ].filter((path) => path.endsWith('.ts') && !path.startsWith('tests/unit/'));

  it('no layer sends createSecurityKey to the sample path by itself', () => {
    assert.ok(files.length > 50, `${files.length} files read`);
    const offenders = files.filter(
      (path) => !allowed.has(path) && /\.call\(\s*'createSecurityKey'/.test(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});
