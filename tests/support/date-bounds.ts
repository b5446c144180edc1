/**
 * Bounds that discriminate (docs/architecture.md, "Data that tells a near miss"): a range of
 * initialDate and endDate chosen from the records so that a range read a little wrong changes the
 * answer the check sees. Each bound sits a minute outside the record it must return (never on a
 * record: whether a bound belongs to the range is not shown), and no other record lies within two
 * minutes of it, so that a record outside the range is outside by clearly more than a minute.
 *
 * A misreading is seen when, whichever date-time of a record the filter uses (not shown), a record
 * the check requires is left out of the misread range, or a record the check refuses falls inside
 * it. The chooser takes the range that sees the most misreadings; the ones it cannot see are named,
 * so that the check says "partly assessed" instead of passing blind. A month and a year are chosen
 * the same way (discerningMonth, discerningYear). Pure: no request, no verdict.
 */
import { filterTimes, mayMatch, monthPeriod, mustMatch, rangePeriod, yearPeriod } from '../conditions/index.ts';
import type { Period } from '../conditions/index.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How far inside a bound the nearest record it must return lies. */
export const BOUND_INSIDE_MS = MINUTE;
/** How far outside a bound the nearest record it must not return lies, at least. */
export const BOUND_CLEAR_MS = 2 * MINUTE;

/** A wrong reading of an explicit range of UTC date-times: the range a target that misreads it applies. */
export interface RangeMisreading {
  name: string;
  read: (from: number, to: number) => [number, number];
}

const shifted = (name: string, shiftMs: number): RangeMisreading => ({ name, read: (from, to) => [from + shiftMs, to + shiftMs] });
const startOfDay = (time: number): number => time - (((time % DAY) + DAY) % DAY);

/** The near misses of a range the chosen data should tell from the right reading. */
export const RANGE_MISREADINGS: readonly RangeMisreading[] = [
  shifted('an hour late', HOUR),
  shifted('an hour early', -HOUR),
  shifted('3 hours late (local time at UTC-3)', 3 * HOUR),
  shifted('3 hours early (local time at UTC+3)', -3 * HOUR),
  shifted('a day late', DAY),
  shifted('a day early', -DAY),
  { name: 'initialDate read as its whole UTC day', read: (from, to) => [startOfDay(from), to] },
  { name: 'endDate read as its whole UTC day', read: (from, to) => [from, startOfDay(to) + DAY] },
];

/** Whether a record of these date-times must be returned by the range (all of them inside it), or may be (one of them on or inside it). */
const mustReturn = (times: readonly number[], period: Period): boolean =>
  times.length > 0 && times.every((time) => time >= period.from + period.narrowMs && time <= period.to - period.narrowMs);
const mayReturn = (times: readonly number[], period: Period): boolean => times.some((time) => time >= period.from && time <= period.to);

function tells(timed: readonly (readonly number[])[], period: Period, misreading: RangeMisreading): boolean {
  const [from, to] = misreading.read(period.from, period.to);
  return timed.some((times) => {
    if (times.length === 0) return false;
    if (mustReturn(times, period)) return times.every((time) => time < from || time > to);
    return !mayReturn(times, period) && times.every((time) => time > from && time < to);
  });
}

/**
 * Whether `items` tell `misreading` of the range `period` from the right reading: an item the range
 * must return has every date-time outside the misread range, or an item it must not return has every
 * date-time strictly inside it.
 */
export function seesMisreading(items: readonly unknown[], period: Period, misreading: RangeMisreading): boolean {
  return tells(items.map(filterTimes), period, misreading);
}

export interface DiscerningRange {
  initialDate: string;
  endDate: string;
  period: Period;
  /** The misreadings of RANGE_MISREADINGS the items cannot tell from the right reading. */
  unseen: RangeMisreading[];
}

interface Span {
  lo: number;
  hi: number;
}

/** At most this many candidate bounds a side are weighed, so that the cost stays bounded on a large data set. */
const MAX_CANDIDATES = 200;
/** The best candidates of each side paired and judged in full. */
const PAIRED = 12;

