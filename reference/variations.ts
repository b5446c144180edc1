/**
 * Allowed variations: the mirror of the fault catalogue. Each switches the reference to another
 * choice that the interface leaves open (a point it does not show, the other side of
 * a documented inconsistency, a deployment detail it does not fix) and keeps it conforming, so that
 * the conformance suite must pass on each of them as on the plain reference. Like faults they are
 * switched on from outside (`--variation NAME`, or `applyVariations` on the options of buildApp /
 * buildServers) through the extension points of reference/options.ts; the normal code carries no
 * hook for them.
 *
 * `other-choices` turns on every variation of the catalogue that combines with the others (one of
 * each mutually exclusive group) together with every documented variant's other form.
 */
import { generateKeyPair, type KeyObject, type KeyPairKeyObjectResult } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { defaultBehaviour, type Behaviour } from './behaviour.ts';
import { HttpError, badRequest, notFound, unauthorized } from './errors.ts';
import {
  BEARER_OPERATIONS,
  OPERATIONS,
  beforeHandler,
  beforeRoutes,
  compose,
  headerValue,
  isObject,
  onRequest,
  operationOf,
  rewriteBody,
  withBehaviour,
  type JsonObject,
  type OperationId,
  type OptionsTransform,
} from './faults/tools.ts';
import { EVERYDAY_WORDS } from './everyday-words.ts';
import { deterministicUuid } from './ids.ts';
import type { ReferenceOptions } from './options.ts';
import { environments, type SeedEnvironment, type SeedFile } from './seed-types.ts';
import type { Connection, EnvironmentData } from './store.ts';
import { loadSeed } from './store.ts';

export interface VariationDescription {
  name: string;
  description: string;
  /** What leaves the choice open: the interface's words, or what it does not show. */
  basis: string;
  /** The entry of spec/requirements.yaml about this point, when there is one. */
  requirement?: string;
  /** Variations making another choice on the same point: they cannot be switched on together. */
  excludes?: readonly string[];
}

export interface Variation extends VariationDescription {
  apply: OptionsTransform;
  /** How the variation renames the seed's ids (groups, participants, meetings, rooms), for a profile that names them. */
  renameId?: (id: string) => string;
}

// ---------------------------------------------------------------- building blocks

/** Replaces one piece of behaviour by a wrapper of the piece in place, so that variations compose. */
function wrapBehaviour<K extends keyof Behaviour>(key: K, wrap: (current: Behaviour[K]) => Behaviour[K]): OptionsTransform {
  return (options) => {
    const current = (options.behaviour?.[key] ?? defaultBehaviour[key]) as Behaviour[K];
    return { ...options, behaviour: { ...options.behaviour, [key]: wrap(current) } };
  };
}

const withLayout =
  (layout: NonNullable<ReferenceOptions['layout']>): OptionsTransform =>
  (options) => ({ ...options, layout: { ...options.layout, ...layout } });

const withVariants =
  (...names: string[]): OptionsTransform =>
  (options) => ({ ...options, variants: [...new Set([...(options.variants ?? []), ...names])] });

const withSeed =
  (change: (seed: SeedFile) => SeedFile): OptionsTransform =>
  (options) => ({ ...options, seed: change(options.seed === undefined ? loadSeed() : structuredClone(options.seed)) });

const isJsonType = (reply: FastifyReply): boolean => /^application\/(?:[\w.-]+\+)?json\b/i.test(String(reply.getHeader('content-type') ?? ''));

interface AnswerContext {
  request: FastifyRequest;
  reply: FastifyReply;
  app: FastifyInstance;
}

/** Rewrites every JSON answer of the instance (operations, the 404 handler, framework errors); undefined keeps it. */
function everyJsonAnswer(rewrite: (body: unknown, context: AnswerContext) => unknown): OptionsTransform {
  return beforeRoutes((app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' || payload === '' || !isJsonType(reply)) return payload;
      const changed = rewrite(JSON.parse(payload) as unknown, { request, reply, app });
      return changed === undefined ? payload : JSON.stringify(changed);
    });
  });
}

/** Runs on every answer, after the body is serialised; returns the payload to send. */
function everyAnswer(change: (payload: unknown, context: AnswerContext) => unknown): OptionsTransform {
  return beforeRoutes((app) => {
    app.addHook('onSend', async (request, reply, payload) => change(payload, { request, reply, app }));
  });
}

/** RFC 9110's names where they differ from Node's (the interface asks only for "the HTTP status name"). */
const RFC_9110_NAMES: Readonly<Record<number, string>> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };
const statusName = (status: number): string => RFC_9110_NAMES[status] ?? STATUS_CODES[status] ?? 'Error';

