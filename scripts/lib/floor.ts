/**
 * The Playwright floor of a measured run: how long Playwright itself takes, on this machine, to run
 * a suite of the same shape that does nothing but send its requests.
 *
 * From a run's request timelines (scripts/lib/critical-path.ts) it writes a synthetic Playwright
 * project with the same test files, the same number of tests in each, and in each test the same
 * requests in the same chain: a test whose longest chain was S requests out of R sends S − 1
 * requests one after another, then the remaining R − S + 1 together. Tests that sent no request
 * (skipped ones, or checks that only read what the run already knew) assert one constant. Each
 * request goes through Playwright's own API request context (a worker-scoped
 * `playwright.request.newContext()`, as fixtures/index.ts does), reads the body and asserts the
 * status with `expect`, as the suite's checks do. The server answers every request with the same
 * small JSON body after the given delay; it validates nothing, signs nothing, keeps no state.
 * There are no reporters beyond `dot`, no global setup, no politeness gate.
 *
 * The project is written to one directory per user and checkout under the system's temporary
 * directory, with a `node_modules` link to this checkout's. Its files are the same from run to run
 * (a file is rewritten, aside and renamed, only when it differs), so Playwright's transform cache
 * serves it as it serves the suite, and a listing of the tests before the timed run fills that
 * cache when it is cold. The shape itself goes to a file of the run's own (`FLOOR_SHAPE`), so that
 * two floors of one checkout at once do not read each other's. Spec files of another shape stay
 * and declare nothing. It cannot be under `node_modules`: Playwright does not compile TypeScript
 * there.
 *
 * The run must pass every test of the shape and the server must have answered every request of
 * it; a floor that ran less is an error, not a figure.
 *
 * What the floor shows: the part of a run's wall time that any suite of this shape pays on this
 * machine with this Playwright and Node.js, whatever its checks do. A target below it cannot be met
 * by the suite's own code.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKOUT_KEY } from '../../fixtures/run/reference-bundle.ts';
import { writeFileAside } from '../../fixtures/evidence/write-aside.ts';
import type { CriticalPath } from './critical-path.ts';
import { cleanEnv, REPO_ROOT, runPlaywright, seconds } from './playwright-run.ts';

/** One test of the synthetic suite: its longest chain and all its requests (0 and 0: no request). */
export interface TestShape {
  steps: number;
  requests: number;
}

export interface FloorShape {
  /** Spec file name (as the suite names it, e.g. 'auth-matrix.spec.ts') to the shapes of its tests. */
  files: Record<string, TestShape[]>;
}

export interface FloorResult {
  wallMs: number;
  /** Tests the run passed: every test of the shape. */
  tests: number;
  /** Requests the floor's server answered: the shape's requests when every test ran. */
  requests: number;
  /** Each request the server answered: its path ('/<file>/<test index>/<step>'), when it arrived and when it was answered (ms, this process's clock). */
  exchanges: { path: string; received: number; answered: number }[];
}

const RUN_TIMEOUT_MS = 600_000;
/** The answer every request of the floor gets: about the size of the suite's typical JSON answer. */
const BODY = JSON.stringify({ statusCode: 200, items: Array.from({ length: 5 }, (_, index) => ({ id: `id-${index}`, name: `name ${index}` })) });

/**
 * The shape of a measured run: its tests that sent requests, by file, with their chains, and as many
 * tests without a request as the run had beyond those (`tests` is the run's total, the JUnit count),
 * dealt to the files in turn, in name order.
 */
export function shapeOf(byTest: CriticalPath['byTest'], tests: number): FloorShape {
  const files: Record<string, TestShape[]> = {};
  for (const entry of byTest) {
    const file = entry.test.split(' › ')[0] ?? entry.test;
    (files[file] ??= []).push({ steps: entry.steps, requests: entry.requests });
  }
  const names = Object.keys(files).sort();
  const withoutRequest = Math.max(0, tests - byTest.length);
  for (let index = 0; index < withoutRequest; index += 1) {
    const file = names[index % Math.max(1, names.length)] ?? 'floor.spec.ts';
    (files[file] ??= []).push({ steps: 0, requests: 0 });
  }
  return { files };
}

const CONFIG = `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  workers: Number(process.env['FLOOR_WORKERS']),
  retries: 0,
  reporter: 'dot',
  use: { trace: 'off' },
});
`;

const DECLARE = `import { readFileSync } from 'node:fs';
import { expect, test as base } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';

interface TestShape { steps: number; requests: number }
const shapes = (JSON.parse(readFileSync(process.env['FLOOR_SHAPE'] ?? '', 'utf8')) as { files: Record<string, TestShape[]> }).files;
const test = base.extend<object, { client: APIRequestContext }>({
  client: [async ({ playwright }, use) => {
    const context = await playwright.request.newContext();
    await use(context);
    await context.dispose();
  }, { scope: 'worker' }],
});

async function send(context: APIRequestContext, path: string): Promise<void> {
  const response = await context.get(process.env['FLOOR_URL'] + encodeURI(path));
  await response.body();
  expect(response.status()).toBe(200);
}

export function declare(file: string): void {
  for (const [index, shape] of (shapes[file] ?? []).entries()) {
    test(\`test \${index + 1}\`, async ({ client }) => {
      if (shape.requests === 0) {
        expect(shape.steps).toBe(0);
        return;
      }
      for (let step = 1; step < shape.steps; step += 1) await send(client, \`/\${file}/\${index}/\${step}\`);
      const together = shape.requests - shape.steps + 1;
      await Promise.all(Array.from({ length: together }, (_, at) => send(client, \`/\${file}/\${index}/last-\${at}\`)));
    });
  }
}
`;

