/**
 * Faults of the participants (listGroupParticipants, upsertParticipant, getParticipant, archiveParticipant).
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import type { FastifyRequest } from 'fastify';
import type { EnvironmentData } from '../store.ts';
import { participantView } from '../views.ts';
import {
  afterHandler,
  beforeHandler,
  compose,
  eachRecord,
  environmentOf,
  everyNth,
  fault,
  isObject,
  itemsOf,
  paramsOf,
  perInstance,
  queryInteger,
  rewriteBody,
  withBehaviour,
  type Fault,
  type JsonObject,
  type OperationId,
} from './tools.ts';

const PARTICIPANT_OPERATIONS: readonly OperationId[] = ['listGroupParticipants', 'getParticipant', 'archiveParticipant', 'upsertParticipant'];

/** The participant an upsert body names, in the request's environment. */
function upsertTarget(request: FastifyRequest): { key: string; exists: boolean } | undefined {
  const body = request.body;
  if (!isObject(body)) return undefined;
  const key = typeof body['participantId'] === 'string' ? body['participantId'] : typeof body['id'] === 'string' ? body['id'] : undefined;
  const data = environmentOf(request);
  return key === undefined || data === undefined ? undefined : { key, exists: data.participants.has(key) };
}

/** Only the identifiers of an upsert body: the handler then keeps or blanks the other fields. */
function identifiersOnly(request: FastifyRequest): void {
  const body = request.body as JsonObject;
  request.body = Object.fromEntries(Object.entries(body).filter(([field]) => field === 'participantId' || field === 'id'));
}

export const faults: readonly Fault[] = [
  fault(
    'participant-email-missing',
    'Participant records lack email.',
    ['PART-01', 'FMT-03'],
    PARTICIPANT_OPERATIONS,
    rewriteBody(
      PARTICIPANT_OPERATIONS,
      eachRecord((record) => delete record['email']),
    ),
  ),
  fault(
    'archived-participant-still-listed',
    'Archived participants are still listed in their groups.',
    ['PART-10'],
    ['listGroupParticipants'],
    withBehaviour({ isSearchable: () => true }),
  ),
  fault(
    'archive-not-applied',
    'archiveParticipant answers 200 with the record but the participant stays active (and listed).',
    ['PART-10'],
    ['archiveParticipant'],
    afterHandler(['archiveParticipant'], (request) => {
      const participant = environmentOf(request)?.participants.get(String(paramsOf(request)['id']));
      if (participant !== undefined) participant.archived = false;
    }),
  ),
  fault(
    'update-not-applied',
    'An upsert of an existing participant answers 201 but keeps its old name, email and avatar.',
    ['PART-07'],
    ['upsertParticipant'],
    beforeHandler(['upsertParticipant'], (request) => {
      if (upsertTarget(request)?.exists === true) identifiersOnly(request);
    }),
  ),
  fault(
    'upsert-answers-200',
    'upsertParticipant answers 200 instead of 201.',
    ['PART-04', 'PART-06', 'AUTH-02'],
    ['upsertParticipant'],
    rewriteBody(
      ['upsertParticipant'],
      (_body, { reply }) => {
        reply.code(200);
        return undefined;
      },
      (status) => status === 201,
    ),
  ),
];

