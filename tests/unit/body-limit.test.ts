/**
 * TARGET_MAX_BODY_BYTES (fixtures/transport/body-limit.ts): a body past the limit stops being read
 * where it arrives, whether its Content-Length says so or not; the request counts as answered (the
 * target answered, too much), and the call fails with the limit, what arrived and the curl line.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { request } from '@playwright/test';
import type { APIRequestContext, TestInfo } from '@playwright/test';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { hostileProfile } from '../../scripts/lib/hostile-target.ts';
import type { ApiClient } from '../../fixtures/transport/client.ts';
import { BodyLimit } from '../../fixtures/transport/body-limit.ts';
import { unusableAnswer } from '../../fixtures/verdict/checks.ts';
import { notAssessed } from '../../fixtures/verdict/not-assessed.ts';
import { closeServer, listenLocally, recordingLiveness } from './local-server.ts';
import { workerClient } from './worker-client.ts';

interface FakeTestInfo {
  annotations: { type: string; description?: string }[];
  attachments: unknown[];
  errors: { message?: string }[];
  status: string;
  attach: () => Promise<void>;
}

const LIMIT = 1024 * 1024;
const BODY_BYTES = 30 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, ' ');
/** Just under the limit. */
const SMALL_BYTES = LIMIT - 10;

/** What the server managed to write of each body before the client went away. */
const written: number[] = [];
let server: Server;
let url: string;
let context: APIRequestContext;

before(async () => {
  server = createServer((incoming, response) => {
    if (incoming.url?.includes('small') === true) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`[${' '.repeat(SMALL_BYTES - 2)}]`);
      return;
    }
    // `?declared` sends a Content-Length, the rest stream without one.
    const declared = incoming.url?.includes('declared') === true;
    response.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(BODY_BYTES) } : {}) });
    let sent = 0;
    const write = (): void => {
      while (sent < BODY_BYTES && !response.destroyed) {
        sent += CHUNK.length;
        if (!response.write(CHUNK)) {
          response.once('drain', write);
          return;
        }
      }
      if (!response.destroyed) response.end();
    };
    response.once('close', () => written.push(sent));
    write();
  });
  url = await listenLocally(server);
  context = await request.newContext();
});

after(async () => {
  await context.dispose();
  await closeServer(server);
});

/** The client with a watch at LIMIT and a liveness that remembers what it was told. */
function client(): { api: ApiClient; told: string[]; limit: BodyLimit } {
  const target = { ...loadTargetConfig(hostileProfile(url, 10_000)), maxBodyBytes: LIMIT };
  const told: string[] = [];
  const limit = new BodyLimit(LIMIT);
  const { api } = workerClient(context, target, { liveness: recordingLiveness(told), bodyLimit: limit });
  return { api, told, limit };
}

describe('a body past TARGET_MAX_BODY_BYTES', () => {
  for (const { name, query, seen } of [
    { name: 'without a Content-Length is cut once the limit is read', query: {}, seen: /bytes had arrived when the suite stopped reading/ },
    { name: 'with a Content-Length over the limit is cut before it is read', query: { declared: 1 }, seen: new RegExp(`its Content-Length is ${BODY_BYTES}`) },
  ]) {
    it(name, async () => {
      const { api, told, limit } = client();
      try {
        written.length = 0;
        // Outside a Playwright test the failure itself is thrown (inside one, unusableAnswer below).
        await assert.rejects(api.call('getMeetingsSummary', { query }), (error: Error) => {
          const [first = '', ...rest] = error.message.split('\n');
          const limitWords = `exceeded the limit of ${LIMIT} bytes \\(TARGET_MAX_BODY_BYTES\\): `;
          assert.match(first, new RegExp(`^getMeetingsSummary: GET .* got no usable response: target's response body ${limitWords}`));
          assert.match(first, seen);
          assert.match(rest.join('\n'), /^curl /m);
          return true;
        });
        // The target answered: not a request without an answer, which would count towards an outage.
        assert.deepEqual(told, ['answered']);
        await waitFor(() => written.length > 0);
        assert.ok((written[0] ?? BODY_BYTES) < BODY_BYTES / 2, `the server wrote ${written[0]} of ${BODY_BYTES} bytes before the client went away`);
      } finally {
        limit.close();
      }
    });
  }

  it('is refused once read where the watch saw nothing (a compressed body grows when read)', async () => {
    const { api, told, limit } = client();
    limit.close();
    await assert.rejects(
      api.call('getMeetingsSummary'),
      /got no usable response: .* exceeded the limit of 1048576 bytes \(TARGET_MAX_BODY_BYTES\): 31457280 bytes had arrived/,
    );
    assert.deepEqual(told, ['answered']);
  });

  it('met outside any check of a test, fails the check of each cited requirement governing the operation; the rest is not assessed', () => {
    const testInfo: FakeTestInfo = {
      annotations: [
        { type: 'requirement', description: 'MSUM-01' },
        { type: 'requirement', description: 'GRP-01' },
      ],
      attachments: [],
      errors: [],
      status: 'passed',
      attach: async () => {},
    };
    const failure = new Error(`getMeetingsSummary: GET http://x/meetings/summary got no usable response: too large\ncurl http://x/meetings/summary`);
    assert.throws(
      () => unusableAnswer('getMeetingsSummary', failure, testInfo as unknown as TestInfo),
      (error: unknown) => notAssessed.is(error) && /the answer of getMeetingsSummary it relies on cannot be used: getMeetingsSummary: GET/.test(error.message),
    );
    const checks = testInfo.annotations.filter((annotation) => annotation.type === 'check').map((annotation) => annotation.description);
    // MSUM-01 governs getMeetingsSummary; GRP-01 does not.
    assert.deepEqual(checks, [
      'MSUM-01 failed: getMeetingsSummary answers with a body the suite can read: getMeetingsSummary: GET http://x/meetings/summary got no usable response: too large',
    ]);
    assert.match(testInfo.errors[0]?.message ?? '', /^\[MSUM-01\] getMeetingsSummary: GET .*\ncurl /);
    // Outside a test there is nothing to attribute: the caller's failure stands.
    assert.doesNotThrow(() => unusableAnswer('getMeetingsSummary', failure, undefined));
  });

  it('a body within the limit is read whole', async () => {
    const { api, told, limit } = client();
    try {
      const exchange = await api.call('getMeetingsSummary', { query: { small: 1 } });
      assert.equal(exchange.text.length, SMALL_BYTES);
      assert.deepEqual(told, ['answered']);
    } finally {
      limit.close();
    }
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 100 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
}
