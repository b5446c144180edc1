/**
 * Allowed variations of the errors: statuses and bodies the interface does not fix.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import { HttpError } from '../errors.ts';
import {
  beforeHandler,
  compose,
  environmentOf,
  isObject,
  operationOf,
  OPERATIONS,
  queryOf,
  rewriteBody,
  withBehaviour,
  type OperationId,
  type OptionsTransform,
} from '../faults/tools.ts';
import { everyJsonAnswer, type Variation } from './tools.ts';

/** RFC 9110's names where they differ from Node's (the interface asks only for "the HTTP status name"). */
const RFC_9110_NAMES: Readonly<Record<number, string>> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };
const statusName = (status: number): string => RFC_9110_NAMES[status] ?? STATUS_CODES[status] ?? 'Error';

/** An error body moved to another status: statusCode follows, and error when the body carries one. */
function moveErrorBody(body: unknown, reply: FastifyReply, status: number): unknown {
  reply.code(status);
  if (!isObject(body)) return body;
  return { ...body, statusCode: status, ...('error' in body ? { error: statusName(status) } : {}) };
}

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
      const data = environmentOf(request);
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

export const variations: readonly Variation[] = [
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
];
