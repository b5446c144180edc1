import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { configurationProblem } from './fixtures/config/plan.ts';
import { harnessSettings } from './fixtures/config/settings.ts';
import { caTrustedEnvironment, caTrustRestart } from './fixtures/config/staging-network.ts';
import { workersFor } from './fixtures/config/workers.ts';
import { restartTrusting } from './fixtures/run/ca-trust.ts';
import { EXIT_NOT_JUDGED } from './fixtures/verdict/exit-codes.ts';
import { selfVerifyProjects } from './fixtures/run/self-verify-projects.ts';
import type { SelfVerifyWorkerOptions } from './fixtures/run/self-verify-projects.ts';
import type { WorkerFixtures } from './fixtures/index.ts';
import { DISCOVERY_REQUIREMENTS } from './tests/support/discovery.ts';
import { clearRunOutputs, runnerOf } from './fixtures/reporters/fresh-start.ts';
import type { FreshStartOptions } from './fixtures/reporters/fresh-start.ts';

/** What a run writes, cleared when the next one starts (fixtures/reporters/fresh-start.ts) and redacted when it ends. */
const RUN_OUTPUTS: Required<FreshStartOptions> = {
  outputs: ['reports/junit.xml', 'reports/allure-results', 'reports/certification.json', 'reports/certification.md'],
  certificateDir: 'reports',
};

// A bad profile is said once, here, before any reporter or worker starts: no stack trace, nothing
// judged, exit code 2 (README, "Exit codes"). The previous run's reports go first: none of them is this run's.
const problem = configurationProblem();
if (problem !== undefined) {
  if (runnerOf(fileURLToPath(import.meta.url))) clearRunOutputs(dirname(fileURLToPath(import.meta.url)), RUN_OUTPUTS);
  process.stderr.write(`${problem}\nNothing was run.\n`);
  process.exit(EXIT_NOT_JUDGED);
}

// TARGET_CA_FILE: Node trusts extra CA certificates only from the start of a process, so the runner starts
// again trusting them (fixtures/run/ca-trust.ts), and its workers inherit them.
const trust = caTrustRestart();
if (trust !== undefined) await restartTrusting(trust, (bundle) => caTrustedEnvironment(trust.caFile, bundle));

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
  // Sized for the machine's cores against a local target, for waiting against a remote one (fixtures/config/workers.ts).
  workers: workersFor(),
  retries: 0,
  forbidOnly: settings.ci,
  // Outcomes first: it restores the expectation of tests whose failures checks recorded (fixtures/verdict/checks.ts).
  // Redaction next: it redacts in place what every later reporter receives (fixtures/reporters/redaction.ts).
  // Fresh start first of all: its onConfigure clears the previous run's reports before global setup.
  reporter: [
    ['./fixtures/reporters/fresh-start.ts', RUN_OUTPUTS],
    ['./fixtures/reporters/outcomes.ts'],
    ['./fixtures/reporters/redaction.ts', { outputs: RUN_OUTPUTS.outputs }],
    ['./fixtures/reporters/allure.ts', { resultsDir: 'reports/allure-results' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    [settings.ci ? 'line' : 'list'],
    // The reason of each skipped test, which the list and line reporters do not print (fixtures/reporters/skips.ts).
    ['./fixtures/reporters/skips.ts'],
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
