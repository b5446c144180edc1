/**
 * Helpers of the meeting statistics specs: read the summary or the per-meeting records (each
 * validated against getMeetingStats), tell the documented result forms apart, and pick filter
 * values from the data itself so that every filter check can tell a working filter from an
 * ignored one.
 */
import { expect } from '../../fixtures/index.ts';
import { relyOn, requestOf } from './reliance.ts';
import type { ApiClient, Exchange } from '../../fixtures/index.ts';

export interface MeetingSummary {
  totalMeetingMinutes: number;
  totalRecordingMinutes: number;
  totalMeetings: number;
}

export interface MeetingStatsParticipant {
  uuid: string;
  id: number;
  userId: string;
  permission: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface MeetingStatsRecord {
  uuid: string;
  id: number;
  meetingId: string;
  groupId: string;
  groupName: string;
  userId: string;
  meetingMinutes: number;
  recordingMinutes: number;
  price: number;
  startedAt: string;
  endedAt: string;
  createdAt: string;
  participants: MeetingStatsParticipant[];
}

export type StatsQuery = Record<string, string | number | boolean>;

/** The documented forms of a 200 body (MeetingStatsResult is anyOf, so the schema alone cannot tell). */
export type StatsForm = 'summary' | 'records' | 'envelope' | 'other';

export function statsForm(json: unknown): StatsForm {
  if (Array.isArray(json)) return 'records';
  if (typeof json !== 'object' || json === null) return 'other';
  if ('pagination' in json && 'data' in json) return 'envelope';
  if ('totalMeetings' in json) return 'summary';
  return 'other';
}

/** The requirement that states each form's answer: a failed read of that form lands on it. */
const FORM_REQUIREMENT: Readonly<Record<Exclude<StatsForm, 'other'>, string>> = { summary: 'MST-02', records: 'MST-03', envelope: 'MST-06' };

/**
 * getMeetingStats with `query`: a 200 of the expected form, which the form's requirement states (a
 * failure lands there, and a check of another requirement that relied on the read is not assessed);
 * the body is then judged against the schema, each issue on the requirement of its schema.
 */
export async function readStats(api: ApiClient, query: StatsQuery, form: Exclude<StatsForm, 'other'>): Promise<Exchange> {
  const exchange = await api.call('getMeetingStats', { query });
  await relyOn(FORM_REQUIREMENT[form], `getMeetingStats with ${JSON.stringify(query)} answers 200 with the ${form} form`, () => {
    expect(exchange.status, `status of ${requestOf(exchange)}`).toBe(200);
    expect(statsForm(exchange.json), `form of the getMeetingStats answer to ${JSON.stringify(query)}`).toBe(form);
  });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  return exchange;
}

/** The summary for `query`, asked for explicitly (onlySummary=true), so that MST-01 alone judges the default. */
export async function readSummary(api: ApiClient, query: StatsQuery = {}): Promise<MeetingSummary> {
  return (await readStats(api, { ...query, onlySummary: true }, 'summary')).json as MeetingSummary;
}

/** The records for `query` (onlySummary=false, no pagination: a bare array by MST-03). */
export async function readRecords(api: ApiClient, query: StatsQuery = {}): Promise<MeetingStatsRecord[]> {
  return (await readStats(api, { ...query, onlySummary: false }, 'records')).json as MeetingStatsRecord[];
}

/** The totals a summary states (MSUM-01): each a number, not negative. What else the object holds is not closed. */
export const SUMMARY_TOTALS: readonly (keyof MeetingSummary)[] = ['totalMeetings', 'totalMeetingMinutes', 'totalRecordingMinutes'];

/**
 * Which timestamp of a record a date filter applies to, and in which timezone, is not shown: a
 * filter may use any of the record's date-times, and a month or a year may be counted in any zone
 * from UTC-12 to UTC+14. A record may be returned when one of its date-times lies in the period
 * widened by that span, and must be returned when all of them lie in the period narrowed by it.
 */
const ZONE_SPAN_MS = 14 * 3_600_000;

/** A period a date filter selects, in epoch ms. */
export interface Period {
  from: number;
  to: number;
  /** Whether `to` belongs to the period (an explicit range) or starts the next one (a month, a year). */
  inclusive: boolean;
  /**
   * How far the target may move the bounds: the span of the zones it may count a month or a year in,
   * or, for explicit UTC date-times, 1 ms (whether a bound itself belongs to the range is not shown).
   */
  slackMs: number;
}

export function monthPeriod(year: number, month: number): Period {
  return { from: Date.UTC(year, month - 1, 1), to: Date.UTC(year, month, 1), inclusive: false, slackMs: ZONE_SPAN_MS };
}

export function yearPeriod(year: number): Period {
  return { from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1), inclusive: false, slackMs: ZONE_SPAN_MS };
}

/** initialDate and endDate are ISO 8601 UTC date-times: instants, whatever the zone; their own inclusion is not shown. */
export function rangePeriod(from: string, to: string): Period {
  return { from: Date.parse(from), to: Date.parse(to), inclusive: true, slackMs: 1 };
}

/** The record's date-times in epoch ms: the timestamps a date filter may apply to. */
function filterTimes(record: MeetingStatsRecord): number[] {
  return [record.startedAt, record.endedAt, record.createdAt].map((value) => Date.parse(value)).filter((time) => Number.isFinite(time));
}

function within(time: number, period: Period, margin: number): boolean {
  return time >= period.from + margin && (period.inclusive ? time <= period.to - margin : time < period.to - margin);
}

/** May the filter return the record: one of its date-times lies in the period widened by its slack. */
export function mayMatch(record: MeetingStatsRecord, period: Period): boolean {
  return filterTimes(record).some((time) => within(time, period, -period.slackMs));
}

/** Must the filter return the record: all of its date-times lie in the period narrowed by its slack. */
export function mustMatch(record: MeetingStatsRecord, period: Period): boolean {
  const times = filterTimes(record);
  return times.length > 0 && times.every((time) => within(time, period, period.slackMs));
}

/**
 * A range of the data: from the earliest date-time of the record a quarter into the list (by
 * startedAt) to the latest date-time of the record three quarters in, so that the bounds are
 * timestamps of records and records lie on both sides.
 */
export function rangeOf(records: readonly MeetingStatsRecord[]): { initialDate: string; endDate: string } | undefined {
  const sorted = [...records].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  const low = sorted[Math.floor(sorted.length / 4)];
  const high = sorted[Math.floor((sorted.length * 3) / 4)];
  if (low === undefined || high === undefined) return undefined;
  const iso = (time: number): string => new Date(time).toISOString();
  return { initialDate: iso(Math.min(...filterTimes(low))), endDate: iso(Math.max(...filterTimes(high))) };
}

export function uuidsOf(records: readonly { uuid: string }[]): string[] {
  return records.map((record) => record.uuid).sort();
}

/** Totals computed from records, for comparison with a summary. */
export function totalsOf(records: readonly MeetingStatsRecord[]): MeetingSummary {
  return {
    totalMeetingMinutes: records.reduce((sum, record) => sum + record.meetingMinutes, 0),
    totalRecordingMinutes: records.reduce((sum, record) => sum + record.recordingMinutes, 0),
    totalMeetings: records.length,
  };
}

/** Minutes may be decimals, whose sums differ in the last bits with the order of addition. */
export function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}
