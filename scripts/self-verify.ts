/**
 * Self-verification: the suite must fail on every fault of reference/faults/catalogue.ts, with a
 * failing test that cites a requirement the fault declares (caught for the right reason), and
 * must pass on the plain reference and on every documented variant. With --variations it also runs
 * every allowed variation of reference/variations.ts (and their combination, other-choices), each of
 * which must pass as the plain reference does and leave no test unassessed that the plain run assessed.
 *
 * This process hosts every reference instance (buildServers on free ports: the plain reference, one
 * per variant, one per variation, one per fault, each with its own store and the recording delay of the reference
 * profile), and ONE Playwright run tests them all, one project per instance: playwright.config.ts
 * reads the instances from the SELF_VERIFY_TARGETS file, and each project points its workers at its
 * instance (worker option targetOverride: its addresses, with the path prefix and the realtime
 * origin of its layout, and its ids when a variation renames them). A fault's project runs only the tests that cite a
 * requirement it declares, since only their failures can count; the plain and variant projects run
 * the whole layer. Separate Playwright runs with a reference process each would spend most of the
 * time starting processes.
 *
 * Writes the kill matrix to reports/self-verification.{json,md} and ends with the line
 * `faults caught: N/N, variants passed: M/M` (the plain reference counts among the variants).
 * Exits 1 when a fault is not caught (or only by tests of other requirements) or a variant fails,
 * 2 when the run itself could not complete.
 *
 * Usage: npm run self-verify -- [--layer hand|generated|all] [--workers N] [--variations] [--only NAME[,NAME...]]
 *   --layer       hand: the handwritten specs (default); generated: the @generated specs; all: both
 *   --workers     Playwright workers (default 3: measured faster than 2 on two cores, the host and runner wait on I/O)
 *   --variations  also run every allowed variation (off by default until the suite passes on them all)
 *   --only        instances to run: plain, a variant, a variation or a fault name (for iterating on a few)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { loadTargetConfig, planTarget, REFERENCE_TARGET_FILE, type TargetIds } from '../fixtures/config.ts';
import type { SelfVerifyTarget } from '../fixtures/self-verify-projects.ts';
import { buildServers, type ReferenceServers } from '../reference/app.ts';
import { FAULTS, type Fault } from '../reference/faults/catalogue.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { listVariants } from '../reference/variants.ts';
import { applyVariations, listVariations, variationIdRenaming } from '../reference/variations.ts';
import { REPO_ROOT, runPlaywright } from './lib/playwright-run.ts';
import { resultsFileOf, type RunResults, type TestOutcome } from './self-verify-reporter.ts';

type Layer = 'hand' | 'generated' | 'all';

/** One reference instance to test: the plain reference, a variant, a variation or a fault. */
interface Instance {
  name: string;
  kind: 'plain' | 'variant' | 'variation' | 'fault';
  description: string;
  options: ReferenceOptions;
  /** For a fault: the requirements it declares, which select its tests. */
  requirements?: readonly string[];
  fault?: Fault;
  /** For a variation that renames the seed's ids: the renaming, applied to the profile's ids. */
  renameId?: (id: string) => string;
}

const REPORTS_DIR = join(REPO_ROOT, 'reports');
/** Bounds a run that hangs; a healthy run on two cores takes a few minutes. */
const RUN_TIMEOUT_MS = 20 * 60_000;
const HOST = '127.0.0.1';

/** A tag as the grep title holds it: whole, between spaces. */
const tagPattern = (tags: readonly string[]): string => `(?:^|\\s)@(?:${tags.map((tag) => tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=\\s|$)`;

/** The grep of an instance's project: its layer, and for a fault the tests citing one of its requirements. */
function projectFilter(instance: Pick<Instance, 'requirements'>, layer: Layer): Pick<SelfVerifyTarget, 'grep' | 'grepInvert'> {
  const conditions = [
    ...(layer === 'generated' ? [tagPattern(['generated'])] : []),
    ...(instance.requirements === undefined ? [] : [tagPattern(instance.requirements)]),
  ];
  return {
    ...(conditions.length === 0 ? {} : { grep: `^${conditions.map((condition) => `(?=.*${condition})`).join('')}` }),
    ...(layer === 'hand' ? { grepInvert: tagPattern(['generated']) } : {}),
  };
}

