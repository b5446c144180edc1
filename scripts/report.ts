/**
 * `npm run report`: the Allure HTML report of the last run (reports/allure-report/index.html, one
 * self-contained file) and the interface documents it links to (`npm run docs`), then where they are.
 * When no run has left results in reports/allure-results it says so in one line and builds nothing:
 * an empty Allure report would only look like a run that tested nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE } from '../fixtures/report-metadata.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RESULTS = resolve(ROOT, 'reports', 'allure-results');
const REPORT = resolve(ROOT, 'reports', 'allure-report');
const shown = (path: string) => relative(process.cwd(), path) || '.';

function hasResults(): boolean {
  return existsSync(RESULTS) && readdirSync(RESULTS).some((name) => name.endsWith('-result.json'));
}

function run(command: string, args: readonly string[]): boolean {
  const child = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (child.status === 0) return true;
  console.error(`npm run report: ${command} ${args.join(' ')} failed (${child.error?.message ?? `exit ${child.status ?? child.signal}`})`);
  return false;
}

function main(): number {
  if (!hasResults()) {
    console.log(
      `npm run report: no test results in ${shown(RESULTS)} yet, so no report: run npm run conformance first (npm run docs builds the interface documents alone)`,
    );
    return 0;
  }
  if (!run('npx', ['--no-install', 'allure', 'generate', relative(ROOT, RESULTS), '-o', relative(ROOT, REPORT)])) return 1;
  if (!run('npm', ['run', '--silent', 'docs'])) return 1;
  console.log(`Allure report: ${shown(join(REPORT, 'index.html'))} (opens from disk)`);
  console.log(
    `interface documents it links to: ${[INTERFACE_SPEC_FILE, INTERFACE_REFERENCE_FILE].map((file) => shown(resolve(ROOT, 'reports', file))).join(', ')}`,
  );
  return 0;
}

process.exitCode = main();
