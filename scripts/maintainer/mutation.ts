/**
 * `npm run mutation`: the suite's power measured by faults no one wrote. Stryker's instrumenter
 * compiles every mutant of the reference's behaviour into one copy of the reference (mutation
 * switching); each sampled mutant then gets a whole run of the suite against a fresh reference
 * process with that mutant active, and is killed when the run's checks notice it
 * (scripts/lib/mutation/verdict.ts). Survivors are matched against reference/mutation-triage.yaml:
 * equivalent, or a gap closed by a check and a fault. docs/mutation.md explains the choices.
 *
 * Usage: npm run mutation -- --sample N --seed S [--shard i/n] [--workers W] [--out DIR]
 *        npm run mutation -- --mutant ID[,ID...] [--workers W]
 *        npm run mutation -- --merge FILE...      (a sample's results: its shards added up, or its one file
 *                                                 again with today's triage; --mutant results files given
 *                                                 too replace the sample's outcomes of their mutants)
 *        npm run mutation -- --count              (how many mutants the sources hold)
 *
 * Writes reports/mutation/ or --out DIR (index.html and mutation.json in Stryker's format, results*.json for
 * merging; redacted: no credential of the reference profile), prints one line per mutant and ends
 * with `mutants: N sampled, killed K, survived S (equivalent E, gaps closed G, untriaged U), timed
 * out T, errors R; score X% of non-equivalent; report <path>`. Exits 0 when every survivor is
 * triaged and no mutant triaged equivalent was killed, 1 otherwise, 2 when it could not judge (bad
 * arguments, a triage file with problems, a baseline that does not certify).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { planTarget, REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig, secretValues } from '../../fixtures/config/profile.ts';
import { redact } from '../../fixtures/evidence/redact.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import { FAULTS } from '../../reference/faults/index.ts';
import { buildMutantBundle, instrument, type Instrumented, type MutantInfo } from '../lib/mutation/instrument.ts';
import { reportHtml, strykerReport, summaryLine, tally, triageStub, type MutantOutcome } from '../lib/mutation/report.ts';
import { runInstance, type RunSettings } from '../lib/mutation/run.ts';
import { parseShard, sampleMutants, shardOf } from '../lib/mutation/sample.ts';
import { parseTriage, type TriageEntry } from '../lib/mutation/triage.ts';
import { baselineOf, baselineProblems, judgeMutant, type Baseline } from '../lib/mutation/verdict.ts';
import { REPO_ROOT, seconds } from '../lib/playwright-run.ts';

const DEFAULT_REPORT_DIR = 'reports/mutation';
/** Where an invocation writes its reports (--out), and the name of its results file. */
interface Output {
  dir: string;
  fileName: string;
}
const TRIAGE_FILE = 'reference/mutation-triage.yaml';
/** A mutant's run may take this many times the baseline's (and at least the floor) before it is stopped as a timeout. */
const TIMEOUT_FACTOR = 3;
const TIMEOUT_FLOOR_MS = 90_000;

/** What a results file holds: one invocation's outcomes, enough to merge shards. */
interface Results {
  sourcesHash: string;
  mutantCount: number;
  selection: { sample: number; seed: number; shard?: string } | { mutants: string[] };
  baseline: Baseline & { durationMs: number; tests: number };
  outcomes: MutantOutcome[];
  /** Mutants whose outcome is a later --mutant run's (merge). */
  rerun?: string[];
}

function usage(): string {
  return 'usage: npm run mutation -- --sample N --seed S [--shard i/n] [--workers W] | --mutant ID[,ID...] | --merge FILE... | --count';
}