/** A fixed point of an open choice (docs/level-audit.md): the choice made in a way no reading allows. */
export const fixedPoints: readonly Fault[] = [
  fault(
    'archived-participant-read-as-another',
    'getParticipant of an archived participant answers 200 with the record of another participant (the first active one of the environment).',
    ['PART-11'],
    ['getParticipant'],
    rewriteBody(['getParticipant'], (body, { request, app }) => {
      const data = environmentOf(request);
      const asked = data?.participants.get(String(paramsOf(request)['id']));
      if (data === undefined || asked === undefined || asked.archived !== true) return undefined;
      const other = [...data.participants.values()].find((participant) => participant.id !== asked.id && participant.archived !== true);
      return other === undefined ? body : participantView(other, app.reference.behaviour);
    }),
  ),
];

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
  fault(
    'participant-created-at-read-time',
    'getParticipant answers createdAt as the time of the read, so a listed participant reads back with another createdAt than its list entry.',
    ['PART-03'],
    ['getParticipant'],
    rewriteBody(['getParticipant'], (body, { app }) => {
      if (isObject(body)) body['createdAt'] = app.reference.behaviour.formatTimestamp(app.reference.now());
      return body;
    }),
  ),
  // One answer in N: a deterministic counter per instance; the PART-03 check reads every member of a first page.
  fault(
    'participant-read-every-third-wrong',
    'Every third successful getParticipant answer for a group member carries the name and email of the member listed after it in its first group (a misindexed cache, one answer in three).',
    ['PART-03'],
    ['getParticipant'],
    perInstance(() => {
      const strikes = everyNth(3);
      return rewriteBody(['getParticipant'], (body, { request, app }) => {
        const data = environmentOf(request);
        const participant = data?.participants.get(String(paramsOf(request)['id']));
        const groupId = participant?.groupIds[0];
        if (data === undefined || participant === undefined || groupId === undefined || !isObject(body) || !strikes()) return undefined;
        const members = [...data.participants.values()].filter((member) => member.groupIds.includes(groupId) && app.reference.behaviour.isSearchable(member));
        const next = members[(members.indexOf(participant) + 1) % members.length];
        if (next === undefined || next === participant) return undefined;
        return { ...body, name: next.name, email: next.email };
      });
    }),
  ),
  // One field of one item: only the 7th participant of a group's list, on whichever page it falls.
  fault(
    'seventh-group-participant-email-missing',
    "The 7th participant of a group's participant list lacks email (the others, and getParticipant, carry it).",
    ['PART-01', 'FMT-03'],
    ['listGroupParticipants'],
    rewriteBody(['listGroupParticipants'], (body, { request }) => {
      const skip = queryInteger(request, 'skip') ?? 0;
      const seventh = itemsOf(body)[6 - skip];
      if (skip <= 6 && seventh !== undefined) delete seventh['email'];
      return body;
    }),
  ),
  fault(
    'created-participant-avatar-dropped',
    'An upsert that creates a participant stores it without its avatar (empty); updates store every field.',
    ['PART-05'],
    ['upsertParticipant', 'getParticipant'],
    beforeHandler(['upsertParticipant'], (request) => {
      if (upsertTarget(request)?.exists === false) delete (request.body as JsonObject)['avatar'];
    }),
  ),
  // Only after a write: until a participant is updated, getParticipant answers right.
  fault(
    'participant-read-stale-after-update',
    'After a participant is updated, getParticipant answers the version before the update (a stale read model); listGroupParticipants and archiveParticipant show the update.',
    ['PART-07'],
    ['upsertParticipant', 'getParticipant'],
    perInstance(() => {
      const before = new WeakMap<FastifyRequest, JsonObject>();
      const stale = new WeakMap<EnvironmentData, Map<string, JsonObject>>();
      return compose(
        beforeHandler(['upsertParticipant'], (request) => {
          const target = upsertTarget(request);
          const current = target?.exists === true ? environmentOf(request)?.participants.get(target.key) : undefined;
          if (current !== undefined) before.set(request, { name: current.name, email: current.email, avatar: current.avatar });
        }),
        afterHandler(['upsertParticipant'], (request, reply) => {
          const data = environmentOf(request);
          const previous = before.get(request);
          const key = upsertTarget(request)?.key;
          if (reply.statusCode !== 201 || data === undefined || previous === undefined || key === undefined) return;
          if (!stale.has(data)) stale.set(data, new Map());
          stale.get(data)?.set(key, previous);
        }),
        rewriteBody(['getParticipant'], (body, { request }) => {
          const data = environmentOf(request);
          const previous = data === undefined ? undefined : stale.get(data)?.get(String(paramsOf(request)['id']));
          return previous === undefined || !isObject(body) ? undefined : { ...body, ...previous };
        }),
      );
    }),
  ),
  fault(
    'archive-answers-anonymised',
    'archiveParticipant answers 200 with the record of the path id, but with name and email emptied (the stored participant keeps them).',
    ['PART-09'],
    ['archiveParticipant'],
    rewriteBody(
      ['archiveParticipant'],
      eachRecord((record) => Object.assign(record, { name: '', email: '' })),
    ),
  ),
];
