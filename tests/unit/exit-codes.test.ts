/**
 * The exit codes of `npm run conformance` (README, "Exit codes"): 2 when the run could not judge
 * anything, said in one message. Each case runs Playwright for real, with its reports redirected
 * into a directory of its own (but the refused profile's, which proves that the project's own
 * configuration clears reports/: what was there is put back afterwards). (0 on a conforming target and 1 on a failed requirement are proved
 * by `npm test`'s conformance run and by check:expectations and self-verification.)
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { startReference } from '../../fixtures/run/reference-process.ts';
import { writeCheckConfig } from '../../scripts/lib/check-config.ts';
import { REPO_ROOT, cleanEnv, runPlaywright } from '../../scripts/lib/playwright-run.ts';
import { closedPort } from '../../scripts/lib/closed-port.ts';

let dir = '';
let config = '';
before(() => {
  // Inside the repository, whose package.json makes the generated config an ES module.
  const checks = join(REPO_ROOT, 'reports', '.checks');
  mkdirSync(checks, { recursive: true });
  dir = mkdtempSync(join(checks, 'exit-codes-'));
  config = writeCheckConfig(dir);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** `playwright test` with the check's configuration, the environment of a clean shell and `profile`. */
function runSuite(profile: Record<string, string>, timeoutMs = 60_000): ReturnType<typeof runPlaywright> {
  return runPlaywright({ args: ['test', '--config', config], env: { ...cleanEnv(), ...profile }, timeoutMs });
}

