/**
 * Faults of the realtime channels (getChannelInfo, listChannelParticipants, listRoomChannelParticipants).
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { environments } from '../seed-types.ts';
import {
  eachRecord,
  environmentOf,
  eventsOf,
  fault,
  isObject,
  itemsOf,
  paramsOf,
  renameField,
  rewriteBody,
  withBehaviour,
  type Fault,
  type JsonObject,
} from './tools.ts';

function channelOf(body: unknown): JsonObject | undefined {
  return isObject(body) && isObject(body['channel']) ? body['channel'] : undefined;
}

/** The connected participants of channel info (under either documented name). */
function connectedOf(body: unknown): JsonObject[] {
  return isObject(body) ? [...itemsOf(body['presences']), ...itemsOf(body['participants'])] : [];
}

export const faults: readonly Fault[] = [
  fault(
    'room-participants-drop-first',
    'listRoomChannelParticipants leaves out the first participant connected to the channel; listChannelParticipants and channel info list it.',
    ['RT-16'],
    ['listRoomChannelParticipants'],
    rewriteBody(['listRoomChannelParticipants'], (body) => (Array.isArray(body) ? body.slice(1) : body)),
  ),
  fault('events-over-250', 'Channel info returns up to 300 events.', ['RT-05'], ['getChannelInfo'], withBehaviour({ eventsLimit: 300 })),
  fault(
    'events-oldest-250',
    'Channel info returns the oldest 250 events instead of the newest.',
    ['RT-06'],
    ['getChannelInfo'],
    withBehaviour({ lastEvents: (events, limit) => events.slice(0, limit) }),
  ),
  fault(
    'channel-api-key-missing',
    'The channel object lacks apiKey.',
    ['RT-02', 'FMT-03'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      delete channelOf(body)?.['apiKey'];
      return body;
    }),
  ),
  fault(
    'event-data-string',
    'Channel events carry data as a JSON string instead of an object.',
    ['RT-04'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      for (const event of eventsOf(body)) event['data'] = JSON.stringify(event['data']);
      return body;
    }),
  ),
  fault(
    'versioned-participant-channel-missing',
    'Participants of the versioned interface lack channel.',
    ['RT-07', 'RT-08', 'FMT-03'],
    ['getChannelInfo', 'listChannelParticipants'],
    rewriteBody(
      ['listChannelParticipants'],
      eachRecord((record) => delete record['channel']),
    ),
    rewriteBody(['getChannelInfo'], (body) => {
      for (const participant of connectedOf(body)) delete participant['channel'];
      return body;
    }),
  ),
  fault(
    'room-participant-room-id-missing',
    'Participants of listRoomChannelParticipants lack roomId.',
    ['RT-09', 'RT-10', 'FMT-03'],
    ['listRoomChannelParticipants'],
    rewriteBody(
      ['listRoomChannelParticipants'],
      eachRecord((record) => delete record['roomId']),
    ),
  ),
];

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
  fault(
    'channel-events-renamed',
    'Channel info names its list of events lastEvents instead of events.',
    ['RT-01'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      if (isObject(body)) renameField(body, 'events', 'lastEvents');
      return body;
    }),
  ),
  fault(
    'channel-name-is-id',
    'The channel object of channel info carries the channel id in name instead of the channel name requested.',
    ['RT-03'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body, { request, app }) => {
      const requested = String(paramsOf(request)['channel']);
      const stored = environments
        .map((environment) => app.reference.store.environments[environment].channels.get(requested))
        .find((channel) => channel !== undefined);
      const channel = channelOf(body);
      if (channel !== undefined && stored !== undefined) channel['name'] = stored.id;
      return body;
    }),
  ),
  fault(
    'room-participant-stale-room',
    'The last participant of listRoomChannelParticipants carries the id of another room of the environment (a stale room from an earlier connection).',
    ['RT-11'],
    ['listRoomChannelParticipants'],
    rewriteBody(['listRoomChannelParticipants'], (body, { request }) => {
      const room = String(paramsOf(request)['room']);
      const otherRoom =
        [...(environmentOf(request)?.channels.values() ?? [])].map((channel) => channel.roomId).find((roomId) => roomId !== room) ?? `${room}-previous`;
      const last = itemsOf(body).at(-1);
      if (last !== undefined) last['roomId'] = otherRoom;
      return body;
    }),
  ),
  fault(
    'reopened-channel-keeps-end-time',
    'An open channel carries the endTime of an earlier session, an hour before its startTime, instead of null (a reopened channel whose endTime was not reset).',
    ['RT-13'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      const channel = channelOf(body);
      if (channel !== undefined && channel['endTime'] === null) channel['endTime'] = Number(channel['startTime']) - 3_600_000;
      return body;
    }),
  ),
  // The Nth item of a long list: TARGET_CHANNEL answers 250 events; only the 200th is wrong.
  fault(
    'event-200-connection-id-number',
    'The 200th event of a channel info answer carries connectionId as a number; the other events are right.',
    ['RT-04'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      const event = eventsOf(body)[199];
      if (event !== undefined) event['connectionId'] = 200;
      return body;
    }),
  ),
];