function instancesToVerify(recordingDelayMs: number): Instance[] {
  const base: ReferenceOptions = { recordingDelayMs };
  return [
    { name: 'plain', kind: 'plain', description: 'the reference with no variant and no fault', options: base },
    ...listVariants().map(
      (variant): Instance => ({ name: `variant:${variant.name}`, kind: 'variant', description: variant.description, options: { ...base, variants: [variant.name] } }),
    ),
    ...listVariations().map((variation): Instance => {
      const renameId = variationIdRenaming([variation.name]);
      return {
        name: `variation:${variation.name}`,
        kind: 'variation',
        description: variation.description,
        options: applyVariations(base, [variation.name]),
        ...(renameId === undefined ? {} : { renameId }),
      };
    }),
    ...FAULTS.map(
      (fault): Instance => ({ name: `fault:${fault.name}`, kind: 'fault', description: fault.description, options: fault.apply(base), requirements: fault.requirements, fault }),
    ),
  ];
}

// ---------------------------------------------------------------- verdicts

interface FailedTest {
  title: string;
  location: string;
  requirements: string[];
  error?: string;
  detail?: string;
}

interface FaultVerdict {
  name: string;
  description: string;
  requirements: readonly string[];
  operations: readonly string[];
  caught: boolean;
  /** Why it was not caught. */
  reason?: string;
  testsRun: number;
  /** The failing tests that cite a declared requirement. */
  caughtBy: FailedTest[];
  /** Failing tests that cite none of them (only with a layer filter that lets them in). */
  otherFailures: FailedTest[];
}

interface VariantVerdict {
  name: string;
  description: string;
  passed: boolean;
  testsRun: number;
  skipped: number;
  failures: FailedTest[];
  /** Tests skipped here that the plain reference ran (not assessed on this instance only). */
  skippedBeyondPlain: string[];
}

const failedTest = ({ title, location, requirements, error, detail }: TestOutcome): FailedTest => ({
  title,
  location,
  requirements,
  ...(error === undefined ? {} : { error }),
  ...(detail === undefined ? {} : { detail }),
});

function faultVerdict(instance: Instance, tests: readonly TestOutcome[]): FaultVerdict {
  const declared = new Set(instance.requirements ?? []);
  const ran = tests.filter((test) => test.outcome !== 'skipped');
  const failed = tests.filter((test) => test.status !== 'passed' && test.status !== 'skipped');
  const caughtBy = failed.filter((test) => test.requirements.some((id) => declared.has(id))).map(failedTest);
  const otherFailures = failed.filter((test) => !test.requirements.some((id) => declared.has(id))).map(failedTest);
  const reason =
    caughtBy.length > 0
      ? undefined
      : tests.length === 0
        ? `no test of the layer cites ${[...declared].join(', ')}`
        : ran.length === 0
          ? `the ${tests.length} tests citing ${[...declared].join(', ')} were all skipped`
          : otherFailures.length > 0
            ? 'only tests citing other requirements failed (caught for the wrong reason)'
            : `all ${ran.length} tests citing ${[...declared].join(', ')} passed`;
  return {
    name: instance.name.replace(/^fault:/, ''),
    description: instance.description,
    requirements: instance.requirements ?? [],
    operations: instance.fault?.operations ?? [],
    caught: caughtBy.length > 0,
    ...(reason === undefined ? {} : { reason }),
    testsRun: ran.length,
    caughtBy,
    otherFailures,
  };
}

function variantVerdict(instance: Instance, tests: readonly TestOutcome[], plainTests: readonly TestOutcome[]): VariantVerdict {
  const failures = tests.filter((test) => test.outcome === 'unexpected' || test.outcome === 'flaky').map(failedTest);
  const skippedTests = tests.filter((test) => test.outcome === 'skipped');
  const ranOnPlain = new Set(plainTests.filter((test) => test.outcome !== 'skipped').map((test) => `${test.location} ${test.title}`));
  const skippedBeyondPlain = skippedTests.map((test) => `${test.location} ${test.title}`).filter((key) => ranOnPlain.has(key));
  return {
    name: instance.name,
    description: instance.description,
    passed: tests.length > 0 && failures.length === 0 && skippedBeyondPlain.length === 0,
    testsRun: tests.length - skippedTests.length,
    skipped: skippedTests.length,
    failures,
    skippedBeyondPlain,
  };
}

