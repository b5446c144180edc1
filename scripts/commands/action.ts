/**
 * The steps of the composite action (action.yml) that are more than one command, run by the runner
 * in the action's own directory (`github.action_path`) as `node --import tsx scripts/commands/action.ts <subcommand>`:
 *
 *   prepare  masks every value of the profile (ACTION_PROFILE), then writes it to a private file
 *            (a fresh directory under RUNNER_TEMP, mode 0700, the file 0600), empties the reports
 *            directory of a previous run's reports, copies the baseline certificate next to them,
 *            writes the Playwright configuration that sends the reports there, and names all of it
 *            in $GITHUB_OUTPUT. A bad input exits 2, like a bad profile does in the suite.
 *   summary  appends the verdict line and the totals table of certification.md, and what changed
 *            since the baseline certificate (npm run diff-certificates), to $GITHUB_STEP_SUMMARY,
 *            and sets the outputs verdict, certificate and exit-code.
 *   report   builds the single-file HTML report of the run (npm run report) and puts it beside the
 *            reports: allure-report/index.html, with the interface documents it links to. npm run
 *            report reads and writes the action's own reports/ directory, so the run's Allure
 *            results and certificate are copied there first. Without test results it builds nothing.
 *   cleanup  removes the private directory (profile and Playwright's own output).
 *
 * The inputs come as ACTION_* environment variables (a composite action gets no INPUT_* variables,
 * and an input is never put into a script's text). `npm run check:action` runs these steps as a
 * runner would; the pure parts are in scripts/lib/action.ts.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASELINE_NAME, flagInput, maskCommand, outputLines, profileMasks, renderSummary, REPORT_ENTRIES } from '../lib/action.ts';
import { diffable } from '../lib/certificate-diff.ts';
import { NotACertificate, readCertificate } from '../../fixtures/reporters/certificate.ts';
import type { DiffableCertificate } from '../lib/certificate-diff.ts';

/** The action's own directory (github.action_path): this checkout. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const PRIVATE_PREFIX = 'conformance-action-';

/** A problem with the action's inputs: said as an error annotation, exit 2 (nothing judged). */
class InputError extends Error {}

function env(name: string): string {
  return process.env[name] ?? '';
}

function fileCommand(name: 'GITHUB_OUTPUT' | 'GITHUB_STEP_SUMMARY'): string {
  const file = env(name);
  if (file === '') throw new Error(`${name} is not set: scripts/commands/action.ts runs as a step of action.yml`);
  return file;
}

function setOutputs(outputs: Readonly<Record<string, string>>): void {
  appendFileSync(fileCommand('GITHUB_OUTPUT'), outputLines(outputs));
}

/** Relative paths of the inputs are relative to the workspace, as in the caller's other steps. */
function inWorkspace(path: string): string {
  return resolve(env('GITHUB_WORKSPACE') || process.cwd(), path);
}

