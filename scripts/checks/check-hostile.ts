/**
 * `npm run check:hostile`: proves that the suite fails clearly against a broken target instead of
 * crashing or hanging. For each mode of scripts/lib/hostile-target.ts it runs a representative subset
 * of the suite (login without credentials, bearer and API-key operations, realtime client
 * credentials) against a hostile server with dummy credentials and TARGET_TIMEOUT_MS=2000, and
 * fails when a run
 *   - takes longer than RUN_BOUND_MS (it is then killed: a hang),
 *   - exits with a code other than 0 or 1 (1 = tests failed, the expected outcome),
 *   - shows no failure message naming the mode's cause in plain words,
 *   - or shows a failure message of a harness crash (TypeError and the like).
 * A target that gives no answer at all (UNREACHABLE_MODES: every connection reset, every request
 * left unanswered, every body unfinished) runs with the reference profile's own timeout instead
 * (TARGET_TIMEOUT_MS of fixtures/targets/reference.env, 10 s), and must stop at the pre-flight: exit
 * code 2 within UNREACHABLE_BOUND_MS, one message naming the cause, no test run.
 *
 * Three more cases (issue 31) run the reference behind a front, with the reference profile and its own
 * 10 s timeout and the project's reporters (redirected to the case's directory), on FRONT_FILES:
 *   - front-hang: a front that lets login through and hangs every other request (scripts/lib/hostile-front.ts);
 *   - front-drip: the same, dripping every other body a byte a second;
 *   - realtime-closed: the main interface is the reference, the realtime address has nothing listening.
 * Each must exit 2 within FRONT_BOUND_MS, write a certificate in which no requirement failed and no
 * test failed outside its checks, and name what happened: the two fronts a run stopped because the
 * target stopped answering (said once, on one console line), realtime-closed the realtime interface
 * unreachable and nothing else, with the main interface's requirements judged. (Their wall time
 * against a clean run's, on the whole suite: npm run bench:suite -- --front hang --front drip --realtime-unreachable.)
 *
 * Usage: npm run check:hostile -- [--mode html]... [--parallel 2]
 * Reports go to reports/.checks/hostile/<mode>/.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { DEFAULTS } from '../../fixtures/config/variables.ts';
import { EXIT_NOT_JUDGED } from '../../fixtures/verdict/exit-codes.ts';
import { HOSTILE_MODES, hostileProfile, startHostileTarget } from '../lib/hostile-target.ts';
import type { HostileMode } from '../lib/hostile-target.ts';
import { HUGE_FRONT_BODY_BYTES, startHostileFront } from '../lib/hostile-front.ts';
import { closedPort } from '../lib/closed-port.ts';
import { writeCheckConfig } from '../lib/check-config.ts';
import { startReference } from '../../fixtures/run/reference-process.ts';
import { ledgerFiles } from '../../fixtures/data/ledger.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { cleanEnv, readJsonReport, REPO_ROOT, runPlaywright, seconds } from '../lib/playwright-run.ts';
import type { RunResult } from '../lib/playwright-run.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/hostile');
const TIMEOUT_MS = 2_000;
/** Per mode. The slowest mode, never-ends, spends TIMEOUT_MS on each request that waits for it. */
const RUN_BOUND_MS = 60_000;
/**
 * One test of each way in: login (no credentials), bearer + apikey (smoke, GRP-01), apikey only
 * (MSUM-01), realtime client credentials (RT-01). Few, because every failed test costs a new
 * worker process (Playwright replaces a worker after a failure).
 */
const SUBSET_FILES = ['tests/login.spec.ts', 'tests/smoke.spec.ts', 'tests/meetings-summary.spec.ts', 'tests/realtime.spec.ts'];
const SUBSET_TAGS = '@(?:LOGIN-01|GRP-01|MSUM-01|RT-01)\\b';

/** Modes in which the target never answers: the run must stop at the pre-flight with exit code 2. */
const UNREACHABLE_MODES: ReadonlySet<HostileMode> = new Set(['never-ends', 'hangs', 'reset']);
/** The reference profile's own request timeout (10 s), not a shortened one: those modes run with it (issue 23). */
const PROFILE_TIMEOUT_MS = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE }).timeoutMs;
/** Start-up, and the pre-flight's requests that each wait PROFILE_TIMEOUT_MS at once. */
const UNREACHABLE_BOUND_MS = 45_000;

