/** What two operations that describe the same thing agree on (tests/conditions/agreement.ts). */
import { describe, it } from 'node:test';
import { noMinutesWithoutRecordings, sameItems, sameRecord, sameTotals, stableIdsInOther, totalIsSumOver } from '../conditions/index.ts';

import { fails } from './condition-fails.ts';

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

  it('stableIdsInOther: a participant listed before and after is in the other list read between', () => {
    const lists = { name: 'A', otherName: 'B', curl: 'curl http://x/b' };
    stableIdsInOther({ ...lists, before: ['p1', 'p2'], after: ['p2', 'p1'], between: ['p1', 'p2', 'p3'] });
    // p3 connected after the first read, p1 left before the last: neither decides anything.
    stableIdsInOther({ ...lists, before: ['p1', 'p2'], after: ['p2', 'p3'], between: ['p2'] });
    stableIdsInOther({ ...lists, before: [], after: [], between: ['p9'] });
    fails(
      () => stableIdsInOther({ ...lists, before: ['p1', 'p2', 'p3'], after: ['p3', 'p2', 'p1'], between: ['p2', 'p3'] }),
      /^1 of the 3 participants that A listed before and after are missing from B read between: \["p1"\]\ncurl http:\/\/x\/b$/,
    );
  });

  it('sameTotals: two summaries of the same meetings hold the same totals', () => {
    const names = ['getMeetingsSummary', 'getMeetingStats'] as const;
    const compared = ['totalMeetings', 'totalMeetingMinutes'];
    sameTotals({
      names,
      compared,
      totals: [
        { totalMeetings: 3, totalMeetingMinutes: 0.1 + 0.2 },
        { totalMeetings: 3, totalMeetingMinutes: 0.3, extra: 1 },
      ],
    });
    fails(
      () =>
        sameTotals({
          names,
          compared,
          curl: 'curl http://x/s',
          totals: [
            { totalMeetings: 3, totalMeetingMinutes: 10 },
            { totalMeetings: 4, totalMeetingMinutes: 10 },
          ],
        }),
      /^totalMeetings: getMeetingsSummary says 3, getMeetingStats says 4\ncurl http:\/\/x\/s$/,
    );
    fails(
      () => sameTotals({ names, compared, totals: [{ totalMeetings: 3 }, { totalMeetings: 3, totalMeetingMinutes: 1 }] }),
      /totalMeetingMinutes: getMeetingsSummary says undefined/,
    );
  });
});

describe('conditions: agreement, two reads of the same items', () => {
  it('sameItems: the same items in the same order', () => {
    sameItems(['a', 'b'], ['a', 'b'], 'ids');
    sameItems([{ page: 1, total: 3 }], [{ page: 1, total: 3 }], 'fields');
    fails(
      () => sameItems(['b', 'a'], ['a', 'b'], 'ids of the list'),
      /^ids of the list: received \["b","a"\], expected \["a","b"\] \(first difference at position 0\)$/,
    );
    fails(() => sameItems(['a'], ['a', 'b'], 'ids', { curl: 'curl http://x' }), /received \["a"\], expected \["a","b"\] \(1 items, not 2\)\ncurl http:\/\/x$/);
    fails(() => sameItems(['a', 'c'], ['a'], 'ids'), /\(first difference at position 1\)$/);
    fails(() => sameItems([{ page: 0 }], [{ page: 1 }], 'fields'), /received \[\{"page":0\}\], expected \[\{"page":1\}\]/);
  });

  it('totalIsSumOver: the summary total is the sum, to the last bits of a decimal', () => {
    totalIsSumOver(0.3, 0.1 + 0.2, 'totalMinutes');
    fails(() => totalIsSumOver(10, 9, 'totalMinutes'), /^totalMinutes: the summary says 10, the records give 9$/);
  });

  it('sameRecord: the fields compared hold the same values', () => {
    const listed = { id: 'g-1', name: 'Team', createdAt: '2024-06-01T00:00:00Z', extra: 1 };
    sameRecord({ id: 'g-1', name: 'Team', createdAt: '2024-06-01T00:00:00Z' }, listed, ['id', 'name', 'createdAt'], 'getGroup g-1');
    fails(
      () => sameRecord({ id: 'g-1', name: 'Other' }, listed, ['id', 'name', 'createdAt'], 'getGroup g-1', { curl: 'curl http://x' }),
      /^getGroup g-1: name is "Other", expected "Team"; createdAt is undefined, expected "2024-06-01T00:00:00Z"\ncurl http:\/\/x$/,
    );
  });
});
