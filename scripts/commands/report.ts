/**
 * `npm run report`: the Allure HTML report of the last run (reports/allure-report/index.html, one
 * self-contained file) and the interface documents it links to (`npm run docs`), then where they are.
 * When no run has left results in reports/allure-results it says so in one line and builds nothing:
 * an empty Allure report would only look like a run that tested nothing.
 *
 * The report is generated through Allure's own API, as its `allure generate` command does, with one
 * step more that the command leaves out: the quality gates of allurerc.mjs (the certification's
 * verdict and certifiability) are evaluated and put into the report, as `allure run` does. Each
 * report appends its results to Allure's history file (reports/allure-history.jsonl, allurerc.mjs
 * `historyPath`), from which the next report draws each test's trend and its flaky tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AllureReport, readConfig } from '@allurereport/core';
import { INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE } from '../../fixtures/reporters/report-metadata.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RESULTS = resolve(ROOT, 'reports', 'allure-results');
const REPORT = resolve(ROOT, 'reports', 'allure-report');
const HISTORY = resolve(ROOT, 'reports', 'allure-history.jsonl');
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

/**
 * Allure 3.18 evaluates quality gates with Iterator.prototype.toArray, which Node 22 has and Node 20
 * (the oldest this project supports) has not: this process gets the one method, as Node 22 defines it.
 */
function iteratorToArray(): void {
  const prototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as { toArray?: unknown };
  if (typeof prototype.toArray === 'function') return;
  Object.defineProperty(prototype, 'toArray', {
    value: function toArray(this: Iterable<unknown>) {
      return [...this];
    },
    writable: true,
    configurable: true,
  });
}

/** `allure generate reports/allure-results -o reports/allure-report`, with the quality gates evaluated; their results, one line each. */
async function generateReport(): Promise<string[]> {
  iteratorToArray();
  const config = await readConfig(ROOT, undefined, { output: REPORT, historyPath: HISTORY });
  const report = new AllureReport(config);
  await report.start();
  await report.readDirectory(RESULTS);
  let gates: string[] = [];
  if (report.hasQualityGate) {
    const { results } = await report.validate({ trs: await report.store.allTestResults({ includeRetries: false }) });
    report.realtimeDispatcher.sendQualityGateResults(results);
    gates = results.map((result) => `quality gate ${result.rule}: ${result.success ? 'passed' : 'FAILED'}: ${result.message}`);
  }
  await report.done();
  return gates;
}

async function main(): Promise<number> {
  if (!hasResults()) {
    console.log(
      `npm run report: no test results in ${shown(RESULTS)} yet, so no report: run npm run conformance first (npm run docs builds the interface documents alone)`,
    );
    return 0;
  }
  let gates: string[];
  try {
    gates = await generateReport();
  } catch (error) {
    console.error(`npm run report: Allure could not generate the report: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  if (!run('npm', ['run', '--silent', 'docs'])) return 1;
  console.log(`Allure report: ${shown(join(REPORT, 'index.html'))} (opens from disk; history: ${shown(HISTORY)})`);
  for (const gate of gates) console.log(gate);
  console.log(
    `interface documents it links to: ${[INTERFACE_SPEC_FILE, INTERFACE_REFERENCE_FILE].map((file) => shown(resolve(ROOT, 'reports', file))).join(', ')}`,
  );
  return 0;
}

process.exitCode = await main();
