/**
 * Faults that serve scripts/checks/check-canary.ts: credentials echoed back, opaque access tokens, secretKey words
 * joined, an outage. The interface does not forbid echoing what a request carried: the three echo faults
 * break no requirement, and exist to prove that the reports hold no credential the target sends back.
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defaultBehaviour } from '../behaviour.ts';
import { buildErrorBody } from '../errors.ts';
import type { ReferenceOptions } from '../options.ts';
import {
  afterHandler,
  beforeRoutes,
  eachRecord,
  fault,
  headerValue,
  isError,
  isObject,
  OPERATIONS,
  rewriteBody,
  withBehaviour,
  type Fault,
  type OperationId,
} from './tools.ts';

/** closeMeeting answers an empty object, which gets no field. */
function echoBodyOperations(): readonly OperationId[] {
  return OPERATIONS.filter((operation) => operation !== 'closeMeeting');
}

/**
 * The credential headers and body fields of a request, by name; the bearer token without its
 * scheme, so that only the value itself tells what it is (no "Bearer" for a pattern to key on).
 */
function requestCredentials(request: FastifyRequest): [string, string][] {
  const body = isObject(request.body) ? request.body : {};
  const bearer = /^Bearer\s+(\S+)/i.exec(headerValue(request, 'authorization') ?? '')?.[1];
  const headers = ['apikey', 'client_id', 'secret'].map((name): [string, unknown] => [name, request.headers[name]]);
  const fields = ['password', 'passphrase', 'apiKey'].map((name): [string, unknown] => [name, body[name]]);
  return [['token', bearer], ...headers, ...fields].filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '');
}

/** The values alone, as a careless service might log them into its answer. */
function echoedCredentials(request: FastifyRequest): string {
  const credentials = requestCredentials(request);
  return credentials.length === 0 ? 'a request without credentials' : credentials.map(([, value]) => value).join(' ');
}

function echoInMessage(body: unknown, { request }: { request: FastifyRequest }): unknown {
  if (isObject(body) && typeof body['message'] === 'string') body['message'] = `${body['message']} (request: ${echoedCredentials(request)})`;
  return body;
}

/** Longer values (a 100 000-character passphrase) would overflow the client's header limit: a broken answer, not an echo. */
const MAX_ECHOED_HEADER = 1024;

function echoInHeaders(request: FastifyRequest, reply: FastifyReply): void {
  requestCredentials(request).forEach(([, value], index) => {
    if (value.length <= MAX_ECHOED_HEADER) void reply.header(`x-echo-${index + 1}`, value);
  });
}

/**
 * Login answers a random opaque token instead of the JWT it would issue; the bearer check looks the
 * JWT up again (one map per built instance).
 */
function opaqueAccessToken(options: ReferenceOptions): ReferenceOptions {
  const issued = new Map<string, string>();
  return withBehaviour({
    issueToken: async (secret, userId, nowMs, ttlS) => {
      const opaque = randomBytes(24).toString('base64url');
      issued.set(opaque, await defaultBehaviour.issueToken(secret, userId, nowMs, ttlS));
      return opaque;
    },
    verifyToken: (secret, token, nowMs) => defaultBehaviour.verifyToken(secret, issued.get(token) ?? token, nowMs),
  })(options);
}

export const faults: readonly Fault[] = [
  fault(
    'echo-credentials-in-error-message',
    'Every error answer names in its message the credentials the request carried (bearer token, apikey, client_id, secret, password, passphrase, body apiKey).',
    [],
    OPERATIONS,
    rewriteBody(OPERATIONS, echoInMessage, isError),
  ),
  fault(
    'echo-credentials-in-header',
    'Every answer carries the credentials of the request in x-echo-1, x-echo-2... response headers.',
    [],
    OPERATIONS,
    afterHandler(OPERATIONS, echoInHeaders),
  ),
  fault(
    'echo-credentials-in-body',
    'Every successful JSON answer (each record of a list) carries the credentials of the request in an extra field requestedWith.',
    [],
    echoBodyOperations(),
    rewriteBody(echoBodyOperations(), (body, { request }) => eachRecord((record) => (record['requestedWith'] = echoedCredentials(request)))(body)),
  ),
  fault(
    'opaque-access-token',
    'Login answers an opaque access token (random base64url, not a JWT), which the bearer operations accept.',
    ['LOGIN-01'],
    ['login'],
    opaqueAccessToken,
  ),
  fault(
    'secret-key-words-joined',
    'Every fourth word of the secretKey is written together with the next one, so the secretKey holds fewer than 128 words.',
    ['SEC-07'],
    ['createSecurityKey'],
    withBehaviour({
      drawSecretKey: (wordlist, count) =>
        defaultBehaviour
          .drawSecretKey(wordlist, count)
          .split(' ')
          .map((word, index) => (index % 4 === 0 ? word : ` ${word}`))
          .join('')
          .trim(),
    }),
  ),
  fault(
    'every-answer-500',
    'Every request whose body parses is answered 500, with the credentials it carried in the message: every test fails.',
    // An outage breaks every requirement at once, not one: no requirement to attribute it to, so no
    // blast radius to measure. It serves check:canary (a run where every test fails), like the echo faults.
    [],
    OPERATIONS,
    beforeRoutes((app) => {
      app.addHook('preHandler', async (request, reply) => reply.code(500).send(buildErrorBody(500, `failed for ${echoedCredentials(request)}`, true)));
    }),
  ),
];