function sample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)] as T);
}

/** Whether some time of `sorted` lies strictly between `low` and `high`. */
function anyBetween(sorted: readonly number[], low: number, high: number): boolean {
  let left = 0;
  let right = sorted.length;
  while (left < right) {
    const middle = (left + right) >> 1;
    if ((sorted[middle] as number) <= low) left = middle + 1;
    else right = middle;
  }
  return left < sorted.length && (sorted[left] as number) < high;
}

/**
 * How many misreadings one bound alone can show, by a record near it: one the range must return that
 * the misread bound leaves out, or one before (after) it that the misread bound takes in. A guess to
 * rank the candidates; the pairs are judged in full.
 */
function sideScore(spans: readonly Span[], bound: number, side: 0 | 1): number {
  return RANGE_MISREADINGS.filter((misreading) => {
    const moved = misreading.read(bound, bound)[side];
    return spans.some(({ lo, hi }) => (lo > bound && hi < moved) || (hi < bound && lo > moved));
  }).length;
}

/** Fewer misreadings unseen; then at least two records returned (one alone cannot show a filter that stops at the first); then wider. */
function isBetter(candidate: { unseen: number; expected: number; width: number }, best: { range: DiscerningRange; expected: number }): boolean {
  const bestWidth = best.range.period.to - best.range.period.from;
  if (candidate.unseen !== best.range.unseen.length) return candidate.unseen < best.range.unseen.length;
  if (Math.min(candidate.expected, 2) !== Math.min(best.expected, 2)) return candidate.expected > best.expected;
  return candidate.width > bestWidth;
}

/**
 * The range of `items` (records with date-times) that tells the most misreadings of RANGE_MISREADINGS
 * apart, each bound a minute outside a record it must return and clear of every other record; among
 * equals, one that must return at least two records, then the wider. Undefined when no such range
 * leaves a record outside it.
 */
export function discerningRange(items: readonly unknown[]): DiscerningRange | undefined {
  const timed = items.map(filterTimes);
  const spans = timed.flatMap((times) => (times.length === 0 ? [] : [{ lo: Math.min(...times), hi: Math.max(...times) }]));
  const times = timed.flat().sort((a, b) => a - b);
  const clear = (bound: number, inward: 1 | -1): boolean => {
    const [low, high] = inward === 1 ? [bound - BOUND_CLEAR_MS, bound + BOUND_INSIDE_MS] : [bound - BOUND_INSIDE_MS, bound + BOUND_CLEAR_MS];
    return !anyBetween(times, low, high);
  };
  const unique = (values: number[]): number[] => [...new Set(values)].sort((a, b) => a - b);
  const rank = (bounds: number[], side: 0 | 1): number[] =>
    sample(bounds, MAX_CANDIDATES)
      .map((bound) => ({ bound, score: sideScore(spans, bound, side) }))
      .sort((a, b) => b.score - a.score || (side === 0 ? a.bound - b.bound : b.bound - a.bound))
      .slice(0, PAIRED)
      .map(({ bound }) => bound);
  const initials = rank(
    unique(spans.map(({ lo }) => lo - BOUND_INSIDE_MS)).filter((bound) => clear(bound, 1)),
    0,
  );
  const ends = rank(
    unique(spans.map(({ hi }) => hi + BOUND_INSIDE_MS)).filter((bound) => clear(bound, -1)),
    1,
  );
  let best: { range: DiscerningRange; expected: number } | undefined;
  for (const from of initials) {
    for (const to of ends) {
      if (to <= from) continue;
      const initialDate = new Date(from).toISOString();
      const endDate = new Date(to).toISOString();
      const period = rangePeriod(initialDate, endDate);
      const expected = timed.filter((itemTimes) => mustReturn(itemTimes, period)).length;
      if (expected === 0 || timed.every((itemTimes) => mayReturn(itemTimes, period))) continue;
      const unseen = RANGE_MISREADINGS.filter((misreading) => !tells(timed, period, misreading));
      if (best === undefined || isBetter({ unseen: unseen.length, expected, width: to - from }, best)) {
        best = { range: { initialDate, endDate, period, unseen }, expected };
      }
    }
  }
  return best?.range;
}

