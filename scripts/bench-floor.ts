/**
 * `npm run bench:floor -- --chains FILE`: the Playwright floor (scripts/lib/floor.ts) of a measured
 * run's shape, for other worker counts and delays than the run had: how long Playwright alone would
 * take on this machine for the same tests, files, requests and chains.
 *
 * FILE is what `npm run bench:latency -- --chains FILE` wrote; `--run delayed` (the default) or
 * `--run noDelay` picks which of its two runs gives the shape. `--tests N` is the run's test count
 * (the tests that sent no request are added as empty ones; default: as many as sent requests).
 * `--one-round` sends every test's requests in a single round, as if no request of any test waited
 * for another: a bound below any real suite of this many requests, since a test must at least log in
 * or discover before it acts.
 *
 * Usage: npm run bench:floor -- --chains FILE [--run delayed|noDelay] [--tests N] [--workers 4,8] [--delay-ms 150] [--one-round]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CriticalPath } from './lib/critical-path.ts';
import { runFloor, shapeOf, shapeRequests } from './lib/floor.ts';
import { seconds } from './lib/playwright-run.ts';

function fail(message: string): never {
  process.stderr.write(`bench:floor: ${message}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        chains: { type: 'string' },
        run: { type: 'string', default: 'delayed' },
        tests: { type: 'string' },
        workers: { type: 'string', default: '8' },
        'delay-ms': { type: 'string', default: '150' },
        'one-round': { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
const { values } = parse();

if (values.chains === undefined) fail('--chains FILE is required: the file `npm run bench:latency -- --chains FILE` wrote');
const delayMs = Number(values['delay-ms']);
if (!Number.isInteger(delayMs) || delayMs < 0) fail(`--delay-ms takes a whole number of milliseconds, got ${JSON.stringify(values['delay-ms'])}`);
const workerCounts = (values.workers ?? '').split(',').map(Number);
if (workerCounts.length === 0 || workerCounts.some((count) => !Number.isInteger(count) || count < 1)) fail(`--workers takes positive whole numbers separated by commas, got ${JSON.stringify(values.workers)}`);

let chains: Record<string, unknown>;
try {
  chains = JSON.parse(readFileSync(values.chains, 'utf8')) as Record<string, unknown>;
} catch (error) {
  fail(`cannot read ${values.chains} as JSON: ${error instanceof Error ? error.message : String(error)}`);
}
const byTest = chains[values.run ?? 'delayed'];
const isByTest = (value: unknown): value is CriticalPath['byTest'] =>
  Array.isArray(value) && value.every((entry: unknown) => {
    const test = entry as Partial<CriticalPath['byTest'][number]> | null;
    return typeof test?.test === 'string' && Number.isInteger(test.steps) && Number.isInteger(test.requests) && (test.steps ?? 0) >= 1 && (test.requests ?? 0) >= (test.steps ?? 0);
  });
if (!isByTest(byTest)) fail(`${values.chains} has no run ${JSON.stringify(values.run)} in the form bench:latency --chains writes (runs: ${Object.keys(chains).join(', ')})`);
const tests = values.tests === undefined ? byTest.length : Number(values.tests);
if (!Number.isInteger(tests) || tests < 1) fail(`--tests takes a positive whole number, got ${JSON.stringify(values.tests)}`);

const shaped = values['one-round'] ? byTest.map((entry) => ({ ...entry, steps: 1 })) : byTest;
const shape = shapeOf(shaped, tests);
const steps = shaped.reduce((sum, entry) => sum + entry.steps, 0);
console.log(
  `shape: ${Object.values(shape.files).flat().length} tests in ${Object.keys(shape.files).length} files, ${shapeRequests(shape)} requests, ` +
    `${steps} sequential steps${values['one-round'] ? ' (every test in one round)' : ''}; ${delayMs} ms per answer`,
);
for (const workers of workerCounts) {
  const result = await runFloor(shape, { workers, delayMs });
  console.log(`${String(workers).padStart(3)} workers: ${seconds(result.wallMs)} (${result.tests} tests, ${result.requests} requests answered)`);
}
