/** The shapes of the realtime channel info (tests/conditions/realtime.ts). */
import { describe, it } from 'node:test';
import {
  apiKeyIsOneOf,
  atMostEvents,
  channelIdIsStringOrAbsent,
  endsAfterItStarts,
  everyEventIsRealtimeEvent,
  everyEventWithinLifetime,
  holdsTheNewestEvent,
  isChannelInfo,
  isConnectedParticipant,
  isRealtimeChannel,
  keepsTheNewestEvents,
  listsConnected,
  listsConnectedParticipants,
} from '../conditions/index.ts';

import { fails } from './condition-fails.ts';

const CHANNEL = { name: 'ch-1', participantId: 'p-1', apiKey: 'k-1', startTime: 1717200000000, endTime: null };
const EVENT = { name: 'joined', timestamp: 1717200000000, participantId: 'p-1', connectionId: null, data: {} };

describe('conditions: realtime', () => {
  it('isRealtimeChannel: name, participantId and apiKey strings, integer startTime, integer or null endTime, a string id when present', () => {
    isRealtimeChannel(CHANNEL);
    isRealtimeChannel({ ...CHANNEL, endTime: 1717200060000, id: 'c-1' });
    fails(() => isRealtimeChannel({ ...CHANNEL, startTime: 1.5 }), /startTime is 1\.5, not an integer/);
    fails(() => isRealtimeChannel({ ...CHANNEL, endTime: '2024' }), /endTime is "2024", not an integer or null/);
    fails(() => isRealtimeChannel({ ...CHANNEL, apiKey: undefined, id: 7 }), /apiKey is undefined, not a string; id is 7, not a string/);
    fails(() => isRealtimeChannel([]), /the channel is \[\], not an object/);
  });

  it('everyEventIsRealtimeEvent: each event has a name, an integer timestamp, participantId, a string or null connectionId, an object of data', () => {
    everyEventIsRealtimeEvent([EVENT, { ...EVENT, connectionId: 'c-1', data: { text: 'hi' } }]);
    everyEventIsRealtimeEvent([]);
    fails(() => everyEventIsRealtimeEvent([EVENT, { ...EVENT, data: [] }]), /1 of 2 events break the Realtime event shape/);
    fails(() => everyEventIsRealtimeEvent([{ ...EVENT, timestamp: '1717200000000' }]), /1 of 1 events/);
    fails(() => everyEventIsRealtimeEvent([{ ...EVENT, connectionId: undefined }]), /1 of 1 events/);
  });

  it('listsConnected: participants or presences is an array', () => {
    listsConnected({ channel: CHANNEL, participants: [] });
    listsConnected({ presences: [{ id: 'p-1' }] });
    fails(() => listsConnected({ participants: {} }), /holds participants \{\} and presences undefined: expected an array in one of them/);
    fails(() => listsConnected(null), /expected an array in one of them/);
  });

  it('channelIdIsStringOrAbsent: an object whose id, when present, is a string', () => {
    channelIdIsStringOrAbsent(CHANNEL);
    channelIdIsStringOrAbsent({ ...CHANNEL, id: 'c-1' });
    fails(() => channelIdIsStringOrAbsent('ch-1'), /the channel is "ch-1": expected an object/);
    fails(() => channelIdIsStringOrAbsent({ ...CHANNEL, id: 7 }), /the channel id is 7: expected a string, or no id/);
  });
});

