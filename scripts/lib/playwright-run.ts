/**
 * What the check scripts share: running the Playwright CLI as a bounded child process, and reading
 * its JSON report.
 *
 * The CLI is run with node directly (not through npx) so that a signal sent to the child's pid
 * reaches the Playwright runner itself. The child leads its own process group, so that a timeout,
 * a failure of the calling script or its Ctrl-C ends the runner, its workers and the reference it
 * started, all together.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { REQUEST_COUNTS_DIR } from '../../fixtures/run/telemetry.ts';
import { median } from './median.ts';
import { REPO_ROOT } from './repo-root.ts';
import type { WorkerStats } from '../../fixtures/run/telemetry.ts';

export { REPO_ROOT } from './repo-root.ts';
const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');
const KILL_GRACE_MS = 5_000;

export interface RunOptions {
  /** Arguments after `playwright`, e.g. ['test', '--shard=1/3']. */
  args: readonly string[];
  /** The child's whole environment. */
  env: NodeJS.ProcessEnv;
  /** Working directory, where Playwright looks for its configuration (default: this repository). */
  cwd?: string;
  /** The run is killed (SIGTERM, then SIGKILL) when it takes longer. */
  timeoutMs: number;
  /** Receives each line of output (stdout and stderr), e.g. to echo it with a prefix. */
  onLine?: (line: string) => void;
  /** Called once the child is running, with its pid (to send it signals). */
  onStart?: (pid: number) => void;
}

export interface RunResult {
  /** Exit code, or null when a signal ended the run. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  /** Everything the run printed, stdout and stderr interleaved by arrival. */
  output: string;
}

/** Ends the child's whole process group; a group that is already gone is not an error. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: every process of the group has exited.
  }
}

/**
 * Runs a command as the leader of its own process group and collects what it prints (stdout and
 * stderr, echoed to this process's stdout with `echo`). The group is killed at the timeout, when this
 * script exits, and once the command has closed, so that nothing it started outlives it.
 */
export function runGroup(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; echo?: boolean },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        chunks.push(chunk);
        if (options.echo === true) process.stdout.write(chunk);
      });
    }
    const kill = (): void => {
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    };
    const timer = setTimeout(kill, options.timeoutMs);
    process.once('exit', kill);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      process.removeListener('exit', kill);
      kill();
      resolve({ code, output: chunks.join('') });
    });
  });
}

export function runPlaywright(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...options.args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) return Promise.reject(new Error('could not start the Playwright CLI'));
  const chunks: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      chunks.push(chunk);
      const lines = (pending + chunk).split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) options.onLine?.(line);
    });
  }
  // The calling script may end first (an exception, or its own Ctrl-C): the run must not outlive it.
  const onExit = (): void => killGroup(pid, 'SIGKILL');
  const onSignal = (signal: NodeJS.Signals): void => {
    killGroup(pid, 'SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  options.onStart?.(pid);

  let timedOut = false;
  let grace: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(pid, 'SIGTERM');
    grace = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
  }, options.timeoutMs);

  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(grace);
      process.removeListener('exit', onExit);
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      // Workers or a reference left behind by a runner that died are ended with it.
      killGroup(pid, 'SIGKILL');
      resolve({ code, signal, timedOut, durationMs: performance.now() - started, output: chunks.join('') });
    });
  });
}

/** One test of a Playwright JSON report, flattened. */
export interface ReportedTest {
  /** File and title path, e.g. 'smoke.spec.ts › listing groups ...'. */
  title: string;
  expectedStatus: string;
  /** Status of the last attempt: passed, failed, timedOut, skipped, interrupted. */
  status: string;
  /** The error messages of the last attempt. */
  errors: string[];
  annotations: { type: string; description?: string }[];
  /** Names of the last attempt's attachments (the harness names each exchange "HTTP 200 GET /path"). */
  attachments: string[];
}

export interface JsonReport {
  tests: ReportedTest[];
  /** Errors outside any test (global setup, worker teardown, configuration). */
  errors: string[];
}

interface JsonResult {
  status: string;
  errors?: { message?: string }[];
  annotations?: ReportedTest['annotations'];
  attachments?: { name: string }[];
}

