/**
 * The exit codes of `npm run conformance` (README, "Exit codes"): 2 when the run could not judge
 * anything, said in one message. Each case runs Playwright for real, with its reports redirected
 * into a directory of its own. (0 on a conforming target and 1 on a failed requirement are proved
 * by `npm test`'s conformance run and by check:expectations and self-verification.)
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/profile.ts';
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

describe('exit codes', () => {
  it('2 for a configuration error: every bad variable listed once, no value, no stack trace, nothing run', async () => {
    const run = await runPlaywright({
      args: ['test', '--config', config],
      env: { ...cleanEnv(), TARGET_BASE_URL: 'notaurl', TARGET_PASSWORD: 'Hunter-2-secret!' },
      timeoutMs: 60_000,
    });
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
    const run = await runPlaywright({
      args: ['test', '--config', config],
      env: { ...cleanEnv(), TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: address, TARGET_REALTIME_URL: `${address}/v2`, TARGET_TIMEOUT_MS: '2000' },
      timeoutMs: 60_000,
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
});
