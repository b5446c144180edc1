/**
 * `npm run check:canary`: proves that no credential leaks into what a run leaves behind, on the
 * failure paths too.
 *
 * The reference is loaded with a seed of per-run random canary credentials (developer,
 * non-developer and usage-limit passwords, both API keys, client ids and secrets, the JWT secret
 * and so an expired token of its own) and hosted in this process, with a tap that records every
 * credential it hands out or is given (access tokens, JWT or opaque; secretKeys; private keys;
 * passphrases). Five runs then go against it:
 *
 * - plain: the whole suite on the plain reference, with the project's reporters and the Allure HTML
 *   report, as `npm run conformance && npm run report` make them, and the bundle `npm run certify`
 *   makes of them (scripts/lib/bundle.ts), with the verifier's output;
 * - leaky: a few spec files on a reference that echoes every credential it receives back (in its
 *   error messages, in response headers, in an extra body field), issues opaque access tokens and
 *   secretKeys of words outside the BIP-39 list, with the SEC-07 test on a second reference whose
 *   secretKey words carry digits (its failure prints them in an assertion diff); reported as the CI
 *   workflow does, a blob report (`--reporter=./fixtures/reporters/redaction.ts,line,blob`) merged
 *   with the project's reporters;
 * - everyday: the spec files where credentials travel, on a reference whose secretKeys are
 *   everyday English words (part, login, the, must, passed...): no requirement fails, SEC-08 observes
 *   words outside the BIP-39 list, and the certificate holds no [REDACTED] (a single word of a key is
 *   not a secret);
 * - unreachable: the whole suite against the canary profile at an address where nothing listens:
 *   the pre-flight stops it (exit code 2, a TARGET UNREACHABLE certificate);
 * - failing: a few spec files on a reference that answers every request 500, echoing its
 *   credentials in the message and in headers, so that every test fails; the project's reporters
 *   and a blob report;
 * - cancelled: the whole suite on the plain reference, given SIGTERM (as CI cancels a job) once
 *   CANCEL_AFTER_TESTS tests have ended: it must stop with exit code 2 and leave an INCOMPLETE
 *   certificate that says it was cancelled and that `npm run verify-certificate` reads (its verdicts
 *   computed again from its evidence agree; it only refuses to certify), with the project's
 *   reporters and a blob report, all searched like the others.
 *
 * Then it searches every file those runs wrote under reports/ and test-results/ (each file of a
 * blob report's zip archive on its own) and their console output for each canary value and each
 * recorded credential, in every spelling (plain, URL-encoded, JSON-escaped, base64 alone and as
 * user:password), for any part of a secretKey, and for credentials found by their form (JWTs, PEM
 * private keys, BIP-39 secretKeys, generatedSecret() passphrases). A run whose output says that the
 * redaction reporter's last pass still found credentials counts as a hit too: that pass removes them
 * from the files before this search, so only its message shows that a layer before it let them
 * through. It prints how many places and spellings it searched, and exits 1 on any hit (naming the
 * file, with a context in which the hit is masked), 2 when a run could not exercise the suite as it
 * should.
 *
 * Files older than the check (left by other commands) are not its output and are only counted.
 *
 * Usage: npm run check:canary [-- --only plain,leaky,everyday,unreachable,failing,cancelled]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { ReporterDescription } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { parseDotenv } from '../../fixtures/config/dotenv.ts';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import type { SelfVerifyTarget } from '../../fixtures/run/self-verify-projects.ts';
import { INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE } from '../../fixtures/reporters/report-metadata.ts';
import projectConfig from '../../playwright.config.ts';
import { buildApp } from '../../reference/app.ts';
import type { Behaviour } from '../../reference/behaviour.ts';
import { findFault } from '../../reference/faults/index.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import type { SeedFile } from '../../reference/seed-types.ts';
import { EVERYDAY_WORDS } from '../../reference/everyday-words.ts';
import { issueToken } from '../../reference/tokens.ts';
import { REDACTED } from '../../fixtures/evidence/redact.ts';
import { bundleEntries, NOT_FOR_SUBMISSION_NAME, writeBundle } from '../lib/bundle.ts';
import { ISSUED_SECRET_PATTERNS, IssuedSecrets, foreignWords, keySlicePattern, lastPassFindings, needles, search, zipEntries } from '../lib/canary.ts';
import type { Hit } from '../lib/canary.ts';
import { canaryCredentials, canaryProfile, canarySeed } from '../lib/canary-seed.ts';
import type { CanaryCredentials } from '../lib/canary-seed.ts';
import { writeCheckConfig } from '../lib/check-config.ts';
import { REPO_ROOT, cleanEnv, runPlaywright } from '../lib/playwright-run.ts';
import type { RunResult } from '../lib/playwright-run.ts';
import { thisCheckout, verifyCertificate } from '../lib/certificate-verifier.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import type { Observation } from '../../fixtures/verdict/annotation-structure.ts';

const ROOT = REPO_ROOT;
const SEED = resolve(ROOT, 'reference/seed/seed.json');
const SEARCHED = ['reports', 'test-results'].map((dir) => resolve(ROOT, dir));
const CHECK_DIR = resolve(ROOT, 'reports/.checks/canary');
/**
 * The rendered interface documents (`npm run docs`) come from the committed OpenAPI document, whose
 * examples hold a sample JWT and PEM key: they are searched for the canary values, not for forms.
 */
