import type { KeyPairKeyObjectResult } from 'node:crypto';
import { wordlist as englishWordlist } from '@scure/bip39/wordlists/english.js';
import { buildErrorBody, type ErrorBody } from './errors.ts';
import { pageNumber, pageSlice, totalPages, type PagingRules } from './pagination.ts';
import { issueToken, verifyToken } from './tokens.ts';
import {
  calendarMonth,
  countUsage,
  drawSecretKey,
  exportSecurityKeyPair,
  formatTimestamp,
  generateSecurityKeyPair,
  isSearchable,
  lastEvents,
  meetingStatsFilterTime,
  recordingStatus,
  recordingUrl,
  summariseMeetings,
  type MeetingSummary,
  type RecordingStatus,
  type SecurityKeyPair,
  type UsageWindow,
} from './rules.ts';

/**
 * The replaceable pieces of the reference's behaviour. The normal code reads them only from here, so
 * an outside wrapper (the fault catalogue) can swap one through `ReferenceOptions.behaviour` without
 * any test hook in the normal code path.
 */
export interface Behaviour extends PagingRules {
  issueToken(secret: string, userId: string, nowMs: number, ttlS: number): Promise<string>;
  verifyToken(secret: string, token: string, nowMs: number): Promise<string | undefined>;
  formatTimestamp(epochMs: number): string;
  recordingStatus(endedAt: number, now: number, readyDelayMs: number): RecordingStatus;
  recordingUrl(origin: string, uuid: string): string;
  secretKeyWordlist: readonly string[];
  secretKeyWordCount: number;
  drawSecretKey(wordlist: readonly string[], count: number): string;
  generateSecurityKeyPair(): Promise<KeyPairKeyObjectResult>;
  exportSecurityKeyPair(pair: KeyPairKeyObjectResult, passphrase: string): SecurityKeyPair;
  countUsage(previous: UsageWindow | undefined, now: number, windowMs: number): UsageWindow;
  eventsLimit: number;
  lastEvents<T>(events: readonly T[], limit: number): T[];
  summariseMeetings(records: readonly { meetingMinutes: number; recordingMinutes: number }[]): MeetingSummary;
  /** The time of a meeting statistics record that the date filters (month, year, initialDate, endDate) apply to. */
  meetingStatsFilterTime(record: { startedAt: number; endedAt: number; createdAt: number }): number;
  calendarMonth(epochMs: number): { year: number; month: number };
  isSearchable(participant: { archived: boolean }): boolean;
  errorBody(statusCode: number, message: string, includeError: boolean): ErrorBody;
}

export const defaultBehaviour: Readonly<Behaviour> = Object.freeze({
  defaultTake: 10,
  /** Not given by the interface; larger values are rejected with 400. */
  maxTake: 100,
  pageNumber,
  totalPages,
  pageSlice,
  issueToken,
  verifyToken,
  formatTimestamp,
  recordingStatus,
  recordingUrl,
  secretKeyWordlist: englishWordlist,
  secretKeyWordCount: 128,
  drawSecretKey,
  generateSecurityKeyPair,
  exportSecurityKeyPair,
  countUsage,
  eventsLimit: 250,
  lastEvents,
  summariseMeetings,
  meetingStatsFilterTime,
  calendarMonth,
  isSearchable,
  errorBody: buildErrorBody,
});

export function resolveBehaviour(overrides: Partial<Behaviour> = {}): Behaviour {
  return { ...defaultBehaviour, ...overrides };
}
