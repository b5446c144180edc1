/**
 * Faults of the credentials: a check an operation documents that is skipped or wrongly added, the forms of
 * tokens and credential headers.
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { defaultBehaviour } from '../behaviour.ts';
import { badRequest } from '../errors.ts';
import {
  afterRoutes,
  API_KEY_HEADER_OPERATIONS,
  apiKeyOf,
  BEARER_OPERATIONS,
  bearerUser,
  developer,
  fails,
  fault,
  headerValue,
  isObject,
  onRequest,
  rawHeaderNames,
  rewriteBody,
  tokenFor,
  withBehaviour,
  type Fault,
  type OperationId,
  type OptionsTransform,
} from './tools.ts';

/** The bearer check of `operations` is skipped in effect: a request without a valid token acts as the developer account. */
const skipBearer = (operations: readonly OperationId[]): OptionsTransform =>
  onRequest(operations, async (request, _reply, app) => {
    if (await fails(() => app.auth.bearer(request))) request.headers.authorization = `Bearer ${await tokenFor(app, developer(app))}`;
  });

/** The API-key check of `operations` is skipped in effect: a request without a valid key gets the development data. */
const skipApiKey = (operations: readonly OperationId[]): OptionsTransform =>
  onRequest(operations, async (request, _reply, app) => {
    if (await fails(() => app.auth.apiKey(request))) request.headers.apikey = apiKeyOf(app, 'development');
  });

const BEARER_REJECTIONS = ['AUTH-15', 'AUTH-16', 'AUTH-17', 'AUTH-18', 'AUTH-19', 'AUTH-20'];

function bearerUnchecked(operation: OperationId, missing: string): Fault {
  return fault(
    `bearer-unchecked-${operation}`,
    `${operation} does not check the bearer token: without one, or with a forged, expired or malformed one, it answers as for the developer account.`,
    [missing, ...BEARER_REJECTIONS],
    [operation],
    skipBearer([operation]),
  );
}

function apiKeyUnchecked(operation: OperationId, missing: string): Fault {
  return fault(
    `apikey-unchecked-${operation}`,
    `${operation} does not check the apikey header: without one, or with a key never issued, it answers with the development data.`,
    [missing, 'AUTH-20', 'AUTH-21'],
    [operation],
    skipApiKey([operation]),
  );
}

/** Accepts only header names spelled exactly as `spelling` (lower-case Node names are the keys). */
const caseSensitiveHeaders = (operations: readonly OperationId[], spellings: readonly string[]): OptionsTransform =>
  onRequest(operations, (request) => {
    const names = rawHeaderNames(request);
    for (const spelling of spellings) {
      if (names.some((name) => name.toLowerCase() === spelling.toLowerCase() && name !== spelling)) delete request.headers[spelling.toLowerCase()];
    }
  });

/** One credential check missing per operation. */
export const unchecked: readonly Fault[] = [
  bearerUnchecked('listGroups', 'AUTH-03'),
  apiKeyUnchecked('getGroup', 'AUTH-04'),
  bearerUnchecked('listGroupParticipants', 'AUTH-03'),
  apiKeyUnchecked('upsertParticipant', 'AUTH-04'),
  bearerUnchecked('getParticipant', 'AUTH-03'),
  apiKeyUnchecked('archiveParticipant', 'AUTH-04'),
  bearerUnchecked('listRecordings', 'AUTH-03'),
  bearerUnchecked('getTranscriptionStats', 'AUTH-06'),
  bearerUnchecked('createSecurityKey', 'AUTH-06'),
  apiKeyUnchecked('getMeetingsSummary', 'AUTH-08'),
  bearerUnchecked('getMeetingStats', 'AUTH-06'),
  bearerUnchecked('closeMeeting', 'AUTH-09'),
  apiKeyUnchecked('listRoomChannelParticipants', 'AUTH-08'),
  fault(
    'close-body-apikey-unchecked',
    'closeMeeting ignores the apiKey of its JSON body: without one, or with one never issued, it acts on the development data.',
    ['AUTH-10', 'AUTH-11'],
    ['closeMeeting'],
    afterRoutes((app) => {
      const check = app.auth.apiKeyValue;
      app.auth.apiKeyValue = (value) => {
        try {
          return check(value);
        } catch {
          return 'development';
        }
      };
    }),
  ),
  fault(
    'client-secret-unchecked-getChannelInfo',
    'getChannelInfo accepts a known client_id with a missing or wrong secret.',
    ['AUTH-13', 'AUTH-14'],
    ['getChannelInfo'],
    onRequest(['getChannelInfo'], (request, _reply, app) => {
      const client = app.reference.store.clients.get(headerValue(request, 'client_id') ?? '');
      if (client !== undefined) request.headers['secret'] = client.secret;
    }),
  ),
  fault(
    'client-id-unchecked-listChannelParticipants',
    'listChannelParticipants accepts a valid secret with a missing or unknown client_id.',
    ['AUTH-13', 'AUTH-14'],
    ['listChannelParticipants'],
    onRequest(['listChannelParticipants'], (request, _reply, app) => {
      const { clients } = app.reference.store;
      if (clients.has(headerValue(request, 'client_id') ?? '')) return;
      const owner = [...clients].find(([, client]) => client.secret === headerValue(request, 'secret'));
      if (owner !== undefined) request.headers['client_id'] = owner[0];
    }),
  ),
];