function sourcesHash(instrumented: Instrumented): string {
  const hash = createHash('sha256');
  for (const [file, source] of [...instrumented.originals].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${file}\n${source}\n`);
  return hash.digest('hex').slice(0, 16);
}

function loadTriage(): TriageEntry[] {
  const { entries, problems } = parseTriage(readFileSync(join(REPO_ROOT, TRIAGE_FILE), 'utf8'), {
    root: REPO_ROOT,
    requirementIds: new Set(requirements().map((entry) => entry.id)),
    faults: new Map(FAULTS.map((fault) => [fault.name, fault.requirements])),
  });
  if (problems.length > 0) throw new UsageError(`${TRIAGE_FILE}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  return entries;
}

class UsageError extends Error {}

const describe = (mutant: MutantInfo): string => {
  const short = (code: string): string => {
    const folded = code.replace(/\s+/g, ' ').trim();
    return folded.length > 50 ? `${folded.slice(0, 47)}...` : folded;
  };
  return `#${mutant.id} ${mutant.file}:${mutant.location.start.line} ${mutant.mutatorName} \`${short(mutant.original)}\` -> \`${short(mutant.replacement)}\``;
};

/** Removes every credential of the reference profile (in every spelling redact() knows) from a text. */
function redactProfile(text: string): string {
  return redact(text, secretValues(loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE })));
}

/** Writes the reports of `results` (one invocation or merged shards) and prints the tally; the exit code. */
function report(instrumented: Instrumented, results: Results, entries: readonly TriageEntry[], { dir, fileName }: Output): number {
  const selection =
    'sample' in results.selection ? `sample of ${results.selection.sample} with seed ${results.selection.seed}` : 'the mutants named by --mutant';
  const clean = redactProfile;
  const stryker = strykerReport({
    mutants: instrumented.mutants,
    originals: instrumented.originals,
    outcomes: results.outcomes,
    entries,
    notRun: `not in this run (${selection})`,
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, fileName), `${clean(JSON.stringify(results, null, 2))}\n`);
  writeFileSync(join(dir, 'mutation.json'), clean(JSON.stringify(stryker)));
  writeFileSync(join(dir, 'index.html'), clean(reportHtml(stryker)));
  const figures = tally(instrumented.mutants, results.outcomes, entries);
  const byId = new Map(instrumented.mutants.map((mutant) => [mutant.id, mutant]));
  if (figures.untriagedMutants.length > 0) {
    console.log(`\nuntriaged survivors (${TRIAGE_FILE} takes each, as equivalent with why, or as a gap with its check and fault):`);
    for (const { mutant, entry } of figures.untriagedMutants) {
      console.log(entry?.triage === 'gap' ? `# triaged a gap of ${entry.requirement}, but ${entry.check} did not kill it:` : '');
      console.log(triageStub(mutant));
    }
  }
  for (const { mutant, outcome } of figures.contradicted)
    console.log(
      `triaged equivalent but killed (${outcome.reason}): ${describe(mutant)}; the triage is wrong, or a check judges what the interface does not state`,
    );
  for (const outcome of results.outcomes.filter((entry) => entry.status === 'RuntimeError'))
    console.log(`error: ${describe(byId.get(outcome.id) as MutantInfo)}: ${outcome.reason}`);
  console.log(
    `baseline: ${results.baseline.tests} tests in ${seconds(results.baseline.durationMs)}; ${results.mutantCount} mutants in the sources (${results.sourcesHash})`,
  );
  console.log(summaryLine(figures, `${relative(REPO_ROOT, join(dir, 'index.html'))} (and mutation.json, ${fileName})`));
  return figures.untriaged === 0 && figures.contradicted.length === 0 ? 0 : 1;
}