const DOCUMENTS = new Set([INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE].map((file) => resolve(ROOT, 'reports', file)));
/** The expired token is signed with the canary JWT secret at a time long past. */
const EXPIRED_TOKEN_ISSUED_AT = Date.parse('2024-01-01T00:00:00Z');
const RUN_TIMEOUT_MS = 10 * 60_000;
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/**
 * The spec files where every kind of credential travels: logins, the bearer token and apikey
 * (smoke), security keys, the client id and secret (realtime), the body apiKey (meeting close), and
 * error answers to requests that carry valid credentials (error shapes).
 */
const CREDENTIAL_SPECS = [
  'tests/login.spec.ts',
  'tests/smoke.spec.ts',
  'tests/security-keys.spec.ts',
  'tests/realtime.spec.ts',
  'tests/meeting-close.spec.ts',
  'tests/error-shapes.spec.ts',
];
/**
 * Each failing test costs a new worker: one test for each way a credential travels when every
 * answer is an error (a login's password, the apikey header, the client id and secret, and the
 * worker's login that every bearer operation waits for).
 */
const FAILING_SPECS = ['tests/login.spec.ts', 'tests/meetings-summary.spec.ts', 'tests/realtime.spec.ts', 'tests/security-keys.spec.ts'];
const FAILING_GREP = '@(?:LOGIN-01|MSUM-01|RT-01|SEC-01)(?![\\w-])';
/** The cancelled run's SIGTERM comes once this many of the suite's 311 tests have ended: about a third of the way. */
const CANCEL_AFTER_TESTS = 100;

class CannotRun extends Error {}

type Reporting = 'project' | 'blob-and-merge' | 'project-and-blob';

interface CanaryRun {
  name: string;
  /** Faults of reference/faults/, applied in order. */
  faults: readonly string[];
  behaviour?: Partial<Behaviour>;
  /** What the instance does, in a few words (the faults name the rest). */
  note?: string;
  /** Spec files to run; empty: the whole suite. */
  files: readonly string[];
  /** Only the tests of those files whose title and tags match. */
  grep?: string;
  reporting: Reporting;
  /** The target's address has nothing listening: the run must stop at the pre-flight (exit code 2). */
  unreachable?: boolean;
  /** The run is given SIGTERM once this many tests have ended: it must stop (exit code 2) and leave its certificate. */
  cancelAfterTests?: number;
  /** Why the run did not exercise what it should, judged from its certificate; undefined when it did. */
  unexercised: (counts: VerdictCounts) => string | undefined;
  /**
   * A second instance tested in the same Playwright run, as a second project (the mechanism of
   * self-verification, fixtures/run/self-verify-projects.ts): its grep picks its few tests, and at least
   * one of them must fail.
   */
  companion?: { name: string; faults: readonly string[]; grep: string; note: string };
}

