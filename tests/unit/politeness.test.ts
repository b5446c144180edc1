/**
 * Politeness of the API client (fixtures/transport/client.ts) as a live target sees it: a throwaway HTTP server
 * on 127.0.0.1 records when each request arrives and how many are in flight, and the client is the
 * one the specs use (ApiClient through a real Playwright request context).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { request } from '@playwright/test';
import type { APIRequestContext, TestInfo } from '@playwright/test';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { ApiClient, RequestGate, retryDelayMs } from '../../fixtures/transport/client.ts';
import { together } from '../../fixtures/transport/together.ts';
import type { WorkerStats } from '../../fixtures/run/telemetry.ts';
import { VALID_PROFILE } from './valid-profile.ts';
import { closeServer, listenLocally } from './local-server.ts';
import { workerClient } from './worker-client.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let handler: Handler = (_request, response) => response.end();
const arrivals: { at: number; method: string; path: string }[] = [];
let inFlight = 0;
let maxInFlight = 0;
const server = createServer((incoming, response) => {
  arrivals.push({ at: performance.now(), method: incoming.method ?? '', path: incoming.url ?? '' });
  inFlight += 1;
  maxInFlight = Math.max(maxInFlight, inFlight);
  response.once('close', () => {
    inFlight -= 1;
  });
  incoming.resume();
  handler(incoming, response);
});
let base = '';
let context: APIRequestContext;

before(async () => {
  base = await listenLocally(server);
  context = await request.newContext();
});

after(async () => {
  await context.dispose();
  await closeServer(server);
});

function reset(next: Handler): void {
  handler = next;
  arrivals.length = 0;
  inFlight = 0;
  maxInFlight = 0;
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };

/** A client as one worker has it, against the throwaway server, with the given limits. */
function client(limits: { maxRps: number; maxConcurrency: number; timeoutMs?: number }): {
  api: ApiClient;
  stats: WorkerStats;
  annotations: TestInfo['annotations'];
} {
  const target = loadTargetConfig({
    ...VALID_PROFILE,
    TARGET_BASE_URL: base,
    TARGET_REALTIME_URL: `${base}/v2`,
    TARGET_TIMEOUT_MS: String(limits.timeoutMs ?? 5_000),
  });
  const { api, telemetry, testInfo } = workerClient(context, target, { gate: new RequestGate(limits.maxConcurrency, limits.maxRps) });
  return { api, stats: telemetry.stats, annotations: testInfo.annotations };
}

/** A bearer token given per call, so that these tests do not log in. */
const WITH_TOKEN = { auth: { bearer: 'unit-test-token' } };