async function run(
  instrumented: Instrumented,
  selected: readonly MutantInfo[],
  selection: Results['selection'],
  workers: number,
  out: Output,
  entries: readonly TriageEntry[],
): Promise<number> {
  const plan = planTarget({});
  if (plan.kind !== 'reference') throw new UsageError('the reference profile names a base URL; mutation testing needs the embedded reference');
  const workDir = join(out.dir, '.work');
  const settings: RunSettings = { bundle: await buildMutantBundle(REPO_ROOT, instrumented, join(workDir, 'sandbox')), workDir, workers, plan };
  const coverageFile = join(workDir, 'coverage.json');
  console.error(`mutation: baseline run (the instrumented reference, no mutant active) of ${selected.length} mutants' runs`);
  const baselineRun = await runInstance(settings, undefined, 20 * 60_000, coverageFile);
  if (baselineRun.kind !== 'completed')
    throw new UsageError(`the baseline run ${baselineRun.kind === 'timeout' ? 'timed out' : `could not start: ${baselineRun.message}`}`);
  const problems = [...baselineRun.errors, ...baselineProblems(baselineRun.tests)];
  if (problems.length > 0)
    throw new UsageError(`the baseline (no mutant active) does not certify as the plain reference does:\n  ${problems.slice(0, 10).join('\n  ')}`);
  const covered = new Set(JSON.parse(readFileSync(coverageFile, 'utf8')) as string[]);
  const baseline = baselineOf(baselineRun.tests);
  const timeoutMs = Math.max(TIMEOUT_FLOOR_MS, TIMEOUT_FACTOR * baselineRun.durationMs);
  console.error(
    `mutation: baseline ${baselineRun.tests.length} tests in ${seconds(baselineRun.durationMs)}; ${covered.size} of ${instrumented.mutants.length} mutants reached; each mutant's run is bounded by ${seconds(timeoutMs)}`,
  );

  const outcomes: MutantOutcome[] = [];
  const began = performance.now();
  let ran = 0;
  for (const [index, mutant] of selected.entries()) {
    let outcome: MutantOutcome;
    if (!covered.has(mutant.id)) {
      outcome = { id: mutant.id, status: 'NoCoverage', killedBy: [], reason: 'no request of the suite reached this code', durationMs: 0 };
    } else {
      const result = await runInstance(settings, mutant.id, timeoutMs);
      ran++;
      outcome =
        result.kind === 'timeout'
          ? { id: mutant.id, status: 'Timeout', killedBy: [], reason: `the run took longer than ${seconds(timeoutMs)}`, durationMs: result.durationMs }
          : result.kind === 'start-failed'
            ? // What a mutated reference says as it fails may quote the seed's credentials.
              {
                id: mutant.id,
                status: 'RuntimeError',
                killedBy: [],
                reason: `the reference did not start: ${redactProfile(result.message)}`,
                durationMs: result.durationMs,
              }
            : { id: mutant.id, ...judgeMutant(result.tests, baseline), durationMs: result.durationMs };
    }
    outcomes.push(outcome);
    const perRun = ran === 0 ? 0 : (performance.now() - began) / ran;
    const left = selected.slice(index + 1).filter((next) => covered.has(next.id)).length;
    console.error(
      `mutation [${index + 1}/${selected.length}] ${describe(mutant)}: ${outcome.status}${outcome.killedBy.length > 0 ? ` by ${outcome.killedBy.join(', ')}` : ''} (${seconds(outcome.durationMs)})` +
        (left > 0 ? `; about ${((left * perRun) / 60_000).toFixed(1)} min left` : ''),
    );
  }
  // The sandbox holds a copy of the seed, credentials included: nothing of it stays in the reports.
  rmSync(workDir, { recursive: true, force: true });
  const results: Results = {
    sourcesHash: sourcesHash(instrumented),
    mutantCount: instrumented.mutants.length,
    selection,
    baseline: { ...baseline, durationMs: baselineRun.durationMs, tests: baselineRun.tests.length },
    outcomes,
  };
  return report(instrumented, results, entries, out);
}

/**
 * The results of one sample: its shards added up (or its one unsharded file), then the outcomes of
 * `--mutant` runs of the same sources in place of the sample's for those mutants (a survivor run
 * again once its gap is closed), which the results name under `rerun`.
 */