interface VerdictCounts {
  verdict: string;
  passed: number;
  failed: number;
  /** Requirements that passed with a SHOULD warning. */
  warned: string[];
  /** The observations of each requirement (its UNSPECIFIED and VARIANT findings). */
  observed: Record<string, Observation[]>;
  /** `[REDACTED]` marks in the certificate's Markdown. */
  redactedMarks: number;
  /** The kinds of its outages (fixtures/transport/outage.ts): what it could not judge, and why the run stopped. */
  outages: string[];
  /** What `npm run verify-certificate` says of it in this checkout (none: VALID). */
  verifier: string[];
}

const RUNS: readonly CanaryRun[] = [
  {
    name: 'plain',
    faults: [],
    files: [],
    reporting: 'project',
    unexercised: ({ passed }) => (passed === 0 ? 'no requirement passed under the canary credentials: did the reference load the canary seed?' : undefined),
  },
  {
    name: 'leaky',
    faults: ['echo-credentials-in-error-message', 'echo-credentials-in-header', 'echo-credentials-in-body', 'opaque-access-token'],
    // An observation (SEC-08: which list the words come from is not shown), which no fault may declare.
    behaviour: { secretKeyWordlist: foreignWords(2048) },
    note: 'secretKey words outside the BIP-39 list',
    files: CREDENTIAL_SPECS,
    reporting: 'blob-and-merge',
    // The failure of SEC-07 prints the words in an assertion diff; it would stop the test before the
    // SEC-08 observation of the non-English words above, so it runs against an instance of its own.
    companion: { name: 'keys', faults: ['secret-key-words-joined', 'echo-credentials-in-error-message'], grep: '@SEC-07(?![\\w-])', note: 'the SEC-07 test' },
    unexercised: ({ passed, failed }) =>
      passed === 0
        ? 'no requirement passed: the echoing reference was not exercised'
        : failed === 0
          ? 'no requirement failed: the opaque access token (LOGIN-01) went unnoticed'
          : undefined,
  },
  {
    // A conforming key of everyday English words (part, login, the, must, passed...): a single word of
    // it is no secret, so its run certifies as the plain one, with SEC-08's observation of the words
    // outside BIP-39, and its certificate reads normally; three of its words in their order are still
    // searched for below.
    name: 'everyday',
    faults: [],
    behaviour: { secretKeyWordlist: EVERYDAY_WORDS },
    note: 'secretKey words of everyday English',
    files: CREDENTIAL_SPECS,
    reporting: 'project-and-blob',
    unexercised: ({ failed, observed, redactedMarks }) =>
      failed > 0
        ? `${failed} requirement(s) failed on a conforming key of everyday words`
        : !(observed['SEC-08'] ?? []).some(
              ({ form, detail }) => form === 'some words are not in the BIP-39 English list' && /^[1-9]\d* of \d+ words/.test(detail ?? ''),
            )
          ? 'SEC-08 observed no word outside the BIP-39 list: were they drawn from the everyday list?'
          : redactedMarks > 0
            ? `certification.md holds ${redactedMarks} [REDACTED] mark(s): a word of the key was taken for a secret`
            : undefined,
  },
  {
    // Nothing listens at the profile's address: the pre-flight stops the run with exit code 2 and a
    // TARGET UNREACHABLE certificate, whose message and curl line carry the profile's credentials.
    name: 'unreachable',
    faults: [],
    files: [],
    unreachable: true,
    reporting: 'project-and-blob',
    unexercised: ({ verdict, passed, failed }) =>
      verdict !== 'TARGET UNREACHABLE' ? `verdict ${verdict}, expected TARGET UNREACHABLE` : passed + failed > 0 ? 'requirements were judged' : undefined,
  },
  {
    // CI cancels a job with SIGINT, then SIGTERM: given SIGTERM halfway, the run stops at once and leaves
    // the certificate of what was judged, and its other reports, complete and redacted.
    name: 'cancelled',
    faults: [],
    files: [],
    cancelAfterTests: CANCEL_AFTER_TESTS,
    note: `SIGTERM after ${CANCEL_AFTER_TESTS} tests ended`,
    reporting: 'project-and-blob',
    unexercised: ({ verdict, passed, failed, outages, verifier }) =>
      verdict !== 'INCOMPLETE'
        ? `verdict ${verdict}, expected INCOMPLETE`
        : !outages.includes('cancelled')
          ? `the certificate does not say the run was cancelled (outages: ${outages.join(', ') || 'none'})`
          : passed === 0 || failed > 0
            ? `${passed} requirement(s) passed and ${failed} failed before the cancel: expected some passed and none failed`
            : verifier.some((reason) => !/^the run could not certify: /.test(reason))
              ? `verify-certificate refuses it for more than its certifiability: ${verifier.join('; ')}`
              : !verifier.some((reason) => /the run was cancelled/.test(reason))
                ? 'verify-certificate does not call it not certifiable for the cancel'
                : undefined,
  },
  {
    name: 'failing',
    faults: ['every-answer-500', 'echo-credentials-in-header'],
    files: FAILING_SPECS,
    grep: FAILING_GREP,
    reporting: 'project-and-blob',
    unexercised: ({ passed, failed }) =>
      passed > 0 ? `${passed} requirement(s) passed although every answer was a 500` : failed === 0 ? 'no requirement failed' : undefined,
  },
];

