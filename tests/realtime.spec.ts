/**
 * Realtime: channel info (its channel, last 250 events and connected participants) on the versioned
 * interface, and the connected participants on both interfaces. Reads TARGET_CHANNEL, a channel with
 * events and connected participants; no operation of the interface publishes events or opens channels.
 */
import { check, cites, expect, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient, Exchange, JsonObject, TargetConfig } from '../fixtures/index.ts';
import {
  hasStatus,
  apiKeyIsOneOf,
  atMostEvents,
  bodyIsArray,
  endsAfterItStarts,
  everyEventIsRealtimeEvent,
  everyEventWithinLifetime,
  holdsTheNewestEvent,
  isChannelInfo,
  isConnectedParticipant,
  isRealtimeChannel,
  isTheRecordAskedFor,
  keepsTheNewestEvents,
  listsConnectedParticipants,
  listsOnlyOfRoom,
  sameItems,
  stableIdsInOther,
} from './conditions/index.ts';
import { connectedOf, roomOfChannel } from './support/observations.ts';
import { relyOn } from './support/reliance.ts';
import { observeUnknownId, UNKNOWN } from './support/unknown-ids.ts';

const CHANNEL_WHY = 'a realtime channel with events and connected participants';
const EVENTS_LIMIT = 250;

interface ChannelInfo {
  exchange: Exchange;
  channel: JsonObject;
  events: JsonObject[];
  connected: JsonObject[];
}

/** getChannelInfo of TARGET_CHANNEL, checked against the document before any semantic check. */
async function readChannel(api: ApiClient, target: TargetConfig): Promise<ChannelInfo & { name: string }> {
  const name = target.ids.channel ?? notAssessed(CHANNEL_WHY, { enable: 'TARGET_CHANNEL' });
  const exchange = await api.call('getChannelInfo', { params: { channel: name } });
  expect(exchange).toMatchOperation('getChannelInfo', { status: 200 });
  const body = exchange.json as JsonObject;
  return {
    name,
    exchange,
    channel: body['channel'] as JsonObject,
    events: body['events'] as JsonObject[],
    connected: connectedOf(body) as JsonObject[],
  };
}

test('channel info holds the channel, its events and a list of connected participants', cites('RT-01'), async ({ api, target }) => {
  const { exchange } = await readChannel(api, target);
  isChannelInfo(exchange.json);
});

test('the channel carries name, participantId, apiKey, an integer startTime and an integer or null endTime', cites('RT-02'), async ({ api, target }) => {
  const { channel } = await readChannel(api, target);
  isRealtimeChannel(channel);
});

test('the channel returned is the channel requested', cites('RT-03'), async ({ api, target }) => {
  const { channel, name } = await readChannel(api, target);
  isTheRecordAskedFor(channel, ['name'], name);
});

test(
  'every event carries a name, an integer timestamp, participantId, a string or null connectionId and an object of data',
  cites('RT-04'),
  async ({ api, target }) => {
    const { events } = await readChannel(api, target);
    if (events.length === 0) notAssessed('a channel with events', { enable: 'TARGET_CHANNEL' });
    everyEventIsRealtimeEvent(events);
  },
);

test('channel info returns at most 250 events', cites('RT-05'), async ({ api, target }) => {
  const { events } = await readChannel(api, target);
  atMostEvents(events, EVENTS_LIMIT);
});

test('channel info returns the newest events: an earlier read holds no event that a later read skips', cites('RT-06'), async ({ api, target }) => {
  const earlier = await readChannel(api, target);
  const later = await readChannel(api, target);
  if (later.events.length === 0) notAssessed('a channel with events', { enable: 'TARGET_CHANNEL' });
  keepsTheNewestEvents(earlier.events, later.events);
});

test('channel info returns the newest events: the newest event the profile states is among them', cites('RT-06'), async ({ api, target }) => {
  const newest = target.channelNewestEventMs ?? notAssessed('the epoch ms of the newest event of TARGET_CHANNEL', { enable: 'TARGET_CHANNEL_NEWEST_EVENT_MS' });
  const { events } = await readChannel(api, target);
  holdsTheNewestEvent(events, newest);
});