/** The words a failure must use for each mode (matched case-insensitively). */
const EXPECTED_CAUSE: Readonly<Record<HostileMode, string>> = {
  html: 'target answered text/html where JSON was required',
  'invalid-json': "target's response is not valid JSON",
  huge: `target's response body exceeded the limit of ${DEFAULTS.maxBodyBytes} bytes`,
  'never-ends': `target did not finish its response within ${PROFILE_TIMEOUT_MS} ms`,
  hangs: `target did not finish its response within ${PROFILE_TIMEOUT_MS} ms`,
  reset: 'connection reset by the target',
  'redirect-loop': 'target answered with a redirect',
  'wrong-content-type': 'target answered text/plain where JSON was required',
  empty: 'target answered with an empty body',
};

/** Messages that mean the harness itself broke, not the target. */
const CRASH = /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b|Cannot read propert|is not a function|Maximum call stack/;

/**
 * A target that stops answering partway, or answers on one interface only (issue 31), or answers
 * every request after login with a body of 30 MB (issue 37).
 */
const FRONT_CASES = ['front-hang', 'front-drip', 'realtime-closed', 'front-huge'] as const;
type FrontCase = (typeof FRONT_CASES)[number];
type Mode = HostileMode | FrontCase;
// The longest first, so that the cases run two at a time end together.
const MODES: readonly Mode[] = [...FRONT_CASES, ...HOSTILE_MODES];
/** Enough tests on both interfaces for two workers to run into the outage; few enough to stay short. */
const FRONT_FILES = ['tests/login.spec.ts', 'tests/smoke.spec.ts', 'tests/groups.spec.ts', 'tests/meetings-summary.spec.ts', 'tests/realtime.spec.ts'];
/**
 * Start-up, the pre-flight (a realtime request that hangs waits the whole 10 s timeout), the first
 * requests' timeouts (10 s) and the stop; a run still going after this waits for each request's timeout.
 */
const FRONT_BOUND_MS = 75_000;
/** front-huge's wall time may be at most this many times a clean run of FRONT_FILES, run beside it. */
const HUGE_RATIO_BOUND = 1.5;

const { values } = parseArgs({ options: { mode: { type: 'string', multiple: true }, parallel: { type: 'string', default: '2' } } });
const modes = (values.mode ?? [...MODES]) as Mode[];
const unknown = modes.filter((mode) => !MODES.includes(mode));
if (unknown.length > 0) throw new Error(`unknown mode(s) ${unknown.join(', ')}; known: ${MODES.join(', ')}`);
const parallel = Math.max(1, Number(values.parallel));

interface Verdict {
  mode: Mode;
  problems: string[];
  lines: string[];
}

function isFrontCase(mode: Mode): mode is FrontCase {
  return (FRONT_CASES as readonly string[]).includes(mode);
}

/**
 * The reference behind a front (or with its realtime address closed), the project's reporters, the
 * reference profile's own timeout: exit 2, a certificate with nothing failed, the cause said once.
 */
