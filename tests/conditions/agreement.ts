/**
 * What two operations that describe the same thing must agree on: a fact one operation reports
 * that the other's answer decides (a meeting's recorded minutes and the recordings listed for it).
 * Each rule judges only what both answers state; what the interface leaves open (how minutes are
 * rounded, how long a recording lasts) decides nothing.
 */
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
