/**
 * Meeting close (closeMeeting): the one transition the interface lets a client cause on a meeting.
 * The running meeting of the target profile can be closed once, so the whole transition (before,
 * close, after, close again) is one test.
 */
import { cites, expect, requireDestructive, test } from '../fixtures/index.ts';
import type { ApiClient } from '../fixtures/index.ts';

/** No delay is stated for the removal of the participants; this bounds the wait for it. */
const REMOVAL_TIMEOUT_MS = 5_000;

async function connectedIds(api: ApiClient, room: string, channel: string): Promise<string[]> {
  const exchange = await api.call('listRoomChannelParticipants', { params: { room, channel } });
  expect(exchange).toMatchOperation('listRoomChannelParticipants', { status: 200 });
  return (exchange.json as { id: string }[]).map((participant) => participant.id);
}

test(
  'closing a running meeting answers {}, removes its participants, and closing it again answers 500',
  cites('CLOSE-01', 'CLOSE-02', 'CLOSE-03', 'AUTH-25', { tag: ['@destructive'] }),
  async ({ api, target, needs }) => {
    requireDestructive(target, 'closes the running meeting TARGET_RUNNING_MEETING_ID');
    const meetingId = needs(target.ids.runningMeetingId, 'TARGET_RUNNING_MEETING_ID', 'a running meeting the suite may close');
    const room = needs(target.ids.runningMeetingRoomId, 'TARGET_RUNNING_MEETING_ROOM_ID', 'the room where its participants are connected');
    const channel = needs(target.ids.runningMeetingChannel, 'TARGET_RUNNING_MEETING_CHANNEL', 'the channel where its participants are connected');

    const before = await connectedIds(api, room, channel);
    expect(before.length, `participants connected in room ${room}, channel ${channel} before the close`).toBeGreaterThan(0);

    // The client sends the bearer token and the API key in the JSON body of the GET (AUTH-25).
    const closed = await api.call('closeMeeting', { params: { meetingId } });
    expect(closed).toMatchOperation('closeMeeting', { status: 200 });
    expect(closed.json).toStrictEqual({});

    await expect
      .poll(() => connectedIds(api, room, channel), {
        timeout: REMOVAL_TIMEOUT_MS,
        message: `participants still connected in room ${room}, channel ${channel} after closing meeting ${meetingId}`,
      })
      .toEqual([]);

    const again = await api.call('closeMeeting', { params: { meetingId } });
    expect(again).toMatchOperation('closeMeeting', { status: 500 });
    expect(again.json).toMatchObject({ statusCode: 500 });
  },
);
