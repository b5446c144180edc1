/**
 * Realtime: channel info (its channel, last 250 events and connected participants) on the versioned
 * interface, and the connected participants on both interfaces. Reads TARGET_CHANNEL, a channel with
 * events and connected participants; no operation of the interface publishes events or opens channels.
 */
import { check, cites, expect, isRecord, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient, Exchange, JsonObject, TargetConfig } from '../fixtures/index.ts';
import { everyEventIsRealtimeEvent, isRealtimeChannel, isTheRecordAskedFor, stableIdsInOther } from './conditions/index.ts';
import { connectedOf, field, roomOfChannel } from './support/observations.ts';
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

/** Events have no id: one event is the whole of its fields. */
const eventKey = (event: JsonObject): string =>
  JSON.stringify([event['name'], event['timestamp'], event['participantId'], event['connectionId'], event['data']]);

test('channel info holds the channel, its events and a list of connected participants', cites('RT-01'), async ({ api, target }) => {
  const { exchange } = await readChannel(api, target);
  const body = exchange.json as JsonObject;
  expect(isRecord(body['channel']), 'channel is an object').toBe(true);
  expect(Array.isArray(body['events']), 'events is an array').toBe(true);
  // A body carrying both names satisfies both documented forms (VAR-02).
  expect(
    ['participants', 'presences'].filter((name) => Array.isArray(body[name])),
    'participants or presences is an array',
  ).not.toHaveLength(0);
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
  expect(events.length).toBeLessThanOrEqual(EVENTS_LIMIT);
});

test('channel info returns the newest events: an earlier read holds no event that a later read skips', cites('RT-06'), async ({ api, target }) => {
  const earlier = await readChannel(api, target);
  const later = await readChannel(api, target);
  if (later.events.length === 0) notAssessed('a channel with events', { enable: 'TARGET_CHANNEL' });
  const oldestLater = Math.min(...later.events.map((event) => event['timestamp'] as number));
  const laterKeys = new Set(later.events.map(eventKey));
  const skipped = earlier.events.filter((event) => (event['timestamp'] as number) >= oldestLater && !laterKeys.has(eventKey(event)));
  expect(skipped, `events of the earlier read not older than the later read's oldest (${oldestLater}) yet missing from it`).toEqual([]);
});

test('channel info returns the newest events: the newest event the profile states is among them', cites('RT-06'), async ({ api, target }) => {
  const newest = target.channelNewestEventMs ?? notAssessed('the epoch ms of the newest event of TARGET_CHANNEL', { enable: 'TARGET_CHANNEL_NEWEST_EVENT_MS' });
  const { events } = await readChannel(api, target);
  const latest = Math.max(...events.map((event) => event['timestamp'] as number));
  expect(
    latest,
    `newest returned event (${latest}) is older than the channel's newest event (${newest}): the oldest events were returned`,
  ).toBeGreaterThanOrEqual(newest);
});

test('connected participants of channel info carry id, name, connectionId, an integer timestamp and channel', cites('RT-07'), async ({ api, target }) => {
  const { connected } = await readChannel(api, target);
  if (connected.length === 0) notAssessed('a channel with connected participants', { enable: 'TARGET_CHANNEL' });
  for (const participant of connected) {
    expect(participant).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String), channel: expect.any(String) }));
    expect(participant['connectionId'] === null || typeof participant['connectionId'] === 'string', 'connectionId is a string or null').toBe(true);
    expect(Number.isSafeInteger(participant['timestamp']), 'timestamp is an integer').toBe(true);
  }
});

/** The fields a connected participant carries on either interface, `place` being channel or roomId; undefined when it does. */
function participantProblem(participant: JsonObject, place: 'channel' | 'roomId'): string | undefined {
  const wrong = [
    typeof participant['id'] === 'string' ? '' : 'id is not a string',
    typeof participant['name'] === 'string' ? '' : 'name is not a string',
    participant['connectionId'] === null || typeof participant['connectionId'] === 'string' ? '' : 'connectionId is neither a string nor null',
    // "Timestamps written as numbers are integer epoch milliseconds."
    Number.isSafeInteger(participant['timestamp']) ? '' : 'timestamp is not an integer',
    typeof participant[place] === 'string' ? '' : `${place} is not a string`,
  ].filter((problem) => problem !== '');
  return wrong.length === 0 ? undefined : `${wrong.join(', ')}: ${JSON.stringify(participant)}`;
}

