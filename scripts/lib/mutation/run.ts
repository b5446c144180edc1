/**
 * One whole run of the suite against a fresh reference with one mutant active (or none: the
 * baseline), as `npm run conformance` runs it against the reference it starts: the reference
 * process starts from the mutants' bundle with `__STRYKER_ACTIVE_MUTANT__` in its environment, the
 * processing recording is watched from the moment it listens (REC-07), and one Playwright run tests
 * it with the reporter of self-verification (a compact outcome per test, with its checks).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REFERENCE_TARGET_FILE, type TargetPlan } from '../../../fixtures/config/plan.ts';
import { loadTargetConfig, secretValues } from '../../../fixtures/config/profile.ts';
import { InstanceWatches } from '../../../fixtures/data/recording-watch.ts';
import { failureLine, KEY_PAIRS_AT_START, ReferenceStartError, startBundle } from '../../../fixtures/run/reference-process.ts';
import type { SelfVerifyTarget } from '../../../fixtures/run/self-verify-projects.ts';
import { resultsFileOf, type RunResults } from '../self-verify-reporter.ts';
import type { TestOutcome } from '../kill-matrix.ts';
import { cleanEnv, runPlaywright } from '../playwright-run.ts';

export interface RunSettings {
  /** The bundle of the instrumented reference (instrument.ts). */
  bundle: string;
  /** Where each run keeps its targets file, results and test output. */
  workDir: string;
  workers: number;
  plan: Extract<TargetPlan, { kind: 'reference' }>;
}

export type InstanceRun =
  | { kind: 'completed'; tests: TestOutcome[]; durationMs: number; errors: string[] }
  | { kind: 'timeout'; durationMs: number }
  | { kind: 'start-failed'; durationMs: number; message: string };

/** Runs the suite against a reference with `mutantId` active (undefined: none); with `coverageFile`, the reference writes the mutants it reached there. */
export async function runInstance(settings: RunSettings, mutantId: string | undefined, timeoutMs: number, coverageFile?: string): Promise<InstanceRun> {
  const began = performance.now();
  const name = mutantId === undefined ? 'baseline' : `mutant-${mutantId}`;
  const dir = join(settings.workDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let reference;
  try {
    reference = await startBundle(settings.bundle, {
      recordingDelayMs: settings.plan.recordingReadyMs,
      extraArgs: ['--key-pairs-at-start', String(KEY_PAIRS_AT_START), ...settings.plan.referenceArgs],
      env: {
        ...(mutantId === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: mutantId }),
        ...(coverageFile === undefined ? {} : { MUTATION_COVERAGE_FILE: coverageFile }),
      },
    });
  } catch (error) {
    if (!(error instanceof ReferenceStartError)) throw error;
    const said = failureLine(error.output);
    return { kind: 'start-failed', durationMs: performance.now() - began, message: said ?? error.message.split('\n')[0] ?? error.message };
  }
  const watches = new InstanceWatches();
  try {
    const profile = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
    const target = { ...profile, baseUrl: reference.baseUrl, realtimeUrl: reference.realtimeUrl };
    const watchFile = join(dir, 'watch.json');
    const meetingId = target.ids.processingMeetingId;
    // As global setup does for the reference it starts: the watch begins as soon as the reference listens.
    if (meetingId !== undefined) watches.prepare(target, secretValues(target), meetingId, watchFile)();
    const targets: SelfVerifyTarget[] = [
      { name, baseUrl: reference.baseUrl, realtimeUrl: reference.realtimeUrl, ...(meetingId === undefined ? {} : { recordingWatchFile: watchFile }) },
    ];
    const targetsFile = join(dir, 'targets.json');
    writeFileSync(targetsFile, JSON.stringify(targets));
    const run = await runPlaywright({
      args: ['test', `--workers=${settings.workers}`, '--reporter=./scripts/lib/self-verify-reporter.ts', `--output=${join(dir, 'test-results')}`],
      env: {
        ...cleanEnv(),
        TARGET_FILE: 'fixtures/targets/reference.env',
        TARGET_BASE_URL: reference.baseUrl,
        TARGET_REALTIME_URL: reference.realtimeUrl,
        SELF_VERIFY_TARGETS: targetsFile,
      },
      timeoutMs,
    });
    if (run.timedOut) return { kind: 'timeout', durationMs: performance.now() - began };
    let results: RunResults;
    try {
      results = JSON.parse(readFileSync(resultsFileOf(targetsFile), 'utf8')) as RunResults;
    } catch {
      const tail = run.output.trim().split('\n').slice(-5).join(' | ');
      return { kind: 'completed', tests: [], durationMs: performance.now() - began, errors: [`the run wrote no results (exit ${String(run.code)}): ${tail}`] };
    }
    return { kind: 'completed', tests: results.tests, durationMs: performance.now() - began, errors: results.errors };
  } finally {
    await watches.stop();
    await reference.stop();
    rmSync(join(dir, 'test-results'), { recursive: true, force: true });
  }
}