function merge(instrumented: Instrumented, files: readonly string[], entries: readonly TriageEntry[], dir: string): number {
  const hash = sourcesHash(instrumented);
  const read = files.map((file) => ({ file, results: JSON.parse(readFileSync(file, 'utf8')) as Results }));
  for (const { file, results } of read)
    if (results.sourcesHash !== hash) throw new UsageError(`--merge: ${file} was run on other sources (${results.sourcesHash}, these are ${hash})`);
  const parts = read.filter(({ results }) => 'sample' in results.selection);
  const reruns = read.filter(({ results }) => !('sample' in results.selection));
  const first = parts[0]?.results.selection;
  if (first === undefined || !('sample' in first)) throw new UsageError('--merge: expected the results of one sample (its unsharded file, or every shard)');
  const { sample, seed } = first;
  const shards = new Set<string>();
  for (const { file, results } of parts) {
    const selection = results.selection;
    if (!('sample' in selection) || selection.sample !== sample || selection.seed !== seed)
      throw new UsageError(`--merge: ${file} is not of the sample of ${sample} with seed ${seed}`);
    const shard = selection.shard ?? 'whole';
    if (shards.has(shard) || (shards.size > 0 && (shard === 'whole' || shards.has('whole'))))
      throw new UsageError(`--merge: ${file} repeats part of the sample (${shard})`);
    shards.add(shard);
  }
  const expected = sampleMutants(instrumented.mutants, sample, seed).map((mutant) => mutant.id);
  const byId = new Map(parts.flatMap(({ results }) => results.outcomes).map((outcome) => [outcome.id, outcome]));
  const got = [...byId.keys()].sort((a, b) => Number(a) - Number(b));
  if (got.length !== expected.length || got.some((id, index) => id !== expected[index]))
    throw new UsageError(`--merge: the parts hold ${got.length} mutants, the sample ${expected.length}: a shard is missing or ran another sample`);
  const rerun: string[] = [];
  for (const { file, results } of reruns) {
    for (const outcome of results.outcomes) {
      if (!byId.has(outcome.id)) throw new UsageError(`--merge: ${file} reruns mutant ${outcome.id}, which is not in the sample`);
      byId.set(outcome.id, outcome);
      rerun.push(outcome.id);
    }
  }
  const base = parts[0]?.results as Results;
  const merged: Results = {
    sourcesHash: hash,
    mutantCount: instrumented.mutants.length,
    selection: { sample, seed },
    baseline: { ...base.baseline, durationMs: Math.max(...parts.map(({ results }) => results.baseline.durationMs)) },
    outcomes: expected.map((id) => byId.get(id) as MutantOutcome),
    ...(rerun.length === 0 ? {} : { rerun }),
  };
  if (rerun.length > 0) console.log(`rerun (a --mutant run in place of the sample's): ${rerun.map((id) => `#${id}`).join(', ')}`);
  return report(instrumented, merged, entries, { dir, fileName: 'results.json' });
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      sample: { type: 'string' },
      seed: { type: 'string' },
      shard: { type: 'string' },
      mutant: { type: 'string' },
      merge: { type: 'boolean', default: false },
      count: { type: 'boolean', default: false },
      workers: { type: 'string', default: '3' },
      out: { type: 'string', default: DEFAULT_REPORT_DIR },
    },
  });
  const dir = resolve(REPO_ROOT, values.out);
  const instrumented = await instrument(REPO_ROOT);
  if (values.count) {
    const files = new Set(instrumented.mutants.map((mutant) => mutant.file));
    console.log(`${instrumented.mutants.length} mutants in ${files.size} files of the reference (${sourcesHash(instrumented)})`);
    return 0;
  }
  const entries = loadTriage();
  if (values.merge) return merge(instrumented, positionals, entries, dir);
  if (positionals.length > 0) throw new UsageError(`unexpected arguments ${positionals.join(' ')}; ${usage()}`);
  const workers = Number(values.workers);
  if (!Number.isSafeInteger(workers) || workers < 1 || workers > 16)
    throw new UsageError(`--workers: expected an integer from 1 to 16, got ${JSON.stringify(values.workers)}`);
  if (values.mutant !== undefined) {
    const ids = values.mutant.split(',').map((id) => id.trim());
    const unknown = ids.filter((id) => !instrumented.mutants.some((mutant) => mutant.id === id));
    if (unknown.length > 0) throw new UsageError(`--mutant: no mutant ${unknown.join(', ')} (ids run from 0 to ${instrumented.mutants.length - 1})`);
    const selected = instrumented.mutants.filter((mutant) => ids.includes(mutant.id));
    return run(instrumented, selected, { mutants: ids }, workers, { dir, fileName: 'results-mutants.json' }, entries);
  }
  if (values.sample === undefined || values.seed === undefined)
    throw new UsageError(`--sample and --seed go together (or --mutant, --merge, --count); ${usage()}`);
  const sample = Number(values.sample);
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed: expected an integer, got ${JSON.stringify(values.seed)}`);
  let selected = sampleMutants(instrumented.mutants, sample, seed);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (shard !== undefined) selected = shardOf(selected, shard);
  const fileName = shard === undefined ? 'results.json' : `results-shard-${shard.index}-of-${shard.count}.json`;
  return run(instrumented, selected, { sample, seed, ...(values.shard === undefined ? {} : { shard: values.shard }) }, workers, { dir, fileName }, entries);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`mutation: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
