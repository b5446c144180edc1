import { defineConfig } from '@playwright/test';
import { harnessSettings } from './fixtures/config.ts';

const settings = harnessSettings();

/**
 * API conformance only: no browser projects. The client builds absolute URLs from the target
 * configuration, so `use` carries no baseURL. Global setup starts the embedded reference when
 * no target is configured and stops it afterwards.
 */
export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  testIgnore: 'unit/**',
  fullyParallel: true,
  workers: settings.workers,
  retries: 0,
  forbidOnly: settings.ci,
  reporter: [['list']],
  globalSetup: './fixtures/global-setup.ts',
  outputDir: 'test-results',
  use: {},
});
