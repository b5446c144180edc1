/**
 * Which mutants a mutation run tests: a sample of N spread over the mutated files, the same N for
 * the same seed and the same sources, and the part of it one shard of a CI matrix runs.
 *
 * Spread: each file gets a share of N in proportion to its mutants (largest remainders, ties to
 * the file listed first), and its share is drawn from its mutants by a seeded shuffle. The draw
 * depends only on the seed and the list of mutants (their ids, in Stryker's order), so a change to
 * the sources may change the sample; the report names the sources' hash beside the seed.
 */
import { seededRandom } from '../seeded-random.ts';

/** Fisher-Yates with the seeded generator. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Each file's share of `size`, in proportion to its count, by largest remainders. */
export function shares(counts: ReadonlyMap<string, number>, size: number): Map<string, number> {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const wanted = Math.min(size, total);
  const exact = [...counts].map(([file, count]) => ({ file, count, exact: total === 0 ? 0 : (count * wanted) / total }));
  const result = new Map(exact.map(({ file, exact: value }) => [file, Math.floor(value)]));
  let left = wanted - [...result.values()].reduce((sum, share) => sum + share, 0);
  const byRemainder = [...exact].sort((a, b) => b.exact - Math.floor(b.exact) - (a.exact - Math.floor(a.exact)));
  for (const { file, count } of byRemainder) {
    if (left === 0) break;
    if ((result.get(file) ?? 0) < count) {
      result.set(file, (result.get(file) ?? 0) + 1);
      left--;
    }
  }
  return result;
}

/** The sampled mutants, in Stryker's order (by id). */
export function sampleMutants<T extends { id: string; file: string }>(mutants: readonly T[], size: number, seed: number): T[] {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`--sample: expected a positive integer, got ${size}`);
  const byFile = new Map<string, T[]>();
  for (const mutant of mutants) byFile.set(mutant.file, [...(byFile.get(mutant.file) ?? []), mutant]);
  const quota = shares(new Map([...byFile].map(([file, list]) => [file, list.length])), size);
  const random = seededRandom(seed);
  const chosen = new Set<string>();
  for (const [file, list] of byFile) for (const mutant of shuffled(list, random).slice(0, quota.get(file) ?? 0)) chosen.add(mutant.id);
  return mutants.filter((mutant) => chosen.has(mutant.id));
}

/** `i/n` of --shard. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) throw new Error(`--shard: expected i/n with 1 <= i <= n, got ${JSON.stringify(text)}`);
  return { index, count };
}

/** Shard i of n: every n-th mutant of the sample from the i-th, so that each file's mutants are dealt among the shards. */
export function shardOf<T>(sample: readonly T[], shard: { index: number; count: number }): T[] {
  return sample.filter((_, position) => position % shard.count === shard.index - 1);
}