/** A month (or a year) of the records, and the near misses of it that the records cannot tell from the right reading. */
export interface DiscerningPeriod {
  year: number;
  /** 1 to 12; absent for a year. */
  month?: number;
  period: Period;
  unseen: string[];
}

/** Whether some item lies wholly inside `period` (narrowed by the zones it may be counted in): a filter that reads that period returns it. */
const someWhollyIn = (items: readonly unknown[], period: Period): boolean => items.some((item) => mustMatch(item, period));

/** The calendar months (or years) of the items' start, in UTC, earliest first. */
function calendarOf(items: readonly unknown[], unit: 'month' | 'year'): { year: number; month: number }[] {
  const keys = new Set<string>();
  for (const item of items) {
    const [time] = filterTimes(item);
    if (time === undefined) continue;
    const date = new Date(time);
    keys.add(`${date.getUTCFullYear()}-${unit === 'month' ? date.getUTCMonth() + 1 : 1}`);
  }
  return [...keys]
    .map((key) => key.split('-').map(Number) as [number, number])
    .map(([year, month]) => ({ year, month }))
    .sort((a, b) => a.year - b.year || a.month - b.month);
}

function bestOf(candidates: (DiscerningPeriod & { expected: number })[]): DiscerningPeriod | undefined {
  const [best] = candidates.sort((a, b) => a.unseen.length - b.unseen.length || Math.min(b.expected, 2) - Math.min(a.expected, 2));
  if (best === undefined) return undefined;
  const { year, month, period, unseen } = best;
  return month === undefined ? { year, period, unseen } : { year, month, period, unseen };
}

/**
 * The month of the items whose records tell the most near misses of month and year apart: a month
 * read one late (months counted from 0) or one early, and the year left out. Each is told by a record
 * wholly inside the month (narrowed by the zones it may be counted in), which the misreading leaves
 * out, or by a record wholly inside the misread month, which it takes in. Undefined without a record
 * outside the month.
 */
export function discerningMonth(items: readonly unknown[]): DiscerningPeriod | undefined {
  const candidates = calendarOf(items, 'month').flatMap(({ year, month }) => {
    const period = monthPeriod(year, month);
    if (items.every((item) => mayMatch(item, period))) return [];
    const expected = items.filter((item) => mustMatch(item, period)).length;
    const shifted = (by: number): Period => monthPeriod(year + Math.floor((month - 1 + by) / 12), ((month - 1 + by + 12) % 12) + 1);
    const otherYears = calendarOf(items, 'year').filter((other) => other.year !== year);
    const unseen = [
      expected > 0 || someWhollyIn(items, shifted(1)) ? undefined : 'a month read one late (months counted from 0)',
      expected > 0 || someWhollyIn(items, shifted(-1)) ? undefined : 'a month read one early',
      otherYears.some((other) => someWhollyIn(items, monthPeriod(other.year, month))) ? undefined : 'the year left out',
    ].filter((name): name is string => name !== undefined);
    return [{ year, month, period, unseen, expected }];
  });
  return bestOf(candidates);
}

/** The year of the items that tells a year read one late or one early apart (as discerningMonth does for a month). */
export function discerningYear(items: readonly unknown[]): DiscerningPeriod | undefined {
  const candidates = calendarOf(items, 'year').flatMap(({ year }) => {
    const period = yearPeriod(year);
    if (items.every((item) => mayMatch(item, period))) return [];
    const expected = items.filter((item) => mustMatch(item, period)).length;
    const unseen = [
      expected > 0 || someWhollyIn(items, yearPeriod(year + 1)) ? undefined : 'a year read one late',
      expected > 0 || someWhollyIn(items, yearPeriod(year - 1)) ? undefined : 'a year read one early',
    ].filter((name): name is string => name !== undefined);
    return [{ year, period, unseen, expected }];
  });
  return bestOf(candidates);
}
