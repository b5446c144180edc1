import { generateKeyPair, randomInt, type KeyPairKeyObjectResult } from 'node:crypto';

/** Small domain rules, kept apart so that a fault wrapper can replace any one of them. */

export type RecordingStatus = 'processing' | 'available';

export const formatTimestamp = (epochMs: number): string => new Date(epochMs).toISOString();

/** A recording is processing for the ready delay after it ended, then available. */
export function recordingStatus(endedAt: number, now: number, readyDelayMs: number): RecordingStatus {
  return now >= endedAt + readyDelayMs ? 'available' : 'processing';
}

/** Served by the reference itself (GET /media/recordings/...), which answers 2xx once the recording is available. */
export function recordingUrl(origin: string, uuid: string): string {
  return `${origin}/media/recordings/${uuid}.mp4`;
}

export function drawSecretKey(wordlist: readonly string[], count: number): string {
  return Array.from({ length: count }, () => wordlist[randomInt(wordlist.length)]).join(' ');
}

/** Events are kept oldest first; the newest `limit` are returned, still oldest first. */
export const lastEvents = <T>(events: readonly T[], limit: number): T[] => events.slice(Math.max(0, events.length - limit));

/** The interface names date filters of meeting statistics but not the field they apply to: the start. */
export const meetingStatsFilterTime = (record: { startedAt: number; endedAt: number; createdAt: number }): number => record.startedAt;

/** Month and year filters read the calendar in UTC, like every timestamp of the interface. */
export function calendarMonth(epochMs: number): { year: number; month: number } {
  const date = new Date(epochMs);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

export interface MeetingSummary {
  totalMeetingMinutes: number;
  totalRecordingMinutes: number;
  totalMeetings: number;
}

export function summariseMeetings(records: readonly { meetingMinutes: number; recordingMinutes: number }[]): MeetingSummary {
  return {
    totalMeetingMinutes: records.reduce((sum, r) => sum + r.meetingMinutes, 0),
    totalRecordingMinutes: records.reduce((sum, r) => sum + r.recordingMinutes, 0),
    totalMeetings: records.length,
  };
}

/** Archived participants are inactive and do not appear when participants are searched. */
export const isSearchable = (participant: { archived: boolean }): boolean => !participant.archived;

export interface UsageWindow {
  windowStart: number;
  count: number;
}

/** Counts one request in a fixed window that starts with the first request after the previous window. */
export function countUsage(previous: UsageWindow | undefined, now: number, windowMs: number): UsageWindow {
  const current = previous !== undefined && now - previous.windowStart < windowMs ? previous : { windowStart: now, count: 0 };
  return { windowStart: current.windowStart, count: current.count + 1 };
}

export interface SecurityKeyPair {
  publicKey: string;
  privateKey: string;
}

/** RSA, because the public key must encrypt data (and the pair sign). */
export function generateSecurityKeyPair(): Promise<KeyPairKeyObjectResult> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: 2048 }, (error, publicKey, privateKey) => (error ? reject(error) : resolve({ publicKey, privateKey })));
  });
}

/** SPKI PEM public key; PKCS#8 PEM private key encrypted (aes-256-cbc) with the passphrase. */
export function exportSecurityKeyPair(pair: KeyPairKeyObjectResult, passphrase: string): SecurityKeyPair {
  return {
    publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString(),
  };
}
