/**
 * The Playwright internals the harness relies on (fixtures/verdict/playwright-internals.ts), checked against
 * the installed Playwright: the private fixtures it replaces are still Playwright's, registered in
 * the scope and mode the replacements keep; a real run accepts the replacements, and with them an
 * API call is no longer a step (while Playwright's own fixtures still make it one); and what
 * `test.skip(condition, reason)` throws is still recognised. A failure names what changed and both versions.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { test as playwrightsOwnTest } from '@playwright/test';
import { internalFixtureOverrides, PLAYWRIGHT_WRITTEN_AGAINST, SKIP_ERROR_CLASS } from '../../fixtures/verdict/playwright-internals.ts';
import { REPO_ROOT, cleanEnv, runPlaywright } from '../../scripts/lib/playwright-run.ts';

const installed = (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@playwright/test/package.json'), 'utf8')) as { version: string }).version;
const versions = `@playwright/test ${installed} (fixtures/verdict/playwright-internals.ts was written against ${PLAYWRIGHT_WRITTEN_AGAINST})`;

interface Registration {
  scope: string;
  auto: unknown;
}

const isTuple = (value: unknown): value is [unknown, Record<string, unknown>] => Array.isArray(value) && typeof value[1] === 'object' && value[1] !== null;

/** How Playwright's own test registers each fixture: the last registration of a name wins, a bare value keeps the earlier options. */
function playwrightRegistrations(): Map<string, Registration> {
  const symbol = Object.getOwnPropertySymbols(playwrightsOwnTest).find((candidate) => candidate.description === 'testType');
  const lists: unknown = symbol === undefined ? undefined : (playwrightsOwnTest as unknown as Record<symbol, { fixtures?: unknown }>)[symbol]?.fixtures;
  assert.ok(Array.isArray(lists), `${versions}: Playwright's fixture list (test[Symbol(testType)].fixtures) cannot be read any more; check the module by hand`);
  const registrations = new Map<string, Registration>();
  for (const { fixtures } of lists as { fixtures: Record<string, unknown> }[]) {
    for (const [name, value] of Object.entries(fixtures)) {
      const options = isTuple(value) ? value[1] : undefined;
      const registration = options === undefined ? registrations.get(name) : { scope: String(options['scope'] ?? 'test'), auto: options['auto'] ?? false };
      registrations.set(name, registration ?? { scope: 'test', auto: false });
    }
  }
  return registrations;
}

interface ProbeTest {
  title: string;
  status?: string;
  steps: { title: string; category: string }[];
  annotations: { type: string; description?: string }[];
}

interface Probe {
  status: string;
  errors: string[];
  tests: ProbeTest[];
}

const OWN = "an API call with Playwright's own fixtures";
const REPLACED = "an API call with the harness's replacements";
const SKIPPED = 'test.skip(condition, reason) inside a test';

/** A spec with an API call under each test, and a skip; `internals` is the module's path. */
const spec = (internals: string): string => `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as playwrightsOwn } from '@playwright/test';
import type { PlaywrightWorkerArgs } from '@playwright/test';
import { isSkipError, playwrightTest } from ${JSON.stringify(internals)};

async function callApi({ playwright }: PlaywrightWorkerArgs): Promise<void> {
  const server = createServer((_request, response) => response.end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const context = await playwright.request.newContext();
  await context.get(\`http://127.0.0.1:\${(server.address() as AddressInfo).port}/probe\`);
  await context.dispose();
  server.close();
}

playwrightsOwn(${JSON.stringify(OWN)}, callApi);
playwrightTest(${JSON.stringify(REPLACED)}, callApi);
playwrightTest(${JSON.stringify(SKIPPED)}, () => {
  try {
    playwrightTest.skip(true, 'probe');
  } catch (error) {
    const name = error instanceof Error ? error.constructor.name : typeof error;
    playwrightTest.info().annotations.push({ type: 'probe', description: JSON.stringify({ recognised: isSkipError(error), name }) });
    throw error;
  }
  throw new Error('test.skip(condition, reason) returned instead of throwing');
});
`;

/** Every step of every test, and every error of the run, as a JSON file. */
const reporter = `import { writeFileSync } from 'node:fs';
export default class ProbeReporter {
  constructor(options) { this.file = options.outputFile; this.errors = []; this.tests = new Map(); }
  entry(test) { if (!this.tests.has(test.id)) this.tests.set(test.id, { title: test.title, steps: [], annotations: [] }); return this.tests.get(test.id); }
  onStepBegin(test, _result, step) { this.entry(test).steps.push({ title: step.title, category: step.category }); }
  onTestEnd(test, result) { Object.assign(this.entry(test), { status: result.status, annotations: result.annotations }); }
  onError(error) { this.errors.push(error.message ?? String(error)); }
  onEnd(result) { writeFileSync(this.file, JSON.stringify({ status: result.status, errors: this.errors, tests: [...this.tests.values()] })); }
}
`;

