/**
 * `npm run bench:suite`: how long the whole suite takes against the embedded reference, reference
 * start-up included, and what it costs the target. Runs `npm run conformance` as a child process,
 * with the reporters of playwright.config.ts (Allure results, JUnit, certification, redaction), so
 * the figure is what a user waits for; global setup starts the reference. Prints the wall time, the
 * number of tests by outcome (from the JUnit report the run writes) and the HTTP requests the
 * workers counted (fixtures/run/telemetry.ts writes them per worker). The run's reports replace the previous
 * run's, as with `npm run conformance`.
 *
 * `--reporters dot` measures the same run with Playwright's dot reporter alone instead, which shows
 * what writing the reports costs.
 *
 * Before each run, two processes time a CPU-bound operation at once (calibrate()): on a shared
 * machine a slow run next to a slow calibration is the neighbours, not the suite.
 *
 * The figures are a measurement, not a test: nothing here fails on a slow machine. The exit code is
 * the suite's own, so a red suite is not mistaken for a fast one.
 *
 * `--fault NAME` (repeatable) also runs the suite, after each clean run, against a reference started
 * with that fault of reference/faults/ (REFERENCE_ARGS), and prints each faulty run's
 * wall time beside the clean run's, as a ratio: how much longer a broken target makes the run (a
 * login answering 201, bodies as text/plain). A faulty run is expected to fail; only the clean runs'
 * exit codes count.
 *
 * `--unreachable` also runs the suite, after each clean run, with the reference profile at an address
 * where nothing listens (scripts/lib/closed-port.ts), as a staging deployment that is down: the
 * pre-flight must stop it with exit code 2 and a TARGET UNREACHABLE certificate. It prints that run's
 * wall time and exit code beside the clean run's, as a ratio; issue 23's bar is exit 2 within 1.5
 * times a clean run's wall time. The benchmark exits 1 when such a run ends with another code.
 *
 * After each clean run it runs that run's Playwright floor (scripts/lib/floor.ts): a synthetic suite
 * of the same tests, files, requests and chains, with the same workers, against a server that
 * answers at once and checks nothing, and prints its wall time beside the run's. That is what
 * Playwright itself takes on this machine for a suite of this shape; the suite's own checks,
 * reports and reference account for the rest. `--skip-floor` leaves it out.
 *
 * Usage: npm run bench:suite -- [--runs N] [--layer hand|generated|all] [--reporters configured|dot] [--fault NAME]... [--unreachable] [--skip-floor]
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT_NOT_JUDGED, REFERENCE_TARGET_FILE } from '../fixtures/config/profile.ts';
import { cleanEnv, readJsonReport, readRequestCounts, REPO_ROOT, runPlaywright, seconds, workerCpu, workersUsed } from './lib/playwright-run.ts';
import type { WorkerCpu } from './lib/playwright-run.ts';
import { closedPort } from './lib/closed-port.ts';
import { criticalPath } from './lib/critical-path.ts';
import { runFloor, shapeOf } from './lib/floor.ts';
import { median } from './lib/median.ts';
import { calibrate, JUNIT_FILE, junitCounts } from './lib/suite-figures.ts';
import type { Counts } from './lib/suite-figures.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/bench-suite');
const RUN_TIMEOUT_MS = 600_000;
const LAYERS: Readonly<Record<string, string[]>> = {
  all: [],
  hand: ['--grep-invert', '@generated'],
  generated: ['--grep', '@generated'],
};
const REPORTERS = ['configured', 'dot'] as const;
type Reporters = (typeof REPORTERS)[number];

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    layer: { type: 'string', default: 'all' },
    reporters: { type: 'string', default: 'configured' },
    fault: { type: 'string', multiple: true, default: [] },
    unreachable: { type: 'boolean', default: false },
    'skip-floor': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const selected = LAYERS[values.layer ?? 'all'];
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a positive integer, got ${JSON.stringify(values.runs)}`);
if (selected === undefined) throw new Error(`--layer takes one of ${Object.keys(LAYERS).join(', ')}, got ${JSON.stringify(values.layer)}`);
if (!(REPORTERS as readonly string[]).includes(values.reporters ?? ''))
  throw new Error(`--reporters takes one of ${REPORTERS.join(', ')}, got ${JSON.stringify(values.reporters)}`);
const layerArgs: string[] = selected;
const reporters = values.reporters as Reporters;

interface Sample {
  wallMs: number;
  /** calibrate() just before the run, in ms per operation. */
  calibrationMs: number;
  tests: number;
  passed: number;
  skipped: number;
  failed: number;
  requests: number;
  workers: number;
  /** CPU time of the workers, when they reported it. */
  cpu: WorkerCpu | undefined;
  exitCode: number | null;
  /** The run's tests that sent requests, with their chains (the shape of its Playwright floor). */
  byTest: ReturnType<typeof criticalPath>['byTest'];
  /** The workers Playwright ran the tests with (its "using N workers" line; else those that wrote counts). */
  configuredWorkers: number;
}

