import { defineConfig } from '@playwright/test';
import { configurationProblem, harnessSettings, workersFor } from './fixtures/config/profile.ts';
import { EXIT_NOT_JUDGED } from './fixtures/verdict/exit-codes.ts';
import { selfVerifyProjects } from './fixtures/run/self-verify-projects.ts';
import type { SelfVerifyWorkerOptions } from './fixtures/run/self-verify-projects.ts';
import type { WorkerFixtures } from './fixtures/index.ts';
import { DISCOVERY_REQUIREMENTS } from './tests/support/discovery.ts';

// A bad profile is said once, here, before any reporter or worker starts: no stack trace, nothing
// judged, exit code 2 (README, "Exit codes").
const problem = configurationProblem();
if (problem !== undefined) {
  process.stderr.write(`${problem}\nNothing was run.\n`);
  process.exit(EXIT_NOT_JUDGED);
}

const settings = harnessSettings();

/**
 * API conformance only: no browser projects. The client builds absolute URLs from the target
 * configuration, so `use` carries no baseURL. Global setup starts the embedded reference when
 * no target is configured and stops it afterwards.
 */
export default defineConfig<object, SelfVerifyWorkerOptions & Pick<WorkerFixtures, 'discoveryRequirements'>>({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  testIgnore: 'unit/**',
  fullyParallel: true,
  // Sized for the machine's cores against a local target, for waiting against a remote one (fixtures/config/profile.ts).
  workers: workersFor(),
  retries: 0,
  forbidOnly: settings.ci,
  // Outcomes first: it restores the expectation of tests whose failures checks recorded (fixtures/verdict/checks.ts).
  // Redaction next: it redacts in place what every later reporter receives (fixtures/reporters/redaction.ts).
  reporter: [
    ['./fixtures/reporters/outcomes.ts'],
    [
      './fixtures/reporters/redaction.ts',
      { outputs: ['reports/junit.xml', 'reports/allure-results', 'reports/certification.json', 'reports/certification.md'] },
    ],
    ['./fixtures/reporters/allure.ts', { resultsDir: 'reports/allure-results' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    [settings.ci ? 'line' : 'list'],
    ['./fixtures/reporters/certification.ts', { outputDir: 'reports' }],
  ],
  globalSetup: './fixtures/global-setup.ts',
  outputDir: 'test-results',
  // Traces would record every request with its credentials, unredacted. The suite binds the requirement
  // a failed discovery read lands on (the harness names none).
  use: { trace: 'off', discoveryRequirements: DISCOVERY_REQUIREMENTS },
  // Self-verification: one project per reference instance (scripts/maintainer/self-verify.ts).
  ...(settings.selfVerifyTargets === undefined ? {} : { projects: selfVerifyProjects(settings.selfVerifyTargets) }),
});