test('connected participants of channel info carry id, name, connectionId, an integer timestamp and channel', cites('RT-07'), async ({ api, target }) => {
  const { connected } = await readChannel(api, target);
  if (connected.length === 0) notAssessed('a channel with connected participants', { enable: 'TARGET_CHANNEL' });
  for (const participant of connected) isConnectedParticipant(participant, 'channel');
});

test('the versioned participant list is an array of participants with channel', cites('RT-08', 'RT-07'), async ({ api, target }) => {
  const channel = target.ids.channel ?? notAssessed(CHANNEL_WHY, { enable: 'TARGET_CHANNEL' });
  const exchange = await api.call('listChannelParticipants', { params: { channel_name: channel } });
  const isList = await check('RT-08', 'listChannelParticipants answers 200 with an array of versioned participants', () => {
    expect(exchange).toMatchOperation('listChannelParticipants', { status: 200 });
    bodyIsArray(exchange);
  });
  if (!isList) return;
  const participants = exchange.json as JsonObject[];
  if (participants.length === 0)
    notAssessed.record('RT-07', 'participants of listChannelParticipants carry the versioned fields', 'a channel with connected participants', {
      enable: 'TARGET_CHANNEL',
    });
  for (const [index, participant] of participants.entries()) {
    await check('RT-07', `participant ${index} of listChannelParticipants carries id, name, connectionId, an integer timestamp and channel`, () => {
      isConnectedParticipant(participant, 'channel');
    });
  }
});

test('the room participant list is an array of participants with roomId', cites('RT-10', 'RT-09'), async ({ api, target }) => {
  const channel = target.ids.channel ?? notAssessed(CHANNEL_WHY, { enable: 'TARGET_CHANNEL' });
  const room =
    (await roomOfChannel(api, target, channel)) ?? notAssessed(`the room of channel ${channel} (no known room lists it)`, { enable: 'TARGET_ROOM_ID' });
  const exchange = await api.call('listRoomChannelParticipants', { params: { room, channel } });
  const isList = await check('RT-10', 'listRoomChannelParticipants answers 200 with an array of main-interface participants', () => {
    expect(exchange).toMatchOperation('listRoomChannelParticipants', { status: 200 });
    bodyIsArray(exchange);
  });
  if (!isList) return;
  const participants = exchange.json as JsonObject[];
  if (participants.length === 0)
    notAssessed.record(
      'RT-09',
      'participants of listRoomChannelParticipants carry the main-interface fields',
      `the room ${room} lists no connected participant`,
    );
  for (const [index, participant] of participants.entries()) {
    await check('RT-09', `participant ${index} of listRoomChannelParticipants carries id, name, connectionId, an integer timestamp and roomId`, () => {
      isConnectedParticipant(participant, 'roomId');
    });
  }
});

test('every participant of the room participant list is in the requested room', cites('RT-11'), async ({ api, target }) => {
  const channel = target.ids.channel ?? notAssessed(CHANNEL_WHY, { enable: 'TARGET_CHANNEL' });
  const room =
    (await roomOfChannel(api, target, channel)) ?? notAssessed(`the room of channel ${channel} (no known room lists it)`, { enable: 'TARGET_ROOM_ID' });
  const exchange = await api.call('listRoomChannelParticipants', { params: { room, channel } });
  expect(exchange).toMatchOperation('listRoomChannelParticipants', { status: 200 });
  const participants = exchange.json as JsonObject[];
  listsConnectedParticipants(participants, `listRoomChannelParticipants of room ${room}`);
  listsOnlyOfRoom(participants, room);
});