/** Tokens and the forms of the credentials. */
export const credentialForms: readonly Fault[] = [
  fault(
    'expired-token-accepted',
    'Bearer tokens are accepted after their exp.',
    ['AUTH-18'],
    BEARER_OPERATIONS,
    withBehaviour({ verifyToken: (secret, token) => defaultBehaviour.verifyToken(secret, token, 0) }),
  ),
  fault(
    'apikey-header-case-sensitive',
    'The API-key header is recognised only when spelled apikey; apiKey or APIKEY count as missing.',
    ['AUTH-22', 'VAR-04'],
    API_KEY_HEADER_OPERATIONS,
    caseSensitiveHeaders(API_KEY_HEADER_OPERATIONS, ['apikey']),
  ),
  fault(
    'authorization-header-case-sensitive',
    'The bearer token is recognised only under the header name Authorization; authorization or AUTHORIZATION count as missing.',
    ['AUTH-24'],
    BEARER_OPERATIONS,
    caseSensitiveHeaders(BEARER_OPERATIONS, ['Authorization']),
  ),
  fault(
    'apikey-environment-ignored',
    "Every valid API key gets the development data: the production key reads and writes the development environment's participants.",
    ['AUTH-26'],
    API_KEY_HEADER_OPERATIONS,
    onRequest(API_KEY_HEADER_OPERATIONS, (request, _reply, app) => {
      if (app.reference.store.apiKeys.has(headerValue(request, 'apikey') ?? '')) request.headers.apikey = apiKeyOf(app, 'development');
    }),
  ),
  fault(
    'unauthorized-as-403-listRecordings',
    'listRecordings answers a missing or invalid credential with 403 instead of 401.',
    // A tampered, unsigned or expired token is an invalid credential too (AUTH-15 to AUTH-18, AUTH-20).
    ['AUTH-03', 'AUTH-04', 'AUTH-15', 'AUTH-16', 'AUTH-17', 'AUTH-18', 'AUTH-20', 'AUTH-21'],
    ['listRecordings'],
    rewriteBody(
      ['listRecordings'],
      (body, { reply }) => {
        reply.code(403);
        return { ...(isObject(body) ? body : {}), statusCode: 403, error: 'Forbidden' };
      },
      (status) => status === 401,
    ),
  ),
  fault(
    'non-developer-allowed-meetingstats',
    'An account that is not a developer reads meeting statistics (200).',
    ['MST-14'],
    ['getMeetingStats'],
    onRequest(['getMeetingStats'], async (request, _reply, app) => {
      const user = await bearerUser(app, request);
      if (user !== undefined && !user.developer) request.headers.authorization = `Bearer ${await tokenFor(app, developer(app))}`;
    }),
  ),
];

