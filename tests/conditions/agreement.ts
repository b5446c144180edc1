/**
 * What two operations that describe the same thing must agree on: a fact one operation reports
 * that the other's answer decides (a meeting's recorded minutes and the recordings listed for it).
 * Each rule judges only what both answers state; what the interface leaves open (how minutes are
 * rounded, how long a recording lasts) decides nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import { fail, shown } from './condition.ts';

/** A meeting statistics record beside the recordings listed for its meeting (listRecordings with its meetingId). */
export interface MeetingBesideRecordings {
  meetingId: string;
  recordingMinutes: number;
  /** How many recordings of that meeting the list holds. */
  recordings: number;
  /** The curl line of the recordings read. */
  curl?: string;
}

/**
 * A meeting none of whose recordings are listed recorded nothing: its record's recordingMinutes is 0.
 * (A meeting with recordings may show any minutes: a recording's length is not in its record.)
 */
export function noMinutesWithoutRecordings(meetings: readonly MeetingBesideRecordings[]): void {
  const wrong = meetings.filter((meeting) => meeting.recordings === 0 && meeting.recordingMinutes !== 0);
  if (wrong.length === 0) return;
  const list = wrong.map(({ meetingId, recordingMinutes }) => ({ meetingId, recordingMinutes }));
  fail(`${wrong.length} of ${meetings.length} meetings show minutes recorded while no recording of theirs is listed: ${shown(list)}`, wrong[0]);
}

/** Two reads of one list of connected participants, and a read of another list of the same participants made between them. */
export interface ListsAround {
  /** The list read twice, and the ids of each read. */
  name: string;
  before: readonly string[];
  after: readonly string[];
  /** The other list, read between the two, and its ids. */
  otherName: string;
  between: readonly string[];
  /** The curl line of the read between. */
  curl?: string;
}

/**
 * Participants connected before and after a read are in it: an id in both reads of one list is in
 * the other list read between them. An id that comes or goes between the reads decides nothing.
 */
export function stableIdsInOther(lists: ListsAround): void {
  const between = new Set(lists.between);
  const after = new Set(lists.after);
  const stable = [...new Set(lists.before)].filter((id) => after.has(id));
  const missing = stable.filter((id) => !between.has(id));
  if (missing.length === 0) return;
  fail(
    `${missing.length} of the ${stable.length} participants that ${lists.name} listed before and after are missing from ${lists.otherName} read between: ${shown(missing)}`,
    lists,
  );
}

/** Two summaries of the same meetings, each named by the read that gave it. */
export interface SummariesOfTheSame {
  names: readonly [string, string];
  totals: readonly [Readonly<Record<string, number>>, Readonly<Record<string, number>>];
  /** The totals compared (every total either holds). */
  compared: readonly string[];
  curl?: string;
}

/** Minutes may be decimals, whose sums differ in the last bits with the order of addition. */
const nearly = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

/** Two summaries of the same meetings hold the same totals. */
export function sameTotals(summaries: SummariesOfTheSame): void {
  const [left, right] = summaries.totals;
  const differ = summaries.compared.filter((name) => !(typeof left[name] === 'number' && typeof right[name] === 'number' && nearly(left[name], right[name])));
  if (differ.length === 0) return;
  const [first, second] = summaries.names;
  fail(`${differ.map((name) => `${name}: ${first} says ${String(left[name])}, ${second} says ${String(right[name])}`).join('; ')}`, summaries);
}

/**
 * Two reads that must list the same items in the same order do (their keys: ids, uuids): `received`
 * is the read judged, `expected` the read it is held against, `what` says what both list.
 */
export function sameItems(received: readonly unknown[], expected: readonly unknown[], what: string, answer?: { curl?: string }): void {
  if (received.length === expected.length && received.every((item, index) => isDeepStrictEqual(item, expected[index]))) return;
  const at = received.findIndex((item, index) => index >= expected.length || !isDeepStrictEqual(item, expected[index]));
  const first =
    at === -1 ? (expected.length === received.length ? '' : ` (${received.length} items, not ${expected.length})`) : ` (first difference at position ${at})`;
  fail(`${what}: received ${shown(received)}, expected ${shown(expected)}${first}`, answer);
}

/** A total of a summary is the sum of that total over the records it summarises (decimals compared to their last bits). */
export function totalIsSumOver(stated: number, sum: number, what: string): void {
  if (!nearly(stated, sum)) fail(`${what}: the summary says ${stated}, the records give ${sum}`);
}

/** Two reads of one record hold the same values in `fields` (the record a get answers, beside the one a list gave). */
export function sameRecord(received: object, expected: object, fields: readonly string[], what: string, answer?: { curl?: string }): void {
  const [got, wanted] = [received as Readonly<Record<string, unknown>>, expected as Readonly<Record<string, unknown>>];
  const differ = fields.filter((name) => !isDeepStrictEqual(got[name], wanted[name]));
  if (differ.length > 0) fail(`${what}: ${differ.map((name) => `${name} is ${shown(got[name])}, expected ${shown(wanted[name])}`).join('; ')}`, answer);
}