/** An error body moved to another status: statusCode follows, and error when the body carries one. */
function moveErrorBody(body: unknown, reply: FastifyReply, status: number): unknown {
  reply.code(status);
  if (!isObject(body)) return body;
  return { ...body, statusCode: status, ...('error' in body ? { error: statusName(status) } : {}) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Operations whose path names a group, participant, meeting or channel. */
const ID_OPERATIONS: readonly OperationId[] = [
  'getGroup',
  'listGroupParticipants',
  'getParticipant',
  'archiveParticipant',
  'closeMeeting',
  'getChannelInfo',
  'listChannelParticipants',
  'listRoomChannelParticipants',
];

/** Operations whose error bodies the interface does not show (its Errors section names login, meeting stats, close and transcription stats). */
const UNSHOWN_ERROR_BODY_OPERATIONS: readonly OperationId[] = OPERATIONS.filter(
  (operation) => !['login', 'getMeetingStats', 'closeMeeting', 'getTranscriptionStats'].includes(operation),
);

/** Operations that answer with a bare array. */
const BARE_LIST_OPERATIONS: readonly OperationId[] = [
  'listRecordings',
  'getTranscriptionStats',
  'getMeetingStats',
  'listChannelParticipants',
  'listRoomChannelParticipants',
];

function environmentData(request: FastifyRequest): EnvironmentData | undefined {
  const { store } = request.server.reference;
  const environment = store.apiKeys.get(headerValue(request, 'apikey') ?? '');
  return environment === undefined ? undefined : store.environments[environment];
}

const queryOf = (request: FastifyRequest): Record<string, unknown> => (isObject(request.query) ? request.query : {});

// ---------------------------------------------------------------- unknown ids

/**
 * Unknown ids answer `status` instead of 404: those in the path, and the filters of the recordings
 * list (an unknown room or meeting) and of meeting statistics (an unknown group), which the plain
 * reference answers with an empty list.
 */
function unknownIdsAnswer(status: number): OptionsTransform {
  return compose(
    rewriteBody(
      ID_OPERATIONS,
      (body, { reply }) => moveErrorBody(body, reply, status),
      (code) => code === 404,
    ),
    beforeHandler(['listRecordings'], async (request, _reply, app) => {
      await app.auth.bearerAndApiKey(request);
      const data = environmentData(request);
      const { roomId, meetingId } = queryOf(request);
      if (data === undefined) return;
      const rooms = new Set([
        ...[...data.meetings.values()].map((meeting) => meeting.roomId),
        ...data.recordings.map((recording) => recording.roomId),
        ...[...data.channels.values()].map((channel) => channel.roomId),
      ]);
      if (typeof roomId === 'string' && !rooms.has(roomId)) throw new HttpError(status, `Room ${roomId} not found`);
      if (typeof meetingId === 'string' && !data.meetings.has(meetingId)) throw new HttpError(status, `Meeting ${meetingId} not found`);
    }),
    beforeHandler(['getMeetingStats'], async (request, _reply, app) => {
      const user = await app.auth.bearer(request);
      const { groupId, environment } = queryOf(request);
      if (!user.developer || typeof groupId !== 'string') return;
      const data = app.reference.store.environments[environment === 'development' ? 'development' : 'production'];
      if (!data.groupsById.has(groupId)) throw new HttpError(status, `Group ${groupId} not found`);
    }),
  );
}

// ---------------------------------------------------------------- ids in another format

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

// ---------------------------------------------------------------- stateful variations (state per built instance)

/** Connections of a closed meeting stay listed for `delayMs`, then leave (the interface gives no delay). */
function closedMeetingLingers(delayMs: number): OptionsTransform {
  return (options) => {
    const before = new WeakMap<FastifyRequest, Map<EnvironmentData, Connection[]>>();
    return compose(
      beforeHandler(['closeMeeting'], (request, _reply, app) => {
        before.set(request, new Map(environments.map((name) => [app.reference.store.environments[name], app.reference.store.environments[name].connections])));
      }),
      everyAnswer((payload, { request, reply }) => {
        const saved = before.get(request);
        if (saved === undefined || reply.statusCode !== 200) return payload;
        for (const [data, connections] of saved) {
          const left = connections.filter((connection) => !data.connections.includes(connection));
          if (left.length === 0) continue;
          data.connections = [...data.connections, ...left];
          setTimeout(() => {
            data.connections = data.connections.filter((connection) => !left.includes(connection));
          }, delayMs).unref();
        }
        return payload;
      }),
    )(options);
  };
}

/** One key pair for the whole instance: the interface does not say that every call makes a new one. */
const onePairPerInstance: OptionsTransform = (options) => {
  let pair: Promise<KeyPairKeyObjectResult> | undefined;
  return wrapBehaviour('generateSecurityKeyPair', (generate) => () => (pair ??= generate()))(options);
};

const x25519Pair = (): Promise<KeyPairKeyObjectResult> =>
  new Promise((resolve, reject) => {
    generateKeyPair('x25519', {}, (error: Error | null, publicKey: KeyObject, privateKey: KeyObject) =>
      error ? reject(error) : resolve({ publicKey, privateKey }),
    );
  });

/** Extra properties on every object of every JSON answer; one of them counts the answers (state per built instance). */
const extraFields: OptionsTransform = (options) => {
  let answers = 0;
  return everyJsonAnswer((body, { request, reply }) => {
    if (operationOf(request) === 'closeMeeting' && reply.statusCode === 200) return undefined;
    // One value per answer: extra fields need not be stable across two reads of the same data.
    answers += 1;
    const answer = answers;
    const extend = (value: unknown, key?: string): unknown => {
      if (Array.isArray(value)) return value.map((item) => extend(item));
      // An event's data is what a participant published, not an object of the service: left as published.
      if (!isObject(value) || key === 'data') return value;
      const copy: JsonObject = Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, extend(inner, field)]));
      if (key === 'pagination') {
        const page = Number(copy['page']);
        copy['hasNextPage'] = page < Number(copy['totalPages']);
        copy['hasPreviousPage'] = page > 1;
      }
      return { ...copy, vendorRevision: 7, vendorNote: 'extra field', vendorAnswer: answer };
    };
    return extend(body);
  })(options);
};