describe('Playwright internals (fixtures/verdict/playwright-internals.ts)', () => {
  let dir = '';
  let probe: Probe;

  before(async () => {
    // Inside the repository, whose package.json makes the files ES modules.
    const checks = join(REPO_ROOT, 'reports', '.checks');
    mkdirSync(checks, { recursive: true });
    dir = mkdtempSync(join(checks, 'playwright-internals-'));
    const output = join(dir, 'probe.json');
    writeFileSync(join(dir, 'probe.spec.ts'), spec(join(REPO_ROOT, 'fixtures', 'verdict', 'playwright-internals.ts')));
    writeFileSync(join(dir, 'probe-reporter.mjs'), reporter);
    writeFileSync(
      join(dir, 'playwright.config.ts'),
      `export default ${JSON.stringify({ testDir: '.', testMatch: 'probe.spec.ts', workers: 1, outputDir: 'test-results', use: { trace: 'off' }, reporter: [['./probe-reporter.mjs', { outputFile: output }]] })};\n`,
    );
    const run = await runPlaywright({ args: ['test', '--config', join(dir, 'playwright.config.ts')], env: cleanEnv(), timeoutMs: 120_000 });
    try {
      probe = JSON.parse(readFileSync(output, 'utf8')) as Probe;
    } catch {
      assert.fail(`${versions}: the probe run wrote no report (exit ${String(run.code)}):\n${run.output}`);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const probeTest = (title: string): ProbeTest => {
    const found = probe.tests.find((test) => test.title === title);
    assert.ok(found !== undefined, `${versions}: the probe test "${title}" did not run (run errors: ${probe.errors.join('; ') || 'none'})`);
    return found;
  };

  it('names the version it was written against', (t) => {
    if (installed !== PLAYWRIGHT_WRITTEN_AGAINST) {
      t.diagnostic(`${versions}: the checks below decide whether its internals still hold; when they pass, update PLAYWRIGHT_WRITTEN_AGAINST`);
    }
  });

  it("replaces only private fixtures that Playwright registers, in Playwright's scope and mode", () => {
    const registrations = playwrightRegistrations();
    for (const [name, value] of Object.entries(internalFixtureOverrides)) {
      const own = registrations.get(name);
      assert.ok(
        own !== undefined,
        `${versions}: Playwright no longer has a fixture "${name}"; the harness would add a fixture of its own instead of replacing it`,
      );
      const options = isTuple(value) ? value[1] : {};
      const ours: Registration = { scope: String(options['scope'] ?? 'test'), auto: options['auto'] ?? false };
      assert.deepEqual(ours, own, `${versions}: Playwright registers "${name}" as ${JSON.stringify(own)}, the replacement as ${JSON.stringify(ours)}`);
    }
  });

  it('a run accepts the replacements, with no error', () => {
    assert.deepEqual(probe.errors, [], `${versions}: the run refused them`);
    assert.equal(probe.status, 'passed', `${versions}: the probe run ended ${probe.status}`);
  });

  it("an API call is a step under Playwright's own fixtures, and none under the replacements", () => {
    const apiSteps = (test: ProbeTest): string[] => test.steps.filter((step) => step.category === 'pw:api').map((step) => step.title);
    assert.ok(
      apiSteps(probeTest(OWN)).length > 0,
      `${versions}: Playwright's own _setupArtifacts no longer makes an API call a step (steps: ${JSON.stringify(probeTest(OWN).steps)}); what its replacement is for has changed`,
    );
    assert.deepEqual(
      apiSteps(probeTest(REPLACED)),
      [],
      `${versions}: API calls are steps despite the replacement of _setupArtifacts: their headers reach every reporter`,
    );
  });

  it(`test.skip(condition, reason) throws a ${SKIP_ERROR_CLASS}, which isSkipError recognises`, () => {
    const skipped = probeTest(SKIPPED);
    const seen = skipped.annotations.find((annotation) => annotation.type === 'probe')?.description;
    assert.ok(seen !== undefined, `${versions}: test.skip(condition, reason) did not throw (status ${String(skipped.status)})`);
    const { recognised, name } = JSON.parse(seen) as { recognised: boolean; name: string };
    assert.ok(
      recognised,
      `${versions}: test.skip(condition, reason) throws a ${name}, not a ${SKIP_ERROR_CLASS}: a skip inside check() would be recorded as the check's failure`,
    );
    assert.equal(skipped.status, 'skipped', `${versions}: the test that skipped ended ${String(skipped.status)}`);
  });
});
