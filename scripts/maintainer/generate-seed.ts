/**
 * Writes reference/seed/seed.json, the reference's seed, from its generator
 * (scripts/lib/seed-generator.ts); `--check` only compares.
 *
 * Usage: npx tsx scripts/maintainer/generate-seed.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { generateSeed, seedPath, serialiseSeed } from '../lib/seed-generator.ts';

const text = serialiseSeed(generateSeed());
if (process.argv.includes('--check')) {
  const same = readFileSync(seedPath, 'utf8') === text;
  console.log(same ? 'seed is up to date' : 'seed differs from the generator: run npx tsx scripts/maintainer/generate-seed.ts');
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(seedPath, text);
  console.log(`wrote ${seedPath} (${text.length} bytes)`);
}