test('channel info and the versioned participant list name the same connected participants', cites('RT-12'), async ({ api, target }) => {
  const { connected, name } = await readChannel(api, target);
  const exchange = await api.call('listChannelParticipants', { params: { channel_name: name } });
  expect(exchange).toMatchOperation('listChannelParticipants', { status: 200 });
  const fromInfo = connected.map((participant) => String(participant['id'])).sort();
  const fromList = (exchange.json as JsonObject[]).map((participant) => String(participant['id'])).sort();
  sameItems(fromList, fromInfo, 'the ids of the connected participants of listChannelParticipants, beside those of channel info', exchange);
});

test('the channel endTime is null while open, else not earlier than its startTime', cites('RT-13'), async ({ api, target }) => {
  const { channel } = await readChannel(api, target);
  endsAfterItStarts(channel);
});

test('every event falls within the channel lifetime', cites('RT-14'), async ({ api, target }) => {
  const { channel, events } = await readChannel(api, target);
  everyEventWithinLifetime(events, channel);
});

test("the channel's apiKey is one of the target's API keys", cites('RT-15'), async ({ api, target }) => {
  const { channel } = await readChannel(api, target);
  const keys = [target.apiKey, target.otherApiKey].filter((key) => key !== undefined);
  // The value itself is a credential: the finding says only that it matched neither key.
  apiKeyIsOneOf(channel, keys, 'TARGET_API_KEY and TARGET_OTHER_API_KEY');
});

/** The ids of a participant list, once the read's status and form are what the list's own requirement states. */
async function idsOfList(exchange: Exchange, governing: string): Promise<string[]> {
  await relyOn(governing, `${exchange.operationId} answers 200 with an array`, () => {
    hasStatus(exchange, 200);
    bodyIsArray(exchange);
  });
  return (exchange.json as JsonObject[]).map((participant) => String(participant['id']));
}

// "The channel-participant list exists in two forms": read each form twice, around a read of the other.
test('the versioned and the room participant lists name the same connected participants', cites('RT-16'), async ({ api, target }) => {
  const channel = target.ids.channel ?? notAssessed(CHANNEL_WHY, { enable: 'TARGET_CHANNEL' });
  const room =
    (await roomOfChannel(api, target, channel)) ?? notAssessed(`the room of channel ${channel} (no known room lists it)`, { enable: 'TARGET_CHANNEL_ROOM_ID' });
  const versioned = async (): Promise<{ ids: string[]; curl: string }> => {
    const exchange = await api.call('listChannelParticipants', { params: { channel_name: channel } });
    return { ids: await idsOfList(exchange, 'RT-08'), curl: exchange.curl };
  };
  const inRoom = async (): Promise<{ ids: string[]; curl: string }> => {
    const exchange = await api.call('listRoomChannelParticipants', { params: { room, channel } });
    return { ids: await idsOfList(exchange, 'RT-10'), curl: exchange.curl };
  };
  const first = await versioned();
  const second = await inRoom();
  const third = await versioned();
  const fourth = await inRoom();
  await check('RT-16', `participants of ${channel} listed by both reads of listChannelParticipants are in the room list read between`, () =>
    stableIdsInOther({
      name: 'listChannelParticipants',
      before: first.ids,
      after: third.ids,
      otherName: 'listRoomChannelParticipants',
      between: second.ids,
      curl: second.curl,
    }),
  );
  await check('RT-16', `participants of ${channel} listed by both reads of listRoomChannelParticipants are in the versioned list read between`, () =>
    stableIdsInOther({
      name: 'listRoomChannelParticipants',
      before: second.ids,
      after: fourth.ids,
      otherName: 'listChannelParticipants',
      between: third.ids,
      curl: third.curl,
    }),
  );
});

// What an unknown channel or room gets is not shown (UNS-04); a 200 still answers for the channel
// asked for (RT-03) and lists only participants of the room asked for (RT-11).
observeUnknownId({
  id: 'UNS-04',
  what: 'an unknown channel or room',
  calls: [
    ['getChannelInfo', { params: { channel: UNKNOWN } }],
    ['listChannelParticipants', { params: { channel_name: UNKNOWN } }],
    ['listRoomChannelParticipants', { params: { room: UNKNOWN, channel: UNKNOWN } }],
  ],
});
