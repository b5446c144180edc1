/**
 * `npm run certify`: everything a certification needs, in one command, against the configured
 * target (TARGET_FILE or TARGET_* variables; the embedded reference when none is configured):
 *
 *   1. says what it is about to do, with the target's address: the whole suite with writes and
 *      destructive checks on (TARGET_ALLOW_WRITES=1, TARGET_ALLOW_DESTRUCTIVE=1, whatever the
 *      profile says), which creates and archives participants, closes a meeting, creates security
 *      keys and exhausts the usage limit;
 *   2. runs the whole suite (`playwright test`, nothing narrowed: a narrowed run cannot certify);
 *   3. builds the single-file HTML report (`npm run report`);
 *   4. verifies the certificate (`npm run verify-certificate`) and keeps what it said;
 *   5. searches every file of the bundle for the profile's credentials and credentials by their
 *      form, and writes the bundle under reports/ (scripts/lib/bundle.ts): `certification-bundle.zip`
 *      when it can be submitted, `certification-bundle.NOT-FOR-SUBMISSION.zip` otherwise.
 *
 * Exit code: the suite's when it is not 0 (1 a requirement failed, 2 not everything could be judged:
 * README, "Exit codes"); 3 when the suite passed but the bundle is not one to submit (INCOMPLETE,
 * not certifiable, refused by the verifier, or without its HTML report); 4 when a credential was
 * found in what would be bundled (no bundle is written); 0 only for a bundle to submit. It takes no
 * arguments: a certification runs the whole suite.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { planTarget } from '../../fixtures/config/plan.ts';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { profileSecrets } from '../../fixtures/reporters/redaction.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { BUNDLE_NAME, bundleEntries, NOT_FOR_SUBMISSION_NAME, secretsIn, sha256Hex, writeBundle } from '../lib/bundle.ts';
import { REPO_ROOT } from '../lib/repo-root.ts';

const REPORTS = join(REPO_ROOT, 'reports');
const CERTIFICATE = join(REPORTS, 'certification.json');
/** What the run and npm run report write, removed before the run. */
const STALE = ['certification.json', 'certification.md', 'allure-report'];
const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');
const shown = (path: string): string => relative(process.cwd(), path) || '.';

/** Exit code when the suite passed but its bundle is not one to submit. */
export const NOT_SUBMITTABLE = 3;
/** Exit code when a credential was found in what would be bundled. */
export const SECRET_FOUND = 4;

function say(line: string): void {
  console.log(`certify: ${line}`);
}

/** The environment of the run: the caller's, with writes and destructive checks on. */
function runEnv(): NodeJS.ProcessEnv {
  return { ...process.env, TARGET_ALLOW_WRITES: '1', TARGET_ALLOW_DESTRUCTIVE: '1' };
}

/** What the run is about to do, in the caller's words: the target, its address, and the permissions it turns on. */
function announce(env: NodeJS.ProcessEnv): void {
  let where = 'the embedded reference (no TARGET_BASE_URL configured; it starts on a free port of 127.0.0.1)';
  let before = '';
  if (planTarget(env).kind === 'configured') {
    try {
      const target = loadTargetConfig(env);
      where = `target "${target.name}" at ${target.baseUrl} (realtime ${target.realtimeUrl})`;
      const configured = loadTargetConfig(process.env);
      const off = [configured.allowWrites ? '' : 'TARGET_ALLOW_WRITES', configured.allowDestructive ? '' : 'TARGET_ALLOW_DESTRUCTIVE'].filter(
        (name) => name !== '',
      );
      if (off.length > 0) before = ` (the profile has ${off.join(' and ')} off: certify turns ${off.length === 1 ? 'it' : 'them'} on)`;
    } catch {
      where = 'the configured target, whose profile is invalid (the suite names each variable to fix, and runs nothing)';
    }
  }
  say(`running the whole suite against ${where}`);
  say(
    `with TARGET_ALLOW_WRITES=1 and TARGET_ALLOW_DESTRUCTIVE=1${before}: it creates and archives participants, closes a meeting, creates security keys and exhausts the usage limit of the usage-limit account`,
  );
}

