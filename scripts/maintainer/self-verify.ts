/**
 * Self-verification: the suite must fail on every fault of reference/faults/ for the
 * right reason (a check attributed to a requirement the fault declares fails; every other failed
 * check is collateral, the fault's blast radius), and must certify CONFORMANT on the plain reference
 * and on the two combinations of reference/variations/, other-choices and other-choices-alternates,
 * which between them switch on every uncontested allowed variation and the other form of every
 * documented variant; with --variations also on each documented variant and each allowed variation
 * alone (scripts/lib/kill-matrix.ts holds the verdict rules).
 *
 * This process hosts every reference instance (buildServers on free ports: the plain reference, one
 * per combination and one per fault, and with --variations one per variant and per variation, each
 * with its own store and the recording delay of the reference profile), and ONE Playwright run
 * tests them all, one project per instance: playwright.config.ts reads the instances from the
 * SELF_VERIFY_TARGETS file, and each project points its workers at its
 * instance (worker option targetOverride: its addresses, with the path prefix and the realtime
 * origin of its layout, and its ids when a variation renames them). A fault's project runs only the tests that cite a
 * requirement it declares, since only their failures can count; the other projects run the whole
 * layer. Each instance whose project runs the test of REC-07 has its processing recording watched
 * once, by this process, from the instance's first request (watchOf). Separate Playwright runs
 * with a reference process each would spend most of the time starting processes.
 *
 * Writes the kill matrix to reports/self-verification.{json,md} and ends with the line
 * `faults caught for the right reason: N/N, collateral requirements per fault: median M, max X,
 * variants and variations CONFORMANT: V/V, MUST requirements with a fault: F/T` (the plain reference
 * counts among the variants). Exits 1 when a fault is not caught for the right reason or a variant
 * does not certify CONFORMANT, 2 when the run itself could not complete.
 *
 * Usage: npm run self-verify -- [--layer hand|generated|all] [--scope declared|full] [--workers N] [--variations] [--only NAME[,NAME...]]
 *   --layer       hand: the handwritten specs; generated: the @generated specs; all: both. Default: all for the
 *                 plain reference, the variants and the variations (the whole suite must certify them), hand
 *                 for the faults (a fault's own checks are handwritten; the generated layer adds collateral only)
 *   --scope       declared: a fault's project runs the tests citing its requirements (default); full: the
 *                 whole layer, so that every collateral failure of the fault shows (the blast radius)
 *   --workers     Playwright workers (default 3: measured faster than 2 on two cores, the host and runner wait on I/O)
 *   --variations  also run every documented variant and every allowed variation alone (by default only their two
 *                 combinations run: other-choices and other-choices-alternates, which between them switch on every
 *                 uncontested variation and the other form of every documented variant)
 *   --only        instances to run: plain, a variant, a variation or a fault name (for iterating on a few)
 * SELF_VERIFY_KEEP_RESULTS=FILE keeps the per-test results (outcome, checks, duration, worker) in FILE,
 * to see where a run's time goes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { planTarget, REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig, secretValues, type TargetConfig, type TargetIds } from '../../fixtures/config/profile.ts';
import { InstanceWatches } from '../../fixtures/data/recording-watch.ts';
import type { SelfVerifyTarget } from '../../fixtures/run/self-verify-projects.ts';
import { buildServers, type ReferenceServers } from '../../reference/app.ts';
import { FAULTS, type Fault } from '../../reference/faults/index.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { listVariants } from '../../reference/variants.ts';
import { applyVariations, listVariations, variationIdRenaming } from '../../reference/variations/index.ts';
import { REPO_ROOT, runPlaywright } from '../lib/playwright-run.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import {
  blastRadius,
  faultVerdict,
  mustNotAssessed,
  variationVerdict,
  type BlastRadius,
  type FailedCheck,
  type FaultVerdict,
  type TestOutcome,
  type VariationVerdict,
} from '../lib/kill-matrix.ts';
import { resultsFileOf, type RunResults } from '../lib/self-verify-reporter.ts';

type Layer = 'hand' | 'generated' | 'all';
/** What a fault's project runs: the tests citing its declared requirements, or the whole layer (for the blast radius). */
type Scope = 'declared' | 'full';

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
  /** A combination of variations (other-choices and its alternates): run by default, the single variants and variations with --variations. */
  combination?: boolean;
}