// ---------------------------------------------------------------- the catalogue

const PAGINATED_RESULTS_MAX = 100;

/**
 * In application order: rewrites of bodies before rewrites of error shapes, and the transport
 * variations (charset, compression, chunking) last, since they change the bytes the others read.
 */
const catalogue: readonly Variation[] = [
  // ------------------------------------------------------------ addresses
  {
    name: 'path-prefix',
    description: 'The main interface is served under the path prefix /api/v9 ({base_url} = http://host:port/api/v9); the realtime interface stays at /v2.',
    basis: 'Addresses: "{base_url} is the base address of the main REST interface." Nothing fixes its path.',
    apply: withLayout({ basePath: '/api/v9' }),
  },
  {
    name: 'realtime-origin',
    description: 'The versioned realtime interface has its own listener (another port, so another origin) at its root; the main origin does not serve it.',
    basis: 'Addresses: "{realtime_url} is the base address of the versioned realtime interface." Nothing ties it to {base_url}.',
    apply: withLayout({ realtimeOrigin: 'separate', realtimeBasePath: '' }),
  },
  // ------------------------------------------------------------ data
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
  // ------------------------------------------------------------ documented inconsistencies
  {
    name: 'channel-participants-both',
    description: 'Channel info carries the connected list under both documented names, presences and participants.',
    basis:
      'Endpoint 14: "The field table names that list participants ..., while the sample body names it presences. Which of the two list names is authoritative: not shown."',
    requirement: 'VAR-02',
    apply: rewriteBody(['getChannelInfo'], (body) => {
      if (!isObject(body)) return undefined;
      const list = body['presences'] ?? body['participants'];
      return { ...body, presences: list, participants: list };
    }),
  },
  {
    name: 'security-key-participants-path-only',
    description:
      'Security keys are created only at POST /participants (a body with passphrase and no participant id); POST /security is an unknown route (404).',
    basis: 'Endpoint 10: "One place in the reference names the path as /participants for this operation; the sample request uses /security."',
    requirement: 'VAR-03',
    excludes: ['security-key-participants-path-400'],
    apply: compose(
      withVariants('security-path-participants'),
      onRequest(['createSecurityKey'], (request) => {
        throw notFound(`Route ${request.method} ${request.url.split('?')[0]} not found`);
      }),
    ),
  },
  {
    name: 'security-key-participants-path-400',
    description:
      'Security keys are created only at POST /participants (a body with passphrase and no participant id); POST /security answers every request, whatever its credentials, with 400 and the general error body.',
    basis:
      'Endpoint 10: "One place in the reference names the path as /participants for this operation; the sample request uses /security." Errors: what a path the service does not serve answers is not shown.',
    requirement: 'VAR-03',
    excludes: ['security-key-participants-path-only'],
    apply: compose(
      withVariants('security-path-participants'),
      onRequest(['createSecurityKey'], (request) => {
        throw badRequest(`${request.method} ${request.url.split('?')[0]} is not an operation of this service`);
      }),
    ),
  },
  // ------------------------------------------------------------ participants
  {
    name: 'upsert-ignores-id',
    description:
      'POST /participants ignores the body field id (only participantId names the participant): a body with only id is refused, an id different from participantId is not.',
    basis:
      'Endpoint 5: "Body: participantId, name, email, avatar. The sample request also sends an id field equal to the participant ID." id is not a field of the operation.',
    apply: beforeHandler(['upsertParticipant'], (request) => {
      if (isObject(request.body)) delete request.body['id'];
    }),
  },
  {
    name: 'upsert-all-fields-required',
    description: 'POST /participants requires participantId, name, email and avatar (400 when one is missing).',
    basis: 'Endpoint 5: "Which body fields are required: not shown."',
    apply: beforeHandler(['upsertParticipant'], async (request, _reply, app) => {
      const body = isObject(request.body) ? request.body : {};
      // Only a participant body: with the /participants form of the security key, a passphrase body is not one.
      if (body['participantId'] === undefined && body['id'] === undefined) return;
      await app.auth.bearerAndApiKey(request);
      const missing = ['name', 'email', 'avatar'].filter((field) => body[field] === undefined);
      if (missing.length > 0) throw badRequest(`${missing.join(', ')} required`);
    }),
  },
  {
    name: 'upsert-replaces',
    description: 'An update by POST /participants replaces the record: fields the body leaves out become empty instead of keeping their values.',
    basis: 'Endpoint 5 and States: "create or update"; whether an update merges or replaces: not shown.',
    apply: beforeHandler(['upsertParticipant'], (request) => {
      if (!isObject(request.body) || (request.body['participantId'] === undefined && request.body['id'] === undefined)) return;
      for (const field of ['name', 'email', 'avatar']) request.body[field] ??= '';
    }),
  },
  {
    name: 'upsert-answers-empty-object',
    description: 'POST /participants answers 201 with {} instead of the participant record.',
    basis: 'Endpoint 5: "Response body: not shown."',
    excludes: ['upsert-answers-no-body'],
    apply: rewriteBody(
      ['upsertParticipant'],
      () => ({}),
      (status) => status === 201,
    ),
  },
  {
    name: 'upsert-answers-no-body',
    description: 'POST /participants answers 201 with no body at all (no content type, length 0).',
    basis: 'Endpoint 5: "Response body: not shown."',
    excludes: ['upsert-answers-empty-object'],
    apply: everyAnswer((payload, { request, reply }) => {
      if (operationOf(request) !== 'upsertParticipant' || reply.statusCode !== 201) return payload;
      reply.removeHeader('content-type');
      return '';
    }),
  },
  {
    name: 'archived-participant-hidden',
    description: 'An archived participant is gone for reads by id too: GET /participants/{id} and a second archive answer 404.',
    basis: 'Participant: "An archived participant is inactive and does not appear when participants are searched." A read by id of an archived one: not shown.',
    apply: beforeHandler(['getParticipant', 'archiveParticipant'], async (request, _reply, app) => {
      await app.auth.bearerAndApiKey(request);
      const params = isObject(request.params) ? request.params : {};
      const participant = environmentData(request)?.participants.get(String(params['id']));
      if (participant?.archived === true) throw notFound(`Participant ${String(params['id'])} not found`);
    }),
  },
  {
    name: 'upsert-archived-refused',
    description: 'POST /participants for an archived participant is refused with 409 Conflict; the participant stays archived.',
    basis: 'States and transitions: POST participants moves a participant that is "none or active" to active; from archived: not shown.',
    requirement: 'UNS-21',
    apply: beforeHandler(['upsertParticipant'], async (request, _reply, app) => {
      const body = isObject(request.body) ? request.body : {};
      const key = typeof body['participantId'] === 'string' ? body['participantId'] : typeof body['id'] === 'string' ? body['id'] : undefined;
      // Only a participant body: with the /participants form of the security key, a passphrase body is not one.
      if (key === undefined) return;
      await app.auth.bearerAndApiKey(request);
      if (environmentData(request)?.participants.get(key)?.archived === true) throw new HttpError(409, `Participant ${key} is archived`);
    }),
  },
  // ------------------------------------------------------------ lists and filters
  {
    name: 'pages-from-zero',
    description: 'pagination.page counts from 0 (the first page is page 0, the last totalPages - 1).',
    basis:
      'Pagination envelope: "pagination.page: current page number"; where numbering starts: not shown. Contested: the brief of this work reads the interface as fixing it; left out of other-choices until the lead decides.',
    apply: wrapBehaviour('pageNumber', (number) => (skip, take) => number(skip, take) - 1),
  },
  {
    name: 'page-past-end-400',
    description: 'A page that starts past the end of a non-empty list (skip >= total) is refused with 400 instead of an empty page.',
    basis: 'Pagination: skip is "number of results to skip"; what a skip past the end answers: not shown.',
    apply: wrapBehaviour('pageSlice', (slice) => (items, skip, take) => {
      if (skip > 0 && skip >= items.length) throw badRequest(`skip ${skip} is past the end of the ${items.length} results`);
      return slice(items, skip, take);
    }),
  },
  {
    name: 'take-clamped',
    description: `A take over ${PAGINATED_RESULTS_MAX} is served as ${PAGINATED_RESULTS_MAX} (pagination.limit says so) instead of refused.`,
    basis: 'Limits: "Maximum value of take: not shown."',
    excludes: ['take-unbounded'],
    apply: beforeHandler(OPERATIONS, (request) => {
      const query = queryOf(request);
      if (typeof query['take'] === 'string' && /^\d+$/.test(query['take']) && Number(query['take']) > PAGINATED_RESULTS_MAX)
        query['take'] = String(PAGINATED_RESULTS_MAX);
    }),
  },
  {
    name: 'take-unbounded',
    description: 'Any take is served, however large (no maximum).',
    basis: 'Limits: "Maximum value of take: not shown."',
    excludes: ['take-clamped'],
    apply: withBehaviour({ maxTake: Number.MAX_SAFE_INTEGER }),
  },
  {
    name: 'recordings-filter-required',
    description: 'GET /recording without roomId and meetingId is refused with 400.',
    basis: 'Endpoint 8: "Whether at least one filter is required: not shown."',
    excludes: ['recordings-filters-union'],
    apply: beforeHandler(['listRecordings'], async (request, _reply, app) => {
      await app.auth.bearerAndApiKey(request);
      const { roomId, meetingId } = queryOf(request);
      if (roomId === undefined && meetingId === undefined) throw badRequest('roomId or meetingId is required');
    }),
  },
  {
    name: 'recordings-filters-union',
    description: 'GET /recording with both roomId and meetingId lists the recordings of the room and those of the meeting (union, not intersection).',
    basis: 'Endpoint 8: roomId "returns all recordings made in the room" and meetingId "returns the recordings of that meeting"; both together: not shown.',
    excludes: ['recordings-filter-required'],
    apply: rewriteBody(['listRecordings'], (body, { request, app }) => {
      const { roomId, meetingId } = queryOf(request);
      if (typeof roomId !== 'string' || typeof meetingId !== 'string' || !Array.isArray(body)) return undefined;
      // The handler intersected; the union adds the meeting's recordings in other rooms and the room's of other meetings.
      const known = new Set(body.filter(isObject).map((item) => item['uuid']));
      const data = environmentData(request);
      const extra = (data?.recordings ?? []).filter(
        (recording) => recording.endedAt !== null && !known.has(recording.uuid) && (recording.roomId === roomId || recording.meetingId === meetingId),
      );
      const { behaviour, config, now } = app.reference;
      const base = `${request.protocol}://${request.host}${config.layout.basePath}`;
      return [
        ...body,
        ...extra.map((recording) => ({
          uuid: recording.uuid,
          url: behaviour.recordingUrl(base, recording.uuid),
          roomId: recording.roomId,
          status: behaviour.recordingStatus(recording.endedAt ?? 0, now(), config.recordingDelayMs),
          meetingId: recording.meetingId,
          createdAt: behaviour.formatTimestamp(recording.endedAt ?? 0),
        })),
      ];
    }),
  },
  {
    name: 'recording-url-signed',
    description: 'Recording urls carry an expiry and a signature in their query string, like a signed storage address.',
    basis: 'Recording: "url: temporary download/view address; it can expire".',
    apply: wrapBehaviour(
      'recordingUrl',
      (url) => (origin, uuid) => `${url(origin, uuid)}?expires=${Math.floor(Date.now() / 1000) + 3600}&signature=${uuid.replaceAll('-', '').slice(0, 16)}`,
    ),
  },
  {
    name: 'transcripts-environment-production',
    description: 'GET /transcript/stats without environment returns the production records only (the default meeting statistics have), not both environments.',
    basis:
      'Endpoint 9: "Query: environment (string; allowed values development, production; filters the environment of the transcribed meetings)"; no default is given.',
    excludes: ['transcripts-environment-required'],
    apply: beforeHandler(['getTranscriptionStats'], (request) => {
      const query = queryOf(request);
      query['environment'] ??= 'production';
    }),
  },
  {
    name: 'transcripts-environment-required',
    description: 'GET /transcript/stats without environment is refused with 400 (after the credential check).',
    basis: 'Endpoint 9: environment is listed without "optional" and without a default.',
    excludes: ['transcripts-environment-production'],
    apply: beforeHandler(['getTranscriptionStats'], async (request, _reply, app) => {
      await app.auth.bearer(request);
      if (queryOf(request)['environment'] === undefined) throw badRequest('environment is required');
    }),
  },
  {
    name: 'meetingstats-dates-on-end',
    description: 'The date filters of GET /meetingstats (month, year, initialDate, endDate) apply to endedAt instead of startedAt.',
    basis: 'Endpoint 12: month, year, initialDate and endDate are filters; the field they apply to: not shown.',
    apply: withBehaviour({ meetingStatsFilterTime: (record) => record.endedAt }),
  },
  {
    name: 'meetingstats-month-in-utc-plus-14',
    description: 'The month and year filters of GET /meetingstats read the calendar at UTC+14 instead of UTC.',
    basis: 'Endpoint 12: "month (filter month)", "year (filter year)"; the timezone of the calendar: not shown.',
    apply: withBehaviour({ calendarMonth: (epochMs) => defaultBehaviour.calendarMonth(epochMs + 14 * 3_600_000) }),
  },
  {
    name: 'closed-meeting-lingers',
    description: "After GET /meeting/close the meeting's participants stay in the realtime lists for 2 s, then leave.",
    basis: 'Endpoint 13: "Effect: the running meeting ends and all participants inside are removed." How soon the lists show it: not shown.',
    apply: closedMeetingLingers(2000),
  },
  // ------------------------------------------------------------ credentials
  {
    name: 'token-any-scheme',
    description: 'The bearer token is accepted under any scheme word (Token, JWT, bearer) and with no scheme at all.',
    basis: 'Authentication: "Authorization: Bearer <ACCESS_TOKEN>"; which other schemes are refused: not shown.',
    apply: onRequest(BEARER_OPERATIONS, (request) => {
      const authorization = headerValue(request, 'authorization');
      const token = authorization === undefined ? undefined : /^(?:\S+\s+)?(\S+)\s*$/.exec(authorization)?.[1];
      if (token !== undefined) request.headers.authorization = `Bearer ${token}`;
    }),
  },
  {
    name: 'short-token-lifetime',
    description: 'Bearer tokens expire 20 s after login.',
    basis: 'Authentication: "Token lifetime: not shown."',
    apply: (options) => ({ ...options, tokenTtlS: 20 }),
  },
  {
    name: 'login-email-case-sensitive',
    description: 'POST /login matches the e-mail exactly: another letter case is an unknown account (401).',
    basis: 'Endpoint 1: "email (string, at most 191 chars)"; how e-mails compare: not shown.',
    apply: beforeHandler(['login'], (request, _reply, app) => {
      const email = isObject(request.body) ? request.body['email'] : undefined;
      if (
        typeof email === 'string' &&
        !app.reference.store.users.some((user) => user.email === email) &&
        app.reference.store.users.some((user) => user.email.toLowerCase() === email.toLowerCase())
      ) {
        throw unauthorized('Invalid email or password');
      }
    }),
  },
  {
    name: 'login-failures-401',
    description:
      'Every refused login answers 401 {statusCode, message}, also a body that is missing a field or breaks a length limit (the plain reference answers 400).',
    basis: 'Endpoint 1: "401: object with statusCode and message"; the status for a malformed login body: not shown.',
    apply: rewriteBody(
      ['login'],
      (body, { reply }) => {
        reply.code(401);
        return isObject(body) ? { statusCode: 401, message: body['message'] } : body;
      },
      (status) => status === 400 || status === 413 || status === 415,
    ),
  },
  // ------------------------------------------------------------ security keys
  {
    name: 'security-key-der',
    description: 'Security keys are base64 DER (SPKI public key, encrypted PKCS#8 private key) instead of PEM.',
    basis: 'Security key result: publicKey and privateKey are "string"; no encoding is given.',
    excludes: ['security-key-x25519'],
    apply: withBehaviour({
      exportSecurityKeyPair: (pair, passphrase) => ({
        publicKey: pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
        privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase }).toString('base64'),
      }),
    }),
  },
  {
    name: 'security-key-x25519',
    description: 'Security keys are X25519 (key agreement for encryption; they cannot sign), PEM encoded, the private key encrypted with the passphrase.',
    basis: 'Security key result: "publicKey: public key used to encrypt data", "privateKey: private key used to decrypt data"; the algorithm: not shown.',
    excludes: ['security-key-der'],
    apply: withBehaviour({ generateSecurityKeyPair: x25519Pair }),
  },
  {
    name: 'security-key-one-pair',
    description: 'Every security key request returns the same key pair (its private key encrypted with the new passphrase).',
    basis: 'Endpoint 10 creates "an account security key pair"; that each call makes a new pair: not shown.',
    apply: onePairPerInstance,
  },
  {
    name: 'secret-key-hyphenated',
    description: 'The 128 words of secretKey are joined by hyphens instead of spaces.',
    basis: 'Security key result: "secretKey: 128 randomly selected English words"; the separator: not shown.',
    apply: wrapBehaviour('drawSecretKey', (draw) => (wordlist, count) => draw(wordlist, count).split(' ').join('-')),
  },
  {
    name: 'secret-key-everyday-words',
    description: `The 128 words of secretKey are drawn from ${EVERYDAY_WORDS.length} everyday English words (part, login, the, status, meeting, must, passed...), 205 of them outside the BIP-39 English list.`,
    basis:
      'Security key result: "secretKey: 128 randomly selected English words"; from which list of English words: not shown (SEC-08 only recommends BIP-39).',
    requirement: 'SEC-08',
    apply: withBehaviour({ secretKeyWordlist: EVERYDAY_WORDS }),
  },
  // ------------------------------------------------------------ errors
  {
    name: 'unknown-id-400',
    description: 'Unknown groups, participants, meetings, rooms and channels answer 400 instead of 404 (also as recordings and statistics filters).',
    basis: 'Errors: "Status codes for unknown groups, participants, meetings or channels: not shown."',
    excludes: ['unknown-id-422'],
    apply: unknownIdsAnswer(400),
  },
  {
    name: 'unknown-id-422',
    description: 'Unknown groups, participants, meetings, rooms and channels answer 422 instead of 404 (also as recordings and statistics filters).',
    basis: 'Errors: "Status codes for unknown groups, participants, meetings or channels: not shown."',
    excludes: ['unknown-id-400'],
    apply: unknownIdsAnswer(422),
  },
  {
    name: 'validation-422',
    description: 'Invalid requests answer 422 instead of 400.',
    basis: 'Endpoint 9: "Invalid request: object with statusCode (number, the HTTP status), ..."; the status is not given anywhere.',
    apply: everyJsonAnswer((body, { reply }) => (reply.statusCode === 400 ? moveErrorBody(body, reply, 422) : undefined)),
  },
  {
    name: 'other-error-texts',
    description:
      'Error messages are other sentences (in Portuguese), and error names follow RFC 9110 where it differs from Node (413 Content Too Large, 422 Unprocessable Content).',
    basis: 'Errors: "message (explanation, string)", "error (HTTP status name, string)"; no text is given.',
    apply: withBehaviour({
      errorBody: (statusCode, _message, includeError) => {
        const message = `Não foi possível atender ao pedido (código ${statusCode}).`;
        return includeError ? { statusCode, error: statusName(statusCode), message } : { statusCode, message };
      },
    }),
  },
  {
    name: 'problem-details',
    description:
      'Error answers of operations whose error bodies the interface does not show are RFC 9457 problem details (application/problem+json: type, title, status, detail).',
    basis: 'Errors: "Error bodies of the other endpoints: not shown." (shown only for login, meeting stats, meeting close and transcription stats)',
    apply: everyJsonAnswer((body, { request, reply }) => {
      const operation = operationOf(request);
      if (operation === undefined || !UNSHOWN_ERROR_BODY_OPERATIONS.includes(operation) || reply.statusCode < 400) return undefined;
      reply.header('content-type', 'application/problem+json; charset=utf-8');
      return { type: 'about:blank', title: statusName(reply.statusCode), status: reply.statusCode, detail: isObject(body) ? body['message'] : undefined };
    }),
  },
  // ------------------------------------------------------------ answers
  {
    name: 'extra-fields',
    description:
      "Every object of every JSON answer carries extra properties (pagination too: hasNextPage, hasPreviousPage), one of them different in every answer (vendorAnswer, a count of answers), except the close's empty object and the data events carry (what a participant published).",
    basis: 'The field tables list what an object carries; none says it carries nothing else. Endpoint 13: "200: empty object" is kept empty.',
    apply: extraFields,
  },
  {
    name: 'extra-headers',
    description: 'Every answer carries extra headers: cache-control, a request id, CORS and vary.',
    basis: 'The interface states no response headers.',
    apply: everyAnswer((payload, { request, reply }) => {
      reply
        .header('cache-control', 'no-store')
        .header('x-request-id', request.id)
        .header('access-control-allow-origin', '*')
        .header('vary', 'Origin, Accept-Encoding');
      return payload;
    }),
  },
  {
    name: 'latency',
    description: 'Every answer is sent 40 ms late.',
    basis: 'The interface states no response time.',
    apply: everyAnswer(async (payload) => {
      await sleep(40);
      return payload;
    }),
  },
  // ------------------------------------------------------------ transport (last: they change the bytes)
  {
    name: 'content-type-without-charset',
    description: 'JSON answers are labelled application/json with no charset parameter.',
    basis: 'Addresses: "All bodies are JSON." JSON is UTF-8 (RFC 8259); the charset parameter is optional.',
    excludes: ['content-type-charset-upper'],
    apply: everyAnswer((payload, { reply }) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (isJsonType(reply)) reply.header('content-type', type.replace(/\s*;.*$/, ''));
      return payload;
    }),
  },
  {
    name: 'content-type-charset-upper',
    description: 'JSON answers are labelled application/json;charset=UTF-8 (no space, upper case).',
    basis: 'Addresses: "All bodies are JSON." Media type parameters are case-insensitive (RFC 9110).',
    excludes: ['content-type-without-charset'],
    apply: everyAnswer((payload, { reply }) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (isJsonType(reply)) reply.header('content-type', `${type.replace(/\s*;.*$/, '')};charset=UTF-8`);
      return payload;
    }),
  },
  {
    name: 'gzip',
    description: 'Answers are gzip-compressed when the request accepts gzip.',
    basis: 'The interface states nothing about content codings; HTTP clients that announce gzip accept it (RFC 9110).',
    apply: everyAnswer((payload, { request, reply }) => {
      if (
        !/\bgzip\b/i.test(headerValue(request, 'accept-encoding') ?? '') ||
        (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
        payload.length === 0
      )
        return payload;
      reply.header('content-encoding', 'gzip');
      return gzipSync(payload);
    }),
  },
  {
    name: 'chunked',
    description: 'Answers with a body are streamed with Transfer-Encoding: chunked (no Content-Length), in two chunks.',
    basis: 'The interface states nothing about framing; chunked transfer is plain HTTP/1.1.',
    apply: everyAnswer((payload) => {
      if ((typeof payload !== 'string' && !Buffer.isBuffer(payload)) || payload.length === 0) return payload;
      const bytes = Buffer.from(payload);
      const middle = Math.ceil(bytes.length / 2);
      return Readable.from([bytes.subarray(0, middle), bytes.subarray(middle)]);
    }),
  },
];

