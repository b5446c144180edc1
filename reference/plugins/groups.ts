import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../errors.ts';
import { paginate, parsePageRequest } from '../pagination.ts';
import { asQuery } from '../validation.ts';
import { groupView, participantView } from '../views.ts';

/** Operations 2-4: groups of the API key's environment and the active participants of a group. */
export const groupsPlugin: FastifyPluginAsync = async (app) => {
  const { behaviour } = app.reference;

  app.get('/groups', async (request) => {
    const { environment } = await app.auth.bearerAndApiKey(request);
    const page = paginate(app.auth.data(request, environment).groups, parsePageRequest(asQuery(request.query), behaviour), behaviour);
    return { pagination: page.pagination, data: page.data.map((group) => groupView(group, behaviour)) };
  });

  app.get<{ Params: { id: string } }>('/groups/:id', async (request) => {
    const { environment } = await app.auth.bearerAndApiKey(request);
    const group = app.auth.data(request, environment).groupsById.get(request.params.id);
    if (group === undefined) throw notFound(`Group ${request.params.id} not found`);
    return groupView(group, behaviour);
  });

  app.get<{ Params: { groupId: string } }>('/groups/participants/:groupId', async (request) => {
    const { environment } = await app.auth.bearerAndApiKey(request);
    const { groupId } = request.params;
    const data = app.auth.data(request, environment);
    if (!data.groupsById.has(groupId)) throw notFound(`Group ${groupId} not found`);
    const pageRequest = parsePageRequest(asQuery(request.query), behaviour);
    const members = [...data.participants.values()].filter((participant) => participant.groupIds.includes(groupId) && behaviour.isSearchable(participant));
    const page = paginate(members, pageRequest, behaviour);
    return { pagination: page.pagination, data: page.data.map((participant) => participantView(participant, behaviour)) };
  });
};