describe('exit codes', () => {
  it('2 for a configuration error: every bad variable listed once, no value, no stack trace, nothing run', async () => {
    const run = await runSuite({ TARGET_BASE_URL: 'notaurl', TARGET_PASSWORD: 'Hunter-2-secret!' });
    assert.equal(run.code, 2, run.output);
    assert.equal(run.output.split('Target configuration is invalid').length - 1, 1, `said once:\n${run.output}`);
    assert.match(run.output, /TARGET_BASE_URL: not a valid absolute URL/);
    assert.match(run.output, /TARGET_REALTIME_URL: required, not set/);
    assert.doesNotMatch(run.output, /Hunter-2-secret!|notaurl/, 'no value');
    assert.doesNotMatch(run.output, /^\s+at |\[withheld|^\s*>?\s*\d+ \|/m, 'no stack trace, code frame or withheld evidence');
  });

  it('2 for a target where nothing listens: one message, a TARGET UNREACHABLE certificate, no requirement failed', async () => {
    const port = await closedPort();
    const address = `http://127.0.0.1:${port}`;
    const run = await runSuite({
      TARGET_FILE: REFERENCE_TARGET_FILE,
      TARGET_BASE_URL: address,
      TARGET_REALTIME_URL: `${address}/v2`,
      TARGET_TIMEOUT_MS: '2000',
    });
    assert.equal(run.code, 2, run.output);
    assert.equal(run.output.split('the target cannot be reached').length - 1, 1, `said once:\n${run.output}`);
    assert.match(run.output, new RegExp(`Main interface ${address}: connection refused`));
    assert.doesNotMatch(run.output, /✘|Dev-Passw0rd!/, 'no test ran, no password');
    const certificate = JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as {
      verdict: string;
      requirements: { verdict: string; notAssessedBecause: string[] }[];
    };
    assert.equal(certificate.verdict, 'TARGET UNREACHABLE');
    assert.ok(certificate.requirements.length > 100);
    for (const requirement of certificate.requirements) {
      assert.equal(requirement.verdict, 'not assessed');
      assert.match(requirement.notAssessedBecause.join(), /the target could not be reached: .*connection refused/);
    }
  });

  it('2 for a wrong password: a configuration error naming TARGET_EMAIL and TARGET_PASSWORD, not certifiable, nothing run or left behind', async () => {
    plantStaleReports(dir);
    // The embedded reference, started by global setup with its own profile, but for the password.
    const run = await runSuite({ TARGET_PASSWORD: 'Not-The-Passw0rd!', TARGET_ALLOW_WRITES: '1' }, 90_000);
    assert.equal(run.code, 2, run.output);
    assert.equal(run.output.split('Pre-flight: configuration error').length - 1, 1, `said once:\n${run.output}`);
    assert.match(
      run.output,
      /the developer account could not log in \(login answered HTTP 401 at http:\/\/127\.0\.0\.1:\d+\/login\): check TARGET_EMAIL and TARGET_PASSWORD/,
    );
    assert.doesNotMatch(run.output, /✘|Not-The-Passw0rd!|left behind/, 'no test ran, no password, nothing left behind');
    assertStaleReportsGone(dir);
    assertMisconfiguredCertificate(dir, /check TARGET_EMAIL and TARGET_PASSWORD/);
  });

  it('2 for a wrong path prefix, either way: a configuration error naming TARGET_BASE_URL, not the account', async () => {
    const layouts = [
      { args: ['--variation', 'path-prefix'], base: (served: string) => served.replace(/\/api\/v9$/, ''), path: '/login' },
      { args: [], base: (served: string) => `${served}/api/v1`, path: '/api/v1/login' },
    ];
    for (const layout of layouts) {
      const reference = await startReference({ extraArgs: layout.args });
      try {
        const run = await runSuite(
          { TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: layout.base(reference.baseUrl), TARGET_REALTIME_URL: reference.realtimeUrl },
          90_000,
        );
        assert.equal(run.code, 2, run.output);
        const said = new RegExp(
          `login answered HTTP 404 at http://127\\.0\\.0\\.1:\\d+${layout.path.replace(/\//g, '\\/')}: .*check the path prefix of TARGET_BASE_URL`,
        );
        assert.match(run.output, said);
        assert.doesNotMatch(run.output, /TARGET_PASSWORD|✘|left behind/, 'the address is blamed, not the account; no test ran');
        assertMisconfiguredCertificate(dir, /check the path prefix of TARGET_BASE_URL/);
      } finally {
        await reference.stop();
      }
    }
  });

  it("a refused profile leaves no earlier certificate or report in reports/, and keeps what is not the run's", async () => {
    const reports = join(REPO_ROOT, 'reports');
    // What a developer's earlier run left there is put back afterwards.
    const aside = mkdtempSync(join(dir, 'aside-'));
    const outputs = ['certification.json', 'certification.md', 'certification-variant.json', 'junit.xml', 'allure-results'];
    const moved = outputs.filter((name) => existsSync(join(reports, name)));
    for (const name of moved) renameSync(join(reports, name), join(aside, name));
    const keepers = ['interface-spec.html', 'blob-report-fresh-start-check'];
    try {
      plantStaleReports(reports);
      writeFileSync(join(reports, keepers[0] as string), '<!DOCTYPE html>');
      mkdirSync(join(reports, keepers[1] as string), { recursive: true });
      writeFileSync(join(reports, keepers[1] as string, 'report-1.zip'), 'blob');
      const run = await runPlaywright({ args: ['test'], env: { ...cleanEnv(), TARGET_BASE_URL: 'notaurl' }, timeoutMs: 60_000 });
      assert.equal(run.code, 2, run.output);
      assert.match(run.output, /Nothing was run\./);
      assertStaleReportsGone(reports);
      assert.ok(existsSync(join(reports, keepers[0] as string)), 'the interface documents stay');
      assert.ok(existsSync(join(reports, keepers[1] as string, 'report-1.zip')), "a sharded run's blob directory stays");
    } finally {
      for (const name of outputs) rmSync(join(reports, name), { recursive: true, force: true });
      for (const name of keepers) rmSync(join(reports, name), { recursive: true, force: true });
      for (const name of moved) renameSync(join(aside, name), join(reports, name));
    }
  });
});

/** An earlier run's certificate (NOT CONFORMANT), JUnit report and Allure results in `directory`. */
function plantStaleReports(directory: string): void {
  mkdirSync(join(directory, 'allure-results'), { recursive: true });
  writeFileSync(join(directory, 'certification.json'), JSON.stringify({ verdict: 'NOT CONFORMANT', stale: true }));
  writeFileSync(join(directory, 'certification.md'), '# stale\n\n**Verdict: NOT CONFORMANT**\n');
  writeFileSync(join(directory, 'certification-variant.json'), '{}');
  writeFileSync(join(directory, 'junit.xml'), '<testsuites/>');
  writeFileSync(join(directory, 'allure-results', 'stale-result.json'), '{}');
}

function assertStaleReportsGone(directory: string): void {
  assert.ok(!existsSync(join(directory, 'certification-variant.json')), 'no certificate of an earlier project');
  assert.ok(!existsSync(join(directory, 'junit.xml')), 'no earlier JUnit report');
  assert.ok(
    !existsSync(join(directory, 'allure-results')) || !readdirSync(join(directory, 'allure-results')).includes('stale-result.json'),
    'no earlier Allure result',
  );
  for (const name of ['certification.json', 'certification.md']) {
    assert.ok(!existsSync(join(directory, name)) || !readFileSync(join(directory, name), 'utf8').includes('stale'), `no earlier ${name}`);
  }
}

/** The certificate a configuration error writes: INCOMPLETE, nothing judged, not certifiable, the cause named. */
function assertMisconfiguredCertificate(directory: string, cause: RegExp): void {
  const certificate = JSON.parse(readFileSync(join(directory, 'certification.json'), 'utf8')) as {
    verdict: string;
    certifiability: { certifiable: boolean; reasons: string[] };
    outages: { kind: string; cause: string }[];
    requirements: { verdict: string; notAssessedBecause: string[] }[];
  };
  assert.equal(certificate.verdict, 'INCOMPLETE');
  assert.equal(certificate.certifiability.certifiable, false);
  assert.match(
    certificate.certifiability.reasons.join('; '),
    /a configuration error stopped the run before its tests: .+ \(the suite cannot tell a mistyped profile/,
  );
  // The reason names the variable to fix, as the cause does.
  assert.match(certificate.certifiability.reasons.join('; '), cause);
  assert.equal(certificate.outages[0]?.kind, 'configuration error');
  assert.match(certificate.outages[0]?.cause ?? '', cause);
  for (const requirement of certificate.requirements) {
    assert.equal(requirement.verdict, 'not assessed');
    assert.match(requirement.notAssessedBecause.join(), cause);
  }
  const markdown = readFileSync(join(directory, 'certification.md'), 'utf8');
  assert.match(markdown, /\| Certifiable \| no: .*a configuration error stopped the run/);
  assert.match(markdown, cause);
}
