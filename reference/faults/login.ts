/**
 * Faults of login (POST /login): what a successful login answers, and which logins it refuses.
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { defaultBehaviour } from '../behaviour.ts';
import type { FastifyInstance } from 'fastify';
import type { User } from '../store.ts';
import {
  afterHandler,
  beforeHandler,
  developer,
  eachRecord,
  fault,
  isObject,
  rewriteBody,
  tokenFor,
  unexpected,
  withBehaviour,
  type Fault,
  type OptionsTransform,
} from './tools.ts';

/**
 * A login the reference refuses (401) answered 200 with a token of the user `whom` picks, given the
 * account of the e-mail sent (undefined when no account has it); undefined leaves the refusal.
 */
function acceptRefusedLogin(whom: (account: User | undefined, app: FastifyInstance) => User | undefined): OptionsTransform {
  return rewriteBody(
    ['login'],
    async (_body, { request, reply, app }) => {
      const email = isObject(request.body) ? String(request.body['email']).toLowerCase() : '';
      const user = whom(
        app.reference.store.users.find((candidate) => candidate.email.toLowerCase() === email),
        app,
      );
      if (user === undefined) return undefined;
      reply.code(200);
      return { access_token: await tokenFor(app, user), name: user.name };
    },
    (status) => status === 401,
  );
}

export const faults: readonly Fault[] = [
  fault(
    'login-wrong-password-accepted',
    'POST /login with an existing e-mail and a wrong password answers 200 with a token.',
    ['LOGIN-03'],
    ['login'],
    acceptRefusedLogin((account) => account),
  ),
  fault(
    'login-unknown-email-accepted',
    'POST /login with an e-mail of no account answers 200 with a token of the developer account.',
    ['LOGIN-04'],
    ['login'],
    acceptRefusedLogin((account, app) => (account === undefined ? developer(app) : undefined)),
  ),
  fault(
    'login-token-not-jwt',
    'The access_token is an opaque string (the JWT with its dots replaced), not a JWT in compact form; the service still accepts it.',
    ['LOGIN-01'],
    ['login'],
    withBehaviour({
      issueToken: async (secret, userId, nowMs, ttlS) => (await defaultBehaviour.issueToken(secret, userId, nowMs, ttlS)).replaceAll('.', '~'),
      verifyToken: (secret, token, nowMs) => defaultBehaviour.verifyToken(secret, token.replaceAll('~', '.'), nowMs),
    }),
  ),
  fault(
    'login-answers-201',
    'A successful login answers 201 instead of 200 (with the same body and a usable token).',
    ['LOGIN-01'],
    ['login'],
    afterHandler(['login'], (_request, reply) => {
      if (reply.statusCode === 200) reply.code(201);
    }),
  ),
  fault(
    'login-name-missing',
    'The 200 body of login lacks name.',
    ['LOGIN-02'],
    ['login'],
    rewriteBody(
      ['login'],
      eachRecord((record) => delete record['name']),
    ),
  ),
  fault(
    'login-length-limits-crash',
    'An e-mail over 191 characters or a password under 6 or over 191 characters makes login fail with 500 instead of a 4xx.',
    ['LOGIN-05', 'LOGIN-06', 'LOGIN-07', 'INP-06'],
    ['login'],
    beforeHandler(['login'], (request) => {
      const body = isObject(request.body) ? request.body : {};
      const length = (field: string): number => (typeof body[field] === 'string' ? body[field].length : 6);
      if (length('email') > 191 || length('password') < 6 || length('password') > 191) throw unexpected('field length');
    }),
  ),
];
