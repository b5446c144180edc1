/**
 * `npm run check:shards`: proves that a sharded run merged from blob reports certifies exactly as
 * one full run does. Runs the suite once in full, then as 3 shards (`--shard=i/3 --reporter=./fixtures/reporters/redaction.ts,blob`),
 * merges the blobs with `playwright merge-reports` and the project's reporters, and compares the
 * two certification.json files: the overall verdict and every requirement's verdict. Then runs the
 * certificate verifier (scripts/commands/verify-certificate.ts) on both certificates, which must be VALID (in a
 * working tree with uncommitted changes, not certifiable for that reason alone, as check:verifier
 * allows), and requires the merged one to carry the coverage of all the document's operations. Prints
 * it all and exits non-zero on any difference, or when a run did not finish normally (exit 0 or 1).
 *
 * Each run (the full one and every shard) starts its own embedded reference through global setup,
 * as a sharded CI run against fresh reference instances would: one-shot destructive checks (closing
 * the running meeting) run once per instance.
 *
 * First, issue 37's case: the merged certificate of a sharded run lists every shard's outages. Two
 * shards of SHARDED_OUTAGE_FILES run against a reference started here, with the realtime address
 * closed (each shard's pre-flight finds it down), and are merged: the certificate must be INCOMPLETE
 * and name the realtime interface unreachable once per shard, as the shards carried it in their blob
 * reports (fixtures/evidence/outages.ts). `--outages-only` runs that case alone.
 *
 * Usage: npm run check:shards -- [--parallel 2] [--outages-only]   (shards at a time; default 1 on a small machine)
 * Everything is written under reports/.checks/shards/ (full/ and sharded/), never to reports/.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { verdictLine } from '../../fixtures/verdict/certification.ts';
import { loadCertificate } from '../../fixtures/reporters/certificate.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { neverProvoked } from '../../fixtures/reporters/coverage.ts';
import { writeCheckConfig } from '../lib/check-config.ts';
import type { RunResult } from '../lib/playwright-run.ts';
import { cleanEnv, REPO_ROOT, runPlaywright, seconds } from '../lib/playwright-run.ts';
import { closedPort } from '../lib/closed-port.ts';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { startReference } from '../../fixtures/run/reference-process.ts';
import { onlyDirtyCheckout, thisCheckout, verifyCertificate } from '../lib/certificate-verifier.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/shards');
const SHARDS = 3;
const RUN_TIMEOUT_MS = 900_000;

const { values } = parseArgs({ options: { parallel: { type: 'string', default: '1' }, 'outages-only': { type: 'boolean', default: false } } });
const parallel = Math.max(1, Math.min(SHARDS, Number(values.parallel)));

const problems: string[] = [];

function finishedNormally(what: string, run: RunResult): void {
  const how = run.timedOut ? `exceeded ${seconds(RUN_TIMEOUT_MS)} and was stopped` : `exited with code ${String(run.code)}`;
  console.log(`${what}: ${how} in ${seconds(run.durationMs)}`);
  // 1 means some test failed: a legitimate outcome that the certification reports.
  if (run.timedOut || (run.code !== 0 && run.code !== 1)) problems.push(`${what} ${how}:\n${run.output.slice(-3000)}`);
}

function readCertification(dir: string): CertificationReport | undefined {
  try {
    return loadCertificate(join(dir, 'certification.json'));
  } catch (error) {
    problems.push(`no certification in ${dir}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Few files with tests on both interfaces: enough for two shards, short. */
const SHARDED_OUTAGE_FILES = ['tests/smoke.spec.ts', 'tests/realtime.spec.ts'];
const OUTAGE_SHARDS = 2;

