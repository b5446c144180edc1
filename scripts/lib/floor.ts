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
 * The project is written to one directory per checkout under the system's temporary directory,
 * with a `node_modules` link to this checkout's, and rewritten with the same contents on every
 * run, so Playwright's transform cache serves it as it serves the suite. It cannot be under
 * `node_modules`: Playwright does not compile TypeScript there.
 *
 * What the floor shows: the part of a run's wall time that any suite of this shape pays on this
 * machine with this Playwright and Node.js, whatever its checks do. A target below it cannot be met
 * by the suite's own code.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
const shapes = (JSON.parse(readFileSync(new URL('../shape.json', import.meta.url), 'utf8')) as { files: Record<string, TestShape[]> }).files;
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

/** The floor project's directory for this checkout (stable, so the transform cache applies). */
function floorDirectory(): string {
  const key = createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12);
  return join(tmpdir(), `meeting-realtime-conformance-floor-${key}`);
}

function writeProject(shape: FloorShape): string {
  const dir = floorDirectory();
  // Files of another shape (other spec names) must not be run: the tests directory is written anew.
  rmSync(join(dir, 'tests'), { recursive: true, force: true });
  mkdirSync(join(dir, 'tests'), { recursive: true });
  const modules = join(dir, 'node_modules');
  let linked: string | undefined;
  try {
    linked = readlinkSync(modules);
  } catch {
    linked = undefined;
  }
  if (linked !== join(REPO_ROOT, 'node_modules')) {
    rmSync(modules, { recursive: true, force: true });
    symlinkSync(join(REPO_ROOT, 'node_modules'), modules, 'dir');
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'playwright-floor', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(dir, 'playwright.config.ts'), CONFIG);
  writeFileSync(join(dir, 'shape.json'), `${JSON.stringify(shape)}\n`);
  writeFileSync(join(dir, 'tests', 'declare.ts'), DECLARE);
  for (const file of Object.keys(shape.files)) {
    if (!/^[\w.-]+\.spec\.ts$/.test(file)) throw new Error(`the floor names its files after the suite's spec files; ${JSON.stringify(file)} is not one`);
    writeFileSync(join(dir, 'tests', file), `import { declare } from './declare.ts';\ndeclare(${JSON.stringify(file)});\n`);
  }
  return dir;
}

/** Runs the floor of `shape` with `workers` workers against a server that answers after `delayMs`. */
export async function runFloor(shape: FloorShape, options: { workers: number; delayMs: number }): Promise<FloorResult> {
  const dir = writeProject(shape);
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
    const run = await runPlaywright({
      args: ['test'],
      cwd: dir,
      env: { ...cleanEnv(), FLOOR_URL: `http://127.0.0.1:${port}`, FLOOR_WORKERS: String(options.workers) },
      timeoutMs: RUN_TIMEOUT_MS,
    });
    if (run.timedOut) throw new Error(`the Playwright floor exceeded ${seconds(RUN_TIMEOUT_MS)}`);
    const tests = Object.values(shape.files).reduce((sum, shapes) => sum + shapes.length, 0);
    if (run.code !== 0) throw new Error(`the Playwright floor failed (exit ${String(run.code)}); its output:\n${run.output}`);
    return { wallMs: run.durationMs, tests, requests: exchanges.length, exchanges };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The sum of the shape's requests (what the floor's server must answer). */
export function shapeRequests(shape: FloorShape): number {
  return Object.values(shape.files).reduce((sum, shapes) => sum + shapes.reduce((inner, test) => inner + test.requests, 0), 0);
}
