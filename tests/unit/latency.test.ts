/**
 * The latency benchmark's parts (scripts/bench/bench-latency.ts): the critical path computed from the
 * workers' request timelines, and the proxy that holds each answer back.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { TimedRequest } from '../../fixtures/run/telemetry.ts';
import { criticalPath, longestChain } from '../../scripts/lib/critical-path.ts';
import { runFloor, shapeOf, shapeRequests } from '../../scripts/lib/floor.ts';
import { workerCpu } from '../../scripts/lib/playwright-run.ts';
import { startRecordingProxy } from '../../scripts/lib/recording-proxy.ts';
import { untilNotOk } from '../support/usage-limit.ts';
import type { Exchange } from '../../fixtures/contract/index.ts';

const at = (test: string, operationId: string, asked: number, answered: number): TimedRequest => ({ test, operationId, asked, answered });

describe('critical path', () => {
  it('chains the requests of a test that were asked for only after the one before was answered', () => {
    const requests = [
      at('t', 'login', 0, 10),
      // Three asked for together once login was answered: one step, whatever the gate made of them.
      at('t', 'a', 10, 26),
      at('t', 'b', 10, 25),
      at('t', 'c', 11, 40),
      // Asked for once b was answered, while c was still in flight.
      at('t', 'd', 25, 30),
      at('t', 'e', 30, 35),
    ];
    assert.deepEqual(
      longestChain(requests).map((request) => request.operationId),
      ['login', 'b', 'd', 'e'],
    );
    assert.deepEqual(longestChain([]), []);
  });

  it('takes the longest chain of any test, sums every test chain and leaves out requests outside tests', () => {
    const timelines = new Map<number, TimedRequest[]>([
      [0, [at('one', 'x', 0, 1), at('one', 'y', 1, 2), at('', 'watch', 0, 5), at('', 'watch', 5, 9)]],
      [1, [at('two', 'x', 0, 1), at('two', 'y', 0, 1), at('three', 'x', 0, 1), at('three', 'y', 2, 3), at('three', 'z', 4, 5)]],
    ]);
    const path = criticalPath(timelines);
    assert.equal(path.longest?.test, 'three');
    assert.equal(path.longest?.chain.length, 3);
    assert.equal(path.sequentialSteps, 2 + 1 + 3);
    assert.equal(path.tests, 3);
    assert.equal(path.requestsInTests, 7);
    assert.equal(path.background, 2);
    assert.deepEqual(path.busiestWorker, { worker: 1, steps: 4 });
  });
});

describe('worker CPU of a run', () => {
  const counts = (workerIndex: number, cpuMs?: { startup: number; total: number }) => ({
    workerIndex,
    requests: 1,
    retries: 0,
    logins: 1,
    ...(cpuMs === undefined ? {} : { cpuMs }),
  });

  it('sums the workers and takes the median start-up, leaving out workers that did not report it', () => {
    const cpu = workerCpu([
      counts(0, { startup: 1200, total: 5000 }),
      counts(1, { startup: 1500, total: 4000 }),
      counts(2),
      counts(3, { startup: 1300, total: 3000 }),
    ]);
    assert.deepEqual(cpu, { totalMs: 12_000, startupMs: 1300 });
  });

  it('takes the mean of the two middle start-ups for an even number of workers', () => {
    assert.equal(
      workerCpu([
        counts(0, { startup: 1000, total: 1 }),
        counts(1, { startup: 1400, total: 1 }),
        counts(2, { startup: 1200, total: 1 }),
        counts(3, { startup: 9000, total: 1 }),
      ])?.startupMs,
      1300,
    );
  });

  it('is unknown when no worker reported it (counts of an older run)', () => {
    assert.equal(workerCpu([counts(0), counts(1)]), undefined);
  });
});

describe('delaying proxy', () => {
  const upstream = createServer((incoming, response) => {
    incoming.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ path: incoming.url, method: incoming.method }));
  });
  let origin = '';
  before(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('holds each answer back by the delay and passes it on unchanged, several at once', async () => {
    const proxy = await startRecordingProxy(origin, { delayMs: 300 });
    try {
      const started = performance.now();
      const answers = await Promise.all(['/a', '/v2/b?x=1', '/c'].map(async (path) => (await fetch(`${proxy.url}${path}`)).json()));
      const elapsed = performance.now() - started;
      assert.deepEqual(answers, [
        { path: '/a', method: 'GET' },
        { path: '/v2/b?x=1', method: 'GET' },
        { path: '/c', method: 'GET' },
      ]);
      assert.ok(elapsed >= 300, `answered after ${Math.round(elapsed)} ms`);
      // Together, not one after another (which would take 900 ms).
      assert.ok(elapsed < 900, `three answers took ${Math.round(elapsed)} ms`);
      assert.deepEqual(
        proxy.requests.map((request) => [request.path, request.status]),
        [
          ['/a', 200],
          ['/v2/b?x=1', 200],
          ['/c', 200],
        ],
      );
    } finally {
      await proxy.close();
    }
  });
});

describe('reaching a usage limit in waves', () => {
  /** A target whose limit lets `limit` requests through; counts what it was sent and how many at once. */
  function limited(limit: number): { send: () => Promise<Exchange>; sent: () => number; mostAtOnce: () => number } {
    let sent = 0;
    let inFlight = 0;
    let most = 0;
    const send = async (): Promise<Exchange> => {
      sent += 1;
      const status = sent > limit ? 403 : 200;
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight -= 1;
      return { status } as Exchange;
    };
    return { send, sent: () => sent, mostAtOnce: () => most };
  }

  it('sends exactly the bound when the limit is reached at the last request', async () => {
    const target = limited(100);
    assert.equal((await untilNotOk(target.send, 101, 4)).status, 403);
    assert.equal(target.sent(), 101);
    assert.equal(target.mostAtOnce(), 4);
  });

  it('stops after the wave that met the limit, within the bound', async () => {
    const target = limited(9);
    assert.equal((await untilNotOk(target.send, 101, 4)).status, 403);
    assert.equal(target.sent(), 12);
  });

  it('returns the last answer when the bound passes without a refusal', async () => {
    const target = limited(1000);
    assert.equal((await untilNotOk(target.send, 10, 4)).status, 200);
    assert.equal(target.sent(), 10);
  });
});