/** The floor project's directory for this user and checkout (stable, so that the transform cache applies). */
export const FLOOR_DIR = join(tmpdir(), `meeting-realtime-conformance-floor-${String(process.geteuid?.() ?? 'user')}-${CHECKOUT_KEY}`);

const SPEC_FILE = /^[\w.-]+\.spec\.ts$/;

/** Writes `text` to `file` unless it holds that already; aside and renamed, for runs of the same checkout at once. */
function writeIfChanged(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  writeFileAside(file, text);
}

/** The project's files, and a file of this run's own with the shape; returns that file. */
function writeProject(shape: FloorShape, dir: string): string {
  const names = Object.keys(shape.files);
  const unfit = names.filter((name) => !SPEC_FILE.test(name));
  if (unfit.length > 0)
    throw new Error(`the floor names its files after the suite's spec files; ${unfit.map((name) => JSON.stringify(name)).join(', ')} cannot be one`);
  mkdirSync(join(dir, 'tests'), { recursive: true });
  mkdirSync(join(dir, 'shapes'), { recursive: true });
  linkModules(join(dir, 'node_modules'));
  writeIfChanged(join(dir, 'package.json'), `${JSON.stringify({ name: 'playwright-floor', private: true, type: 'module' }, null, 2)}\n`);
  writeIfChanged(join(dir, 'playwright.config.ts'), CONFIG);
  writeIfChanged(join(dir, 'tests', 'declare.ts'), DECLARE);
  for (const name of names) writeIfChanged(join(dir, 'tests', name), `import { declare } from './declare.ts';\ndeclare(${JSON.stringify(name)});\n`);
  const shapeFile = join(dir, 'shapes', `shape-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  writeFileAside(shapeFile, `${JSON.stringify(shape)}\n`);
  return shapeFile;
}

/** Makes `link` point at this checkout's node_modules; another run making the same link at once is fine. */
function linkModules(link: string): void {
  const target = join(REPO_ROOT, 'node_modules');
  const current = (): string | undefined => {
    try {
      return readlinkSync(link);
    } catch {
      return undefined;
    }
  };
  if (current() === target) return;
  rmSync(link, { recursive: true, force: true });
  try {
    symlinkSync(target, link, 'dir');
  } catch (error) {
    if (current() !== target) throw error;
  }
}

function lastLines(output: string, count = 30): string {
  return output.trimEnd().split('\n').slice(-count).join('\n');
}

/**
 * Runs the floor of `shape` with `workers` workers against a server that answers after `delayMs`
 * (`dir`: where the project goes, FLOOR_DIR unless a test gives its own).
 */
export async function runFloor(shape: FloorShape, options: { workers: number; delayMs: number; dir?: string }): Promise<FloorResult> {
  const dir = options.dir ?? FLOOR_DIR;
  const shapeFile = writeProject(shape, dir);
  const exchanges: FloorResult['exchanges'] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      const received = performance.now();
      setTimeout(() => {
        exchanges.push({ path: decodeURI(request.url ?? ''), received, answered: performance.now() });
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
        response.end(BODY);
      }, options.delayMs);
    });
  });
  // Longer than any run: a connection the client reuses must not be the one the server is closing.
  server.keepAliveTimeout = RUN_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const env = { ...cleanEnv(), FLOOR_URL: `http://127.0.0.1:${port}`, FLOOR_WORKERS: String(options.workers), FLOOR_SHAPE: shapeFile };
    const expectedTests = Object.values(shape.files).reduce((sum, tests) => sum + tests.length, 0);
    const expectedRequests = shapeRequests(shape);
    // Untimed: a listing loads every test file, so a cold transform cache is filled before the timed run.
    const listing = await runPlaywright({ args: ['test', '--list'], cwd: dir, env, timeoutMs: RUN_TIMEOUT_MS });
    if (listing.code !== 0)
      throw new Error(
        `the Playwright floor's test files do not load (exit ${String(listing.code)}, signal ${String(listing.signal)}):\n${lastLines(listing.output)}`,
      );
    const run = await runPlaywright({ args: ['test'], cwd: dir, env, timeoutMs: RUN_TIMEOUT_MS });
    const ended = run.timedOut ? `exceeded ${seconds(RUN_TIMEOUT_MS)}` : `ended with exit ${String(run.code)}, signal ${String(run.signal)}`;
    if (run.timedOut || run.code !== 0) throw new Error(`the Playwright floor ${ended}; the end of its output:\n${lastLines(run.output)}`);
    const passed = Number(/^\s*(\d+) passed\b/m.exec(run.output)?.[1] ?? Number.NaN);
    if (passed !== expectedTests || exchanges.length !== expectedRequests) {
      throw new Error(
        `the Playwright floor ran ${String(passed)} of ${expectedTests} tests and answered ${exchanges.length} of ${expectedRequests} requests; the end of its output:\n${lastLines(run.output)}`,
      );
    }
    return { wallMs: run.durationMs, tests: passed, requests: exchanges.length, exchanges };
  } finally {
    rmSync(shapeFile, { force: true });
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The sum of the shape's requests (what the floor's server must answer). */
export function shapeRequests(shape: FloorShape): number {
  return Object.values(shape.files).reduce((sum, shapes) => sum + shapes.reduce((inner, test) => inner + test.requests, 0), 0);
}
