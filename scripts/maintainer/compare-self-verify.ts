/**
 * Compares two self-verification runs requirement by requirement: "behaviour unchanged" for a
 * change of the harness, on the plain reference, every variant, every variation and every fault at
 * once. Each run's per-test results are kept with SELF_VERIFY_KEEP_RESULTS=FILE (scripts/maintainer/self-verify.ts);
 * for each instance (a Playwright project) the certification engine (fixtures/verdict/certification.ts
 * certify) computes the verdict of every requirement from the checks its tests recorded, as the
 * certificate of a run against that instance would, and the two runs' verdicts are compared.
 *
 * A difference of verdict is a change of behaviour (exit 1). A requirement whose verdict is the same
 * but whose checks ran or failed another number of times is listed as a note (a refactoring may
 * split or join checks); an instance present in one run only is a difference.
 *
 * Usage: npx tsx scripts/maintainer/compare-self-verify.ts BEFORE.json AFTER.json
 * e.g.   SELF_VERIFY_KEEP_RESULTS=/tmp/before.json npm run self-verify -- --variations   (on the old commit)
 *        SELF_VERIFY_KEEP_RESULTS=/tmp/after.json npm run self-verify -- --variations    (on the new one)
 */
import { readFileSync } from 'node:fs';
import { compareVerdicts, verdictsOf } from '../lib/self-verify-comparison.ts';
import type { RunResults } from '../lib/self-verify-reporter.ts';

const read = (file: string): ReturnType<typeof verdictsOf> => verdictsOf(JSON.parse(readFileSync(file, 'utf8')) as RunResults);

function main(): number {
  const [beforeFile, afterFile] = process.argv.slice(2);
  if (beforeFile === undefined || afterFile === undefined) {
    console.error('usage: npx tsx scripts/maintainer/compare-self-verify.ts BEFORE.json AFTER.json (files of SELF_VERIFY_KEEP_RESULTS)');
    return 2;
  }
  let comparison: ReturnType<typeof compareVerdicts>;
  let instances: [number, number];
  try {
    const before = read(beforeFile);
    const after = read(afterFile);
    comparison = compareVerdicts(before, after);
    instances = [before.size, after.size];
  } catch (error) {
    console.error(`cannot read the results: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const { compared, differences, notes } = comparison;
  for (const line of notes) console.log(`note: ${line}`);
  for (const line of differences) console.log(`DIFFERS: ${line}`);
  console.log(
    `${instances[0]} and ${instances[1]} instances, ${compared} requirement verdicts compared: ${differences.length} differ, ` +
      `${notes.length} with the same verdict from other numbers of checks`,
  );
  return differences.length === 0 ? 0 : 1;
}

process.exitCode = main();
