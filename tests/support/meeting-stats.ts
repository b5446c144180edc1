/**
 * Helpers of the meeting statistics specs: read the summary or the per-meeting records (each
 * validated against getMeetingStats), tell the documented result forms apart, and pick filter
 * values from the data itself so that every filter check can tell a working filter from an
 * ignored one (a date range: support/date-bounds.ts).
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
