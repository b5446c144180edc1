/**
 * Faults of the groups (listGroups, getGroup).
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { notFound } from '../errors.ts';
import { environments } from '../seed-types.ts';
import { groupView } from '../views.ts';
import { beforeHandler, eachRecord, environmentOf, fault, paramsOf, renameField, rewriteBody, type Fault } from './tools.ts';

export const faults: readonly Fault[] = [
  fault(
    'group-name-renamed',
    'Groups carry title instead of name.',
    ['GRP-02'],
    ['listGroups', 'getGroup'],
    rewriteBody(
      ['listGroups', 'getGroup'],
      eachRecord((record) => renameField(record, 'name', 'title')),
    ),
  ),
  fault(
    'get-group-first-page-only',
    'getGroup finds only the groups of the first page of listGroups (404 for the others).',
    ['GRP-03'],
    ['getGroup'],
    beforeHandler(['getGroup'], (request, _reply, app) => {
      const id = paramsOf(request)['id'];
      const laterPage = environments.some((environment) => app.reference.store.environments[environment].groups.findIndex((group) => group.id === id) >= 10);
      if (laterPage) throw notFound(`Group ${String(id)} not found`);
    }),
  ),
];

/** A fixed point of an open choice (docs/level-audit.md): the choice made in a way no reading allows. */
export const fixedPoints: readonly Fault[] = [
  fault(
    'unknown-group-answers-first',
    'getGroup of an id no group has answers 200 with the first group of the environment instead of 404.',
    ['GRP-05'],
    ['getGroup'],
    rewriteBody(
      ['getGroup'],
      (_body, { request, reply, app }) => {
        const first = environmentOf(request)?.groups[0];
        if (first === undefined) return undefined;
        reply.code(200);
        return groupView(first, app.reference.behaviour);
      },
      (status) => status === 404,
    ),
  ),
];
