/**
 * Meeting close (closeMeeting): the one transition the interface lets a client cause on a meeting.
 * The running meeting of the target profile can be closed once, so the whole transition (before,
 * close, after, close again) is one test, with one check per requirement it assesses.
 */
import { check, cites, expect, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient } from '../fixtures/index.ts';
import { hasStatus, isDocumentedErrorBody, isEmptyObject } from './conditions/index.ts';
import { relyOn } from './support/reliance.ts';
import { observeUnknownId, UNKNOWN } from './support/unknown-ids.ts';

/**
 * No delay is stated for the removal of the participants ("come to return an empty list"): a
 * generous bound on the wait for it, so that a target that removes them a little later is not failed.
 */
const REMOVAL_TIMEOUT_MS = 15_000;

/** The connected participants of the room and channel: a 200 with an array is RT-10's, the read only relies on it. */
async function connectedIds(api: ApiClient, room: string, channel: string): Promise<string[]> {
  const exchange = await api.call('listRoomChannelParticipants', { params: { room, channel } });
  return relyOn('RT-10', `listRoomChannelParticipants of room ${room}, channel ${channel} answers 200 with an array`, () => {
    expect(exchange).toMatchOperation('listRoomChannelParticipants', { status: 200 });
    return (exchange.json as { id: string }[]).map((participant) => participant.id);
  });
}

test(
  'closing a running meeting answers {}, removes its participants, and closing it again answers 500',
  cites('CLOSE-01', 'CLOSE-02', 'CLOSE-03', 'ERR-03', 'AUTH-25', { tag: ['@destructive'] }),
  async ({ api, target }) => {
    if (!target.allowDestructive) notAssessed('closes the running meeting TARGET_RUNNING_MEETING_ID', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    const meetingId = target.ids.runningMeetingId ?? notAssessed('a running meeting the suite may close', { enable: 'TARGET_RUNNING_MEETING_ID' });
    const room = target.ids.runningMeetingRoomId ?? notAssessed('the room where its participants are connected', { enable: 'TARGET_RUNNING_MEETING_ROOM_ID' });
    const channel =
      target.ids.runningMeetingChannel ?? notAssessed('the channel where its participants are connected', { enable: 'TARGET_RUNNING_MEETING_CHANNEL' });
    const where = `room ${room}, channel ${channel}`;

    // Read before the close, judged by the CLOSE-02 check below; a failed read leaves that check unassessable.
    const before = await connectedIds(api, room, channel).catch((error: unknown) => {
      if (notAssessed.is(error)) return error;
      throw error;
    });
    // The client sends the bearer token and the API key in the JSON body of the GET (AUTH-25).
    const first = await api.call('closeMeeting', { params: { meetingId } });

    await check('AUTH-25', 'closing the running meeting with the bearer token and the body apiKey answers 200', () => {
      hasStatus(first, 200);
    });
    const notClosed = first.status === 200 ? undefined : `the close answered HTTP ${first.status} (AUTH-25 judges the status)`;
    await check('CLOSE-01', 'the 200 of the close is exactly the empty object', () => {
      if (notClosed !== undefined) notAssessed.check(notClosed);
      expect(first).toMatchOperation('closeMeeting', { status: 200 });
      isEmptyObject(first);
    });
    await check('CLOSE-02', `every participant leaves ${where} after the close`, async () => {
      if (notClosed !== undefined) notAssessed.check(notClosed);
      if (notAssessed.is(before)) throw before;
      if (before.length === 0)
        notAssessed.check(`no participant was connected in ${where} before the close (TARGET_RUNNING_MEETING_ROOM_ID, TARGET_RUNNING_MEETING_CHANNEL)`);
      await expect
        .poll(() => connectedIds(api, room, channel), {
          timeout: REMOVAL_TIMEOUT_MS,
          message: `participants still connected in ${where} after closing meeting ${meetingId}`,
        })
        .toEqual([]);
    });

    const again = notClosed === undefined ? await api.call('closeMeeting', { params: { meetingId } }) : undefined;
    await check('CLOSE-03', 'closing the meeting again answers 500', () => {
      if (again === undefined) notAssessed.check(notClosed ?? 'the meeting was not closed');
      hasStatus(again, 500);
    });
    await check('ERR-03', 'the 500 of the second close is the documented body', () => {
      if (again?.status !== 500)
        notAssessed.check(`the second close answered ${again === undefined ? 'nothing' : `HTTP ${again.status}`} (CLOSE-03 judges the status)`);
      expect(again).toMatchOperation('closeMeeting', { status: 500 });
      isDocumentedErrorBody(again, ['message', 'error']);
    });
  },
);

// What closing an unknown meeting gets is not shown (UNS-03).
observeUnknownId({ id: 'UNS-03', what: 'closing an unknown meeting', calls: [['closeMeeting', { params: { meetingId: UNKNOWN } }]] });