async function checkFront(mode: Exclude<FrontCase, 'front-huge'>): Promise<Verdict> {
  const dir = join(OUTPUT_DIR, mode);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const profile = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
  const reference = await startReference({ recordingDelayMs: profile.recordingReadyMs });
  const front = mode === 'realtime-closed' ? undefined : await startHostileFront(mode === 'front-hang' ? 'hang' : 'drip', reference.baseUrl);
  try {
    const baseUrl = front?.url ?? reference.baseUrl;
    const realtimeUrl = front === undefined ? `http://127.0.0.1:${await closedPort()}/v2` : `${front.url}/v2`;
    const run = await runPlaywright({
      args: ['test', '--config', writeCheckConfig(dir), ...FRONT_FILES],
      env: { ...cleanEnv(), TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: baseUrl, TARGET_REALTIME_URL: realtimeUrl },
      timeoutMs: FRONT_BOUND_MS,
    });
    forgetLedger(run.output);
    const problems: string[] = [];
    if (run.timedOut) problems.push(`did not stop within ${seconds(FRONT_BOUND_MS)} (killed)`);
    else if (run.code !== EXIT_NOT_JUDGED) problems.push(`exited with code ${String(run.code)}, expected ${EXIT_NOT_JUDGED} (it could not judge everything)`);
    let certificate: CertificationReport | undefined;
    try {
      certificate = JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as CertificationReport;
    } catch (error) {
      problems.push(`no certificate (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); output:\n${run.output.slice(-2000)}`);
    }
    const failed = certificate?.requirements.filter((result) => result.verdict === 'failed').map((result) => result.id) ?? [];
    if (failed.length > 0) problems.push(`requirements failed although the target gave no answer: ${failed.join(', ')}`);
    if ((certificate?.suiteErrors.length ?? 0) > 0)
      problems.push(`suite errors: ${certificate?.suiteErrors.map((entry) => `${entry.title}: ${entry.detail}`).join('; ')}`);
    if (certificate !== undefined && certificate.verdict !== 'INCOMPLETE') problems.push(`verdict ${certificate.verdict}, expected INCOMPLETE`);
    const outages = certificate?.outages ?? [];
    const stopped = outages.find((outage) => outage.interface === undefined);
    const judged = certificate?.requirements.filter((result) => result.verdict !== 'failed' && result.verdict !== 'not assessed').length ?? 0;
    if (mode === 'realtime-closed') {
      const [only] = outages;
      if (outages.length !== 1 || only?.interface !== 'realtime' || only.kind !== 'unreachable')
        problems.push(`outages ${JSON.stringify(outages)}, expected the realtime interface unreachable and nothing else`);
      if (judged === 0) problems.push('no requirement was judged: the main interface answers and must be judged in full');
      const said = run.output.split('Pre-flight: the realtime interface').length - 1;
      if (said !== 1) problems.push(`said "Pre-flight: the realtime interface" ${said} times, expected once`);
      if (!/certification: INCOMPLETE \(not judged: the realtime interface/.test(run.output))
        problems.push('the verdict line does not name the realtime interface');
    } else {
      if (stopped?.kind !== 'stopped answering' || !/^the target stopped answering at \d\d:\d\d:\d\d UTC after \d+ exchanges/.test(stopped.cause))
        problems.push(`no run stop "the target stopped answering at HH:MM:SS UTC after K exchanges" among ${JSON.stringify(outages)}`);
      const said = run.output.split('Run stopped: the target stopped answering').length - 1;
      if (said !== 1) problems.push(`said "Run stopped: the target stopped answering" ${said} times, expected once; output:\n${run.output.slice(-2000)}`);
    }
    const counts = front?.counts();
    const lines = [
      `${mode}: exit ${String(run.code)} in ${seconds(run.durationMs)} (profile timeout ${PROFILE_TIMEOUT_MS} ms), ${certificate?.verdict ?? 'no certificate'}: ` +
        `${judged} requirements judged, ${failed.length} failed, ${certificate?.requirements.filter((result) => result.verdict === 'not assessed').length ?? '?'} not assessed` +
        (counts === undefined ? '' : `; the front passed ${counts.passed} logins and held ${counts.held} requests`),
    ];
    const cause = (stopped ?? outages[0])?.cause;
    if (cause !== undefined) lines.push(`    ${cause}`);
    return { mode, problems, lines };
  } finally {
    await front?.close();
    await reference.stop();
  }
}

/**
 * What a run behind a front could not archive is listed in its ledger (fixtures/data/ledger.ts), kept
 * for a target that lives on; this check's reference is gone with its data, so the list goes too.
 */
function forgetLedger(output: string): void {
  const runId = /^conformance target .*; run ([a-z0-9]+)$/m.exec(output)?.[1];
  if (runId !== undefined) for (const file of ledgerFiles(runId)) rmSync(file, { force: true });
}

/** One run of FRONT_FILES against `baseUrl` (realtime under `/v2`), reports in `dir`, and its certificate. */
async function runFrontFiles(dir: string, baseUrl: string): Promise<{ run: RunResult; certificate?: CertificationReport; problem?: string }> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const run = await runPlaywright({
    args: ['test', '--config', writeCheckConfig(dir), ...FRONT_FILES],
    env: { ...cleanEnv(), TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: baseUrl, TARGET_REALTIME_URL: `${baseUrl}/v2` },
    timeoutMs: FRONT_BOUND_MS,
  });
  forgetLedger(run.output);
  try {
    return { run, certificate: JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as CertificationReport };
  } catch (error) {
    return { run, problem: `no certificate (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); output:\n${run.output.slice(-2000)}` };
  }
}

/**
 * A front answering every request after login with 30 MB (issue 37), beside a clean run of the same
 * files against a reference of its own, both at once so that they share the machine's load: the
 * huge run ends within HUGE_RATIO_BOUND times the clean one, exit 1, NOT CONFORMANT, every failure
 * saying the limit was exceeded, no suite error and no outage (the target answered, too much).
 */