/** Two shards whose realtime interface is down, merged: the merged certificate names each shard's outage. */
async function checkShardOutages(): Promise<void> {
  const dir = join(OUTPUT_DIR, 'outages');
  const blobs = join(dir, 'blobs');
  mkdirSync(blobs, { recursive: true });
  const config = writeCheckConfig(dir);
  const profile = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });
  const reference = await startReference({ recordingDelayMs: profile.recordingReadyMs });
  try {
    const addresses = {
      TARGET_FILE: REFERENCE_TARGET_FILE,
      TARGET_BASE_URL: reference.baseUrl,
      TARGET_REALTIME_URL: `http://127.0.0.1:${await closedPort()}/v2`,
    };
    for (let shard = 1; shard <= OUTAGE_SHARDS; shard += 1) {
      const blobDir = join(dir, `blob-${shard}`);
      const run = await runPlaywright({
        args: ['test', '--config', config, ...SHARDED_OUTAGE_FILES, `--shard=${shard}/${OUTAGE_SHARDS}`, '--reporter=./fixtures/reporters/redaction.ts,blob'],
        env: { ...cleanEnv(), ...addresses, PLAYWRIGHT_BLOB_OUTPUT_DIR: blobDir },
        timeoutMs: RUN_TIMEOUT_MS,
      });
      const how = run.timedOut ? `exceeded ${seconds(RUN_TIMEOUT_MS)}` : `exited with code ${String(run.code)}`;
      console.log(`outages, shard ${shard}/${OUTAGE_SHARDS} with the realtime address closed: ${how} in ${seconds(run.durationMs)}`);
      if (run.timedOut) problems.push(`outages: shard ${shard} ${how}`);
      for (const file of readdirSync(blobDir).filter((name) => name.endsWith('.zip'))) copyFileSync(join(blobDir, file), join(blobs, file));
    }
  } finally {
    await reference.stop();
  }
  const merge = await runPlaywright({ args: ['merge-reports', '--config', config, blobs], env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
  const merged = readCertification(dir);
  if (merged === undefined) return;
  const outages = merged.outages ?? [];
  console.log(`outages, merged (merge-reports exit ${String(merge.code)}): ${verdictLine(merged)}`);
  for (const outage of outages) console.log(`    ${outage.interface ?? 'the run'} ${outage.kind}: ${outage.cause}`);
  const named = (shard: number): boolean =>
    outages.some(
      (outage) => outage.interface === 'realtime' && outage.kind === 'unreachable' && outage.cause.startsWith(`shard ${shard} of ${OUTAGE_SHARDS}: `),
    );
  const missing = Array.from({ length: OUTAGE_SHARDS }, (_, index) => index + 1).filter((shard) => !named(shard));
  if (missing.length > 0)
    problems.push(`the merged certificate does not name the realtime outage of shard(s) ${missing.join(', ')}: ${JSON.stringify(outages)}`);
  if (merged.verdict !== 'INCOMPLETE') problems.push(`the merged certificate of shards with an outage is ${merged.verdict}, expected INCOMPLETE`);
}

rmSync(OUTPUT_DIR, { recursive: true, force: true });
await checkShardOutages();
if (values['outages-only']) {
  for (const problem of problems) console.log(`FAIL: ${problem}`);
  console.log(`check:shards (outages only) ${problems.length === 0 ? 'passed' : 'FAILED'}`);
  process.exit(problems.length === 0 ? 0 : 1);
}
const fullDir = join(OUTPUT_DIR, 'full');
const shardedDir = join(OUTPUT_DIR, 'sharded');
const blobsDir = join(shardedDir, 'blobs');
for (const dir of [fullDir, shardedDir, blobsDir]) mkdirSync(dir, { recursive: true });
// Both configurations sit at the same depth, so test locations read alike in both reports.
const fullConfig = writeCheckConfig(fullDir);
const shardedConfig = writeCheckConfig(shardedDir);
const env = cleanEnv();
const started = performance.now();

console.log(`check:shards: one full run, then ${SHARDS} shards (${parallel} at a time), each against its own reference`);
finishedNormally('full run', await runPlaywright({ args: ['test', '--config', fullConfig], env, timeoutMs: RUN_TIMEOUT_MS }));

const pending = Array.from({ length: SHARDS }, (_, index) => index + 1);
const shardsStarted = performance.now();
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let shard = pending.shift(); shard !== undefined; shard = pending.shift()) {
      const blobDir = join(shardedDir, `blob-${shard}`);
      const run = await runPlaywright({
        args: ['test', '--config', shardedConfig, `--shard=${shard}/${SHARDS}`, '--reporter=./fixtures/reporters/redaction.ts,blob'],
        env: { ...env, PLAYWRIGHT_BLOB_OUTPUT_DIR: blobDir },
        timeoutMs: RUN_TIMEOUT_MS,
      });
      finishedNormally(`shard ${shard}/${SHARDS}`, run);
      for (const file of readdirSync(blobDir).filter((name) => name.endsWith('.zip'))) copyFileSync(join(blobDir, file), join(blobsDir, file));
    }
  }),
);
const shardsMs = performance.now() - shardsStarted;
const merge = await runPlaywright({ args: ['merge-reports', '--config', shardedConfig, blobsDir], env, timeoutMs: RUN_TIMEOUT_MS });
if (merge.code !== 0) problems.push(`merge-reports exited with code ${String(merge.code)}:\n${merge.output.slice(-3000)}`);
console.log(`${SHARDS} shards in ${seconds(shardsMs)}, merge-reports in ${seconds(merge.durationMs)}`);