describe('Playwright floor', () => {
  it("takes each test's chain and requests by file, and spreads the tests without a request over the files", () => {
    const byTest = [
      { test: 'b.spec.ts › one', worker: 0, steps: 3, requests: 5, chain: [] },
      { test: 'a.spec.ts › group › two', worker: 1, steps: 1, requests: 1, chain: [] },
      { test: 'b.spec.ts › three', worker: 1, steps: 2, requests: 2, chain: [] },
    ];
    const shape = shapeOf(byTest, 6);
    assert.deepEqual(shape.files, {
      'a.spec.ts': [
        { steps: 1, requests: 1 },
        { steps: 0, requests: 0 },
        { steps: 0, requests: 0 },
      ],
      'b.spec.ts': [
        { steps: 3, requests: 5 },
        { steps: 2, requests: 2 },
        { steps: 0, requests: 0 },
      ],
    });
    assert.equal(shapeRequests(shape), 8);
    // A run that counted fewer tests than sent requests (a test title seen twice) adds none.
    assert.equal(Object.values(shapeOf(byTest, 2).files).flat().length, 3);
  });

  it("runs a Playwright suite that sends each test's requests in its chain and answers them after the delay", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-test-'));
    try {
      const shape = {
        files: {
          'a.spec.ts': [
            { steps: 3, requests: 5 },
            { steps: 0, requests: 0 },
          ],
          'b.spec.ts': [{ steps: 1, requests: 2 }],
        },
      };
      const result = await runFloor(shape, { workers: 1, delayMs: 40, dir });
      assert.equal(result.tests, 3, 'the tests the run passed');
      assert.equal(result.requests, 7);
      const received = (path: string): number => result.exchanges.find((exchange) => exchange.path === path)?.received ?? Number.NaN;
      const answered = (path: string): number => result.exchanges.find((exchange) => exchange.path === path)?.answered ?? Number.NaN;
      assert.deepEqual(result.exchanges.map((exchange) => exchange.path).sort(), [
        '/a.spec.ts/0/1',
        '/a.spec.ts/0/2',
        '/a.spec.ts/0/last-0',
        '/a.spec.ts/0/last-1',
        '/a.spec.ts/0/last-2',
        '/b.spec.ts/0/last-0',
        '/b.spec.ts/0/last-1',
      ]);
      // Two one after another, then three together: each asked for once the one before was answered, the last three before any of them was.
      assert.ok(received('/a.spec.ts/0/2') >= answered('/a.spec.ts/0/1'), 'the second request waited for the first');
      const together = ['/a.spec.ts/0/last-0', '/a.spec.ts/0/last-1', '/a.spec.ts/0/last-2'];
      for (const path of together) assert.ok(received(path) >= answered('/a.spec.ts/0/2'), `${path} waited for the second request`);
      assert.ok(Math.max(...together.map(received)) < Math.min(...together.map(answered)), 'the last three were in flight at once');
      assert.ok(
        received('/b.spec.ts/0/last-1') < answered('/b.spec.ts/0/last-0') && received('/b.spec.ts/0/last-0') < answered('/b.spec.ts/0/last-1'),
        'a chain of one sends both requests together',
      );
      // Another shape in the same directory: its own file, so the spec files of the first declare nothing now.
      const other = await runFloor({ files: { 'c.spec.ts': [{ steps: 1, requests: 1 }] } }, { workers: 1, delayMs: 0, dir });
      assert.equal(other.tests, 1);
      assert.deepEqual(
        other.exchanges.map((exchange) => exchange.path),
        ['/c.spec.ts/0/last-0'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a shape whose files cannot be spec files, before writing anything', async () => {
    const dir = join(tmpdir(), `floor-test-unwritten-${process.pid}`);
    await assert.rejects(
      runFloor({ files: { '../escape.ts': [{ steps: 1, requests: 1 }] } }, { workers: 1, delayMs: 0, dir }),
      /"\.\.\/escape\.ts" cannot be one/,
    );
    assert.ok(!existsSync(dir));
  });
});
