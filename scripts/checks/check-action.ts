/**
 * `npm run check:action`: runs the composite action (action.yml) here as a GitHub runner would, and
 * checks what a vendor's pipeline would get from it. Each `run:` step is run with bash
 * (`--noprofile --norc -eo pipefail`, the runner's default), in its working directory, with fresh
 * GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STEP_SUMMARY files, the job's environment plus the step's
 * `env`, and the `${{ }}` expressions substituted as the runner substitutes them (inputs, step
 * outputs and outcomes, github.action_path). The `uses:` steps (setup-node, upload-artifact) and
 * `npm ci` are skipped: Node and the packages are here already. An `if:` other than `always()` is
 * refused on a `run:` step, so the simulation stays faithful.
 *
 * The action runs from what `uses: owner/repo@ref` downloads: an archive of the commit, without
 * `.git`. Here that is `git archive HEAD | tar -x` in a temporary directory (uncommitted changes are
 * not in it, as they are not in a published ref), with this checkout's node_modules hard-linked into
 * it (`cp -al`) in place of `npm ci`. Its certificate must name HEAD and be certifiable: the copy
 * knows its commit from .git_archival.txt (fixtures/reporters/archive-copy.ts).
 *
 * Four runs, each in a workspace of its own under reports/.checks/action/ (never over a user's
 * reports):
 *   unreachable   a profile whose address has nothing listening: the run step exits 2, and the
 *                 summary and the verdict output say TARGET UNREACHABLE;
 *   reference     reference.env without its addresses (the suite starts the embedded reference with
 *                 that profile), writes and destructive checks allowed, the first run's certificate
 *                 as baseline: exit 0, CONFORMANT in the summary and in GITHUB_OUTPUT, a certificate
 *                 that is certifiable and names HEAD, the HTML report built beside it, the
 *                 baseline kept next to the reports and the
 *                 summary's diff against it (every requirement newly passed);
 *   bad profile   required variables missing, with a copy of the first run's reports in its
 *                 workspace: exit 2, no verdict (the stale certificate was removed), the summary
 *                 says why;
 *   empty         no profile at all (a secret that is not set): prepare exits 2 with an error
 *                 annotation, the suite does not run, the summary says so.
 * The last two run while the reference run does. In every run: each profile value is masked before any other line is printed, the private profile
 * file is mode 0600 and is removed at the end, and no credential of the profile appears in the
 * summary, the outputs or the console.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse } from 'yaml';
import { parseDotenv } from '../../fixtures/config/dotenv.ts';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { BASELINE_NAME, profileMasks } from '../lib/action.ts';
import type { ActionFile, ActionStep } from '../lib/action.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { cleanEnv, REPO_ROOT, runGroup, seconds } from '../lib/playwright-run.ts';
import { closedPort } from '../lib/closed-port.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/action');
const STEP_TIMEOUT_MS = 240_000;
/** Lines of each step's output shown in this check's log. */
const SHOWN_LINES = 12;

/** HEAD as `uses: owner/repo@ref` downloads it: `git archive` unpacked, no .git; the packages hard-linked from this checkout. */
function archiveCopy(): { dir: string; commit: string } {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-action-copy-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['archive', 'HEAD'], { cwd: REPO_ROOT, maxBuffer: 1 << 28 }) });
  execFileSync('cp', ['-al', join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules')]);
  return { dir, commit };
}
const COPY = archiveCopy();
const ACTION_PATH = COPY.dir;

type Outcome = 'success' | 'failure' | 'skipped';

interface StepRun {
  step: ActionStep;
  outcome: Outcome;
  /** Why the simulation skipped it, for the log. */
  skipped?: string;
  code?: number | null;
  output: string;
  outputs: Record<string, string>;
  /** What the step wrote to its GITHUB_OUTPUT file. */
  outputFile: string;
}

interface ActionRun {
  steps: StepRun[];
  summary: string;
  /** The action's outputs, as the caller's `steps.<id>.outputs` would hold them. */
  outputs: Record<string, string>;
  /** Every line the steps printed, as they printed it (before the runner's masking). */
  console: string;
  seconds: number;
}

/** `name=value` lines and `name<<DELIMITER` blocks of a GITHUB_OUTPUT or GITHUB_ENV file. */
function parseFileCommand(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block !== null) {
      const [, name = '', delimiter = ''] = block;
      const end = lines.indexOf(delimiter, i + 1);
      if (end === -1) throw new Error(`file command: ${name} has no closing ${delimiter}`);
      values[name] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq === -1) throw new Error(`file command: not name=value: ${line}`);
    values[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return values;
}

interface Context {
  inputs: Record<string, string>;
  workspace: string;
  runnerTemp: string;
  steps: Record<string, { outcome: Outcome; outputs: Record<string, string> }>;
}

/** One expression of the kinds action.yml uses; anything else is refused. */
function evaluate(expression: string, context: Context): string {
  const expr = expression.trim();
  let match: RegExpExecArray | null;
  if ((match = /^inputs\.([A-Za-z0-9_-]+)$/.exec(expr)) !== null) return context.inputs[match[1] ?? ''] ?? '';
  if (expr === 'github.action_path') return ACTION_PATH;
  if (expr === 'github.workspace') return context.workspace;
  if (expr === 'runner.temp') return context.runnerTemp;
  if ((match = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(expr)) !== null) return context.steps[match[1] ?? '']?.outputs[match[2] ?? ''] ?? '';
  if ((match = /^steps\.([A-Za-z0-9_-]+)\.(outcome|conclusion)$/.exec(expr)) !== null) return context.steps[match[1] ?? '']?.outcome ?? '';
  throw new Error(`check:action: the simulation does not evaluate \${{ ${expr} }}`);
}

function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => evaluate(expression, context));
}