describe('politeness of the API client', () => {
  it('never lets more than TARGET_MAX_RPS requests arrive within one second', async () => {
    reset(json(200, { data: [] }));
    const { api } = client({ maxRps: 10, maxConcurrency: 50 });
    await Promise.all(Array.from({ length: 25 }, () => api.call('listGroups', WITH_TOKEN)));
    assert.equal(arrivals.length, 25);
    // Half-second windows tolerate up to 500 ms of delivery delay between the gate and the server
    // (requests the gate starts a second apart still arrive over 500 ms apart), while a token
    // bucket's first second (10 at once, then one every 100 ms) puts 15 into one of them.
    const busiest = Math.max(...arrivals.map((first) => arrivals.filter((other) => other.at >= first.at && other.at < first.at + 500).length));
    assert.ok(busiest <= 10, `${busiest} requests arrived within 500 ms; the ceiling is 10 per second`);
    const span = (arrivals.at(-1)?.at ?? 0) - (arrivals[0]?.at ?? 0);
    assert.ok(span >= 1_000, `25 requests at 10 per second took only ${Math.round(span)} ms`);
  });

  it('never has more than TARGET_MAX_CONCURRENCY requests in flight', async () => {
    reset((_request, response) => {
      // The server holds each answer, so that requests would pile up without the gate.
      setTimeout(() => json(200, { data: [] })(_request, response), 100);
    });
    const { api } = client({ maxRps: 1000, maxConcurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => api.call('listGroups', WITH_TOKEN)));
    assert.equal(arrivals.length, 12);
    assert.equal(maxInFlight, 3);
  });

  it('retries a read answered 429 after the Retry-After delay, and annotates the retry', async () => {
    let answered = 0;
    reset((incoming, response) => {
      answered += 1;
      if (answered === 1) json(429, { statusCode: 429, message: 'slow down' }, { 'retry-after': '1' })(incoming, response);
      else json(200, { data: [] })(incoming, response);
    });
    const { api, stats, annotations } = client({ maxRps: 100, maxConcurrency: 4 });
    const exchange = await api.call('listGroups', WITH_TOKEN);
    assert.equal(exchange.status, 200);
    assert.equal(arrivals.length, 2);
    const gap = (arrivals[1]?.at ?? 0) - (arrivals[0]?.at ?? 0);
    assert.ok(gap >= 950, `retried after ${Math.round(gap)} ms although Retry-After said 1 s`);
    assert.equal(stats.retries, 1);
    assert.match(annotations.find((annotation) => annotation.type === 'retry')?.description ?? '', /listGroups: HTTP 429, retry 1 of 2 after 1000 ms/);
  });

  it('caps a long Retry-After at the bound instead of waiting for it', () => {
    assert.equal(retryDelayMs('3600', 0), 5_000);
    assert.equal(retryDelayMs(undefined, 1), 1_000);
  });

  it('does not retry a POST answered 503', async () => {
    reset(json(503, { statusCode: 503, message: 'unavailable' }));
    const { api, stats } = client({ maxRps: 100, maxConcurrency: 4 });
    const exchange = await api.call('upsertParticipant', {
      ...WITH_TOKEN,
      body: { participantId: 'p-1', id: 'p-1', name: 'n', email: 'e@example.test', avatar: 'https://example.test/a.png' },
    });
    assert.equal(exchange.status, 503);
    assert.deepEqual(
      arrivals.map((arrival) => arrival.method),
      ['POST'],
    );
    assert.equal(stats.retries, 0);
  });

  it('does not retry closeMeeting, a GET that changes state, answered 429', async () => {
    reset(json(429, { statusCode: 429, message: 'slow down' }, { 'retry-after': '0' }));
    const { api } = client({ maxRps: 100, maxConcurrency: 4 });
    const exchange = await api.call('closeMeeting', { ...WITH_TOKEN, params: { meetingId: 'm-1' } });
    assert.equal(exchange.status, 429);
    assert.equal(arrivals.length, 1);
  });

  it('fails a response that does not finish within TARGET_TIMEOUT_MS with a plain message', async () => {
    reset((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":[');
    });
    const { api } = client({ maxRps: 100, maxConcurrency: 4, timeoutMs: 300 });
    await assert.rejects(api.call('listGroups', WITH_TOKEN), (error: Error) => {
      assert.match(
        error.message.split('\n')[0] ?? '',
        /^listGroups: GET http:\/\/127\.0\.0\.1:\d+\/groups got no response: target did not finish its response within 300 ms$/,
      );
      return true;
    });
  });

  it('logs in once for many calls of one worker', async () => {
    reset((incoming, response) => {
      if (incoming.url === '/login') json(200, { access_token: 'opaque-token' })(incoming, response);
      else json(200, { data: [] })(incoming, response);
    });
    const { api, stats } = client({ maxRps: 1000, maxConcurrency: 4 });
    await Promise.all(Array.from({ length: 6 }, () => api.call('listGroups')));
    assert.equal(stats.logins, 1);
    assert.equal(arrivals.filter((arrival) => arrival.path === '/login').length, 1);
  });

  it('logs in again when the target says the token expired, and annotates it', async () => {
    let logins = 0;
    reset((incoming, response) => {
      if (incoming.url === '/login') {
        logins += 1;
        json(200, { access_token: `token-${logins}` })(incoming, response);
      } else if (incoming.headers.authorization === 'Bearer token-1') {
        json(401, { statusCode: 401, message: 'jwt expired' })(incoming, response);
      } else {
        json(200, { data: [] })(incoming, response);
      }
    });
    const { api, stats, annotations } = client({ maxRps: 1000, maxConcurrency: 4 });
    const exchange = await api.call('listGroups');
    assert.equal(exchange.status, 200);
    assert.equal(stats.logins, 2);
    assert.ok(annotations.some((annotation) => annotation.type === 'token-renewed'));
  });

  it('sends independent requests together, never more at once than the gate allows, and waits for all of them', async () => {
    reset((incoming, response) => {
      setTimeout(() => {
        if (incoming.url === '/groups?skip=0') json(503, { statusCode: 503, message: 'no' })(incoming, response);
        else json(200, { data: [] })(incoming, response);
      }, 100);
    });
    const { api } = client({ maxRps: 1000, maxConcurrency: 4 });
    const started = performance.now();
    // The first item fails (a POST is not retried; a GET answered 503 would be): together rejects only once all have answered.
    await assert.rejects(
      together([0, 1, 2, 3, 4, 5, 6, 7], async (skip) => {
        const exchange = await api.call('listGroups', { ...WITH_TOKEN, query: { skip } });
        if (exchange.status !== 200) throw new Error(`skip=${skip}: HTTP ${exchange.status}`);
        return exchange;
      }),
      /^Error: skip=0: HTTP 503$/,
    );
    const elapsed = performance.now() - started;
    assert.equal(maxInFlight, 4);
    // skip=0 is retried twice after 503 (500 ms, then 1000 ms of backoff); the others took two waves of 100 ms.
    assert.equal(arrivals.filter((arrival) => arrival.path !== '/groups?skip=0').length, 7);
    assert.ok(elapsed < 2_500, `${Math.round(elapsed)} ms`);
  });

  it('records when each request was asked for and answered, and for which test', async () => {
    reset((_request, response) => setTimeout(() => json(200, { data: [] })(_request, response), 50));
    const { api, stats } = client({ maxRps: 1000, maxConcurrency: 1 });
    await Promise.all([api.call('listGroups', WITH_TOKEN), api.call('listGroups', WITH_TOKEN)]);
    const [first, second] = stats.timeline ?? [];
    assert.ok(first !== undefined && second !== undefined);
    // Both asked for at once; the gate (one in flight) held the second until the first was answered.
    assert.ok(Math.abs(second.asked - first.asked) < 20, `asked ${Math.round(second.asked - first.asked)} ms apart`);
    assert.ok(second.answered - first.answered >= 45, `answered ${Math.round(second.answered - first.answered)} ms apart`);
    assert.equal(first.test, '');
    assert.equal(first.operationId, 'listGroups');
  });
});
