/**
 * Allowed variations of the participants: the upsert body and answer, archived participants.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { HttpError, badRequest, notFound } from '../errors.ts';
import { beforeHandler, environmentOf, isObject, operationOf, rewriteBody } from '../faults/tools.ts';
import { everyAnswer, type Variation } from './tools.ts';

export const variations: readonly Variation[] = [
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
      const participant = environmentOf(request)?.participants.get(String(params['id']));
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
      if (environmentOf(request)?.participants.get(key)?.archived === true) throw new HttpError(409, `Participant ${key} is archived`);
    }),
  },
];