function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return runGroup('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, timeoutMs: STEP_TIMEOUT_MS });
}

/** The environment a runner gives a step: this machine's, without any TARGET_*, run, npm or GitHub variable. */
function runnerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(cleanEnv())) {
    if (!/^(CONFORMANCE_|GITHUB_|RUNNER_|ACTION_|INPUT_|npm_)/i.test(key)) env[key] = value;
  }
  return { ...env, CI: 'true', GITHUB_ACTIONS: 'true' };
}

function readAction(): ActionFile {
  return parse(readFileSync(join(ACTION_PATH, 'action.yml'), 'utf8')) as ActionFile;
}

/** Runs the action's steps in `dir` (workspace, runner temp and file commands inside it). */
async function runAction(dir: string, given: Record<string, string>, afterStep?: (run: StepRun, context: Context) => void): Promise<ActionRun> {
  const action = readAction();
  const started = performance.now();
  const workspace = join(dir, 'workspace');
  const runnerTemp = join(dir, 'runner-temp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(runnerTemp, { recursive: true });
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) inputs[name] = given[name] ?? input.default ?? '';
  const context: Context = { inputs, workspace, runnerTemp, steps: {} };
  const jobEnv: Record<string, string> = {};
  const runs: StepRun[] = [];
  let summary = '';
  for (const [index, step] of action.runs.steps.entries()) {
    const failedBefore = runs.some((run) => run.outcome === 'failure');
    const record = (run: StepRun): void => {
      runs.push(run);
      if (step.id !== undefined) context.steps[step.id] = { outcome: run.outcome, outputs: run.outputs };
      afterStep?.(run, context);
    };
    if (step.run === undefined) {
      record({ step, outcome: 'skipped', skipped: `uses ${step.uses ?? '?'}: not run here`, output: '', outputs: {}, outputFile: '' });
      continue;
    }
    if (/^\s*npm ci\s*$/.test(step.run)) {
      record({ step, outcome: 'skipped', skipped: 'npm ci: the packages are installed', output: '', outputs: {}, outputFile: '' });
      continue;
    }
    if (step.if !== undefined && step.if.trim() !== 'always()')
      throw new Error(`check:action: step ${step.name ?? index}: the simulation runs only if: always() on a run step`);
    if (failedBefore && step.if === undefined) {
      record({ step, outcome: 'skipped', skipped: 'an earlier step failed', output: '', outputs: {}, outputFile: '' });
      continue;
    }
    const files = Object.fromEntries(
      ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_STEP_SUMMARY', 'GITHUB_PATH'].map((name) => [name, join(runnerTemp, `_${name.toLowerCase()}_${index}`)]),
    );
    for (const file of Object.values(files)) writeFileSync(file, '');
    const script = join(runnerTemp, `_step_${index}.sh`);
    writeFileSync(script, substitute(step.run, context));
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(String(value), context)]));
    const env = { ...runnerEnv(), ...jobEnv, ...files, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, GITHUB_ACTION_PATH: ACTION_PATH, ...stepEnv };
    const cwd = step['working-directory'] === undefined ? workspace : substitute(step['working-directory'], context);
    const result = await runBash(script, cwd, env);
    summary += readFileSync(files['GITHUB_STEP_SUMMARY'] ?? '', 'utf8');
    Object.assign(jobEnv, parseFileCommand(readFileSync(files['GITHUB_ENV'] ?? '', 'utf8')));
    const outputFile = readFileSync(files['GITHUB_OUTPUT'] ?? '', 'utf8');
    record({
      step,
      outcome: result.code === 0 ? 'success' : 'failure',
      code: result.code,
      output: result.output,
      outputs: parseFileCommand(outputFile),
      outputFile,
    });
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value, context)]));
  return { steps: runs, summary, outputs, console: runs.map((run) => run.output).join(''), seconds: (performance.now() - started) / 1000 };
}