/** The documented variants whose other form `other-choices` also takes (reference/variants.ts). */
const OTHER_CHOICES_VARIANTS = [
  'recordings-envelope',
  'channel-participants',
  'channel-without-id',
  'error-in-401',
  'meetingstats-paginated-records',
  'participant-channel-room-id',
] as const;

/**
 * The documented variant whose other form clashes with other-choices (security-key-participants-path-only
 * stops serving /security): the alternates declare it, so that every variant's other form is in one
 * combination. Their security-key-participants-path-400 then stops serving /security as well (it
 * certifies the /participants form with a 400 at /security), so the form serving both paths runs
 * alone only, with --variations.
 */
const ALTERNATES_VARIANTS = ['security-path-participants'] as const;

/** One of each exclusive group goes into other-choices (the first listed), and no contested variation. */
const OTHER_CHOICES_LEFT_OUT = new Set([
  'pages-from-zero',
  'channel-participants-both',
  'security-key-participants-path-400',
  'upsert-answers-no-body',
  'take-unbounded',
  'recordings-filters-union',
  'transcripts-environment-required',
  'security-key-x25519',
  'unknown-id-400',
  'content-type-charset-upper',
]);

export const OTHER_CHOICES = 'other-choices';

/** Left out of other-choices because contested, not because another variation took its point: not in the alternates either. */
const CONTESTED = new Set(['pages-from-zero']);