async function checkHugeFront(): Promise<Verdict> {
  const mode = 'front-huge';
  const profile = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
  const [clean, behind] = await Promise.all([
    startReference({ recordingDelayMs: profile.recordingReadyMs }),
    startReference({ recordingDelayMs: profile.recordingReadyMs }),
  ]);
  const front = await startHostileFront('huge', behind.baseUrl);
  try {
    const [plain, huge] = await Promise.all([
      runFrontFiles(join(OUTPUT_DIR, mode, 'clean'), clean.baseUrl),
      runFrontFiles(join(OUTPUT_DIR, mode, 'huge'), front.url),
    ]);
    const problems = [plain.problem, huge.problem].filter((problem): problem is string => problem !== undefined);
    if (plain.run.code !== 0) problems.push(`the clean run exited with code ${String(plain.run.code)}, expected 0`);
    if (huge.run.timedOut) problems.push(`did not stop within ${seconds(FRONT_BOUND_MS)} (killed)`);
    else if (huge.run.code !== 1) problems.push(`exited with code ${String(huge.run.code)}, expected 1 (requirements failed)`);
    const certificate = huge.certificate;
    const failed = certificate?.requirements.filter((result) => result.verdict === 'failed') ?? [];
    if (certificate !== undefined && certificate.verdict !== 'NOT CONFORMANT') problems.push(`verdict ${certificate.verdict}, expected NOT CONFORMANT`);
    if (certificate !== undefined && failed.length === 0) problems.push('no requirement failed although every answer after login was 30 MB');
    if ((certificate?.suiteErrors.length ?? 0) > 0)
      problems.push(`suite errors: ${certificate?.suiteErrors.map((entry) => `${entry.title}: ${entry.detail}`).join('; ')}`);
    if ((certificate?.outages ?? []).length > 0)
      problems.push(`outages ${JSON.stringify(certificate?.outages)}: the target answered, it did not stop answering`);
    const limitWords = `target's response body exceeded the limit of ${profile.maxBodyBytes} bytes`;
    if (!huge.run.output.includes(limitWords)) problems.push(`no failure says "${limitWords}"`);
    const ratio = huge.run.durationMs / plain.run.durationMs;
    if (ratio > HUGE_RATIO_BOUND) problems.push(`${ratio.toFixed(2)} times the clean run, above ${HUGE_RATIO_BOUND}`);
    const { held } = front.counts();
    const lines = [
      `${mode}: exit ${String(huge.run.code)} in ${seconds(huge.run.durationMs)}, clean run beside it exit ${String(plain.run.code)} in ${seconds(plain.run.durationMs)}: ` +
        `ratio ${ratio.toFixed(2)} (bound ${HUGE_RATIO_BOUND}); ${certificate?.verdict ?? 'no certificate'}, ${failed.length} requirements failed, ` +
        `${certificate?.suiteErrors.length ?? '?'} suite errors; the front answered ${held} requests with ${HUGE_FRONT_BODY_BYTES} bytes`,
    ];
    const example = huge.run.output.split('\n').find((line) => line.includes(limitWords));
    if (example !== undefined) lines.push(`    e.g. ${example.trim().slice(0, 220)}`);
    return { mode, problems, lines };
  } finally {
    await front.close();
    await Promise.all([clean.stop(), behind.stop()]);
  }
}

async function checkMode(mode: Mode): Promise<Verdict> {
  if (mode === 'front-huge') return checkHugeFront();
  if (isFrontCase(mode)) return checkFront(mode);
  const dir = join(OUTPUT_DIR, mode);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const hostile = await startHostileTarget(mode);
  if (UNREACHABLE_MODES.has(mode)) {
    try {
      return await checkUnreachable(mode, hostile.url, () => hostile.requests());
    } finally {
      await hostile.close();
    }
  }
  try {
    const reportFile = join(dir, 'report.json');
    const run = await runPlaywright({
      args: ['test', ...SUBSET_FILES, `--grep=${SUBSET_TAGS}`, '--workers=1', '--reporter=json', `--output=${join(dir, 'test-results')}`],
      env: {
        ...cleanEnv(),
        TARGET_NAME: `hostile-${mode}`,
        ...hostileProfile(hostile.url, TIMEOUT_MS),
        TARGET_CHANNEL: 'no-such-channel',
        TARGET_ALLOW_WRITES: '0',
        TARGET_ALLOW_DESTRUCTIVE: '0',
        PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
      },
      timeoutMs: RUN_BOUND_MS,
    });
    const problems: string[] = [];
    const lines: string[] = [];
    if (run.timedOut) problems.push(`did not finish within ${seconds(RUN_BOUND_MS)} (killed)`);
    else if (run.code !== 0 && run.code !== 1) problems.push(`exited with code ${String(run.code)}${run.signal === null ? '' : ` (signal ${run.signal})`}`);
    let messages: string[] = [];
    let tests = 0;
    try {
      const report = readJsonReport(reportFile);
      tests = report.tests.length;
      messages = [...report.tests.flatMap((test) => test.errors), ...report.errors];
    } catch (error) {
      problems.push(`no readable JSON report (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); output:\n${run.output.slice(-2000)}`);
    }
    const expected = EXPECTED_CAUSE[mode].toLowerCase();
    const naming = messages.filter((message) => message.toLowerCase().includes(expected));
    const crashes = messages.filter((message) => CRASH.test(message));
    if (messages.length > 0 && naming.length === 0) problems.push(`no failure message says "${EXPECTED_CAUSE[mode]}"`);
    if (messages.length === 0 && problems.length === 0) problems.push('no test failed: the suite passed against a broken target');
    for (const crash of crashes.slice(0, 3)) problems.push(`harness crash: ${crash.split('\n')[0]}`);
    lines.push(
      `${mode}: exit ${String(run.code)} in ${seconds(run.durationMs)}, ${hostile.requests()} requests, ${tests} tests, ${messages.length} failure messages, ${naming.length} name the cause`,
    );
    const firstLines = [
      ...new Set(
        messages.map(
          (message) =>
            message
              .split('\n')
              .find((line) => line.trim() !== '')
              ?.trim() ?? '',
        ),
      ),
    ];
    for (const line of firstLines.slice(0, 4)) lines.push(`    e.g. ${line.length > 220 ? `${line.slice(0, 220)}…` : line}`);
    return { mode, problems, lines };
  } finally {
    await hostile.close();
  }
}