/** The credentials of a profile: what must never be seen anywhere (fixtures/config/variables.ts SECRET_VARIABLES). */
function credentials(profile: string): string[] {
  return Object.entries(parseDotenv(profile).values)
    .filter(([key, value]) => /PASSWORD|API_KEY|CLIENT_ID|SECRET|TOKEN/.test(key) && value !== '')
    .map(([, value]) => value);
}

/** The output as the runner's log would show it: masks applied, mask commands counted, not shown. */
function asLogged(output: string, masks: readonly string[]): string {
  const lines = output.split('\n');
  const commands = lines.filter((line) => line.startsWith('::add-mask::')).length;
  const shown = lines.filter((line) => !line.startsWith('::add-mask::')).map((line) => masks.reduce((text, mask) => text.split(mask).join('***'), line));
  return [...(commands === 0 ? [] : [`(${commands} masks registered)`]), ...shown].join('\n');
}

const problems: string[] = [];
function expect(ok: boolean, what: string, detail = ''): void {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === '' ? '' : `: ${detail}`}`);
  if (!ok) problems.push(what);
}

function stepNamed(run: ActionRun, id: string): StepRun | undefined {
  return run.steps.find((step) => step.step.id === id);
}

/** The checks every run must pass: masking first, the private file, cleanup, no credential anywhere. */
function commonChecks(run: ActionRun, profile: string, privateFile: { mode?: number; dirMode?: number; path?: string }): void {
  const prepare = stepNamed(run, 'prepare');
  const lines = (prepare?.output ?? '').split('\n').filter((line) => line !== '');
  const firstOther = lines.findIndex((line) => !line.startsWith('::add-mask::'));
  const maskLines = lines.filter((line) => line.startsWith('::add-mask::'));
  const masked = new Set(maskLines.map((line) => line.slice('::add-mask::'.length)));
  const secrets = credentials(profile);
  expect(
    secrets.every((secret) => masked.has(secret)) && maskLines.length === (firstOther === -1 ? lines.length : firstOther),
    'prepare masks every credential of the profile before it prints any other line',
    `${maskLines.length} mask lines, first other line at ${firstOther}`,
  );
  if (privateFile.path !== undefined) {
    expect(
      privateFile.mode === 0o600 && privateFile.dirMode === 0o700,
      'the profile file is mode 0600 in a directory of mode 0700',
      `${privateFile.mode?.toString(8)} in ${privateFile.dirMode?.toString(8)}`,
    );
    expect(!existsSync(privateFile.path), 'the private profile is removed at the end');
  }
  const every = profileMasks(profile);
  const consoleOutside = run.console
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  const leaked = (text: string, values: readonly string[]) => values.filter((value) => text.includes(value));
  expect(leaked(run.summary, every).length === 0, 'no value of the profile in the job summary', `${leaked(run.summary, every).length} found`);
  expect(
    leaked(JSON.stringify(run.outputs), every).length === 0,
    'no value of the profile in the outputs',
    `${leaked(JSON.stringify(run.outputs), every).length} found`,
  );
  expect(
    leaked(consoleOutside, secrets).length === 0,
    'no credential of the profile in the console (outside the mask commands)',
    `${leaked(consoleOutside, secrets).length} found`,
  );
}

async function check(label: string, dir: string, profile: string, inputs: Record<string, string>, verify: (run: ActionRun) => void): Promise<ActionRun> {
  const privateFile: { mode?: number; dirMode?: number; path?: string } = {};
  const run = await runAction(dir, { profile, ...inputs }, (step) => {
    if (step.step.id === 'prepare' && step.outputs['target-file'] !== undefined) {
      const path = step.outputs['target-file'];
      privateFile.path = path;
      privateFile.mode = statSync(path).mode & 0o777;
      privateFile.dirMode = statSync(step.outputs['private-dir'] ?? '').mode & 0o777;
    }
  });
  const masks = profileMasks(profile);
  // Printed once the run has ended, all at once: the cases run side by side.
  console.log(`\ncheck:action: ${label}`);
  for (const step of run.steps) {
    console.log(
      `  - ${step.step.name ?? step.step.uses ?? '?'}: ${step.outcome}${step.skipped === undefined ? '' : ` (${step.skipped})`}${step.code === undefined ? '' : `, exit ${step.code}`}`,
    );
    // The tail: the list of tests of a whole run would drown the checks.
    const shown = asLogged(step.output, masks).trimEnd().split('\n');
    if (shown.length > SHOWN_LINES) console.log(`      | (${shown.length - SHOWN_LINES} lines before these)`);
    if (shown.join('') !== '') console.log(shown.slice(-SHOWN_LINES).join('\n').replace(/^/gm, '      | '));
  }
  console.log(`  summary:\n${run.summary.trimEnd().replace(/^/gm, '      > ')}`);
  console.log(`  outputs: ${JSON.stringify(run.outputs)} (${run.seconds.toFixed(1)} s)`);
  verify(run);
  commonChecks(run, profile, privateFile);
  return run;
}

/** The user's own certificate's modification time, or 'none'. */
function userCertificate(): string {
  const file = join(REPO_ROOT, 'reports/certification.json');
  return existsSync(file) ? String(statSync(file).mtimeMs) : 'none';
}

const started = performance.now();
console.log(`check:action: the action runs from a git archive copy of HEAD (${COPY.commit.slice(0, 12)}) in ${COPY.dir}, without .git`);
const userCertificateBefore = userCertificate();
rmSync(OUTPUT_DIR, { recursive: true, force: true });
const reference = readFileSync(REFERENCE_TARGET_FILE, 'utf8');
const withoutAddresses = reference
  .split('\n')
  .filter((line) => !/^TARGET_(BASE|REALTIME)_URL=/.test(line))
  .join('\n');
const port = await closedPort();
const unreachableProfile = `${withoutAddresses}\nTARGET_BASE_URL=http://127.0.0.1:${port}\nTARGET_REALTIME_URL=http://127.0.0.1:${port}/v2\nTARGET_TIMEOUT_MS=2000\n`;

