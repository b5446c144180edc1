/**
 * `npm run bench:contention`: whether a verdict depends on the load (issue 23). Each round starts two
 * whole runs of the suite against the embedded reference at the same moment, as two CI jobs on one
 * runner would, so that each runs while the other loads the same cores. Each is `npm run conformance`
 * with its configured reporters, writing its reports into a directory of its own
 * (reports/.checks/contention/round-R-a|b/, through scripts/lib/check-config.ts) so that neither
 * overwrites the other's, and global setup starts each its own reference on a free port.
 *
 * Prints, for each run, the certificate's verdict, the exit code and REC-07's verdict (the check of
 * the processing recording, the one whose verdict used to depend on when a worker started), with the
 * reason when it did not pass, or how long after the watch's first read the recording was seen
 * available when it did (the test's note, from the run's Allure results); then the tally, e.g.
 * `REC-07 passed in 20/20 runs, 20/20 CONFORMANT, 20/20 exit 0`. Each round also prints the load average before it and how long one scrypt operation
 * took on both cores at once just before (scripts/lib/suite-figures.ts calibrate()).
 *
 * Exits 0 when every run certified CONFORMANT with REC-07 passed and exit code 0, else 1. Each run's
 * whole output is kept in its directory (output.log).
 *
 * Usage: npm run bench:contention -- [--runs N]   (N rounds of two runs each; default 1)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeCheckConfig } from '../lib/check-config.ts';
import { cleanEnv, REPO_ROOT, runPlaywright, seconds } from '../lib/playwright-run.ts';
import { calibrate } from '../lib/suite-figures.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/contention');
/** Bounds a run that hangs; a loaded run of the whole suite takes a few minutes. */
const RUN_TIMEOUT_MS = 15 * 60_000;
/** The requirement whose verdict the benchmark follows. */
const WATCHED = 'REC-07';
const SIDES = ['a', 'b'] as const;
/** The note REC-07's test leaves (tests/recordings.spec.ts), which the Allure results keep: how close to its deadline it passed. */
const WATCHED_NOTE = /REC-07: available at most (\d+) ms after the first read \(stated delay (\d+) ms\)/;

/** REC-07's note in a run's Allure results, e.g. `available 3158 ms after the first read (stated delay 4000 ms)`; '' when absent. */
function watchedNote(dir: string): string {
  const results = join(dir, 'allure-results');
  let names: string[];
  try {
    names = readdirSync(results).filter((name) => name.endsWith('-result.json'));
  } catch {
    return '';
  }
  for (const name of names) {
    const match = WATCHED_NOTE.exec(readFileSync(join(results, name), 'utf8'));
    if (match !== null) return ` (available ${match[1]} ms after the first read, stated delay ${match[2]} ms)`;
  }
  return '';
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const rounds = Number(values.runs);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--runs takes a positive integer, got ${JSON.stringify(values.runs)}`);

interface Outcome {
  name: string;
  wallMs: number;
  exitCode: number | null;
  /** The certificate's verdict, or why there is none. */
  verdict: string;
  conformant: boolean;
  watched: string;
  watchedPassed: boolean;
}

interface WrittenCertificate {
  verdict: string;
  certifiability?: { certifiable: boolean; reasons: string[] };
  requirements: { id: string; verdict: string; notAssessedBecause?: string[]; checksFailed?: number }[];
}

/** One whole run into `dir`, with its own reports and its own reference. */
async function run(name: string, dir: string): Promise<Outcome> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const result = await runPlaywright({ args: ['test', '--config', writeCheckConfig(dir)], env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
  writeFileSync(join(dir, 'output.log'), result.output);
  const outcome = { name, wallMs: result.durationMs, exitCode: result.code };
  if (result.timedOut)
    return { ...outcome, verdict: `stopped after ${seconds(RUN_TIMEOUT_MS)}`, conformant: false, watched: 'no certificate', watchedPassed: false };
  let certificate: WrittenCertificate;
  try {
    certificate = JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as WrittenCertificate;
  } catch {
    return { ...outcome, verdict: `no certificate (${join(dir, 'output.log')})`, conformant: false, watched: 'no certificate', watchedPassed: false };
  }
  const watched = certificate.requirements.find((entry) => entry.id === WATCHED);
  const reason = watched?.verdict === 'not assessed' ? `: ${watched.notAssessedBecause?.join('; ') ?? ''}` : '';
  // A checkout with changes cannot certify; the verdict is still the one this benchmark follows.
  const certifiable = certificate.certifiability === undefined || certificate.certifiability.certifiable ? '' : ' (not certifiable)';
  return {
    ...outcome,
    verdict: `${certificate.verdict}${certifiable}`,
    conformant: certificate.verdict === 'CONFORMANT',
    watched: watched === undefined ? 'not in the certificate' : `${watched.verdict}${reason}${watched.verdict === 'passed' ? watchedNote(dir) : ''}`,
    watchedPassed: watched?.verdict === 'passed',
  };
}

rmSync(OUTPUT_DIR, { recursive: true, force: true });
console.log(`bench:contention: ${rounds} round(s) of two whole runs of the suite started at the same moment, each with its own reference and reports`);
const outcomes: Outcome[] = [];
const began = performance.now();
for (let round = 1; round <= rounds; round += 1) {
  const load = loadavg()[0] ?? 0;
  const calibrationMs = await calibrate();
  console.log(`round ${round}/${rounds}: load average ${load.toFixed(1)}, cores ${calibrationMs.toFixed(1)} ms per scrypt operation (two at once)`);
  const results = await Promise.all(SIDES.map((side) => run(`round ${round} run ${side}`, join(OUTPUT_DIR, `round-${round}-${side}`))));
  for (const outcome of results) {
    console.log(`  ${outcome.name}: ${outcome.verdict}, exit ${String(outcome.exitCode)}, ${WATCHED} ${outcome.watched}, ${seconds(outcome.wallMs)} wall`);
  }
  outcomes.push(...results);
}
const count = (predicate: (outcome: Outcome) => boolean): string => `${outcomes.filter(predicate).length}/${outcomes.length}`;
console.log(
  `\nbench:contention: ${WATCHED} passed in ${count((outcome) => outcome.watchedPassed)} runs, ${count((outcome) => outcome.conformant)} CONFORMANT, ` +
    `${count((outcome) => outcome.exitCode === 0)} exit 0 (${rounds} round(s) of two concurrent runs, ${seconds(performance.now() - began)} in all; reports under ${OUTPUT_DIR})`,
);
process.exit(outcomes.every((outcome) => outcome.watchedPassed && outcome.conformant && outcome.exitCode === 0) ? 0 : 1);
