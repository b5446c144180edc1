import type { FastifyPluginAsync } from 'fastify';
import { badRequest, notFound } from '../errors.ts';
import type { EnvironmentData } from '../store.ts';
import type { Participant } from '../store.ts';
import { objectBody, stringField, type JsonObject } from '../validation.ts';
import { participantView } from '../views.ts';
import { createSecurityKey } from './security.ts';

/** The avatar is a URL; browsers and servers commonly accept up to about 2 000 characters. */
const maxAvatarLength = 2048;

/** A security-key body: a passphrase and none of the participant's identifiers. */
function isSecurityKeyBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const fields = body as JsonObject;
  return 'passphrase' in fields && !('participantId' in fields) && !('id' in fields);
}

/** Operations 5-7: upsert (201), read and archive participants of the API key's environment. */
export const participantsPlugin: FastifyPluginAsync = async (app) => {
  const { behaviour, config, now } = app.reference;

  const upsert = (environment: EnvironmentData, body: JsonObject): Participant => {
    const participantId = stringField(body, 'participantId', { minLength: 1 });
    const id = stringField(body, 'id', { minLength: 1 });
    if (participantId !== undefined && id !== undefined && participantId !== id) {
      throw badRequest('id must equal participantId');
    }
    const key = participantId ?? id;
    if (key === undefined) throw badRequest('participantId is required');
    const fields = {
      name: stringField(body, 'name'),
      email: stringField(body, 'email'),
      avatar: stringField(body, 'avatar', { maxLength: maxAvatarLength }),
    };
    if (fields.avatar !== undefined && fields.avatar !== '' && !URL.canParse(fields.avatar)) {
      throw badRequest('avatar must be an absolute URL');
    }
    const participants = environment.participants;
    const existing = participants.get(key);
    const participant: Participant = {
      id: key,
      name: fields.name ?? existing?.name ?? '',
      email: fields.email ?? existing?.email ?? '',
      avatar: fields.avatar ?? existing?.avatar ?? '',
      createdAt: existing?.createdAt ?? now(),
      archived: false,
      groupIds: existing?.groupIds ?? [],
    };
    participants.set(key, participant);
    return participant;
  };

  app.post('/participants', async (request, reply) => {
    if (config.variants.securityKeyOnParticipantsPath && isSecurityKeyBody(request.body)) {
      return createSecurityKey(app, request);
    }
    const { environment } = await app.auth.bearerAndApiKey(request);
    const participant = upsert(app.auth.data(request, environment), objectBody(request.body));
    reply.code(201);
    return participantView(participant, behaviour);
  });

  app.get<{ Params: { id: string } }>('/participants/:id', async (request) => {
    const { environment } = await app.auth.bearerAndApiKey(request);
    const participant = app.auth.data(request, environment).participants.get(request.params.id);
    if (participant === undefined) throw notFound(`Participant ${request.params.id} not found`);
    return participantView(participant, behaviour);
  });

  app.put<{ Params: { id: string } }>('/participants/:id/archive', async (request) => {
    const { environment } = await app.auth.bearerAndApiKey(request);
    const participant = app.auth.data(request, environment).participants.get(request.params.id);
    if (participant === undefined) throw notFound(`Participant ${request.params.id} not found`);
    participant.archived = true;
    return participantView(participant, behaviour);
  });
};