const unreachableDir = join(OUTPUT_DIR, 'unreachable');
await check(`a profile whose address has nothing listening (port ${port})`, unreachableDir, unreachableProfile, {}, (run) => {
  expect(stepNamed(run, 'run')?.code === 2, 'the run step exits 2', `exit ${stepNamed(run, 'run')?.code}`);
  expect(run.summary.includes('**Verdict: TARGET UNREACHABLE'), 'the summary holds the verdict line TARGET UNREACHABLE');
  expect(
    run.outputs['verdict'] === 'TARGET UNREACHABLE' && run.outputs['exit-code'] === '2',
    'the outputs say verdict=TARGET UNREACHABLE, exit-code=2',
    JSON.stringify(run.outputs),
  );
  expect(stepNamed(run, 'summary')?.outcome === 'success', 'the summary step ran after the failed run step');
});
const baseline = join(unreachableDir, 'workspace/conformance-reports/certification.json');

const referenceCase = check(
  'the embedded reference, started by the suite from a profile without addresses',
  join(OUTPUT_DIR, 'reference'),
  withoutAddresses,
  { 'allow-writes': 'true', 'allow-destructive': 'true', 'baseline-certificate': baseline },
  (run) => {
    expect(stepNamed(run, 'run')?.code === 0, 'the run step exits 0', `exit ${stepNamed(run, 'run')?.code}`);
    expect(/^\*\*Verdict: CONFORMANT \(/m.test(run.summary), 'the summary holds the verdict line CONFORMANT');
    expect(/^\| Level \| Requirements \|.*\n\|---\|.*\n\| MUST \| \d+ \|/m.test(run.summary), 'the summary holds the totals table');
    expect(/^verdict=CONFORMANT$/m.test(stepNamed(run, 'summary')?.outputFile ?? ''), 'GITHUB_OUTPUT has verdict=CONFORMANT');
    const certificate = existsSync(run.outputs['certificate'] ?? '')
      ? (JSON.parse(readFileSync(run.outputs['certificate'] ?? '', 'utf8')) as CertificationReport)
      : undefined;
    const git = certificate?.provenance?.git;
    expect(
      git !== undefined && !('unavailable' in git) && git.commit === COPY.commit && git.archive?.copyTree === git.archive?.tree,
      `the certificate names HEAD (${COPY.commit.slice(0, 12)}), from an unchanged archive copy`,
      JSON.stringify(git),
    );
    const html = join(OUTPUT_DIR, 'reference/workspace/conformance-reports/allure-report/index.html');
    expect(
      existsSync(html) && statSync(html).size > 100_000 && stepNamed(run, 'report')?.outcome === 'success',
      'the HTML report is built beside the certificate (allure-report/index.html, one file)',
      existsSync(html) ? `${statSync(html).size} bytes` : 'missing',
    );
    expect(
      certificate?.certifiability?.certifiable === true,
      'the certificate is certifiable',
      certificate?.certifiability?.reasons.join('; ') ?? 'no certificate',
    );
    expect(
      run.outputs['certificate'] === join(OUTPUT_DIR, 'reference/workspace/conformance-reports/certification.json') &&
        existsSync(run.outputs['certificate'] ?? ''),
      "the certificate output names the run's certification.json in the workspace",
      run.outputs['certificate'],
    );
    const kept = join(OUTPUT_DIR, 'reference/workspace/conformance-reports', BASELINE_NAME);
    expect(
      existsSync(kept) && (JSON.parse(readFileSync(kept, 'utf8')) as { verdict?: string }).verdict === 'TARGET UNREACHABLE',
      `the baseline certificate is kept as ${BASELINE_NAME}`,
    );
    expect(
      /^### What changed since the baseline certificate\n\n\| \| Verdict \|\n\|---\|---\|\n\| the baseline \(baseline-certification\.json\) \| TARGET UNREACHABLE \(/m.test(
        run.summary,
      ) && /<summary><b>Requirements newly passed \(\d+\)<\/b><\/summary>/.test(run.summary),
      'the summary says what changed since the baseline: every requirement newly passed (the baseline could not reach its target)',
    );
    expect(userCertificate() === userCertificateBefore, "the user's reports/certification.json is left alone");
  },
);