const REPORTS_DIR = join(REPO_ROOT, 'reports');
/** The requirement whose test reads the watch of the processing recording (tests/recordings.spec.ts). */
const WATCHED_REQUIREMENT = 'REC-07';
/**
 * Bounds a run that hangs; a healthy run on two cores takes a few minutes. Each instance that runs
 * the whole suite (the plain reference, a variant, a variation; not a fault, which runs its own
 * tests) adds to the bound: --variations runs 58 of them, which a loaded machine took past 20 minutes.
 */
const RUN_TIMEOUT_MS = 20 * 60_000;
const WHOLE_SUITE_ALLOWANCE_MS = 20_000;
const HOST = '127.0.0.1';

/** A tag as the grep title holds it: whole, between spaces. */
const tagPattern = (tags: readonly string[]): string => `(?:^|\\s)@(?:${tags.map((tag) => tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=\\s|$)`;

/** What the report says of the default layers (--layer not given). */
const DEFAULT_LAYERS = 'all for the plain reference, variants and variations, hand for the faults';

/** The layer an instance's project runs: --layer when given, else the whole suite but for faults (their own checks are handwritten). */
const layerOf = (instance: Pick<Instance, 'kind'>, layer: Layer | undefined): Layer => layer ?? (instance.kind === 'fault' ? 'hand' : 'all');

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
    ...listVariants().map((variant): Instance => ({
      name: `variant:${variant.name}`,
      kind: 'variant',
      description: variant.description,
      options: { ...base, variants: [variant.name] },
    })),
    ...listVariations().map((variation): Instance => {
      const renameId = variationIdRenaming([variation.name]);
      return {
        name: `variation:${variation.name}`,
        kind: 'variation',
        description: variation.description,
        options: applyVariations(base, [variation.name]),
        ...(renameId === undefined ? {} : { renameId }),
        ...(variation.members === undefined ? {} : { combination: true }),
      };
    }),
    // A fault that declares no requirement (a credential echoed back, every answer 500) breaks nothing
    // the suite could attribute to one requirement; scripts/checks/check-canary.ts runs those.
    ...FAULTS.filter((fault) => fault.requirements.length > 0).map((fault): Instance => ({
      name: `fault:${fault.name}`,
      kind: 'fault',
      description: fault.description,
      options: fault.apply(base),
      requirements: fault.requirements,
      fault,
    })),
  ];
}

// ---------------------------------------------------------------- reports

interface Verification {
  /** The layer every project ran (--layer), or what the default runs. */
  layer: Layer | typeof DEFAULT_LAYERS;
  scope: Scope;
  workers: number;
  wallSeconds: number;
  runStatus: string;
  runErrors: string[];
  faults: FaultVerdict[];
  variants: VariationVerdict[];
  blastRadius: BlastRadius;
  /** MUST requirements of the catalogue that no fault declares: nothing shows their checks can fail. */
  mustWithoutFault: string[];
}