function readCertificate(): CertificationReport | undefined {
  if (!existsSync(CERTIFICATE)) return undefined;
  try {
    return JSON.parse(readFileSync(CERTIFICATE, 'utf8')) as CertificationReport;
  } catch {
    return undefined;
  }
}

function main(): number {
  if (process.argv.length > 2) {
    console.error(
      `certify: takes no arguments (got ${process.argv.slice(2).join(' ')}): a certification runs the whole suite; configure the target with TARGET_FILE or TARGET_* variables`,
    );
    return 2;
  }
  const env = runEnv();
  announce(env);
  // What an earlier run left must never pass for this run's: a run that stops before its tests writes no certificate.
  for (const name of [BUNDLE_NAME, NOT_FOR_SUBMISSION_NAME, ...STALE]) rmSync(join(REPORTS, name), { recursive: true, force: true });

  const run = spawnSync(process.execPath, [PLAYWRIGHT_CLI, 'test'], { cwd: REPO_ROOT, env, stdio: 'inherit' });
  const suiteCode = run.status ?? 2;
  const certificate = readCertificate();
  if (certificate === undefined) {
    say(`the suite exited ${suiteCode} and wrote no certificate (${shown(CERTIFICATE)}): nothing to bundle`);
    return suiteCode === 0 ? NOT_SUBMITTABLE : suiteCode;
  }

  const report = spawnSync('npm', ['run', '--silent', 'report'], { cwd: REPO_ROOT, env, stdio: 'inherit' });
  const verifier = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'scripts/commands/verify-certificate.ts'), relative(REPO_ROOT, CERTIFICATE)],
    {
      cwd: REPO_ROOT,
      env,
      encoding: 'utf8',
    },
  );
  const verifierOutput = `$ npm run verify-certificate -- reports/certification.json\n${verifier.stdout}${verifier.stderr}(exit code ${verifier.status ?? verifier.signal})\n`;
  process.stdout.write(verifierOutput);

  const { entries, missing } = bundleEntries(REPORTS, verifierOutput);
  let secrets: string[];
  try {
    secrets = profileSecrets(env);
  } catch (error) {
    say(
      `no bundle: the profile's credentials cannot be listed, so the bundle cannot be searched for them (${error instanceof Error ? error.message : String(error)})`,
    );
    return SECRET_FOUND;
  }
  const hits = secretsIn(entries, secrets);
  if (hits.length > 0) {
    for (const hit of hits.slice(0, 10)) say(`credential in ${hit.source}: ${hit.what}: ${hit.context}`);
    say(`no bundle: ${hits.length} credential(s) found in what it would hold (the values are not shown)`);
    return SECRET_FOUND;
  }

  const obstacles = [
    certificate.verdict === 'CONFORMANT' ? '' : `the verdict is ${certificate.verdict}`,
    certificate.certifiability?.certifiable === true
      ? ''
      : `the run is not certifiable (${certificate.certifiability?.reasons.join('; ') ?? 'its certificate does not say why'})`,
    verifier.status === 0 ? '' : 'verify-certificate did not find the certificate VALID',
    report.status === 0 && missing.length === 0 ? '' : `the HTML report could not be built (${missing.join(', ') || `npm run report exited ${report.status}`})`,
  ].filter((obstacle) => obstacle !== '');
  const file = join(REPORTS, obstacles.length === 0 ? BUNDLE_NAME : NOT_FOR_SUBMISSION_NAME);
  writeBundle(file, entries);
  say(`${shown(file)}: ${entries.map((entry) => entry.name).join(', ')} (searched for ${secrets.length} credentials of the profile and by form: none found)`);
  say(`SHA-256 of the bundle: ${sha256Hex(readFileSync(file))}`);
  if (obstacles.length === 0) {
    say(`submit ${shown(file)}: ${certificate.verdict}, certifiable, verify-certificate VALID (docs/certification.md, "Submitting a certification")`);
    return suiteCode;
  }
  say(`not for submission: ${obstacles.join('; ')}`);
  return suiteCode === 0 ? NOT_SUBMITTABLE : suiteCode;
}

process.exitCode = main();