/** A target that never answers: the run stops at the pre-flight, exit 2, one message that names the cause. */
async function checkUnreachable(mode: HostileMode, url: string, requests: () => number): Promise<Verdict> {
  const run = await runPlaywright({
    args: ['test', ...SUBSET_FILES, `--grep=${SUBSET_TAGS}`, '--workers=1', '--reporter=line', `--output=${join(OUTPUT_DIR, mode, 'test-results')}`],
    env: { ...cleanEnv(), TARGET_NAME: `hostile-${mode}`, ...hostileProfile(url, PROFILE_TIMEOUT_MS), TARGET_ALLOW_WRITES: '0', TARGET_ALLOW_DESTRUCTIVE: '0' },
    timeoutMs: UNREACHABLE_BOUND_MS,
  });
  const problems: string[] = [];
  if (run.timedOut) problems.push(`did not stop within ${seconds(UNREACHABLE_BOUND_MS)} (killed)`);
  else if (run.code !== 2) problems.push(`exited with code ${String(run.code)}, expected 2 (nothing could be judged)`);
  const said = run.output.split('the target cannot be reached').length - 1;
  if (said !== 1) problems.push(`said "the target cannot be reached" ${said} times, expected once; output:\n${run.output.slice(-2000)}`);
  if (!run.output.toLowerCase().includes(EXPECTED_CAUSE[mode].toLowerCase())) problems.push(`the message does not say "${EXPECTED_CAUSE[mode]}"`);
  if (/✘|\d+ failed/.test(run.output)) problems.push('tests ran against a target that cannot be reached');
  const lines = [
    `${mode}: exit ${String(run.code)} in ${seconds(run.durationMs)} (profile timeout ${PROFILE_TIMEOUT_MS} ms), ${requests()} requests, stopped at the pre-flight`,
  ];
  const cause = run.output.split('\n').find((line) => line.startsWith('Pre-flight:'));
  if (cause !== undefined) lines.push(`    ${cause}`);
  return { mode, problems, lines };
}

console.log(
  `check:hostile: tests of ${SUBSET_FILES.join(', ')} matching ${SUBSET_TAGS} against ${modes.filter((mode) => !isFrontCase(mode)).length} hostile mode(s), bound ${seconds(RUN_BOUND_MS)} each; ` +
    `${FRONT_FILES.join(', ')} against ${modes.filter(isFrontCase).length} front case(s), bound ${seconds(FRONT_BOUND_MS)} each; ${parallel} at a time`,
);
const started = performance.now();
const queue = [...modes];
const verdicts: Verdict[] = [];
await Promise.all(
  Array.from({ length: Math.min(parallel, queue.length) }, async () => {
    for (let mode = queue.shift(); mode !== undefined; mode = queue.shift()) {
      const verdict = await checkMode(mode);
      verdicts.push(verdict);
      console.log(verdict.lines.join('\n'));
      for (const problem of verdict.problems) console.log(`  FAIL ${mode}: ${problem}`);
    }
  }),
);
const failed = verdicts.filter((verdict) => verdict.problems.length > 0);
console.log(
  `\ncheck:hostile ${failed.length === 0 ? 'passed' : `FAILED (${failed.map((verdict) => verdict.mode).join(', ')})`} in ${seconds(performance.now() - started)}`,
);
process.exit(failed.length === 0 ? 0 : 1);
