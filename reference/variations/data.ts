/**
 * Allowed variations of the seed's data: id formats, values the interface does not enumerate, the order of lists.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { deterministicUuid } from '../ids.ts';
import { environments, type SeedEnvironment, type SeedFile } from '../seed-types.ts';
import { compose, isObject, rewriteBody, type OperationId } from '../faults/tools.ts';
import { withSeed, wrapBehaviour, type Variation } from './tools.ts';

/** Operations that answer with a bare array. */
const BARE_LIST_OPERATIONS: readonly OperationId[] = [
  'listRecordings',
  'getTranscriptionStats',
  'getMeetingStats',
  'listChannelParticipants',
  'listRoomChannelParticipants',
];

const ID_FIELDS_RENAMED = 'groups, participants, meetings, rooms and channels';

/** Renames every id of groups, participants, meetings, rooms and channels of the seed (users, keys and channel names stay). */
function renameSeedIds(seed: SeedFile, rename: (id: string) => string): SeedFile {
  const renameEnvironment = (env: SeedEnvironment): SeedEnvironment => ({
    ...env,
    groups: env.groups.map((group) => ({ ...group, id: rename(group.id) })),
    participants: env.participants.map((participant) => ({ ...participant, id: rename(participant.id), groupIds: participant.groupIds.map(rename) })),
    recordings: env.recordings.map((recording) => ({ ...recording, roomId: rename(recording.roomId), meetingId: rename(recording.meetingId) })),
    meetingStats: env.meetingStats.map((record) => ({ ...record, meetingId: rename(record.meetingId), groupId: rename(record.groupId) })),
    transcriptions: env.transcriptions.map((record) => ({ ...record, meetingId: rename(record.meetingId), groupId: rename(record.groupId) })),
    meetings: env.meetings.map((meeting) => ({ ...meeting, id: rename(meeting.id), roomId: rename(meeting.roomId) })),
    channels: env.channels.map((channel) => ({
      ...channel,
      id: rename(channel.id),
      roomId: rename(channel.roomId),
      participantId: rename(channel.participantId),
      events: channel.events.map((event) => ({ ...event, participantId: rename(event.participantId) })),
    })),
    connections: env.connections.map((connection) => ({
      ...connection,
      participantId: rename(connection.participantId),
      meetingId: connection.meetingId === null ? null : rename(connection.meetingId),
    })),
  });
  return {
    ...seed,
    environments: Object.fromEntries(environments.map((name) => [name, renameEnvironment(seed.environments[name])])) as SeedFile['environments'],
  };
}

const uuidId = (id: string): string => deterministicUuid(`variation uuid-ids: ${id}`);

export const variations: readonly Variation[] = [
  {
    name: 'uuid-ids',
    description: `Ids of ${ID_FIELDS_RENAMED} are UUIDs instead of readable strings (grp-dev-001 becomes a UUID); channel names stay.`,
    basis: 'Resources: every id is "string"; no format is given.',
    apply: withSeed((seed) => renameSeedIds(seed, uuidId)),
    renameId: uuidId,
  },
  {
    name: 'permission-values',
    description: 'Meeting statistics participant entries carry the permissions owner and moderator besides member.',
    basis: 'Meeting statistics participant entry: "permission (string; the value \'member\' appears, the full set of values: not shown)".',
    apply: withSeed((seed) => {
      for (const name of environments) {
        for (const record of seed.environments[name].meetingStats) {
          record.participants.forEach((entry, index) => {
            if (index === 0) entry.permission = 'owner';
            else if (index % 3 === 1) entry.permission = 'moderator';
          });
        }
      }
      return seed;
    }),
  },
  {
    name: 'reverse-order',
    description:
      'Every list comes newest first: groups, group participants, recordings, statistics, transcriptions, connected participants, and the last 250 events of a channel.',
    basis: 'No list of the interface states an order; channel info returns "the last 250" events without saying in which order.',
    apply: compose(
      wrapBehaviour('pageSlice', (slice) => (items, skip, take) => slice([...items].reverse(), skip, take)),
      wrapBehaviour('lastEvents', (last) => (events, limit) => last(events, limit).reverse()),
      rewriteBody(BARE_LIST_OPERATIONS, (body) => (Array.isArray(body) ? [...body].reverse() : undefined)),
      rewriteBody(['getChannelInfo'], (body) => {
        if (!isObject(body)) return undefined;
        for (const field of ['presences', 'participants']) if (Array.isArray(body[field])) body[field] = [...body[field]].reverse();
        return body;
      }),
    ),
  },
];