/** A fixed point of an open choice (docs/level-audit.md): the choice made in a way no reading allows. */
export const fixedPoints: readonly Fault[] = [
  fault(
    'other-scheme-token-400',
    'A bearer operation answers 400 (not 401) to an Authorization header of another scheme than Bearer (Basic, Token, or a bare token).',
    ['AUTH-28'],
    BEARER_OPERATIONS,
    onRequest(BEARER_OPERATIONS, (request) => {
      const authorization = headerValue(request, 'authorization');
      if (authorization !== undefined && !/^bearer\b/i.test(authorization.trim())) throw badRequest('Authorization must use the Bearer scheme');
    }),
  ),
  fault(
    'foreign-api-key-accepted',
    "An operation that takes a bearer token and an API key accepts an API key of another account: the developer's token with the other account's key answers 200 with that account's data.",
    ['AUTH-29'],
    ['listGroups', 'getGroup', 'listGroupParticipants', 'upsertParticipant', 'getParticipant', 'archiveParticipant', 'listRecordings', 'closeMeeting'],
    afterRoutes((app) => {
      const { bearer, apiKey, apiKeyValue } = app.auth;
      app.auth.bearerAndApiKey = async (request) => ({ user: await bearer(request), environment: apiKey(request) });
      app.auth.apiKeyValue = (value) => apiKeyValue(value);
    }),
  ),
];

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
  fault(
    'login-needs-apikey',
    'login answers 401 to a request without an apikey header, although it needs no authentication.',
    ['AUTH-01', 'LOGIN-01'],
    ['login'],
    onRequest(['login'], (request, _reply, app) => void app.auth.apiKey(request)),
  ),
  fault(
    'transcripts-need-apikey',
    'getTranscriptionStats answers 401 to a request without an apikey header, although it needs only the bearer token (so neither the refusal of an unknown environment nor the usage limit is ever answered).',
    ['AUTH-05', 'TRS-03', 'TRS-04', 'TRS-05'],
    ['getTranscriptionStats'],
    onRequest(['getTranscriptionStats'], (request, _reply, app) => void app.auth.apiKey(request)),
  ),
  fault(
    'room-participants-need-bearer',
    'listRoomChannelParticipants answers 401 to a request without a valid bearer token, although it needs only the API key.',
    ['AUTH-07'],
    ['listRoomChannelParticipants'],
    onRequest(['listRoomChannelParticipants'], async (request, _reply, app) => void (await app.auth.bearer(request))),
  ),
  fault(
    'summary-needs-bearer',
    'getMeetingsSummary answers 401 to a request that carries only the apikey header: it wants a bearer token as well.',
    ['MSUM-02', 'AUTH-07'],
    ['getMeetingsSummary'],
    onRequest(['getMeetingsSummary'], async (request, _reply, app) => void (await app.auth.bearer(request))),
  ),
  // One operation only: getChannelInfo keeps accepting the client credentials alone.
  fault(
    'channel-participants-need-apikey',
    'listChannelParticipants (and only it) answers 401 to valid client_id and secret headers without an apikey header.',
    ['AUTH-12'],
    ['listChannelParticipants'],
    onRequest(['listChannelParticipants'], (request, _reply, app) => void app.auth.apiKey(request)),
  ),
  fault(
    'secret-header-case-sensitive',
    'The secret header of the versioned realtime interface is recognised only when spelled secret; SECRET or Secret count as missing.',
    ['AUTH-23'],
    ['getChannelInfo', 'listChannelParticipants'],
    caseSensitiveHeaders(['getChannelInfo', 'listChannelParticipants'], ['secret']),
  ),
  // One header spelling: APIKEY and apikey keep working.
  fault(
    'apikey-camel-case-refused',
    'The API-key header spelled exactly apiKey counts as missing (401); apikey and APIKEY work.',
    ['AUTH-22', 'VAR-04'],
    API_KEY_HEADER_OPERATIONS,
    onRequest(API_KEY_HEADER_OPERATIONS, (request) => {
      if (rawHeaderNames(request).includes('apiKey')) delete request.headers.apikey;
    }),
  ),
  fault(
    'close-needs-apikey-header',
    "closeMeeting looks for the API key in an apikey header, as other operations do: with the key in the body's apiKey alone it answers 401.",
    ['AUTH-25', 'CLOSE-01', 'CLOSE-03'],
    ['closeMeeting'],
    onRequest(['closeMeeting'], (request, _reply, app) => void app.auth.apiKey(request)),
  ),
];