// ---------------------------------------------------------------- reports

interface Verification {
  layer: Layer;
  workers: number;
  wallSeconds: number;
  runStatus: string;
  runErrors: string[];
  faults: FaultVerdict[];
  variants: VariantVerdict[];
  variations: VariantVerdict[];
}

function summaryLine(verification: Pick<Verification, 'faults' | 'variants' | 'variations'>): string {
  const caught = verification.faults.filter((fault) => fault.caught).length;
  const passed = verification.variants.filter((variant) => variant.passed).length;
  const conforming = verification.variations.filter((variation) => variation.passed).length;
  const variations = verification.variations.length === 0 ? '' : `, variations passed: ${conforming}/${verification.variations.length}`;
  return `faults caught: ${caught}/${verification.faults.length}, variants passed: ${passed}/${verification.variants.length}${variations}`;
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function testLine(test: FailedTest): string {
  return `\`${test.location}\` ${cell(test.title)} (${test.requirements.join(', ')})`;
}

function markdownReport(verification: Verification): string {
  const lines = [
    '# Self-verification',
    '',
    `${summaryLine(verification)}; layer ${verification.layer}, ${verification.workers} workers, wall time ${verification.wallSeconds.toFixed(1)} s, run ${verification.runStatus}.`,
    '',
    'Each fault of `reference/faults/catalogue.ts` runs against its own reference instance with the tests that cite a requirement it declares; it is caught when one of them fails. The plain reference and each variant run the whole layer and must pass.',
    '',
    ...(verification.runErrors.length === 0 ? [] : ['## Errors outside tests', '', ...verification.runErrors.map((error) => `- ${cell(error)}`), '']),
    '## Plain reference and variants',
    '',
    '| instance | verdict | tests run | skipped | failures |',
    '|---|---|---|---|---|',
    ...verification.variants.map(
      (variant) =>
        `| ${variant.name} | ${variant.passed ? 'passed' : '**FAILED**'} | ${variant.testsRun} | ${variant.skipped} | ${variant.failures.map(testLine).join('<br>') || '-'} |`,
    ),
    '',
    ...(verification.variations.length === 0
      ? []
      : [
          '## Allowed variations',
          '',
          'Each variation of `reference/variations.ts` makes another choice the interface allows; it passes when no test fails and no test the plain reference ran is skipped.',
          '',
          '| variation | verdict | tests run | skipped | skipped beyond plain | failures |',
          '|---|---|---|---|---|---|',
          ...verification.variations.map(
            (variation) =>
              `| ${variation.name} | ${variation.passed ? 'passed' : '**FAILED**'} | ${variation.testsRun} | ${variation.skipped} | ${variation.skippedBeyondPlain.map(cell).join('<br>') || '-'} | ${variation.failures.map(testLine).join('<br>') || '-'} |`,
          ),
          '',
        ]),
    '## Kill matrix',
    '',
    '| fault | declares | verdict | tests run | caught by |',
    '|---|---|---|---|---|',
    ...verification.faults.map(
      (fault) =>
        `| ${fault.name} | ${fault.requirements.join(', ')} | ${fault.caught ? 'caught' : `**NOT CAUGHT**: ${cell(fault.reason ?? '')}`} | ${fault.testsRun} | ${fault.caughtBy.map(testLine).join('<br>') || '-'} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------- the run

interface Started {
  instance: Instance;
  servers: ReferenceServers;
  baseUrl: string;
  realtimeUrl: string;
}

/** Listens on a free port; the origin it got. */
async function listenOnFreePort(name: string, app: FastifyInstance): Promise<string> {
  await app.listen({ host: HOST, port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error(`${name}: no TCP address`);
  return `http://${HOST}:${address.port}`;
}

async function start(instance: Instance): Promise<Started> {
  const servers = await buildServers(instance.options);
  const { basePath, realtimeBasePath } = servers.main.reference.config.layout;
  const origin = await listenOnFreePort(instance.name, servers.main);
  const realtimeOrigin = servers.realtime === undefined ? origin : await listenOnFreePort(instance.name, servers.realtime);
  return { instance, servers, baseUrl: `${origin}${basePath}`, realtimeUrl: `${realtimeOrigin}${realtimeBasePath}` };
}

const closeAll = (servers: ReferenceServers): Promise<unknown> => Promise.all([servers.main.close(), servers.realtime?.close()]);

/** The reference profile's ids as an instance names them (every id but the channel names, which no variation renames). */
function renamedIds(rename: (id: string) => string): TargetIds {
  const { ids } = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
  const kept = new Set<keyof TargetIds>(['channel', 'runningMeetingChannel']);
  return Object.fromEntries(Object.entries(ids).map(([field, id]) => [field, kept.has(field as keyof TargetIds) ? id : rename(id)])) as TargetIds;
}

/** The child's environment: no inherited target or harness setting may redirect the run. */
function childEnvironment(plain: Started, targetsFile: string): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(TARGET_|CONFORMANCE_|SELF_VERIFY_|REFERENCE_ARGS$|PLAYWRIGHT_)/.test(name)),
  );
  return {
    ...inherited,
    // The reference profile's accounts and ids hold for every instance (same seed); global setup
    // finds a base URL and starts no reference of its own.
    TARGET_FILE: 'fixtures/targets/reference.env',
    TARGET_BASE_URL: plain.baseUrl,
    TARGET_REALTIME_URL: plain.realtimeUrl,
    SELF_VERIFY_TARGETS: targetsFile,
  };
}