function prepare(): void {
  const profile = env('ACTION_PROFILE');
  // First, before anything else is printed.
  for (const mask of profileMasks(profile)) console.log(maskCommand(mask));
  if (profile.trim() === '') {
    throw new InputError(
      'input profile is empty: pass the whole dotenv profile from one secret (a workflow run for a pull request from a fork gets no secrets)',
    );
  }
  const flag = (name: string, variable: string): '1' | '0' => {
    try {
      return flagInput(name, env(variable));
    } catch (error) {
      throw new InputError((error as Error).message);
    }
  };
  const allowWrites = flag('allow-writes', 'ACTION_ALLOW_WRITES');
  const allowDestructive = flag('allow-destructive', 'ACTION_ALLOW_DESTRUCTIVE');
  const reportsInput = env('ACTION_REPORTS_DIRECTORY').trim() || 'conformance-reports';
  const reports = inWorkspace(reportsInput);

  let baselineVerdict: string | undefined;
  const baselineInput = env('ACTION_BASELINE_CERTIFICATE').trim();
  let baselineText: string | undefined;
  if (baselineInput !== '') {
    const file = inWorkspace(baselineInput);
    try {
      baselineText = readFileSync(file, 'utf8');
    } catch (error) {
      throw new InputError(`input baseline-certificate: cannot read ${baselineInput} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    try {
      baselineVerdict = readCertificate(baselineText, baselineInput).verdict;
    } catch (error) {
      if (!(error instanceof NotACertificate)) throw error;
      throw new InputError(`input baseline-certificate: ${error.message}`);
    }
  }

  // A previous run's certificate must not pass for this run's when this one writes none.
  mkdirSync(reports, { recursive: true });
  for (const entry of REPORT_ENTRIES) rmSync(join(reports, entry), { recursive: true, force: true });
  if (baselineText !== undefined) writeFileSync(join(reports, BASELINE_NAME), baselineText);

  // mkdtemp creates the directory with mode 0700: only this user can list or read it.
  const privateDir = mkdtempSync(join(env('RUNNER_TEMP') || tmpdir(), PRIVATE_PREFIX));
  const targetFile = join(privateDir, 'target.env');
  writeFileSync(targetFile, profile.endsWith('\n') ? profile : `${profile}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(targetFile, 0o600);
  // .mts: an ES module wherever it is, so it can live outside the action's directory.
  const config = join(privateDir, 'playwright.config.mts');
  writeFileSync(
    config,
    [
      "// Written by scripts/commands/action.ts prepare: the suite's configuration, its reports sent to the action's reports directory.",
      `import base from ${JSON.stringify(join(REPO_ROOT, 'playwright.config.ts'))};`,
      `import { redirectConfig } from ${JSON.stringify(join(REPO_ROOT, 'scripts/lib/check-config.ts'))};`,
      `export default { ...redirectConfig(base, ${JSON.stringify(reports)}), outputDir: ${JSON.stringify(join(privateDir, 'test-results'))} };`,
      '',
    ].join('\n'),
  );

  setOutputs({ 'target-file': targetFile, config, reports, 'private-dir': privateDir, 'allow-writes': allowWrites, 'allow-destructive': allowDestructive });
  console.log(`profile: ${profileMasks(profile).length} value(s) masked, written to a private file (mode 0600)`);
  console.log(
    `writes allowed: ${allowWrites === '1' ? 'yes' : 'no'}; destructive checks allowed: ${allowDestructive === '1' ? 'yes' : 'no'} (these inputs win over the profile's TARGET_ALLOW_* lines)`,
  );
  console.log(`reports: ${reports}${baselineVerdict === undefined ? '' : `; baseline certificate (verdict ${baselineVerdict}) kept as ${BASELINE_NAME}`}`);
}

function summary(): void {
  const reportsDir = env('ACTION_REPORTS');
  const exitCode = env('ACTION_EXIT_CODE');
  const prepareFailed = env('ACTION_PREPARE_OUTCOME') !== 'success';
  const json = reportsDir === '' ? '' : join(reportsDir, 'certification.json');
  const md = reportsDir === '' ? '' : join(reportsDir, 'certification.md');
  const baselineFile = reportsDir === '' ? '' : join(reportsDir, BASELINE_NAME);
  const readJson = (file: string): { verdict?: unknown } | undefined => {
    if (file === '' || !existsSync(file)) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as { verdict?: unknown };
    } catch {
      return undefined;
    }
  };
  const certificate = readJson(json);
  const verdict = typeof certificate?.verdict === 'string' ? certificate.verdict : '';
  const markdown = md !== '' && existsSync(md) ? readFileSync(md, 'utf8') : undefined;
  // Both were read as certificates already: the suite wrote one, prepare checked the other.
  const comparable = (file: string): DiffableCertificate | undefined => {
    if (file === '' || !existsSync(file)) return undefined;
    try {
      return diffable(readCertificate(readFileSync(file, 'utf8'), file));
    } catch {
      return undefined;
    }
  };
  const current = comparable(json);
  const baseline = comparable(baselineFile);
  const text = renderSummary({
    exitCode: prepareFailed && exitCode === '' ? '2' : exitCode,
    ...(markdown === undefined ? {} : { markdown }),
    ...(current === undefined ? {} : { certificate: current }),
    ...(baseline === undefined ? {} : { baseline }),
    artifactName: env('ACTION_ARTIFACT_NAME') || 'conformance-reports',
    prepareFailed,
  });
  appendFileSync(fileCommand('GITHUB_STEP_SUMMARY'), text);
  setOutputs({ verdict, certificate: certificate === undefined ? '' : json, 'exit-code': prepareFailed && exitCode === '' ? '2' : exitCode });
  console.log(verdict === '' ? 'verdict: none (no certificate)' : `verdict: ${verdict}`);
}

/** What npm run report writes (scripts/commands/report.ts), under reports/: the Allure report and the interface documents it links to. */
const HTML_REPORT = ['allure-report/index.html', 'interface-spec.html', 'interface-reference.html'];

function report(): void {
  const reportsDir = env('ACTION_REPORTS');
  const results = join(reportsDir, 'allure-results');
  if (reportsDir === '' || !existsSync(results) || !readdirSync(results).some((name) => name.endsWith('-result.json'))) {
    console.log('HTML report: none, the run left no test results');
    return;
  }
  const own = join(REPO_ROOT, 'reports');
  for (const entry of ['allure-results', 'allure-report', 'certification.json']) rmSync(join(own, entry), { recursive: true, force: true });
  cpSync(results, join(own, 'allure-results'), { recursive: true });
  if (existsSync(join(reportsDir, 'certification.json'))) cpSync(join(reportsDir, 'certification.json'), join(own, 'certification.json'));
  const built = spawnSync('npm', ['run', '--silent', 'report'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run report failed (${built.error?.message ?? `exit ${built.status ?? built.signal}`})`);
  for (const file of HTML_REPORT) {
    mkdirSync(dirname(join(reportsDir, file)), { recursive: true });
    cpSync(join(own, file), join(reportsDir, file));
  }
  console.log(`HTML report: ${join(reportsDir, HTML_REPORT[0] ?? '')} (one file that opens from disk), with ${HTML_REPORT.slice(1).join(' and ')}`);
}

function cleanup(): void {
  const dir = env('ACTION_PRIVATE_DIR');
  if (dir === '') return;
  // Only a directory that prepare made: never a path that merely came through an output.
  if (!basename(dir).startsWith(PRIVATE_PREFIX) || !existsSync(dir) || !statSync(dir).isDirectory()) {
    console.log(`cleanup: ${dir} is not the action's private directory; left alone`);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
  console.log("cleanup: the private profile and the run's own output removed");
}

const commands: Readonly<Record<string, () => void>> = { prepare, summary, report, cleanup };
const command = commands[process.argv[2] ?? ''];
if (command === undefined) {
  console.error(`usage: tsx scripts/commands/action.ts ${Object.keys(commands).join('|')}`);
  process.exit(2);
}
try {
  command();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.log(`::error title=conformance action::${message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`);
  process.exit(error instanceof InputError ? 2 : 1);
}