/** Where the certification reporter of playwright.config.ts (and global setup, for an unreachable target) writes. */
const CERTIFICATE_FILE = join(REPO_ROOT, 'reports/certification.json');

interface UnreachableSample {
  wallMs: number;
  calibrationMs: number;
  exitCode: number | null;
  port: number;
  /** From the certificate global setup wrote, when the configured reporters ran. */
  certificate?: { verdict: string; failed: number; notAssessed: number; total: number };
}

/** The reference profile at an address where nothing listens: the pre-flight must stop the run (exit code 2). */
async function unreachableSample(index: number): Promise<UnreachableSample> {
  const dir = join(OUTPUT_DIR, `run-${index}-unreachable`);
  mkdirSync(dir, { recursive: true });
  // The certificate of an earlier run must not be read as this run's.
  if (reporters === 'configured') rmSync(CERTIFICATE_FILE, { force: true });
  const calibrationMs = await calibrate();
  const port = await closedPort();
  const address = `http://127.0.0.1:${port}`;
  const reporterArgs = reporters === 'configured' ? [] : ['--reporter=dot', `--output=${join(dir, 'test-results')}`];
  const run = await runPlaywright({
    args: ['test', ...layerArgs, ...reporterArgs],
    env: { ...cleanEnv(), TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: address, TARGET_REALTIME_URL: `${address}/v2` },
    timeoutMs: RUN_TIMEOUT_MS,
  });
  if (run.timedOut) throw new Error(`run ${index} (nothing listening) exceeded ${seconds(RUN_TIMEOUT_MS)}`);
  const sampled: UnreachableSample = { wallMs: run.durationMs, calibrationMs, exitCode: run.code, port };
  if (reporters !== 'configured') return sampled;
  try {
    const written = JSON.parse(readFileSync(CERTIFICATE_FILE, 'utf8')) as {
      verdict: string;
      totals: Record<string, { total: number; failed: number; notAssessed: number }>;
    };
    const levels = Object.values(written.totals);
    const sum = (field: 'total' | 'failed' | 'notAssessed'): number => levels.reduce((total, level) => total + level[field], 0);
    return { ...sampled, certificate: { verdict: written.verdict, failed: sum('failed'), notAssessed: sum('notAssessed'), total: sum('total') } };
  } catch {
    return sampled;
  }
}

async function sample(index: number, fault?: string): Promise<Sample> {
  const dir = join(OUTPUT_DIR, fault === undefined ? `run-${index}` : `run-${index}-${fault}`);
  mkdirSync(dir, { recursive: true });
  const reportFile = join(dir, 'report.json');
  // The JUnit file of an earlier run must not be counted as this run's.
  if (reporters === 'configured') rmSync(JUNIT_FILE, { force: true });
  const calibrationMs = await calibrate();
  const reporterArgs = reporters === 'configured' ? [] : ['--reporter=dot,json', `--output=${join(dir, 'test-results')}`];
  const run = await runPlaywright({
    args: ['test', ...layerArgs, ...reporterArgs],
    env: { ...cleanEnv(), PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile, ...(fault === undefined ? {} : { REFERENCE_ARGS: `--fault ${fault}` }) },
    timeoutMs: RUN_TIMEOUT_MS,
  });
  if (run.timedOut) throw new Error(`run ${index}${fault === undefined ? '' : ` (fault ${fault})`} exceeded ${seconds(RUN_TIMEOUT_MS)}`);
  let counts: Counts;
  if (reporters === 'configured') {
    counts = junitCounts(JUNIT_FILE);
  } else {
    const report = readJsonReport(reportFile);
    const count = (...statuses: string[]): number => report.tests.filter((test) => statuses.includes(test.status)).length;
    counts = { tests: report.tests.length, passed: count('passed'), skipped: count('skipped'), failed: count('failed', 'timedOut', 'interrupted') };
  }
  const { workers, totals, perWorker } = readRequestCounts(run.output);
  const { byTest } = criticalPath(new Map(perWorker.map((entry) => [entry.workerIndex, entry.timeline ?? []])));
  return {
    wallMs: run.durationMs,
    calibrationMs,
    ...counts,
    requests: totals.requests,
    workers,
    cpu: workerCpu(perWorker),
    exitCode: run.code,
    byTest,
    configuredWorkers: workersUsed(run.output) ?? workers,
  };
}

rmSync(OUTPUT_DIR, { recursive: true, force: true });
const faults = values.fault ?? [];
const samples: Sample[] = [];
const floors: number[] = [];
const ratios = new Map<string, number[]>(faults.map((fault) => [fault, []]));
const unreachable: { ratio: number; exitCode: number | null }[] = [];
const describe = (result: Sample): string =>
  `${seconds(result.wallMs)} wall, ${result.tests} tests (${result.passed} passed, ${result.skipped} skipped, ${result.failed} failed), ` +
  `${result.requests} HTTP requests from ${result.workers} workers` +
  (result.cpu === undefined ? '' : ` (their CPU ${seconds(result.cpu.totalMs)}, of it ${seconds(result.cpu.startupMs)} per worker before its first request)`) +
  `, exit ${String(result.exitCode)}; cores before the run: ${result.calibrationMs.toFixed(1)} ms per scrypt operation`;