const full = readCertification(fullDir);
const merged = readCertification(shardedDir);
if (full !== undefined && merged !== undefined) {
  console.log(`\nfull run: ${verdictLine(full)}`);
  console.log(`merged:   ${verdictLine(merged)}`);
  if (full.verdict !== merged.verdict) problems.push(`overall verdict differs: full run ${full.verdict}, merged ${merged.verdict}`);
  const mergedById = new Map(merged.requirements.map((entry) => [entry.id, entry]));
  const differences = full.requirements.flatMap((entry) => {
    const other = mergedById.get(entry.id);
    mergedById.delete(entry.id);
    return other?.verdict === entry.verdict ? [] : [`${entry.id}: full run ${entry.verdict}, merged ${other?.verdict ?? 'missing'}`];
  });
  differences.push(...[...mergedById.keys()].map((id) => `${id}: only in the merged report`));
  const fullTests = full.requirements.reduce((sum, entry) => sum + entry.tests.length, 0);
  const mergedTests = merged.requirements.reduce((sum, entry) => sum + entry.tests.length, 0);
  console.log(`requirements: ${full.requirements.length} in the full run, ${merged.requirements.length} merged; citing tests ${fullTests} and ${mergedTests}`);
  if (differences.length > 0) {
    problems.push(`${differences.length} requirement verdict(s) differ:\n${differences.map((line) => `  - ${line}`).join('\n')}`);
  } else {
    console.log('every requirement has the same verdict in both');
  }
}
const checkout = thisCheckout();
for (const [what, certificate] of [
  ['full run', full],
  ['merged', merged],
] as const) {
  if (certificate === undefined) continue;
  const reasons = verifyCertificate(certificate, checkout);
  const verdict = reasons.length === 0 ? 'VALID' : onlyDirtyCheckout(reasons) ? "VALID but for this checkout's uncommitted changes" : 'INVALID';
  console.log(`verify-certificate, ${what}: ${verdict}`);
  if (verdict === 'INVALID') problems.push(`the ${what} certificate is INVALID:\n${reasons.map((reason) => `  - ${reason}`).join('\n')}`);
  const coverage = certificate.coverage;
  if (coverage === undefined) problems.push(`the ${what} certificate carries no coverage of the interface`);
  else {
    console.log(
      `coverage, ${what}: ${coverage.operations.length} operations, ${coverage.declaredStatuses - coverage.neverProvoked} of ${coverage.declaredStatuses} declared statuses received over ${coverage.exchanges} exchanges; never provoked: ${neverProvoked(coverage).join(', ') || 'none'}`,
    );
    if (coverage.operations.length !== checkout.operations.length)
      problems.push(`the ${what} coverage lists ${coverage.operations.length} operations, the document ${checkout.operations.length}`);
  }
}
for (const problem of problems) console.log(`FAIL: ${problem}`);
console.log(`check:shards ${problems.length === 0 ? 'passed' : 'FAILED'} in ${seconds(performance.now() - started)}`);
process.exit(problems.length === 0 ? 0 : 1);
