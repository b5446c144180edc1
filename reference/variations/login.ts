/**
 * Allowed variations of login: how e-mails compare, the status of a refused login.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { unauthorized } from '../errors.ts';
import { beforeHandler, isObject, rewriteBody } from '../faults/tools.ts';
import type { Variation } from './tools.ts';

export const variations: readonly Variation[] = [
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
];
