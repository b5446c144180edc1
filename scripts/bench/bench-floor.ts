/**
 * `npm run bench:floor -- --chains FILE`: the Playwright floor (scripts/lib/floor.ts) of a measured
 * run's shape, for other worker counts and delays than the run had: how long Playwright alone would
 * take on this machine for the same tests, files, requests and chains.
 *
 * FILE is what `npm run bench:latency -- --chains FILE` wrote; `--run delayed` (the default) or
 * `--run noDelay` picks which of its two runs gives the shape. The file also gives that run's test
 * count, workers and delay, which `--tests N` (the tests that sent no request are added as empty
 * ones), `--workers 4,6,8` and `--delay-ms D` replace. `--one-round` sends each test's requests in a
 * single round, as if no request of a test waited for another of the same test: a bound below any
 * real suite of these requests, since a test must at least log in or discover before it acts.
 * Other worker counts keep the measured run's requests, among them each worker's login and
 * discovery: a run with more workers would send a few more.
 *
 * Usage: npm run bench:floor -- --chains FILE [--run delayed|noDelay] [--tests N] [--workers 4,8] [--delay-ms 150] [--one-round]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CriticalPath } from '../lib/critical-path.ts';
import { runFloor, shapeOf, shapeRequests } from '../lib/floor.ts';
import { seconds } from '../lib/playwright-run.ts';

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
        workers: { type: 'string' },
        'delay-ms': { type: 'string' },
        'one-round': { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
const { values } = parse();

/** A whole number of at least `least` written in digits, or a failure naming the option. */
function wholeNumber(option: string, text: string, least: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < least) fail(`${option} takes a whole number of at least ${least}, got ${JSON.stringify(text)}`);
  return value;
}

if (values.chains === undefined) fail('--chains FILE is required: the file `npm run bench:latency -- --chains FILE` wrote');
const run = values.run ?? 'delayed';
if (run !== 'delayed' && run !== 'noDelay') fail(`--run takes delayed or noDelay, got ${JSON.stringify(run)}`);

let parsed: unknown;
try {
  parsed = JSON.parse(readFileSync(values.chains, 'utf8'));
} catch (error) {
  fail(`cannot read ${values.chains} as JSON: ${error instanceof Error ? error.message : String(error)}`);
}
if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail(`${values.chains} is not the object bench:latency --chains writes`);
const chains = parsed as Record<string, unknown>;
const byTest = chains[run];
const isByTest = (value: unknown): value is CriticalPath['byTest'] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((entry: unknown) => {
    const test = entry as Partial<CriticalPath['byTest'][number]> | null;
    return (
      typeof test?.test === 'string' &&
      Number.isInteger(test.steps) &&
      Number.isInteger(test.requests) &&
      (test.steps ?? 0) >= 1 &&
      (test.requests ?? 0) >= (test.steps ?? 0)
    );
  });
if (!isByTest(byTest))
  fail(`${values.chains} has no run ${JSON.stringify(run)} in the form bench:latency --chains writes (it has: ${Object.keys(chains).join(', ')})`);
/** What bench:latency wrote of the run beside its chains (older files have none). */
const measured = ((chains['runs'] ?? {}) as Record<string, Partial<Record<'tests' | 'workers' | 'delayMs', unknown>> | undefined>)[run] ?? {};
const recorded = (value: unknown): string | undefined => (typeof value === 'number' && Number.isInteger(value) ? String(value) : undefined);

const tests = wholeNumber('--tests', values.tests ?? recorded(measured.tests) ?? String(byTest.length), 1);
if (tests < byTest.length) fail(`--tests ${tests} is fewer than the ${byTest.length} tests of the run that sent requests`);
const workerCounts = (values.workers ?? recorded(measured.workers) ?? '8').split(',').map((text) => wholeNumber('--workers', text, 1));
const delayMs = wholeNumber('--delay-ms', values['delay-ms'] ?? recorded(measured.delayMs) ?? '150', 0);

const shaped = values['one-round'] ? byTest.map((entry) => ({ ...entry, steps: 1 })) : byTest;
const shape = shapeOf(shaped, tests);
const steps = shaped.reduce((sum, entry) => sum + entry.steps, 0);
console.log(
  `shape: ${Object.values(shape.files).flat().length} tests in ${Object.keys(shape.files).length} files, ${shapeRequests(shape)} requests, ` +
    `${steps} sequential steps${values['one-round'] ? ' (each test in one round)' : ''}; ${delayMs} ms per answer`,
);
for (const workers of workerCounts) {
  try {
    const result = await runFloor(shape, { workers, delayMs });
    console.log(`${String(workers).padStart(3)} workers: ${seconds(result.wallMs)} (${result.tests} tests, ${result.requests} requests answered)`);
  } catch (error) {
    fail(`with ${workers} workers: ${error instanceof Error ? error.message : String(error)}`);
  }
}