for (let index = 1; index <= runs; index += 1) {
  const result = await sample(index);
  samples.push(result);
  console.log(`run ${index}/${runs}: ${describe(result)}`);
  if (!values['skip-floor']) {
    try {
      const floor = await runFloor(shapeOf(result.byTest, result.tests), { workers: result.configuredWorkers, delayMs: 0 });
      floors.push(floor.wallMs);
      console.log(
        `run ${index}/${runs}, its Playwright floor: ${seconds(floor.wallMs)} wall for ${floor.tests} tests and ${floor.requests} requests in the run's chains, ${result.configuredWorkers} workers; ` +
          `the run took ${(result.wallMs / floor.wallMs).toFixed(2)} times its floor`,
      );
    } catch (error) {
      // The run's own figures stand; the floor's failure is said and the benchmark goes on.
      console.log(`run ${index}/${runs}, its Playwright floor FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const fault of faults) {
    const faulty = await sample(index, fault);
    const ratio = faulty.wallMs / result.wallMs;
    ratios.get(fault)?.push(ratio);
    console.log(`run ${index}/${runs} with fault ${fault}: ${describe(faulty)}; ${ratio.toFixed(2)} times the clean run`);
  }
  if (values.unreachable) {
    const down = await unreachableSample(index);
    const ratio = down.wallMs / result.wallMs;
    unreachable.push({ ratio, exitCode: down.exitCode });
    const certificate =
      down.certificate === undefined
        ? 'no certificate read'
        : `certificate ${down.certificate.verdict} (${down.certificate.notAssessed} of ${down.certificate.total} requirements not assessed, ${down.certificate.failed} failed)`;
    console.log(
      `run ${index}/${runs} with nothing listening at 127.0.0.1:${down.port}: ${seconds(down.wallMs)} wall, exit ${String(down.exitCode)}, ${certificate}; ` +
        `${ratio.toFixed(2)} times the clean run's ${seconds(result.wallMs)}; cores before the run: ${down.calibrationMs.toFixed(1)} ms per scrypt operation`,
    );
  }
}
const walls = samples.map((entry) => entry.wallMs).sort((a, b) => a - b);
const medianWall = median(walls);
const last = samples.at(-1) as Sample;
console.log(
  `\nbench:suite (layer ${values.layer}, ${reporters === 'configured' ? 'reporters of playwright.config.ts' : 'dot reporter only'}): median wall time ${seconds(medianWall)} over ${runs} run(s) (min ${seconds(walls[0] ?? 0)}, max ${seconds(walls.at(-1) ?? 0)}), ` +
    `reference start-up included; ${last.tests} tests; ${last.requests} HTTP requests per run; ` +
    `cores: ${Math.min(...samples.map((entry) => entry.calibrationMs)).toFixed(1)} to ${Math.max(...samples.map((entry) => entry.calibrationMs)).toFixed(1)} ms per scrypt operation ` +
    `(two at once; the lower, the quieter the machine)`,
);
if (floors.length > 0) {
  console.log(
    `Playwright floor (the same tests, files, requests and chains, each request through Playwright's API request context with one expect, ` +
      `against a server that answers a fixed body at once; scripts/lib/floor.ts): median ${seconds(median(floors))} (min ${seconds(Math.min(...floors))}, max ${seconds(Math.max(...floors))})`,
  );
}
for (const [fault, values] of ratios) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`fault ${fault}: median ${median(sorted).toFixed(2)} times the clean run's wall time (${sorted.map((ratio) => ratio.toFixed(2)).join(', ')})`);
}
/** Issue 23: a target where nothing listens ends the run with exit code 2 within 1.5 times a clean run's wall time. */
const UNREACHABLE_BAR = 1.5;
if (unreachable.length > 0) {
  const sorted = unreachable.map((entry) => entry.ratio).sort((a, b) => a - b);
  const met = unreachable.every((entry) => entry.exitCode === EXIT_NOT_JUDGED && entry.ratio <= UNREACHABLE_BAR);
  console.log(
    `nothing listening: median ${median(sorted).toFixed(2)} times the clean run's wall time (${sorted.map((ratio) => ratio.toFixed(2)).join(', ')}), ` +
      `exit ${unreachable.map((entry) => String(entry.exitCode)).join(', ')}; bar (exit ${EXIT_NOT_JUDGED} within ${UNREACHABLE_BAR} times): ${met ? 'met' : 'NOT met'}`,
  );
}
const cleanRunsPassed = samples.every((entry) => entry.exitCode === 0);
process.exit(cleanRunsPassed && unreachable.every((entry) => entry.exitCode === EXIT_NOT_JUDGED) ? 0 : 1);
