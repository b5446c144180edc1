/**
 * Allowed variations of the groups: what an unknown group is answered with.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { badRequest } from '../errors.ts';
import { paginate, parsePageRequest } from '../pagination.ts';
import { asQuery } from '../validation.ts';
import { beforeRoutes, operationOf, paramsOf } from '../faults/tools.ts';
import type { Variation } from './tools.ts';

export const variations: readonly Variation[] = [
  {
    name: 'unknown-group-400-participants-empty',
    description:
      'An unknown group: GET /groups/{id} answers 400, and GET /groups/participants/{groupId} answers 200 with an empty page (total 0), each operation choosing for itself (with unknown-id-400 or -422, those keep the other unknown ids).',
    basis: 'Errors: "Status codes for unknown groups, participants, meetings or channels: not shown."; endpoints 3 and 4 show only their 200.',
    requirement: 'UNS-01',
    // Before the handlers, so that the variations rewriting 404s of unknown ids (unknown-id-400, -422)
    // find none for groups and keep their choice for the other ids.
    apply: beforeRoutes((app) => {
      app.addHook('preHandler', async (request, reply) => {
        const operation = operationOf(request);
        if (operation !== 'getGroup' && operation !== 'listGroupParticipants') return;
        const { environment } = await app.auth.bearerAndApiKey(request);
        const params = paramsOf(request);
        const id = operation === 'getGroup' ? params['id'] : params['groupId'];
        if (typeof id !== 'string' || app.reference.store.environments[environment].groupsById.has(id)) return;
        if (operation === 'getGroup') throw badRequest(`Group ${id} does not exist`);
        const { behaviour } = app.reference;
        const page = paginate([], parsePageRequest(asQuery(request.query), behaviour), behaviour);
        return reply.send({ pagination: page.pagination, data: page.data });
      });
    }),
  },
];