/** Another run in the same working tree may remove a file between the listing and the reading. */
function ifPresent<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const readIfPresent = (file: string): Buffer | undefined => ifPresent(() => readFileSync(file));
const statIfPresent = (file: string): Stats | undefined => ifPresent(() => statSync(file));

function filesUnder(path: string): string[] {
  const stats = statIfPresent(path);
  if (stats === undefined || !(stats.isFile() || stats.isDirectory())) return [];
  if (stats.isFile()) return [path];
  return (ifPresent(() => readdirSync(path)) ?? []).flatMap((name) => filesUnder(join(path, name)));
}

/** Passphrase literals of the tests (`passphrase: '...'`): constants that must not appear in reports either. */
function passphraseLiterals(): { name: string; value: string }[] {
  const literals = filesUnder(resolve(ROOT, 'tests'))
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/passphrase:\s*'([^'\\]{8,})'/g)].map((match) => ({ file, value: match[1] ?? '' })));
  return literals.map(({ file, value }) => ({ name: `a passphrase literal of ${relative(ROOT, file)}`, value }));
}

function profileValues(canary: CanaryCredentials, expiredToken: string): { name: string; value: string }[] {
  return [
    { name: 'TARGET_PASSWORD', value: canary.developerPassword },
    { name: 'TARGET_NON_DEVELOPER_PASSWORD', value: canary.nonDeveloperPassword },
    { name: 'TARGET_USAGE_LIMIT_PASSWORD', value: canary.usageLimitPassword },
    { name: 'TARGET_API_KEY', value: canary.developmentApiKey },
    { name: 'TARGET_OTHER_API_KEY', value: canary.productionApiKey },
    { name: 'TARGET_FOREIGN_API_KEY', value: canary.foreignApiKey },
    { name: 'the password of the other account', value: canary.foreignPassword },
    { name: 'TARGET_CLIENT_ID', value: canary.developmentClientId },
    { name: 'TARGET_SECRET', value: canary.developmentSecret },
    { name: 'the production client id', value: canary.productionClientId },
    { name: 'the production client secret', value: canary.productionSecret },
    { name: 'the JWT secret', value: canary.jwtSecret },
    { name: 'TARGET_EXPIRED_TOKEN', value: expiredToken },
    ...passphraseLiterals(),
  ];
}