interface JsonSuite {
  title: string;
  specs?: { title: string; tests: { expectedStatus: string; annotations?: ReportedTest['annotations']; results: JsonResult[] }[] }[];
  suites?: JsonSuite[];
}

const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export function readJsonReport(file: string): JsonReport {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { suites?: JsonSuite[]; errors?: { message?: string }[] };
  const tests: ReportedTest[] = [];
  const visit = (suite: JsonSuite, path: string[]): void => {
    const here = suite.title === '' ? path : [...path, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const last = test.results.at(-1);
        tests.push({
          title: [...here, spec.title].join(' › '),
          expectedStatus: test.expectedStatus,
          status: last?.status ?? 'not run',
          errors: (last?.errors ?? []).map((error) => (error.message ?? '').replace(ANSI, '')),
          // The attempt's annotations include those added while it ran (test.fail() in a fixture, findings).
          annotations: last?.annotations ?? test.annotations ?? [],
          attachments: (last?.attachments ?? []).map((attachment) => attachment.name),
        });
      }
    }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of parsed.suites ?? []) visit(suite, []);
  return { tests, errors: (parsed.errors ?? []).map((error) => (error.message ?? '').replace(ANSI, '')) };
}

/** The environment of this process without any TARGET_* or run variable, as a base for a child's. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('TARGET_') && !key.startsWith('PLAYWRIGHT_') && key !== 'CONFORMANCE_RUN_ID' && key !== 'REFERENCE_ARGS') env[key] = value;
  }
  // No colour codes in captured output.
  env['FORCE_COLOR'] = '0';
  return env;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** What one worker wrote at its end (WorkerTelemetry.write, fixtures/run/telemetry.ts). */
export interface WorkerCounts extends WorkerStats {
  workerIndex: number;
}

/**
 * The counts the workers of one run wrote, summed and per worker; global setup names the run at the
 * end of its target line.
 */
export function readRequestCounts(output: string): { workers: number; totals: WorkerStats; perWorker: WorkerCounts[] } {
  const runId = /^conformance target .*; run ([a-z0-9]+)$/m.exec(output)?.[1];
  if (runId === undefined) throw new Error('the run did not print its run ID (global setup\'s "conformance target ...; run <id>" line)');
  const files = readdirSync(REQUEST_COUNTS_DIR).filter((name) => name.startsWith(`${runId}-`) && name.endsWith('.json'));
  if (files.length === 0) throw new Error(`no request counts of run ${runId} in ${REQUEST_COUNTS_DIR}`);
  const entries = files.map((name) => JSON.parse(readFileSync(join(REQUEST_COUNTS_DIR, name), 'utf8')) as WorkerCounts);
  const totals = entries.reduce(
    (sum, entry) => ({
      requests: sum.requests + entry.requests,
      retries: sum.retries + entry.retries,
      logins: sum.logins + entry.logins,
    }),
    { requests: 0, retries: 0, logins: 0 },
  );
  return { workers: entries.length, totals, perWorker: entries };
}

/** The workers Playwright said it runs the tests with ("Running 311 tests using 2 workers"), or undefined. */
export function workersUsed(output: string): number | undefined {
  const match = /^Running \d+ tests? using (\d+) workers?\b/m.exec(output);
  return match === null ? undefined : Number(match[1]);
}

/** The CPU time the workers of a run spent, in all and before their first request, from their counts. */
export interface WorkerCpu {
  /** Sum over the workers (user + system, ms). */
  totalMs: number;
  /** Median over the workers of the CPU spent by the time the worker's HTTP client was set up (ms). */
  startupMs: number;
}

export function workerCpu(perWorker: readonly WorkerCounts[]): WorkerCpu | undefined {
  const measured = perWorker.flatMap((entry) => (entry.cpuMs === undefined ? [] : [entry.cpuMs]));
  if (measured.length === 0) return undefined;
  return { totalMs: measured.reduce((sum, cpu) => sum + cpu.total, 0), startupMs: median(measured.map((cpu) => cpu.startup)) };
}
