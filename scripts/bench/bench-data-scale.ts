/**
 * `npm run bench:scale`: does the suite's cost grow with the target's data? Runs the whole suite
 * against the embedded reference seeded at --seed-scale 1 and at --seed-scale 10 (REFERENCE_ARGS),
 * and prints side by side the requests the workers counted (reports/.request-counts/, written by
 * fixtures/run/telemetry.ts), the retries and logins, and the wall time. Exits non-zero when the request
 * counts differ: a suite that reads every page of a list would cost a live target with much data
 * far more than the reference, and would take its rate budget with it. (The watch of the processing
 * recording, which reads as often as timing makes it, runs in global setup: the workers do not count it.)
 *
 * When they differ, the tests whose exchanges (their evidence attachments) differ in number are
 * listed, largest difference first. Login and the worker-cached discovery are charged to whichever
 * test of a worker asks first, so a difference of a few requests can be placement, not paging.
 *
 * Usage: npm run bench:scale -- [--scales 1,10]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { WorkerStats } from '../../fixtures/run/telemetry.ts';
import { cleanEnv, readJsonReport, readRequestCounts, REPO_ROOT, runPlaywright, seconds } from '../lib/playwright-run.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/scale');
const RUN_TIMEOUT_MS = 900_000;

interface Measurement {
  scale: number;
  exitCode: number | null;
  wallMs: number;
  workers: number;
  totals: WorkerStats;
  tests: { passed: number; skipped: number; failed: number };
  /** Exchanges per test title (evidence attachments named "HTTP ..."). */
  perTest: Map<string, number>;
}

const { values } = parseArgs({ options: { scales: { type: 'string', default: '1,10' } } });
const scales = (values.scales ?? '1,10').split(',').map(Number);
if (scales.length !== 2 || scales.some((scale) => !Number.isInteger(scale) || scale < 1)) throw new Error('--scales takes two positive integers, e.g. 1,10');

async function measure(scale: number): Promise<Measurement> {
  const dir = join(OUTPUT_DIR, `scale-${scale}`);
  mkdirSync(dir, { recursive: true });
  const reportFile = join(dir, 'report.json');
  console.log(`--seed-scale ${scale}: running the suite...`);
  const run = await runPlaywright({
    args: ['test', '--reporter=dot,json', `--output=${join(dir, 'test-results')}`],
    env: { ...cleanEnv(), REFERENCE_ARGS: `--seed-scale ${scale}`, PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile },
    timeoutMs: RUN_TIMEOUT_MS,
  });
  if (run.timedOut) throw new Error(`the run at --seed-scale ${scale} exceeded ${seconds(RUN_TIMEOUT_MS)}`);
  const report = readJsonReport(reportFile);
  const count = (...statuses: string[]): number => report.tests.filter((test) => statuses.includes(test.status)).length;
  const perTest = new Map(report.tests.map((test) => [test.title, test.attachments.filter((name) => name.startsWith('HTTP ')).length]));
  return {
    scale,
    exitCode: run.code,
    wallMs: run.durationMs,
    ...readRequestCounts(run.output),
    tests: { passed: count('passed'), skipped: count('skipped'), failed: count('failed', 'timedOut', 'interrupted') },
    perTest,
  };
}

rmSync(OUTPUT_DIR, { recursive: true, force: true });
const [small, large] = [await measure(scales[0] ?? 1), await measure(scales[1] ?? 10)] as [Measurement, Measurement];
const row = (label: string, a: string | number, b: string | number): string => `${label.padEnd(18)}${String(a).padStart(14)}${String(b).padStart(14)}`;
console.log(`\n${row('', `scale ${small.scale}`, `scale ${large.scale}`)}`);
console.log(row('requests', small.totals.requests, large.totals.requests));
console.log(row('retries', small.totals.retries, large.totals.retries));
console.log(row('logins', small.totals.logins, large.totals.logins));
console.log(row('workers', small.workers, large.workers));
console.log(row('wall time', seconds(small.wallMs), seconds(large.wallMs)));
console.log(row('tests passed', small.tests.passed, large.tests.passed));
console.log(row('tests skipped', small.tests.skipped, large.tests.skipped));
console.log(row('tests failed', small.tests.failed, large.tests.failed));
console.log(row('exit code', String(small.exitCode), String(large.exitCode)));

const same = small.totals.requests === large.totals.requests;
if (!same) {
  const differing = [...large.perTest]
    .map(([title, requests]) => ({ title, small: small.perTest.get(title) ?? 0, large: requests }))
    .filter((entry) => entry.small !== entry.large)
    .sort((a, b) => Math.abs(b.large - b.small) - Math.abs(a.large - a.small));
  console.log(
    `\nrequest counts differ by ${large.totals.requests - small.totals.requests}; tests whose exchanges differ in number (scale ${small.scale} -> ${large.scale}):`,
  );
  for (const entry of differing.slice(0, 15)) console.log(`  ${String(entry.small).padStart(5)} -> ${String(entry.large).padEnd(5)} ${entry.title}`);
  if (differing.length > 15) console.log(`  ... and ${differing.length - 15} more`);
}
console.log(same ? '\nbench:scale: the request count does not grow with the data' : '\nbench:scale FAILED: the request count grows with the data');
process.exit(same ? 0 : 1);