/**
 * The other side of what other-choices left out: the second of each exclusive group, and the
 * variations that clash with a documented variant's other form. Between the two combinations every
 * uncontested variation of the catalogue is switched on.
 */
export const OTHER_CHOICES_ALTERNATES = 'other-choices-alternates';

function otherChoicesMembers(): Variation[] {
  return catalogue.filter((variation) => !OTHER_CHOICES_LEFT_OUT.has(variation.name));
}

function alternatesMembers(): Variation[] {
  return catalogue.filter((variation) => OTHER_CHOICES_LEFT_OUT.has(variation.name) && !CONTESTED.has(variation.name));
}

/** The combinations of the catalogue, by name, with their members. */
const COMBINATIONS: Readonly<Record<string, () => Variation[]>> = { [OTHER_CHOICES]: otherChoicesMembers, [OTHER_CHOICES_ALTERNATES]: alternatesMembers };

// ---------------------------------------------------------------- lookup

export class UnknownVariationError extends Error {
  constructor(name: string) {
    super(`unknown variation "${name}"; see --list-variations (${catalogue.length} variations, ${OTHER_CHOICES} and ${OTHER_CHOICES_ALTERNATES})`);
    this.name = 'UnknownVariationError';
  }
}

export function listVariations(): (VariationDescription & { members?: string[]; variants?: string[] })[] {
  const described = catalogue.map(({ name, description, basis, requirement, excludes }) => ({
    name,
    description,
    basis,
    ...(requirement === undefined ? {} : { requirement }),
    ...(excludes === undefined ? {} : { excludes }),
  }));
  return [
    ...described,
    {
      name: OTHER_CHOICES,
      description:
        'Every variation that combines with the others (the first of each exclusive group), with the other form of every documented variant but security-path-participants (which its security-key-participants-path-only excludes; the alternates take it).',
      basis: 'Issue 12: a second in-repo conforming configuration making the other allowed choice on every point that can be switched.',
      members: otherChoicesMembers().map((variation) => variation.name),
      variants: [...OTHER_CHOICES_VARIANTS],
    },
    {
      name: OTHER_CHOICES_ALTERNATES,
      description: `Every variation that ${OTHER_CHOICES} leaves out for another choice on its point (the other side of each exclusive group), with the other form of the documented variant ${OTHER_CHOICES} cannot take (${ALTERNATES_VARIANTS.join(', ')}) and the other variants in their first form; ${[...CONTESTED].join(', ')} stays out as contested.`,
      basis: `With ${OTHER_CHOICES}, every uncontested variation of the catalogue and every documented variant's other form is certified in one of two combined runs.`,
      members: alternatesMembers().map((variation) => variation.name),
      variants: [...ALTERNATES_VARIANTS],
    },
  ];
}

