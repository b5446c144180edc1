/**
 * `npm run check:catalogue [-- <playwright options>]`: every requirement of spec/requirements.yaml
 * has at least one test, every test cites at least one requirement, and every cited ID exists.
 *
 * Lists the suite with `playwright test --list --reporter=json` (nothing runs, global setup
 * included) and checks the citations found there. Extra arguments go to Playwright (--config,
 * --project, ...). Exit status: 0 all good, 1 findings, 2 the tests could not be listed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import { checkCoverage, formatCoverage, readTestListing, type CoverageReport } from '../lib/catalogue.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

function listTests(extraArgs: readonly string[]): unknown {
  const directory = mkdtempSync(join(tmpdir(), 'check-catalogue-'));
  const reportFile = join(directory, 'list.json');
  try {
    // The JSON goes to a file so that anything the config prints on stdout cannot corrupt it.
    const run = spawnSync('npx', ['--no-install', 'playwright', 'test', '--list', '--reporter=json', '--pass-with-no-tests', ...extraArgs], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile },
    });
    if (!existsSync(reportFile)) {
      const output = [run.error?.message, run.stdout, run.stderr].filter(Boolean).join('\n').trim();
      throw new Error(`playwright test --list wrote no report (exit status ${String(run.status)})${output ? `:\n${output}` : ''}`);
    }
    return JSON.parse(readFileSync(reportFile, 'utf8'));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function main(): number {
  let report: CoverageReport;
  try {
    report = checkCoverage(requirements(), readTestListing(listTests(process.argv.slice(2))));
  } catch (error) {
    console.error(`catalogue check could not run: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  console.log(formatCoverage(report));
  return report.ok ? 0 : 1;
}

process.exitCode = main();
