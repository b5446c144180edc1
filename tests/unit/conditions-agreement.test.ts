/** What two operations that describe the same thing agree on (tests/conditions/agreement.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConditionFailure, noMinutesWithoutRecordings } from '../conditions/index.ts';

function fails(condition: () => void, message: RegExp): void {
  assert.throws(condition, (error: unknown) => error instanceof ConditionFailure && message.test(error.message));
}

describe('conditions: agreement', () => {
  it('noMinutesWithoutRecordings: minutes recorded only where a recording is listed', () => {
    noMinutesWithoutRecordings([]);
    noMinutesWithoutRecordings([
      { meetingId: 'm1', recordingMinutes: 0, recordings: 0 },
      { meetingId: 'm2', recordingMinutes: 12.5, recordings: 2 },
      // A listed recording may be shorter than the rounding: its meeting may show 0.
      { meetingId: 'm3', recordingMinutes: 0, recordings: 1 },
    ]);
    fails(
      () =>
        noMinutesWithoutRecordings([
          { meetingId: 'm1', recordingMinutes: 0, recordings: 0 },
          { meetingId: 'm4', recordingMinutes: 37, recordings: 0, curl: 'curl http://x/recording?meetingId=m4' },
        ]),
      /^1 of 2 meetings show minutes recorded while no recording of theirs is listed: \[\{"meetingId":"m4","recordingMinutes":37\}\]\ncurl http:\/\/x\/recording\?meetingId=m4$/,
    );
  });
});