/** The verdict and requirement counts of a certificate the run wrote, or CannotRun. */
function readVerdicts(file: string, started: number): VerdictCounts {
  if ((statIfPresent(file)?.mtimeMs ?? 0) < started) throw new CannotRun(`the run wrote no ${relative(ROOT, file)}: it stopped before the tests ran`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as Partial<CertificationReport>;
  const verdicts = (report.requirements ?? []).map((entry) => entry.verdict);
  const markdown = readIfPresent(file.replace(/\.json$/, '.md'))?.toString('utf8') ?? '';
  return {
    verdict: report.verdict ?? '?',
    passed: verdicts.filter((verdict) => verdict !== 'failed' && verdict !== 'not assessed').length,
    failed: verdicts.filter((verdict) => verdict === 'failed').length,
    warned: (report.requirements ?? []).filter((entry) => entry.verdict === 'passed with warnings').map((entry) => entry.id),
    observed: Object.fromEntries((report.requirements ?? []).map((entry) => [entry.id, entry.observations ?? []])),
    redactedMarks: markdown.split(REDACTED).length - 1,
    outages: (report.outages ?? []).map((outage) => outage.kind),
    verifier: verifyCertificate(report as CertificationReport, thisCheckout()),
  };
}

/** The reference with the canary seed, the run's faults, and the tap last (it sees the final answers). */
async function startInstance(
  run: Pick<CanaryRun, 'faults' | 'behaviour'>,
  seed: SeedFile,
  recordingDelayMs: number,
  issued: IssuedSecrets,
): Promise<{ app: FastifyInstance; baseUrl: string }> {
  let options: ReferenceOptions = { seed, recordingDelayMs, keyPairsAtStart: 4, ...(run.behaviour === undefined ? {} : { behaviour: run.behaviour }) };
  for (const name of run.faults) {
    const fault = findFault(name);
    if (fault === undefined) throw new CannotRun(`the fault catalogue has no ${name}`);
    options = fault.apply(options);
  }
  options = { ...options, beforeRoutes: [...(options.beforeRoutes ?? []), issued.tap()] };
  const app = await buildApp(options);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new CannotRun('the reference has no TCP address');
  return { app, baseUrl: `http://127.0.0.1:${address.port}` };
}

interface RunOutcome {
  run: CanaryRun;
  counts: VerdictCounts;
  seconds: number;
  output: string;
}

function echo(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** A line of the list or line reporter that a test ended (list: `  ✓  12 tests/...`; line: `[12/311] tests/...`). */
const TEST_ENDED = /^\s*(?:[✓✘-]\s+\d+\s|\[\d+\/\d+\]\s)/;

/**
 * A playwright command that must finish normally: 0, or 1 when tests failed (`expected`: the codes it
 * may end with). `cancelAfterTests`: SIGTERM once that many tests have ended, as CI cancels a job.
 */
async function playwright(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  what: string,
  expected: readonly number[] = [0, 1],
  cancelAfterTests?: number,
): Promise<RunResult> {
  let pid: number | undefined;
  let ended = 0;
  let cancelled = false;
  const onLine = (line: string): void => {
    echo(line);
    if (cancelAfterTests === undefined || cancelled || !TEST_ENDED.test(line)) return;
    ended += 1;
    if (ended < cancelAfterTests || pid === undefined) return;
    cancelled = true;
    echo(`check:canary: SIGTERM to the run after ${ended} tests ended`);
    process.kill(pid, 'SIGTERM');
  };
  const result = await runPlaywright({ args, env, timeoutMs: RUN_TIMEOUT_MS, onLine, onStart: (started) => (pid = started) });
  if (cancelAfterTests !== undefined && !cancelled) throw new CannotRun(`${what} ended before ${cancelAfterTests} tests had ended: nothing was cancelled`);
  if (result.timedOut || !expected.includes(result.code ?? -1))
    throw new CannotRun(`${what} ${result.timedOut ? 'timed out' : `exited with code ${String(result.code)}`}`);
  return result;
}

async function exercise(run: CanaryRun, seed: SeedFile, profileFile: string, recordingDelayMs: number, issued: IssuedSecrets): Promise<RunOutcome> {
  const began = performance.now();
  const started = Date.now();
  const { app, baseUrl } = await startInstance(run, seed, recordingDelayMs, issued);
  // Its port, closed: nothing listens there any more.
  if (run.unreachable === true) await app.close();
  const companion = run.companion === undefined ? undefined : await startInstance(run.companion, seed, recordingDelayMs, issued);
  try {
    // Only the canary profile configures the target: any TARGET_* of the caller's shell is dropped.
    const profileEnv: NodeJS.ProcessEnv = { ...cleanEnv(), TARGET_FILE: profileFile };
    if (run.companion !== undefined && companion !== undefined) {
      const targets: SelfVerifyTarget[] = [
        { name: run.name, baseUrl, realtimeUrl: `${baseUrl}/v2`, ...(run.grep === undefined ? {} : { grep: run.grep }) },
        { name: run.companion.name, baseUrl: companion.baseUrl, realtimeUrl: `${companion.baseUrl}/v2`, grep: run.companion.grep },
      ];
      const targetsFile = join(dirname(profileFile), `${run.name}-targets.json`);
      writeFileSync(targetsFile, JSON.stringify(targets));
      profileEnv['SELF_VERIFY_TARGETS'] = targetsFile;
    }
    const env = { ...profileEnv, TARGET_BASE_URL: baseUrl, TARGET_REALTIME_URL: `${baseUrl}/v2` };
    const outputs: string[] = [];
    // With a companion, each project holds its own grep.
    const selection = [...(run.grep === undefined || run.companion !== undefined ? [] : ['--grep', run.grep]), ...run.files];
    let certificate: string;
    if (run.reporting === 'project') {
      outputs.push((await playwright(['test', ...selection], env, `${run.name}: playwright test`, run.unreachable === true ? [2] : [0, 1])).output);
      certificate = resolve(ROOT, 'reports/certification.json');
    } else {
      const dir = join(CHECK_DIR, run.name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const blobDir = join(dir, 'blob-report');
      if (run.reporting === 'blob-and-merge') {
        // As .github/workflows/conformance.yml: a shard writes a blob report, redaction first; the merge job uses the project's reporters.
        const config = writeCheckConfig(dir);
        outputs.push(
          (
            await playwright(
              ['test', '--config', config, '--reporter=./fixtures/reporters/redaction.ts,line,blob', ...selection],
              { ...env, PLAYWRIGHT_BLOB_OUTPUT_DIR: blobDir },
              `${run.name}: playwright test`,
            )
          ).output,
        );
        outputs.push((await playwright(['merge-reports', '--config', config, blobDir], profileEnv, `${run.name}: playwright merge-reports`)).output);
      } else {
        const reporters: ReporterDescription[] = [...(projectConfig.reporter as ReporterDescription[]), ['blob', { outputDir: blobDir }]];
        outputs.push(
          (
            await playwright(
              ['test', '--config', writeCheckConfig(dir, reporters), ...selection],
              env,
              `${run.name}: playwright test`,
              run.unreachable === true || run.cancelAfterTests !== undefined ? [2] : [0, 1],
              run.cancelAfterTests,
            )
          ).output,
        );
      }
      certificate = join(dir, 'certification.json');
    }
    // With a companion, the certification reporter certifies each project on its own.
    const ofProject = (name: string): string => certificate.replace(/certification\.json$/, `certification-${name}.json`);
    const counts = readVerdicts(run.companion === undefined ? certificate : ofProject(run.name), started);
    const problem = run.unexercised(counts);
    if (problem !== undefined) throw new CannotRun(`${run.name}: ${problem}`);
    if (run.companion !== undefined) {
      const companionCounts = readVerdicts(ofProject(run.companion.name), started);
      if (companionCounts.failed === 0) throw new CannotRun(`${run.name}: no requirement failed on ${run.companion.faults.join(', ')}`);
      counts.passed += companionCounts.passed;
      counts.failed += companionCounts.failed;
    }
    return { run, counts, seconds: (performance.now() - began) / 1000, output: outputs.join('') };
  } finally {
    await app.close();
    await companion?.app.close();
  }
}

function describeRun({ run, counts, seconds: took }: RunOutcome): string {
  const companion = run.companion === undefined ? '' : ` (and ${run.companion.faults.join(', ')} for ${run.companion.note})`;
  const instance = ([...run.faults, ...(run.note === undefined ? [] : [run.note])].join(', ') || 'no fault') + companion;
  const scope = run.files.length === 0 ? 'the whole suite' : `${run.grep === undefined ? '' : 'some tests of '}${run.files.length} spec files`;
  const reporting = {
    project: 'project reporters',
    'blob-and-merge': 'blob report merged with the project reporters',
    'project-and-blob': 'project reporters and a blob report',
  }[run.reporting];
  return `  ${run.name.padEnd(8)} ${instance}; ${scope}; ${reporting}: ${counts.verdict}, ${counts.passed} requirements passed, ${counts.failed} failed (${took.toFixed(1)} s)`;
}

interface Searched {
  files: number;
  bytes: number;
  older: number;
  blobReports: number;
  blobEntries: number;
  blobBytes: number;
}

function searchFiles(started: number, needleList: ReturnType<typeof needles>, patterns: ReturnType<typeof keySlicePattern>[], hits: Hit[]): Searched {
  const listed = SEARCHED.flatMap(filesUnder);
  const searched: Searched = { files: 0, bytes: 0, older: 0, blobReports: 0, blobEntries: 0, blobBytes: 0 };
  for (const file of listed) {
    if ((statIfPresent(file)?.mtimeMs ?? 0) < started) {
      searched.older += 1;
      continue;
    }
    const content = readIfPresent(file);
    if (content === undefined) continue;
    const source = relative(ROOT, file);
    const forms = DOCUMENTS.has(file) ? [] : patterns;
    if (content.subarray(0, 4).equals(Buffer.from('PK\u0003\u0004', 'latin1'))) {
      // A blob report, or a certification bundle: each of its files is searched as written (report.jsonl, attachments; the interface documents as above).
      searched.blobReports += 1;
      for (const entry of zipEntries(content)) {
        searched.blobEntries += 1;
        searched.blobBytes += entry.data.length;
        const documentEntry = [INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE].includes(entry.name);
        hits.push(...search(`${source}!${entry.name}`, entry.data.toString('latin1'), needleList, documentEntry ? [] : forms));
      }
      continue;
    }
    searched.files += 1;
    searched.bytes += content.length;
    hits.push(...search(source, content.toString('latin1'), needleList, forms));
  }
  return searched;
}

async function main(): Promise<number> {
  const { values: options } = parseArgs({ options: { only: { type: 'string' } } });
  const only = options.only === undefined ? undefined : new Set(options.only.split(',').map((name) => name.trim()));
  const runs = RUNS.filter((run) => only === undefined || only.has(run.name));
  if (runs.length === 0) throw new Error(`--only: expected some of ${RUNS.map((run) => run.name).join(', ')}`);
  const workdir = mkdtempSync(join(tmpdir(), 'canary-'));
  const began = performance.now();
  try {
    const canary = canaryCredentials();
    const expiredToken = await issueToken(canary.jwtSecret, 'usr-0001', EXPIRED_TOKEN_ISSUED_AT, 3600);
    const seed = canarySeed(JSON.parse(readFileSync(SEED, 'utf8')) as SeedFile, canary);
    const profileFile = join(workdir, 'canary.env');
    const profileText = readFileSync(REFERENCE_TARGET_FILE, 'utf8');
    writeFileSync(profileFile, canaryProfile(profileText, canary, expiredToken));
    const { values: profile } = parseDotenv(profileText);
    const recordingDelayMs = Number(profile['TARGET_RECORDING_READY_MS'] ?? 300_000);
    const started = Date.now();
    const issued = new IssuedSecrets();
    console.log(`check:canary: ${runs.length} runs against the reference with per-run canary credentials (${workdir})`);

    const outcomes: RunOutcome[] = [];
    let consoleOutput = '';
    for (const run of runs) {
      console.log(`\ncheck:canary: run "${run.name}"`);
      const outcome = await exercise(run, seed, profileFile, recordingDelayMs, issued);
      outcomes.push(outcome);
      consoleOutput += outcome.output;
      if (run.reporting === 'project') {
        const report = await runCommand(resolve(ROOT, 'node_modules/.bin/allure'), ['generate', 'reports/allure-results', '-o', 'reports/allure-report']);
        if (report.status !== 0) throw new CannotRun(`allure generate exited with ${report.status}`);
        consoleOutput += report.output;
        // The bundle npm run certify would write of this run (scripts/lib/bundle.ts): its files are searched in the zip.
        const verifier = await runCommand(process.execPath, [
          '--import',
          'tsx',
          resolve(ROOT, 'scripts/commands/verify-certificate.ts'),
          'reports/certification.json',
        ]);
        consoleOutput += verifier.output;
        mkdirSync(CHECK_DIR, { recursive: true });
        writeBundle(join(CHECK_DIR, `${run.name}-${NOT_FOR_SUBMISSION_NAME}`), bundleEntries(resolve(ROOT, 'reports'), verifier.output).entries);
      }
    }
    const runSeconds = (performance.now() - began) / 1000;

    const searchBegan = performance.now();
    const pairs = [
      { name: 'developer e-mail:password', user: profile['TARGET_EMAIL'] ?? '', password: canary.developerPassword },
      { name: 'non-developer e-mail:password', user: profile['TARGET_NON_DEVELOPER_EMAIL'] ?? '', password: canary.nonDeveloperPassword },
      { name: 'usage-limit e-mail:password', user: profile['TARGET_USAGE_LIMIT_EMAIL'] ?? '', password: canary.usageLimitPassword },
      { name: 'client_id:secret', user: canary.developmentClientId, password: canary.developmentSecret },
    ];
    const known = profileValues(canary, expiredToken);
    const recorded = issued.values();
    const needleList = needles([...known, ...recorded], pairs);
    const patterns = [...ISSUED_SECRET_PATTERNS, keySlicePattern(issued.secretKeys)];
    const hits: Hit[] = [];
    const searched = searchFiles(started, needleList, patterns, hits);
    const plainConsole = consoleOutput.replace(ANSI, '');
    hits.push(...search('console output', plainConsole, needleList, patterns));
    hits.push(...lastPassFindings('console output', plainConsole));
    const opaque = [...issued.tokens].filter((token) => !token.startsWith('eyJ')).length;

    console.log(`\ncheck:canary: ${outcomes.length} runs in ${runSeconds.toFixed(1)} s\n${outcomes.map(describeRun).join('\n')}`);
    console.log(
      `searched: ${searched.files} files (${searched.bytes} bytes) under reports/ and test-results/, ${searched.blobEntries} files (${searched.blobBytes} bytes) ` +
        `in ${searched.blobReports} zip archives (blob reports, certification bundles), and ${Buffer.byteLength(plainConsole)} bytes of console output; ${searched.older} older files not searched\n` +
        `for: ${known.length} canary values of the profile and ${recorded.length} credentials the reference handed out or was given ` +
        `(${issued.tokens.size} access tokens, ${opaque} of them opaque; ${issued.secretKeys.size} secretKeys; ${issued.privateKeys.size} private keys; ${issued.passphrases.size} passphrases), ` +
        `in ${needleList.length} spellings (plain, URL-encoded, JSON-escaped, base64, user:password), and ${patterns.length} credential forms (${patterns.map((pattern) => pattern.name).join('; ')}); ` +
        `search ${((performance.now() - searchBegan) / 1000).toFixed(1)} s`,
    );
    for (const hit of hits) console.log(`LEAK ${hit.source}: ${hit.what}\n  …${hit.context}…`);
    if (hits.length > 0) {
      console.log(`check:canary: FAILED, ${hits.length} leak(s)`);
      return 1;
    }
    console.log(
      `check:canary: 0 hits: no canary value and no credential of the run found anywhere (${((performance.now() - began) / 1000).toFixed(1)} s in all)`,
    );
    return 0;
  } catch (error) {
    console.error(`check:canary could not run: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof CannotRun ? 2 : 1;
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

/** Runs a command from the repository root, echoing and capturing its output. */
function runCommand(command: string, args: readonly string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const capture = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString('utf8');
      stream.write(chunk);
    };
    child.stdout.on('data', capture(process.stdout));
    child.stderr.on('data', capture(process.stderr));
    child.once('error', reject);
    child.once('close', (status) => resolvePromise({ status, output }));
  });
}

process.exitCode = await main();
