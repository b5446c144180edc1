/**
 * `npm test`: every check of the project, in order, with progress and a closing tally.
 *
 * Each step is an npm script so that it can also be run alone. A failing step does not stop the
 * later ones (a red type check should not hide a red conformance run), but the exit code is
 * non-zero when any step failed. `npm test -- --list` prints the steps; `npm test -- NAME...` runs
 * only the named ones (an unknown name exits 2).
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

interface Step {
  script: string;
  what: string;
}

const STEPS: readonly Step[] = [
  { script: 'typecheck', what: 'TypeScript compiles with no errors' },
  { script: 'format:check', what: 'every source is formatted by Prettier (npm run format writes it)' },
  { script: 'lint', what: 'ESLint with the recommended rules of ESLint and typescript-eslint finds nothing' },
  { script: 'lint:spec', what: 'the OpenAPI document lints clean (Redocly recommended rules)' },
  { script: 'lint:workflows', what: 'the GitHub Actions workflows lint clean (actionlint)' },
  { script: 'check:examples', what: 'every example in the OpenAPI document matches its schema' },
  { script: 'test:unit', what: 'unit tests of the validator, harness, reports and reference' },
  { script: 'check:catalogue', what: 'every requirement has a test and every test cites requirements' },
  {
    script: 'check:imports',
    what: 'what no import rule can say holds: the harness names no requirement ID, one way to say "cannot judge", the environment read only by the readers of fixtures/config/, Playwright\'s private names in one module, the reference names no file of the suite, every script in the folder of its kind',
  },
  {
    script: 'check:layers',
    what: 'dependency-cruiser: each wing imports only the wings beneath it, no circle of modules, specs through fixtures/index.ts, a reference that knows nothing of the suite, scripts by kind over scripts/lib/ with no arrow back up; the picture in docs/architecture.md is current',
  },
  { script: 'check:standalone', what: 'no file of the repository names a path outside it' },
  {
    script: 'check:certify',
    what: 'npm run certify on the embedded reference: the whole suite CONFORMANT and certifiable, the HTML report, one bundle whose checksums and certificate verify, no credential in it (the run the next steps read)',
  },
  { script: 'check:verifier', what: "the verifier computes this run's certificate again and refuses it changed in any of seven ways" },
  { script: 'check:diff', what: "diff-certificates on this run's certificate names exactly the requirements a fault's run broke" },
  { script: 'check:links', what: 'every link of certification.md, the Allure report and the interface page resolves to a file of the run' },
  { script: 'check:report', what: 'the Allure report renders in headless Chromium with epics, requirements and evidence' },
  { script: 'check:canary', what: 'no credential reaches any report, result file, blob report or console line, in passing and failing runs' },
  {
    script: 'check:action',
    what: 'the composite action run as a runner would: CONFORMANT on the reference, exit 2 on an unreachable target or a bad profile, no credential in summary, outputs or console',
  },
  { script: 'check:readonly', what: 'without write permissions the suite sends only login and reads' },
  { script: 'check:cleanup', what: 'an interrupted run archives what it created' },
  { script: 'check:expectations', what: 'known deviations are applied as expected failures and stale ones reported' },
  {
    script: 'check:network',
    what: 'behind HTTPS of a private CA requiring a client certificate, through a forward proxy: CONFORMANT, every request through the proxy; unknown CA, no client certificate, no proxy: exit 2 naming the variable',
  },
  { script: 'check:hostile', what: 'a broken target gets plain failure messages within a bounded time' },
  { script: 'check:shards', what: 'three merged shards certify the same as one run' },
  {
    script: 'check:mutation',
    what: 'npm run mutation kills a fixed mutant of the reference and spares one triaged equivalent; its reports hold no credential',
  },
  {
    script: 'self-verify',
    what: 'every fault of the catalogue is caught for the right reason; the plain reference and both combinations of the allowed variations and documented variants certify CONFORMANT',
  },
];

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const step of STEPS) console.log(`${step.script.padEnd(22)} ${step.what}`);
  process.exit(0);
}
const unknown = args.filter((name) => !STEPS.some((step) => step.script === name));
if (unknown.length > 0) {
  console.error(`npm test: no step named ${unknown.join(', ')}; npm test -- --list prints the steps`);
  process.exit(2);
}
const only = new Set(args);
const selected = only.size === 0 ? STEPS : STEPS.filter((step) => only.has(step.script));
const results: { step: Step; ok: boolean; seconds: number }[] = [];
const started = performance.now();

for (const [index, step] of selected.entries()) {
  console.log(`\n=== [${index + 1}/${selected.length}] ${step.script}: ${step.what}`);
  const t0 = performance.now();
  const run = spawnSync('npm', ['run', '--silent', step.script], { stdio: 'inherit' });
  const seconds = (performance.now() - t0) / 1000;
  const ok = run.status === 0;
  results.push({ step, ok, seconds });
  console.log(`=== ${ok ? 'ok' : 'FAILED'}: ${step.script} (${seconds.toFixed(1)} s)`);
}

console.log('\nSummary of npm test:');
for (const { step, ok, seconds } of results) {
  console.log(`  ${ok ? 'ok    ' : 'FAILED'} ${step.script.padEnd(22)} ${seconds.toFixed(1).padStart(6)} s`);
}
const failed = results.filter((result) => !result.ok).length;
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