describe('conditions: realtime, the channel info and the participant lists', () => {
  const PARTICIPANT = { id: 'p-1', name: 'Ann', connectionId: null, timestamp: 1717200000000, channel: 'ch-1' };

  it('isChannelInfo: channel an object, events an array, participants or presences an array', () => {
    isChannelInfo({ channel: CHANNEL, events: [], participants: [] });
    isChannelInfo({ channel: CHANNEL, events: [], presences: [], participants: null });
    fails(() => isChannelInfo({ channel: CHANNEL, event: [], participants: [] }), /events is undefined, not an array/);
    fails(
      () => isChannelInfo({ channel: 'ch-1', events: [], participants: {} }),
      /channel is "ch-1", not an object; neither participants \({}\) nor presences/,
    );
    fails(() => isChannelInfo(null), /the channel-info body is null, not an object/);
  });

  it('atMostEvents: no more events than the limit', () => {
    atMostEvents(
      Array.from({ length: 250 }, () => EVENT),
      250,
    );
    fails(
      () =>
        atMostEvents(
          Array.from({ length: 251 }, () => EVENT),
          250,
        ),
      /returned 251 events, more than the 250/,
    );
  });

  it('keepsTheNewestEvents: an earlier event not older than the later oldest is in the later read', () => {
    const at = (timestamp: number): typeof EVENT => ({ ...EVENT, timestamp });
    keepsTheNewestEvents([at(1), at(2), at(3)], [at(2), at(3), at(4)]);
    // Older than the later read's oldest: it may have dropped out of the window.
    keepsTheNewestEvents([at(1)], [at(2)]);
    fails(
      () => keepsTheNewestEvents([at(2), at(3)], [at(2), at(4)]),
      /1 event\(s\) of the earlier read, not older than the later read's oldest \(2\), are missing .*"timestamp":3/,
    );
  });

  it('holdsTheNewestEvent: the newest returned is not older than the newest stated', () => {
    holdsTheNewestEvent(
      [
        { ...EVENT, timestamp: 5 },
        { ...EVENT, timestamp: 9 },
      ],
      9,
    );
    fails(() => holdsTheNewestEvent([{ ...EVENT, timestamp: 5 }], 9), /newest event returned is at 5, older than the channel's newest event at 9/);
    fails(() => holdsTheNewestEvent([], 9), /at -Infinity/);
  });

  it('isConnectedParticipant: id, name, a string or null connectionId, an integer timestamp and the place', () => {
    isConnectedParticipant(PARTICIPANT, 'channel');
    isConnectedParticipant({ ...PARTICIPANT, channel: undefined, roomId: 'r-1', connectionId: 'c-1' }, 'roomId');
    fails(() => isConnectedParticipant({ ...PARTICIPANT, timestamp: 1.5 }, 'channel'), /timestamp is not an integer/);
    fails(() => isConnectedParticipant(PARTICIPANT, 'roomId'), /roomId is not a string/);
    fails(
      () => isConnectedParticipant({ ...PARTICIPANT, id: 7, connectionId: 3 }, 'channel'),
      /id is not a string, connectionId is neither a string nor null: \{"id":7/,
    );
    fails(() => isConnectedParticipant(null, 'channel'), /the connected participant is null, not an object/);
  });

  it('listsConnectedParticipants: at least one', () => {
    listsConnectedParticipants([PARTICIPANT], 'the list');
    fails(
      () => listsConnectedParticipants([], 'listRoomChannelParticipants of room r-1'),
      /listRoomChannelParticipants of room r-1 lists no connected participant/,
    );
  });

  it('endsAfterItStarts: endTime null, or an integer not earlier than startTime', () => {
    endsAfterItStarts(CHANNEL);
    endsAfterItStarts({ ...CHANNEL, endTime: CHANNEL.startTime });
    fails(() => endsAfterItStarts({ ...CHANNEL, endTime: CHANNEL.startTime - 1 }), /endTime 1717199999999 is earlier than its startTime 1717200000000/);
    fails(() => endsAfterItStarts({ ...CHANNEL, endTime: '1717200000000' }), /endTime is "1717200000000", not an integer/);
    fails(() => endsAfterItStarts({ ...CHANNEL, endTime: 5, startTime: '1' }), /earlier than its startTime "1"/);
  });

  it('everyEventWithinLifetime: every timestamp from startTime to endTime, or on while open', () => {
    const at = (timestamp: number): typeof EVENT => ({ ...EVENT, timestamp });
    everyEventWithinLifetime([at(10), at(20)], { ...CHANNEL, startTime: 10, endTime: 20 });
    everyEventWithinLifetime([at(10), at(99)], { ...CHANNEL, startTime: 10, endTime: null });
    fails(
      () => everyEventWithinLifetime([at(10), at(21)], { ...CHANNEL, startTime: 10, endTime: 20 }),
      /1 of 2 events lie outside the channel's lifetime \[10, 20\]; the first at 21/,
    );
    fails(() => everyEventWithinLifetime([at(9)], { ...CHANNEL, startTime: 10, endTime: null }), /\[10, open\]; the first at 9/);
  });

  it('apiKeyIsOneOf: one of the keys, never shown', () => {
    apiKeyIsOneOf(CHANNEL, ['k-0', 'k-1'], 'the keys');
    fails(() => apiKeyIsOneOf({ ...CHANNEL, apiKey: 'secret-value' }, ['k-0'], 'TARGET_API_KEY'), /^(?![\s\S]*secret-value)[\s\S]*none of TARGET_API_KEY/);
  });
});