export function isVariationName(name: string): boolean {
  return name in COMBINATIONS || catalogue.some((variation) => variation.name === name);
}

/** The variations `names` switch on, in catalogue order (other-choices expanded); throws on an unknown or exclusive pair. */
function selected(names: readonly string[]): Variation[] {
  for (const name of names) if (!isVariationName(name)) throw new UnknownVariationError(name);
  const wanted = new Set(names.flatMap((name) => COMBINATIONS[name]?.().map((variation) => variation.name) ?? [name]));
  const chosen = catalogue.filter((variation) => wanted.has(variation.name));
  for (const variation of chosen) {
    const clash = (variation.excludes ?? []).find((other) => wanted.has(other));
    if (clash !== undefined) throw new Error(`variations "${variation.name}" and "${clash}" make different choices on the same point`);
  }
  return chosen;
}

/** Throws when a name is unknown or two names make different choices on the same point. */
export function checkVariations(names: readonly string[]): void {
  selected(names);
}

/** The options with the named variations applied (in catalogue order, whatever the order of `names`). */
export function applyVariations(options: ReferenceOptions, names: readonly string[]): ReferenceOptions {
  const variations = selected(names);
  const combinedVariants = [
    ...(names.includes(OTHER_CHOICES) ? OTHER_CHOICES_VARIANTS : []),
    ...(names.includes(OTHER_CHOICES_ALTERNATES) ? ALTERNATES_VARIANTS : []),
  ];
  const withOtherVariants = combinedVariants.length === 0 ? options : withVariants(...combinedVariants)(options);
  return variations.reduce((current, variation) => variation.apply(current), withOtherVariants);
}

/** How the named variations rename the seed's ids; undefined when none does. */
export function variationIdRenaming(names: readonly string[]): ((id: string) => string) | undefined {
  const renames = selected(names).flatMap((variation) => (variation.renameId === undefined ? [] : [variation.renameId]));
  return renames.length === 0 ? undefined : (id) => renames.reduce((current, rename) => rename(current), id);
}
