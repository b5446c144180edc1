/**
 * Helpers of the meeting statistics specs: read the summary or the per-meeting records (each
 * validated against getMeetingStats), tell the documented result forms apart, and pick filter
 * values from the data itself so that every filter check can tell a working filter from an
 * ignored one.
 */
import { expect } from '../../fixtures/index.ts';
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

/** getMeetingStats with `query`: a valid 200 of the expected form. */
export async function readStats(api: ApiClient, query: StatsQuery, form: StatsForm): Promise<Exchange> {
  const exchange = await api.call('getMeetingStats', { query });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  expect(statsForm(exchange.json), `form of the getMeetingStats answer to ${JSON.stringify(query)}`).toBe(form);
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

/** The record's startedAt and createdAt in epoch ms: the two timestamps the date filters may use. */
function filterTimes(record: MeetingStatsRecord): [number, number] {
  return [Date.parse(record.startedAt), Date.parse(record.createdAt)];
}

/** A date filter as a predicate on one timestamp. */
export type TimeWindow = (epochMs: number) => boolean;

/** May the filter return the record: its startedAt or its createdAt lies in the window. */
export function mayMatch(record: MeetingStatsRecord, window: TimeWindow): boolean {
  return filterTimes(record).some(window);
}

/** Must the filter return the record: both its startedAt and its createdAt lie in the window. */
export function mustMatch(record: MeetingStatsRecord, window: TimeWindow): boolean {
  return filterTimes(record).every(window);
}

export function monthWindow(year: number, month: number): TimeWindow {
  return (time) => {
    const date = new Date(time);
    return date.getUTCFullYear() === year && date.getUTCMonth() + 1 === month;
  };
}

export function yearWindow(year: number): TimeWindow {
  return (time) => new Date(time).getUTCFullYear() === year;
}

export function rangeWindow(from: string, to: string): TimeWindow {
  return (time) => time >= Date.parse(from) && time <= Date.parse(to);
}

/**
 * A range of the data: from the earlier timestamp of the record a quarter into the list (by
 * startedAt) to the later timestamp of the record three quarters in, so that the bounds are
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
