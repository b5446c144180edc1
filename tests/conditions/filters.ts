/**
 * What a filter of a list request implies for every item returned: an equality filter names the
 * field each item holds its value in; a date filter (a month, a year, a range) selects a period in
 * which the item's date-times lie. Which date-time of a record a date filter applies to, and in
 * which timezone a month or a year is counted, is not shown: an item honours the filter when any of
 * its date-times lies in the period widened by the zones it may be counted in (from UTC-12 to
 * UTC+14), and a filter must return an item all of whose date-times lie in the period narrowed by them.
 */
import { isRecord, notAssessed } from '../../fixtures/index.ts';
import { fail, shown } from './condition.ts';

/** The date-times of a record that a date filter may apply to. */
export const FILTER_DATE_FIELDS = ['startedAt', 'endedAt', 'createdAt'] as const;

/** The span of the zones a month or a year may be counted in, each way. */
const ZONE_SPAN_MS = 14 * 3_600_000;

/** A period a date filter selects, in epoch ms. */
export interface Period {
  from: number;
  to: number;
  /** Whether `to` belongs to the period (an explicit range) or starts the next one (a month, a year). */
  inclusive: boolean;
  /** How far outside the period an item may still honour the filter: the zones a month or a year may be counted in. */
  widenMs: number;
  /**
   * How far inside the period an item must be for the filter to return it: the zones, or, for explicit
   * UTC date-times, 1 ms (whether a bound itself belongs to the range is not shown).
   */
  narrowMs: number;
  /** The period in words, for findings: 'month 06/2024 (any timezone)'. */
  what: string;
}

export function monthPeriod(year: number, month: number): Period {
  const what = `month ${String(month).padStart(2, '0')}/${year} (any timezone)`;
  return { from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1), inclusive: false, widenMs: ZONE_SPAN_MS, narrowMs: ZONE_SPAN_MS, what };
}

export function yearPeriod(year: number): Period {
  return {
    from: Date.UTC(year, 0, 1),
    to: Date.UTC(year + 1, 0, 1),
    inclusive: false,
    widenMs: ZONE_SPAN_MS,
    narrowMs: ZONE_SPAN_MS,
    what: `year ${year} (any timezone)`,
  };
}

/** initialDate and endDate are ISO 8601 UTC date-times: instants, whatever the zone. */
export function rangePeriod(from: string, to: string): Period {
  return { from: Date.parse(from), to: Date.parse(to), inclusive: true, widenMs: 0, narrowMs: 1, what: `${from} to ${to}` };
}

/** The item's date-times in epoch ms: those a date filter may apply to. */
export function filterTimes(item: unknown): number[] {
  if (!isRecord(item)) return [];
  return FILTER_DATE_FIELDS.map((name) => item[name])
    .map((value) => (typeof value === 'string' ? Date.parse(value) : Number.NaN))
    .filter((time) => Number.isFinite(time));
}

function within(time: number, period: Period, margin: number): boolean {
  return time >= period.from + margin && (period.inclusive ? time <= period.to - margin : time < period.to - margin);
}

/** May the filter return the item: one of its date-times lies in the period widened by what is not shown. */
export function mayMatch(item: unknown, period: Period): boolean {
  return filterTimes(item).some((time) => within(time, period, -period.widenMs));
}

/** Must the filter return the item: all of its date-times lie in the period narrowed by what is not shown. */
export function mustMatch(item: unknown, period: Period): boolean {
  const times = filterTimes(item);
  return times.length > 0 && times.every((time) => within(time, period, period.narrowMs));
}

function offendingFinding(offending: readonly unknown[], count: number, wanted: string): never {
  fail(`${offending.length} of ${count} items lack ${wanted}; the first: ${shown(offending[0])}`);
}

/**
 * A list shorter than `least` items cannot show a filter ignored (an empty list honours every
 * filter): the check says it cannot judge, in the one vocabulary of fixtures/verdict/not-assessed.ts,
 * and check() records it as not assessed. `least` is the caller's: how many items its data needs.
 */
function enoughItems(items: readonly unknown[], least: number, wanted: string): void {
  if (items.length < least) {
    notAssessed.check(`${items.length} item(s) returned, fewer than the ${least} it takes to judge ${wanted}`, {
      lacking: `at least ${least} item(s) in the filtered answer`,
    });
  }
}

/** Every item returned holds `value` in `field` (an equality filter); not assessed with fewer than `least` items. */
export function everyItemHas(items: readonly unknown[], field: string, value: unknown, least: number): void {
  enoughItems(items, least, `${field} equal to ${shown(value)}`);
  const offending = items.filter((item) => !isRecord(item) || item[field] !== value);
  if (offending.length > 0) offendingFinding(offending, items.length, `${field} equal to ${shown(value)}`);
}

/** Every item returned may lie in the period (a date filter); not assessed with fewer than `least` items. */
export function everyItemWithin(items: readonly unknown[], period: Period, least: number): void {
  enoughItems(items, least, `one of ${FILTER_DATE_FIELDS.join(', ')} within ${period.what}`);
  const offending = items.filter((item) => !mayMatch(item, period));
  if (offending.length > 0) offendingFinding(offending, items.length, `one of ${FILTER_DATE_FIELDS.join(', ')} within ${period.what}`);
}

/** A filter that has items to return returns some (`what`: the items asked for, as 'recordings with roomId=r-1'). */
export function returnsSome(items: readonly unknown[], what: string): void {
  if (items.length === 0) fail(`no ${what} returned; at least one was expected`);
}

/** A filter leaves out none of the items it selects: `left` are the keys of those it did not return. */
export function noneLeftOut(left: readonly unknown[], what: string): void {
  if (left.length > 0) fail(`${left.length} ${what} left out, none expected: ${shown(left)}`);
}

/**
 * The environment filter partitions the records: those of development and those of production
 * (their uuids) share none. Meeting statistics and transcription records both state it.
 */
export function shareNoRecord(development: readonly string[], production: readonly string[]): void {
  const inProduction = new Set(production);
  const both = development.filter((uuid) => inProduction.has(uuid));
  if (both.length > 0) fail(`${both.length} records are listed in both development and production, expected none: ${shown(both)}`);
}