function parseOptions(argv: readonly string[]): { layer: Layer; workers: number; variations: boolean; only?: Set<string> } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      layer: { type: 'string', default: 'hand' },
      workers: { type: 'string', default: '3' },
      only: { type: 'string' },
      variations: { type: 'boolean', default: false },
    },
  });
  const variations = values.variations;
  const layer = values.layer;
  if (layer !== 'hand' && layer !== 'generated' && layer !== 'all') throw new Error(`--layer: expected hand, generated or all, got ${JSON.stringify(layer)}`);
  const workers = Number(values.workers);
  if (!Number.isSafeInteger(workers) || workers < 1 || workers > 16) throw new Error(`--workers: expected an integer from 1 to 16, got ${JSON.stringify(values.workers)}`);
  const only = values.only === undefined ? undefined : new Set(values.only.split(',').map((name) => name.trim()).filter((name) => name !== ''));
  return only === undefined ? { layer, workers, variations } : { layer, workers, variations, only };
}

async function main(argv: readonly string[]): Promise<number> {
  const began = performance.now();
  // Exit handlers then run: the Playwright run's process group is killed (scripts/lib/playwright-run.ts)
  // and the work directory removed; the instances end with this process.
  const onSignal = (signal: NodeJS.Signals): never => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const { layer, workers, variations, only } = parseOptions(argv);
  const plan = planTarget({});
  if (plan.kind !== 'reference') throw new Error('the reference profile names a base URL; self-verification needs the embedded reference');
  const all = instancesToVerify(plan.recordingReadyMs);
  const selected =
    only === undefined
      ? all.filter((instance) => variations || instance.kind !== 'variation')
      : all.filter((instance) => only.has(instance.name) || only.has(instance.name.replace(/^\w+:/, '')));
  const unknown = [...(only ?? [])].filter((name) => !all.some((instance) => instance.name === name || instance.name.replace(/^\w+:/, '') === name));
  if (unknown.length > 0) throw new Error(`--only: unknown instances ${unknown.join(', ')}`);
  // The plain instance always runs: global teardown sweeps leftovers against it.
  const instances = selected.some((instance) => instance.kind === 'plain') ? selected : [all[0] as Instance, ...selected];

  const started: Started[] = [];
  // One directory per run (instances file, results, test output), so that runs in the same tree
  // do not collide; removed at exit, also when a signal ends the run.
  mkdirSync(REPORTS_DIR, { recursive: true });
  const workDir = mkdtempSync(join(REPORTS_DIR, '.self-verify-'));
  const removeWorkDir = (): void => rmSync(workDir, { recursive: true, force: true });
  process.once('exit', removeWorkDir);
  try {
    for (const instance of instances) started.push(await start(instance));
    console.error(`self-verify: ${started.length} reference instances listening (${((performance.now() - began) / 1000).toFixed(1)} s)`);
    const targets: SelfVerifyTarget[] = started.map(({ instance, baseUrl, realtimeUrl }) => ({
      name: instance.name,
      baseUrl,
      realtimeUrl,
      ...(instance.renameId === undefined ? {} : { ids: renamedIds(instance.renameId) }),
      ...projectFilter(instance, layer),
      ...(instance.kind === 'fault' ? { faulty: true } : {}),
    }));
    const targetsFile = join(workDir, 'targets.json');
    writeFileSync(targetsFile, JSON.stringify(targets, null, 2));

    const run = await runPlaywright({
      // A private output directory: other runs in the same tree empty test-results/ when they start.
      args: ['test', `--workers=${workers}`, '--reporter=./scripts/self-verify-reporter.ts', `--output=${join(workDir, 'test-results')}`],
      env: childEnvironment(started[0] as Started, targetsFile),
      timeoutMs: RUN_TIMEOUT_MS,
      onLine: (line) => process.stderr.write(`${line}\n`),
    });
    if (run.timedOut) throw new Error(`the Playwright run took longer than ${RUN_TIMEOUT_MS / 60_000} minutes and was stopped`);
    let results: RunResults;
    try {
      results = JSON.parse(readFileSync(resultsFileOf(targetsFile), 'utf8')) as RunResults;
    } catch {
      throw new Error(`the Playwright run wrote no results (exit code ${String(run.code)}); its output is above`);
    }

    const testsOf = (instance: Instance): TestOutcome[] => results.tests.filter((test) => test.project === instance.name);
    const plainTests = testsOf(all[0] as Instance);
    const verification: Verification = {
      layer,
      workers,
      wallSeconds: (performance.now() - began) / 1000,
      runStatus: results.status,
      runErrors: results.errors,
      faults: instances.filter((instance) => instance.kind === 'fault').map((instance) => faultVerdict(instance, testsOf(instance))),
      variants: instances.filter((instance) => instance.kind === 'plain' || instance.kind === 'variant').map((instance) => variantVerdict(instance, testsOf(instance), plainTests)),
      variations: instances.filter((instance) => instance.kind === 'variation').map((instance) => variantVerdict(instance, testsOf(instance), plainTests)),
    };
    writeFileSync(join(REPORTS_DIR, 'self-verification.json'), `${JSON.stringify(verification, null, 2)}\n`);
    writeFileSync(join(REPORTS_DIR, 'self-verification.md'), markdownReport(verification));

    for (const fault of verification.faults.filter((verdict) => !verdict.caught)) console.log(`not caught: ${fault.name} (${fault.requirements.join(', ')}): ${fault.reason ?? ''}`);
    for (const variant of [...verification.variants, ...verification.variations].filter((verdict) => !verdict.passed)) {
      const skipped = variant.skippedBeyondPlain.length === 0 ? '' : ` (${variant.skippedBeyondPlain.length} skipped that plain ran)`;
      console.log(`failed: ${variant.name}: ${variant.failures.map((test) => `${test.location} ${test.title}`).join('; ') || 'no test failed'}${skipped}`);
    }
    console.log(`kill matrix: reports/self-verification.md, reports/self-verification.json; wall time ${verification.wallSeconds.toFixed(1)} s`);
    console.log(summaryLine(verification));
    const complete = results.errors.length === 0 && (results.status === 'passed' || results.status === 'failed');
    if (!complete) return 2;
    const verdicts = [...verification.variants, ...verification.variations];
    return verification.faults.every((fault) => fault.caught) && verdicts.every((variant) => variant.passed) ? 0 : 1;
  } finally {
    await Promise.all(started.map(({ servers }) => closeAll(servers)));
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`self-verify: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
