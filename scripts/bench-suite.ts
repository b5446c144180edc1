/**
 * `npm run bench:suite`: how long the whole suite takes against the embedded reference, reference
 * start-up included, and what it costs the target. Runs `npm run conformance`'s Playwright run as a
 * child process (global setup starts the reference) and prints the wall time, the number of tests
 * by outcome, and the HTTP requests the workers counted (fixtures/http.ts writes them per worker).
 *
 * The figures are a measurement, not a test: nothing here fails on a slow machine. The exit code is
 * the suite's own, so a red suite is not mistaken for a fast one.
 *
 * Usage: npm run bench:suite -- [--runs N] [--layer hand|generated|all]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv, readJsonReport, readRequestCounts, REPO_ROOT, runPlaywright, seconds } from './lib/playwright-run.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/bench-suite');
const RUN_TIMEOUT_MS = 600_000;
const LAYERS: Readonly<Record<string, string[]>> = {
  all: [],
  hand: ['--grep-invert', '@generated'],
  generated: ['--grep', '@generated'],
};

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, layer: { type: 'string', default: 'all' } } });
const runs = Number(values.runs);
const selected = LAYERS[values.layer ?? 'all'];
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a positive integer, got ${JSON.stringify(values.runs)}`);
if (selected === undefined) throw new Error(`--layer takes one of ${Object.keys(LAYERS).join(', ')}, got ${JSON.stringify(values.layer)}`);
const layerArgs: string[] = selected;

interface Sample {
  wallMs: number;
  tests: number;
  passed: number;
  skipped: number;
  failed: number;
  requests: number;
  workers: number;
  exitCode: number | null;
}

async function sample(index: number): Promise<Sample> {
  const dir = join(OUTPUT_DIR, `run-${index}`);
  mkdirSync(dir, { recursive: true });
  const reportFile = join(dir, 'report.json');
  const run = await runPlaywright({
    args: ['test', ...layerArgs, '--reporter=dot,json', `--output=${join(dir, 'test-results')}`],
    env: { ...cleanEnv(), PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile },
    timeoutMs: RUN_TIMEOUT_MS,
  });
  if (run.timedOut) throw new Error(`run ${index} exceeded ${seconds(RUN_TIMEOUT_MS)}`);
  const report = readJsonReport(reportFile);
  const count = (...statuses: string[]): number => report.tests.filter((test) => statuses.includes(test.status)).length;
  const { workers, totals } = readRequestCounts(run.output);
  return {
    wallMs: run.durationMs,
    tests: report.tests.length,
    passed: count('passed'),
    skipped: count('skipped'),
    failed: count('failed', 'timedOut', 'interrupted'),
    requests: totals.requests,
    workers,
    exitCode: run.code,
  };
}

rmSync(OUTPUT_DIR, { recursive: true, force: true });
const samples: Sample[] = [];
for (let index = 1; index <= runs; index += 1) {
  const result = await sample(index);
  samples.push(result);
  console.log(
    `run ${index}/${runs}: ${seconds(result.wallMs)} wall, ${result.tests} tests (${result.passed} passed, ${result.skipped} skipped, ${result.failed} failed), ` +
      `${result.requests} HTTP requests from ${result.workers} workers, exit ${String(result.exitCode)}`,
  );
}
const walls = samples.map((entry) => entry.wallMs).sort((a, b) => a - b);
const median = walls[Math.floor(walls.length / 2)] ?? 0;
const last = samples.at(-1) as Sample;
console.log(
  `\nbench:suite (layer ${values.layer}): median wall time ${seconds(median)} over ${runs} run(s) (min ${seconds(walls[0] ?? 0)}, max ${seconds(walls.at(-1) ?? 0)}), ` +
    `reference start-up included; ${last.tests} tests; ${last.requests} HTTP requests per run`,
);
process.exit(samples.every((entry) => entry.exitCode === 0) ? 0 : 1);