function summaryLine(verification: Pick<Verification, 'faults' | 'variants' | 'blastRadius' | 'mustWithoutFault'>): string {
  const caught = verification.faults.filter((fault) => fault.caught).length;
  const passed = verification.variants.filter((variant) => variant.passed).length;
  const musts = requirements().filter((entry) => entry.level === 'MUST').length;
  return (
    `faults caught for the right reason: ${caught}/${verification.faults.length}, ` +
    `collateral requirements per fault: median ${verification.blastRadius.median}, max ${verification.blastRadius.max}, ` +
    `variants and variations CONFORMANT: ${passed}/${verification.variants.length}, ` +
    `MUST requirements with a fault: ${musts - verification.mustWithoutFault.length}/${musts}`
  );
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function checkLine(entry: FailedCheck): string {
  return `${entry.requirementId} in \`${entry.location}\` ${cell(entry.title)}`;
}

function markdownReport(verification: Verification): string {
  const lines = [
    '# Self-verification',
    '',
    `${summaryLine(verification)}; layer ${verification.layer}, faults run ${verification.scope === 'full' ? 'the whole layer' : 'the tests citing their requirements'}, ${verification.workers} workers, wall time ${verification.wallSeconds.toFixed(1)} s, run ${verification.runStatus}.`,
    '',
    "Each fault of `reference/faults/` runs against its own reference instance. It is caught only for the right reason: a check attributed to one of the requirements it declares failed. Every other failed check is collateral: the blast radius of a fault is the number of distinct requirements outside its declared ones that failed. The plain reference, each variant and each variation (or combination of variations) run their layer and must certify CONFORMANT, leaving no more MUST requirements unassessed than the plain reference; each instance's clock starts with its first request.",
    '',
    ...(verification.runErrors.length === 0 ? [] : ['## Errors outside tests', '', ...verification.runErrors.map((error) => `- ${cell(error)}`), '']),
    '## Plain reference, variants and allowed variations',
    '',
    '| instance | verdict | tests run | skipped | MUST not assessed | failures |',
    '|---|---|---|---|---|---|',
    ...verification.variants.map(
      (variant) =>
        `| ${variant.name} | ${variant.passed ? 'CONFORMANT' : '**FAILED**'} | ${variant.testsRun} | ${variant.skipped} | ${variant.mustNotAssessed.length} | ${[...variant.failures.map(checkLine), ...variant.brokenTests.map(cell)].join('<br>') || '-'} |`,
    ),
    '',
    '## Kill matrix',
    '',
    '| fault | declares | verdict | checks failed for it | collateral requirements |',
    '|---|---|---|---|---|',
    ...verification.faults.map(
      (fault) =>
        `| ${fault.name} | ${fault.requirements.join(', ')} | ${fault.caught ? 'caught' : `**NOT CAUGHT**: ${cell(fault.reason ?? '')}`} | ${fault.caughtBy.length} | ${fault.collateral.map(checkLine).join('<br>') || '-'} |`,
    ),
    '',
    '## MUST requirements without a fault',
    '',
    verification.mustWithoutFault.length === 0 ? 'None: every MUST requirement is declared by at least one fault.' : verification.mustWithoutFault.join(', '),
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

/**
 * A clock that stands still until `start()`, then runs at the pace of the wall clock from where it
 * stood. Every instance is built at the start of self-verification, but its project's tests may begin
 * minutes later: with this clock the instance's seed times (a recording that ended as the reference
 * started and is processing for the profile's delay) begin with its first request, as they do for a
 * reference that `npm run conformance` starts just before its tests. So the processing recording's
 * transition (REC-07) is there to be seen in every instance, not only in the first ones.
 */
function clockFromFirstRequest(): { now: () => number; start: () => void } {
  const builtAt = Date.now();
  let lag: number | undefined;
  return {
    now: () => (lag === undefined ? builtAt : Date.now() - lag),
    start: () => {
      lag ??= Date.now() - builtAt;
    },
  };
}

async function start(instance: Instance): Promise<Started> {
  const clock = clockFromFirstRequest();
  const servers = await buildServers({ ...instance.options, now: clock.now });
  for (const server of [servers.main, servers.realtime]) server?.server.prependListener('request', clock.start);
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

/**
 * The watch of the processing recording of an instance whose project runs the test of REC-07: one per
 * instance, in this process, from the instance's first request (when its clock starts: the recording
 * is processing then), and read from `file` by every worker of the project (fixtures/data/recording-watch.ts).
 * A fault's project runs only the tests citing its requirements: one that does not declare REC-07
 * gets no watch, and for one that does the watch starts at once, since REC-07's test sends nothing.
 */
function watchOf(
  started: Started,
  ids: TargetIds | undefined,
  scope: Scope,
  watches: InstanceWatches,
  file: string,
): Pick<SelfVerifyTarget, 'recordingWatchFile'> {
  const { instance, servers, baseUrl, realtimeUrl } = started;
  const onlyItsTests = instance.kind === 'fault' && scope === 'declared';
  if (onlyItsTests && !(instance.requirements ?? []).includes(WATCHED_REQUIREMENT)) return {};
  const profile = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
  const target: TargetConfig = { ...profile, baseUrl, realtimeUrl, ids: ids ?? profile.ids };
  const meetingId = target.ids.processingMeetingId;
  if (meetingId === undefined) return {};
  const begin = watches.prepare(target, secretValues(target), meetingId, file);
  if (onlyItsTests) begin();
  else for (const app of [servers.main, servers.realtime]) app?.server.once('request', begin);
  return { recordingWatchFile: file };
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

function parseOptions(argv: readonly string[]): { layer: Layer | undefined; scope: Scope; workers: number; variations: boolean; only?: Set<string> } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      layer: { type: 'string' },
      scope: { type: 'string', default: 'declared' },
      workers: { type: 'string', default: '3' },
      only: { type: 'string' },
      variations: { type: 'boolean', default: false },
    },
  });
  const variations = values.variations;
  const layer = values.layer;
  if (layer !== undefined && layer !== 'hand' && layer !== 'generated' && layer !== 'all')
    throw new Error(`--layer: expected hand, generated or all, got ${JSON.stringify(layer)}`);
  const scope = values.scope;
  if (scope !== 'declared' && scope !== 'full') throw new Error(`--scope: expected declared or full, got ${JSON.stringify(scope)}`);
  const workers = Number(values.workers);
  if (!Number.isSafeInteger(workers) || workers < 1 || workers > 16)
    throw new Error(`--workers: expected an integer from 1 to 16, got ${JSON.stringify(values.workers)}`);
  const only =
    values.only === undefined
      ? undefined
      : new Set(
          values.only
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== ''),
        );
  return only === undefined ? { layer, scope, workers, variations } : { layer, scope, workers, variations, only };
}