const badProfile = 'TARGET_BASE_URL=http://127.0.0.1:9\nTARGET_PASSWORD=Only-Passw0rd-here!\n';
// The first run's reports, copied: their certificate must not pass for the next run's.
const badDir = join(OUTPUT_DIR, 'bad-profile');
cpSync(join(unreachableDir, 'workspace'), join(badDir, 'workspace'), { recursive: true });
// The two short runs, one after the other, go on while the reference run does (the machine may have two cores).
async function shortCases(): Promise<void> {
  await check("a profile that lacks required variables, with the first run's reports in its workspace", badDir, badProfile, {}, (run) => {
    expect(stepNamed(run, 'run')?.code === 2, 'the run step exits 2', `exit ${stepNamed(run, 'run')?.code}`);
    expect(
      run.outputs['verdict'] === '' && run.outputs['certificate'] === '',
      "no verdict and no certificate (the previous run's was removed)",
      JSON.stringify(run.outputs),
    );
    expect(run.summary.includes('**No verdict**') && run.summary.includes('invalid'), 'the summary says the profile is invalid');
    expect(run.console.includes('TARGET_SECRET: required, not set'), 'the console names the missing variables');
  });

  await check('an empty profile (a secret that is not set)', join(OUTPUT_DIR, 'empty'), '', {}, (run) => {
    expect(stepNamed(run, 'prepare')?.code === 2 && stepNamed(run, 'run')?.outcome === 'skipped', 'prepare exits 2 and the suite does not run');
    expect(
      stepNamed(run, 'prepare')?.output.includes('::error title=conformance action::input profile is empty') === true,
      'prepare says the profile is empty, as an error annotation',
    );
    expect(
      run.summary.includes('could not prepare the run') && run.outputs['exit-code'] === '2',
      'the summary says the run could not be prepared; exit-code=2',
      JSON.stringify(run.outputs),
    );
  });
}
await Promise.all([referenceCase, shortCases()]);

const total = (performance.now() - started) / 1000;
console.log(
  `\ncheck:action: ${problems.length === 0 ? 'every check passed' : `${problems.length} check(s) failed: ${problems.join('; ')}`} (${seconds(total * 1000)})`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
