/**
 * What getMeetingStats answers: the result form that onlySummary and usePagination choose, the
 * summary totals (numbers, not negative) and the envelope of records.
 */
import { fail, shown } from './condition.ts';
import type { Answer } from './condition.ts';

/** The result forms of getMeetingStats, and 'other' for a body that is none of them. */
export type StatsFormName = 'summary' | 'envelope' | 'records' | 'other';

/** The answer is in the result form the parameters choose. */
export function isStatsForm(form: StatsFormName, expected: StatsFormName, answer?: Pick<Answer, 'curl'>): void {
  if (form !== expected) fail(`the answer is in the ${form} form, not the ${expected} form the parameters choose`, answer);
}

/** The answer is in one of the documented result forms (a summary, an envelope of records, a bare array of records). */
export function isDocumentedStatsForm(form: StatsFormName, answer?: Pick<Answer, 'curl'>): void {
  if (form === 'other') fail('the answer is in none of the documented forms (a summary, an envelope of records, a bare array of records)', answer);
}

/** A total of the summary is a number, not negative. */
export function summaryTotalIsCount(summary: Readonly<Record<string, unknown>>, total: string): void {
  const value = summary[total];
  if (typeof value !== 'number') fail(`${total} is ${shown(value)}, not a number`);
  if (!(value >= 0)) fail(`${total} is ${value}, negative: expected 0 or more`);
}

/** pagination.total of the envelope counts the records of the same filters read without pagination, `count`. */
export function totalCountsTheRecords(total: number, count: number): void {
  if (total !== count) fail(`pagination.total is ${total}, not ${count}: the records of the same filters read without pagination`);
}

/** The data of an envelope of records is a page of the records: min(limit, all) of them, each among all the records. */
export function isAPageOfTheRecords(data: readonly string[], limit: number, all: readonly string[]): void {
  const expected = Math.min(limit, all.length);
  if (data.length !== expected) fail(`data holds ${data.length} records, not min(limit ${limit}, ${all.length} records) = ${expected}`);
  const known = new Set(all);
  const strangers = data.filter((uuid) => !known.has(uuid));
  if (strangers.length > 0) fail(`${strangers.length} records of data are not among the ${all.length} records read without pagination: ${shown(strangers)}`);
}
