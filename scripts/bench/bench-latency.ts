/**
 * `npm run bench:latency -- --delay-ms 150`: how long the whole suite takes against a target that
 * is not on loopback, and why. Runs the suite twice in one invocation, each time against a fresh
 * embedded reference behind a proxy on 127.0.0.1 (scripts/lib/recording-proxy.ts) that both
 * interfaces go through: once passing answers on at once, once holding each answer back by the
 * given delay. Both runs use the politeness limits of a realistic remote profile
 * (TARGET_MAX_RPS=2000, TARGET_MAX_CONCURRENCY=32), the workers the harness chooses for a remote
 * target (the proxy is on loopback, so the bench says so with CONFORMANCE_REMOTE=1), and the
 * reporters of playwright.config.ts, as `npm run conformance` runs; their reports replace the
 * previous run's.
 *
 * For each run it prints the wall time of the Playwright run (the reference is started before
 * it, so its start-up is not included), the tests by outcome (the JUnit report), the requests the
 * workers counted and those the proxy saw, and the critical path (scripts/lib/critical-path.ts):
 * the longest chain of requests of one test each asked for only after the one before had been
 * answered, and the sum of every test's chain, which the workers must wait through between them.
 * Then the ratio of the wall times. (The watch of the processing recording, whose reads follow
 * timing rather than the data, runs in global setup: the workers do not count it.)
 *
 * The figures are a measurement, not a test: nothing here fails on a slow machine. The exit code
 * is non-zero when either run of the suite failed. The machine is shared: compare the two runs of
 * one invocation, not runs of different invocations (the cores are timed before each run, as in
 * bench:suite).
 *
 * After each run it runs that run's Playwright floor (scripts/lib/floor.ts): a synthetic suite of
 * the same tests, files, requests and chains, with the same workers, against a server that only
 * waits the same delay. Its wall time is what Playwright itself takes on this machine for a suite of
 * this shape; the suite's own checks, reports and reference account for the rest.
 *
 * `--chains FILE` writes every test's chain of both runs (its length, its requests, the operations
 * of the chain in order) to FILE as JSON, longest first: where to look for requests that could go
 * out together, and which tests sent a different number of requests in the two runs.
 *
 * Usage: npm run bench:latency -- [--delay-ms 150] [--chains FILE]
 */
import { rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { resolveTargetVariables } from '../../fixtures/config/sources.ts';
import type { TimedRequest } from '../../fixtures/run/telemetry.ts';
import { KEY_PAIRS_AT_START, startReference } from '../../fixtures/run/reference-process.ts';
import { criticalPath } from '../lib/critical-path.ts';
import { runFloor, shapeOf, shapeRequests } from '../lib/floor.ts';
import type { FloorResult } from '../lib/floor.ts';
import type { CriticalPath } from '../lib/critical-path.ts';
import { cleanEnv, readRequestCounts, runPlaywright, seconds, workerCpu, workersUsed } from '../lib/playwright-run.ts';
import type { WorkerCpu } from '../lib/playwright-run.ts';
import { startRecordingProxy } from '../lib/recording-proxy.ts';
import { calibrate, JUNIT_FILE, junitCounts } from '../lib/suite-figures.ts';
import type { Counts } from '../lib/suite-figures.ts';

const RUN_TIMEOUT_MS = 600_000;
/** The politeness limits of the remote profile the issue measured (a staging deployment). */
const REMOTE_LIMITS = { TARGET_MAX_RPS: '2000', TARGET_MAX_CONCURRENCY: '32' } as const;

const { values } = parseArgs({ options: { 'delay-ms': { type: 'string', default: '150' }, chains: { type: 'string' } } });
const delayMs = Number(values['delay-ms']);
if (!Number.isInteger(delayMs) || delayMs < 1) throw new Error(`--delay-ms takes a positive integer, got ${JSON.stringify(values['delay-ms'])}`);

const profile = resolveTargetVariables({ TARGET_FILE: REFERENCE_TARGET_FILE }).values;
const recordingDelayMs = Number(profile['TARGET_RECORDING_READY_MS'] ?? 4000);

interface Measurement {
  delayMs: number;
  wallMs: number;
  exitCode: number | null;
  calibrationMs: number;
  counts: Counts;
  /** Workers that wrote request counts. */
  workers: number;
  /** The workers Playwright ran the tests with (its "using N workers" line; else those that wrote counts). */
  configuredWorkers: number;
  /** Requests the workers counted. */
  requests: number;
  /** Requests the proxy received (global setup's pre-flight login included). */
  proxied: number;
  path: CriticalPath;
  /** CPU time of the workers, when they reported it. */
  cpu: WorkerCpu | undefined;
}

async function measure(delay: number): Promise<Measurement> {
  // The JUnit file of an earlier run must not be counted as this run's.
  rmSync(JUNIT_FILE, { force: true });
  const calibrationMs = await calibrate();
  // A fresh reference per run: the suite creates participants, closes a meeting and exhausts a usage limit.
  const reference = await startReference({ recordingDelayMs, extraArgs: ['--key-pairs-at-start', String(KEY_PAIRS_AT_START)] });
  try {
    const proxy = await startRecordingProxy(reference.baseUrl, { delayMs: delay });
    try {
      console.log(`${delay === 0 ? 'no delay' : `${delay} ms per answer`}: running the suite through ${proxy.url} ...`);
      const run = await runPlaywright({
        args: ['test'],
        env: {
          ...cleanEnv(),
          TARGET_FILE: REFERENCE_TARGET_FILE,
          TARGET_BASE_URL: proxy.url,
          TARGET_REALTIME_URL: `${proxy.url}/v2`,
          ...REMOTE_LIMITS,
          CONFORMANCE_REMOTE: '1',
        },
        timeoutMs: RUN_TIMEOUT_MS,
      });
      if (run.timedOut) throw new Error(`the run with ${delay} ms exceeded ${seconds(RUN_TIMEOUT_MS)}`);
      const { workers, totals, perWorker } = readRequestCounts(run.output);
      const timelines = new Map<number, readonly TimedRequest[]>(perWorker.map((entry) => [entry.workerIndex, entry.timeline ?? []]));
      return {
        delayMs: delay,
        wallMs: run.durationMs,
        exitCode: run.code,
        calibrationMs,
        counts: junitCounts(),
        workers,
        configuredWorkers: workersUsed(run.output) ?? workers,
        requests: totals.requests,
        proxied: proxy.requests.length,
        path: criticalPath(timelines),
        cpu: workerCpu(perWorker),
      };
    } finally {
      await proxy.close();
    }
  } finally {
    await reference.stop();
  }
}

/** 'a -> b x3 -> c': repeated neighbours counted rather than listed. */
function runs(names: readonly string[]): string {
  const grouped: { name: string; count: number }[] = [];
  for (const name of names) {
    const last = grouped.at(-1);
    if (last?.name === name) last.count += 1;
    else grouped.push({ name, count: 1 });
  }
  return grouped.map(({ name, count }) => (count === 1 ? name : `${name} x${count}`)).join(' -> ');
}

const CORES = availableParallelism();

/** The floor of a measured run (its shape, its workers, its delay), or why there is none: the run's own figures stand either way. */
async function floorOf(m: Measurement): Promise<FloorResult | string> {
  const shape = shapeOf(m.path.byTest, m.counts.tests);
  console.log(
    `${m.delayMs === 0 ? 'no delay' : `${m.delayMs} ms per answer`}: running the Playwright floor (${shapeRequests(shape)} requests in the run's chains, ${m.configuredWorkers} workers) ...`,
  );
  try {
    return await runFloor(shape, { workers: m.configuredWorkers, delayMs: m.delayMs });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.log(`the Playwright floor FAILED: ${reason}`);
    return reason;
  }
}
// Each floor right after its run: the machine's neighbours change over minutes.
const plain = await measure(0);
const plainFloor = await floorOf(plain);
const delayed = await measure(delayMs);
const delayedFloor = await floorOf(delayed);

const row = (label: string, a: string | number, b: string | number): string => `${label.padEnd(44)}${String(a).padStart(16)}${String(b).padStart(16)}`;
const outcome = (m: Measurement): string => `${m.counts.passed}/${m.counts.skipped}/${m.counts.failed}`;
const chainOf = (m: Measurement): string => String(m.path.longest?.chain.length ?? 0);
const busiest = (m: Measurement): string => (m.path.busiestWorker === undefined ? '-' : `${m.path.busiestWorker.steps} (w${m.path.busiestWorker.worker})`);
console.log(`\n${row('', 'no delay', `${delayMs} ms`)}`);
console.log(row('wall time (Playwright run)', seconds(plain.wallMs), seconds(delayed.wallMs)));
console.log(row('tests (passed/skipped/failed)', outcome(plain), outcome(delayed)));
console.log(row('workers', plain.workers, delayed.workers));
console.log(row('HTTP requests (counted by the workers)', plain.requests, delayed.requests));
console.log(row('HTTP requests (seen by the proxy)', plain.proxied, delayed.proxied));
console.log(row('critical path (longest chain, requests)', chainOf(plain), chainOf(delayed)));
console.log(row('sequential steps (sum of every test chain)', plain.path.sequentialSteps, delayed.path.sequentialSteps));
console.log(row('busiest worker (sum of its tests chains)', busiest(plain), busiest(delayed)));
const cpuText = (m: Measurement, figure: (cpu: WorkerCpu) => string): string => (m.cpu === undefined ? '-' : figure(m.cpu));
const floorText = (floor: FloorResult | string, figure: (result: FloorResult) => string): string => (typeof floor === 'string' ? 'FAILED' : figure(floor));
/** Each run with its Playwright floor, in the order of the table's columns. */
const columns = [
  { m: plain, floor: plainFloor },
  { m: delayed, floor: delayedFloor },
] as const;
const rowOfRuns = (label: string, text: (run: (typeof columns)[number]) => string): string => row(label, text(columns[0]), text(columns[1]));
console.log(rowOfRuns('worker CPU, all workers (user+system)', ({ m }) => cpuText(m, (cpu) => seconds(cpu.totalMs))));
console.log(rowOfRuns("  before a worker's first request (median)", ({ m }) => cpuText(m, (cpu) => seconds(cpu.startupMs))));
console.log(rowOfRuns(`  share of ${CORES} cores x wall time`, ({ m }) => cpuText(m, (cpu) => `${Math.round((100 * cpu.totalMs) / (CORES * m.wallMs))} %`)));
console.log(rowOfRuns('Playwright floor (same shape, answers only wait)', ({ floor }) => floorText(floor, (result) => seconds(result.wallMs))));
console.log(rowOfRuns('  its tests / requests answered', ({ floor }) => floorText(floor, (result) => `${result.tests}/${result.requests}`)));
console.log(rowOfRuns("  the suite's wall time over the floor", ({ m, floor }) => floorText(floor, (result) => `${(m.wallMs / result.wallMs).toFixed(2)}x`)));
console.log(row('cores before the run (ms per scrypt op)', plain.calibrationMs.toFixed(1), delayed.calibrationMs.toFixed(1)));
console.log(row('exit code', String(plain.exitCode), String(delayed.exitCode)));
const longest = delayed.path.longest;
if (longest !== undefined) {
  const waited = longest.chain.reduce((sum, request) => sum + (request.answered - request.asked), 0);
  console.log(
    `\ncritical path with ${delayMs} ms: ${longest.chain.length} requests one after another (${longest.requests} in the test, ${seconds(waited)} waiting) in\n  ${longest.test}\n  ${runs(longest.chain.map((request) => request.operationId))}`,
  );
}
/**
 * What a worker reads once and keeps (the discovery of the target's data, the login, a security key
 * the key tests share) is read once in each worker whose tests need it, and which workers those are
 * changes with the timing: two clean runs of the same suite may count a few requests apart, at most
 * this many per worker. A wider gap, a failed run or other tests is called what it is: different.
 */
const PER_WORKER_READS_AT_MOST = 4;
function requestsNote(): string {
  const gap = Math.abs(plain.requests - delayed.requests);
  if (gap === 0) return ' (the same)';
  const comparable =
    plain.exitCode === 0 &&
    delayed.exitCode === 0 &&
    outcome(plain) === outcome(delayed) &&
    gap <= PER_WORKER_READS_AT_MOST * Math.max(plain.workers, delayed.workers);
  return comparable
    ? ` (${gap} apart: discovery, login and the shared security key are sent once per worker that needs them, and which workers need them follows the timing; --chains shows the tests and their workers)`
    : ' (DIFFERENT)';
}
// `runs` gives each run's test total and workers, which bench:floor takes as its defaults.
const runFigures = (m: Measurement): { tests: number; workers: number; delayMs: number } => ({
  tests: m.counts.tests,
  workers: m.configuredWorkers,
  delayMs: m.delayMs,
});
if (values.chains !== undefined) {
  writeFileSync(
    values.chains,
    `${JSON.stringify({ noDelay: plain.path.byTest, delayed: delayed.path.byTest, runs: { noDelay: runFigures(plain), delayed: runFigures(delayed) } }, null, 2)}\n`,
  );
}
const TOP_TESTS = 12;
console.log(`\nthe ${TOP_TESTS} longest test chains with ${delayMs} ms (requests one after another / requests of the test):`);
for (const entry of delayed.path.byTest.slice(0, TOP_TESTS))
  console.log(`  ${String(entry.steps).padStart(4)} / ${String(entry.requests).padEnd(4)} ${entry.test}`);
console.log(
  `\nA chain is a sequence of requests of one test, each asked for only after the one before had been answered;` +
    ` a test cannot take less than its longest chain times the delay. With W workers a run waits at least` +
    ` sequential steps x delay / W (here ${seconds((delayed.path.sequentialSteps * delayMs) / Math.max(1, delayed.workers))}).` +
    ` The workers' CPU time is counted by each worker (user + system); the runner, the reference and the proxy share the same cores.` +
    ` A share near 100 % means the run waits for a core rather than for the target, and more workers only add their start-up.` +
    ` The Playwright floor runs a synthetic suite of the same tests, files, requests and chains with the same workers, each request through` +
    ` Playwright's API request context with one expect, against a server that answers a fixed body after the same delay (scripts/lib/floor.ts):` +
    ` what Playwright itself takes on this machine for a suite of this shape, whatever its checks do.`,
);
console.log(
  `\nbench:latency: ${seconds(delayed.wallMs)} with ${delayMs} ms per answer against ${seconds(plain.wallMs)} without: ratio ${(delayed.wallMs / plain.wallMs).toFixed(2)}; ` +
    `Playwright floor of the same shape ${floorText(delayedFloor, (floor) => seconds(floor.wallMs))} and ${floorText(plainFloor, (floor) => seconds(floor.wallMs))}; ` +
    `requests ${plain.requests} and ${delayed.requests}${requestsNote()}`,
);
process.exit(plain.exitCode === 0 && delayed.exitCode === 0 ? 0 : 1);