async function main(argv: readonly string[]): Promise<number> {
  const began = performance.now();
  // Exit handlers then run: the Playwright run's process group is killed (scripts/lib/playwright-run.ts)
  // and the work directory removed; the instances end with this process.
  const onSignal = (signal: NodeJS.Signals): never => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const { layer, scope, workers, variations, only } = parseOptions(argv);
  const plan = planTarget({});
  if (plan.kind !== 'reference') throw new Error('the reference profile names a base URL; self-verification needs the embedded reference');
  const all = instancesToVerify(plan.recordingReadyMs);
  const selected =
    only === undefined
      ? all.filter((instance) => variations || instance.kind === 'plain' || instance.kind === 'fault' || instance.combination === true)
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
  const watches = new InstanceWatches();
  try {
    for (const instance of instances) started.push(await start(instance));
    console.error(`self-verify: ${started.length} reference instances listening (${((performance.now() - began) / 1000).toFixed(1)} s)`);
    const targets: SelfVerifyTarget[] = started.map((instanceStarted, index) => {
      const { instance, baseUrl, realtimeUrl } = instanceStarted;
      const ids = instance.renameId === undefined ? undefined : renamedIds(instance.renameId);
      return {
        name: instance.name,
        baseUrl,
        realtimeUrl,
        ...(ids === undefined ? {} : { ids }),
        ...projectFilter(scope === 'full' ? { requirements: undefined } : instance, layerOf(instance, layer)),
        ...(instance.kind === 'fault' ? { faulty: true } : {}),
        ...watchOf(instanceStarted, ids, scope, watches, join(workDir, `watch-${index}.json`)),
      };
    });
    const targetsFile = join(workDir, 'targets.json');
    writeFileSync(targetsFile, JSON.stringify(targets, null, 2));

    const runTimeoutMs = RUN_TIMEOUT_MS + WHOLE_SUITE_ALLOWANCE_MS * started.filter(({ instance }) => instance.kind !== 'fault').length;
    const run = await runPlaywright({
      // A private output directory: other runs in the same tree empty test-results/ when they start.
      args: ['test', `--workers=${workers}`, '--reporter=./scripts/lib/self-verify-reporter.ts', `--output=${join(workDir, 'test-results')}`],
      env: childEnvironment(started[0] as Started, targetsFile),
      timeoutMs: runTimeoutMs,
      onLine: (line) => process.stderr.write(`${line}\n`),
    });
    if (run.timedOut) throw new Error(`the Playwright run took longer than ${(runTimeoutMs / 60_000).toFixed(1)} minutes and was stopped`);
    let results: RunResults;
    try {
      results = JSON.parse(readFileSync(resultsFileOf(targetsFile), 'utf8')) as RunResults;
    } catch {
      throw new Error(`the Playwright run wrote no results (exit code ${String(run.code)}); its output is above`);
    }

    if (process.env['SELF_VERIFY_KEEP_RESULTS'] !== undefined) writeFileSync(process.env['SELF_VERIFY_KEEP_RESULTS'], JSON.stringify(results));
    const testsOf = (instance: Instance): TestOutcome[] => results.tests.filter((test) => test.project === instance.name);
    const plain = instances.find((instance) => instance.kind === 'plain');
    const plainNotAssessed = plain === undefined ? undefined : mustNotAssessed(testsOf(plain));
    const faults = instances
      .filter((instance) => instance.kind === 'fault')
      .map((instance) =>
        faultVerdict(
          { ...instance, name: instance.name.replace(/^fault:/, ''), requirements: instance.requirements ?? [], operations: instance.fault?.operations ?? [] },
          testsOf(instance),
        ),
      );
    const declared = new Set(FAULTS.flatMap((fault) => fault.requirements));
    const verification: Verification = {
      layer: layer ?? DEFAULT_LAYERS,
      scope,
      workers,
      wallSeconds: (performance.now() - began) / 1000,
      runStatus: results.status,
      runErrors: results.errors,
      faults,
      variants: instances
        .filter((instance) => instance.kind !== 'fault')
        .map((instance) =>
          variationVerdict(
            { name: instance.name, kind: instance.kind === 'fault' ? 'variant' : instance.kind, description: instance.description },
            testsOf(instance),
            instance === plain ? undefined : plainNotAssessed,
          ),
        ),
      blastRadius: blastRadius(faults),
      mustWithoutFault: requirements()
        .filter((entry) => entry.level === 'MUST' && !declared.has(entry.id))
        .map((entry) => entry.id),
    };
    writeFileSync(join(REPORTS_DIR, 'self-verification.json'), `${JSON.stringify(verification, null, 2)}\n`);
    writeFileSync(join(REPORTS_DIR, 'self-verification.md'), markdownReport(verification));

    for (const fault of verification.faults.filter((verdict) => !verdict.caught))
      console.log(`not caught: ${fault.name} (${fault.requirements.join(', ')}): ${fault.reason ?? ''}`);
    for (const variant of verification.variants.filter((verdict) => !verdict.passed)) {
      console.log(
        `failed: ${variant.name}: ${[...variant.failures.map((entry) => `${entry.requirementId} in ${entry.location} ${entry.title}`), ...variant.brokenTests].join('; ') || 'no test ran'}`,
      );
    }
    console.log(`kill matrix: reports/self-verification.md, reports/self-verification.json; wall time ${verification.wallSeconds.toFixed(1)} s`);
    console.log(summaryLine(verification));
    const complete = results.errors.length === 0 && (results.status === 'passed' || results.status === 'failed');
    if (!complete) return 2;
    return verification.faults.every((fault) => fault.caught) && verification.variants.every((variant) => variant.passed) ? 0 : 1;
  } finally {
    await watches.stop();
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