test('the versioned participant list is an array of participants with channel', cites('RT-08', 'RT-07'), async ({ api, target }) => {
  const channel = target.ids.channel ?? notAssessed(CHANNEL_WHY, { enable: 'TARGET_CHANNEL' });
  const exchange = await api.call('listChannelParticipants', { params: { channel_name: channel } });
  const isList = await check('RT-08', 'listChannelParticipants answers 200 with an array of versioned participants', () => {
    expect(exchange).toMatchOperation('listChannelParticipants', { status: 200 });
    expect(Array.isArray(exchange.json), 'the body is an array').toBe(true);
  });
  if (!isList) return;
  const participants = exchange.json as JsonObject[];
  if (participants.length === 0)
    notAssessed.record('RT-07', 'participants of listChannelParticipants carry the versioned fields', 'a channel with connected participants', {
      enable: 'TARGET_CHANNEL',
    });
  for (const [index, participant] of participants.entries()) {
    await check('RT-07', `participant ${index} of listChannelParticipants carries id, name, connectionId, an integer timestamp and channel`, () => {
      expect(participantProblem(participant, 'channel')).toBeUndefined();
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
    expect(Array.isArray(exchange.json), 'the body is an array').toBe(true);
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
      expect(participantProblem(participant, 'roomId')).toBeUndefined();
    });
  }
});

test('every participant of the room participant list is in the requested room', cites('RT-11'), async ({ api, target }) => {
  const channel = target.ids.channel ?? notAssessed(CHANNEL_WHY, { enable: 'TARGET_CHANNEL' });
  const room =
    (await roomOfChannel(api, target, channel)) ?? notAssessed(`the room of channel ${channel} (no known room lists it)`, { enable: 'TARGET_ROOM_ID' });
  const exchange = await api.call('listRoomChannelParticipants', { params: { room, channel } });
  expect(exchange).toMatchOperation('listRoomChannelParticipants', { status: 200 });
  const rooms = (exchange.json as JsonObject[]).map((participant) => participant['roomId']);
  expect(rooms.length, 'the room lists connected participants').toBeGreaterThan(0);
  expect(rooms).toEqual(rooms.map(() => room));
});

test('channel info and the versioned participant list name the same connected participants', cites('RT-12'), async ({ api, target }) => {
  const { connected, name } = await readChannel(api, target);
  const exchange = await api.call('listChannelParticipants', { params: { channel_name: name } });
  expect(exchange).toMatchOperation('listChannelParticipants', { status: 200 });
  const fromInfo = connected.map((participant) => String(participant['id'])).sort();
  const fromList = (exchange.json as JsonObject[]).map((participant) => String(participant['id'])).sort();
  expect(fromList, 'ids of the participant list, beside those of channel info').toEqual(fromInfo);
});

test('the channel endTime is null while open, else not earlier than its startTime', cites('RT-13'), async ({ api, target }) => {
  const { channel } = await readChannel(api, target);
  const endTime = channel['endTime'];
  if (endTime !== null) {
    expect(Number.isSafeInteger(endTime), `a closed channel's endTime is an integer, got ${String(endTime)}`).toBe(true);
    expect(endTime as number).toBeGreaterThanOrEqual(channel['startTime'] as number);
  }
});

test('every event falls within the channel lifetime', cites('RT-14'), async ({ api, target }) => {
  const { channel, events } = await readChannel(api, target);
  const start = channel['startTime'] as number;
  const end = channel['endTime'] as number | null;
  const outside = events.filter((event) => (event['timestamp'] as number) < start || (end !== null && (event['timestamp'] as number) > end));
  expect(outside.length, `events outside [${start}, ${end ?? 'open'}] of ${events.length}, e.g. ${String(field(outside[0], 'timestamp'))}`).toBe(0);
});

test("the channel's apiKey is one of the target's API keys", cites('RT-15'), async ({ api, target }) => {
  const { channel } = await readChannel(api, target);
  const keys = [target.apiKey, target.otherApiKey].filter((key) => key !== undefined);
  // The value itself is a credential: the message says only that it matched neither key.
  expect(keys.includes(channel['apiKey'] as string), 'the channel apiKey is TARGET_API_KEY or TARGET_OTHER_API_KEY').toBe(true);
});

/** The ids of a participant list, once the read's status and form are what the list's own requirement states. */
async function idsOfList(exchange: Exchange, governing: string): Promise<string[]> {
  await relyOn(governing, `${exchange.operationId} answers 200 with an array`, () => {
    expect(exchange.status, `status of ${exchange.operationId}`).toBe(200);
    expect(Array.isArray(exchange.json), 'the body is an array').toBe(true);
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
