import { generateKeyPairSync, randomBytes, type KeyPairKeyObjectResult } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defaultBehaviour } from '../behaviour.ts';
import { badRequest, buildErrorBody, notFound } from '../errors.ts';
import type { ReferenceOptions } from '../options.ts';
import { environments } from '../seed-types.ts';
import type { Connection, EnvironmentData } from '../store.ts';
import { groupView, participantView } from '../views.ts';
import {
  API_KEY_HEADER_OPERATIONS,
  BEARER_OPERATIONS,
  OPERATIONS,
  PAGINATED_OPERATIONS,
  afterHandler,
  afterRoutes,
  apiKeyOf,
  beforeHandler,
  beforeRoutes,
  bearerUser,
  compose,
  developer,
  eachRecord,
  everyNth,
  fails,
  headerValue,
  isError,
  isObject,
  itemsOf,
  listArray,
  onRequest,
  perInstance,
  queryInteger,
  rawHeaderNames,
  renameField,
  rewriteBody,
  tokenFor,
  withBehaviour,
  withVariant,
  type JsonObject,
  type OperationId,
  type OptionsTransform,
} from './tools.ts';

/**
 * The fault catalogue: named deviations from the interface as written, each switched on from
 * outside (`--fault NAME`, or `apply` on the options of buildApp) and each declaring the
 * requirements of spec/requirements.yaml it violates. scripts/self-verify.ts proves that the suite
 * fails on every fault, with a failing test that cites one of those requirements.
 */
export interface Fault {
  name: string;
  description: string;
  /** IDs of spec/requirements.yaml that the fault violates. */
  requirements: readonly string[];
  /** The operations whose answers the fault changes. */
  operations?: readonly OperationId[];
  apply(options: ReferenceOptions): ReferenceOptions;
}

export interface FaultDescription {
  name: string;
  description: string;
  requirements: readonly string[];
}

function fault(
  name: string,
  description: string,
  requirements: readonly string[],
  operations: readonly OperationId[],
  ...transforms: OptionsTransform[]
): Fault {
  return { name, description, requirements, operations, apply: compose(...transforms) };
}

// ---------------------------------------------------------------- request and response helpers

const queryOf = (request: FastifyRequest): JsonObject => (isObject(request.query) ? request.query : {});

const paramsOf = (request: FastifyRequest): JsonObject => (isObject(request.params) ? request.params : {});

const BODY_OPERATIONS: readonly OperationId[] = ['login', 'upsertParticipant', 'createSecurityKey'];
/** The documented string fields of each body. */
const STRING_FIELDS = ['email', 'password', 'participantId', 'id', 'name', 'avatar', 'passphrase'];
const PARTICIPANT_OPERATIONS: readonly OperationId[] = ['listGroupParticipants', 'getParticipant', 'archiveParticipant', 'upsertParticipant'];

function channelOf(body: unknown): JsonObject | undefined {
  return isObject(body) && isObject(body['channel']) ? body['channel'] : undefined;
}

function eventsOf(body: unknown): JsonObject[] {
  return isObject(body) ? itemsOf(body['events']) : [];
}

/** The connected participants of channel info (under either documented name). */
function connectedOf(body: unknown): JsonObject[] {
  return isObject(body) ? [...itemsOf(body['presences']), ...itemsOf(body['participants'])] : [];
}

/** Which environment the request's API key selects, or undefined when it has no valid one. */
function environmentOf(request: FastifyRequest): EnvironmentData | undefined {
  const app = request.server;
  const environment = app.reference.store.apiKeys.get(headerValue(request, 'apikey') ?? '');
  return environment === undefined ? undefined : app.reference.store.environments[environment];
}

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

// ---------------------------------------------------------------- credential checks skipped

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

// ---------------------------------------------------------------- stateful faults (state per built instance)

/** The private key comes from another pair than the public key (one spare pair per instance). */
const privateKeyMismatch: OptionsTransform = (options) => {
  let spare: KeyPairKeyObjectResult | undefined;
  return withBehaviour({
    exportSecurityKeyPair: (pair, passphrase) => {
      spare ??= generateKeyPairSync('rsa', { modulusLength: 2048 });
      return {
        publicKey: defaultBehaviour.exportSecurityKeyPair(pair, passphrase).publicKey,
        privateKey: defaultBehaviour.exportSecurityKeyPair(spare, passphrase).privateKey,
      };
    },
  })(options);
};

/** The close ends the meeting but its connections are put back afterwards. */
const closeKeepsParticipants: OptionsTransform = (options) => {
  const saved = new WeakMap<FastifyRequest, [EnvironmentData, Connection[]][]>();
  return compose(
    beforeHandler(['closeMeeting'], (request, _reply, app) => {
      saved.set(
        request,
        environments.map((environment) => {
          const data = app.reference.store.environments[environment];
          return [data, data.connections];
        }),
      );
    }),
    afterHandler(['closeMeeting'], (request) => {
      for (const [data, connections] of saved.get(request) ?? []) data.connections = connections;
    }),
  )(options);
};

// ---------------------------------------------------------------- the catalogue

const unexpected = (what: string): Error => new Error(`fault: ${what}`);

export const FAULTS: readonly Fault[] = [
  // ------------------------------------------------------------ login
  fault(
    'login-wrong-password-accepted',
    'POST /login with an existing e-mail and a wrong password answers 200 with a token.',
    ['LOGIN-03'],
    ['login'],
    rewriteBody(
      ['login'],
      async (_body, { request, reply, app }) => {
        const email = isObject(request.body) ? String(request.body['email']).toLowerCase() : '';
        const user = app.reference.store.users.find((candidate) => candidate.email.toLowerCase() === email);
        if (user === undefined) return undefined;
        reply.code(200);
        return { access_token: await tokenFor(app, user), name: user.name };
      },
      (status) => status === 401,
    ),
  ),
  fault(
    'login-unknown-email-accepted',
    'POST /login with an e-mail of no account answers 200 with a token of the developer account.',
    ['LOGIN-04'],
    ['login'],
    rewriteBody(
      ['login'],
      async (_body, { request, reply, app }) => {
        const email = isObject(request.body) ? String(request.body['email']).toLowerCase() : '';
        if (app.reference.store.users.some((candidate) => candidate.email.toLowerCase() === email)) return undefined;
        reply.code(200);
        const user = developer(app);
        return { access_token: await tokenFor(app, user), name: user.name };
      },
      (status) => status === 401,
    ),
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

  // ------------------------------------------------------------ one credential check missing per operation
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

  // ------------------------------------------------------------ tokens and credential forms
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

  // ------------------------------------------------------------ error bodies
  fault(
    'error-status-code-400',
    'Every error body says statusCode 400, whatever the HTTP status.',
    ['ERR-04', 'ERR-01', 'ERR-03', 'LOGIN-03', 'LOGIN-04', 'MST-14'],
    OPERATIONS,
    withBehaviour({ errorBody: (_status, message, includeError) => buildErrorBody(400, message, includeError) }),
  ),
  fault(
    'error-field-dropped',
    'Error bodies never carry error (the 400 of transcription statistics, the 403, the 500 of close and the non-developer 401 require it).',
    ['ERR-02', 'ERR-03', 'TRS-04', 'MST-14'],
    OPERATIONS,
    withBehaviour({ errorBody: (status, message) => buildErrorBody(status, message, false) }),
  ),
  fault(
    'error-name-not-status-name',
    "Error bodies carry error 'Error' instead of the HTTP status name.",
    ['ERR-05', 'TRS-04', 'MST-14'],
    OPERATIONS,
    withBehaviour({
      errorBody: (status, message, includeError) => ({ ...buildErrorBody(status, message, includeError), ...(includeError ? { error: 'Error' } : {}) }),
    }),
  ),
  fault(
    'errors-not-json',
    'Error answers are declared text/plain although their body is JSON.',
    ['FMT-04'],
    OPERATIONS,
    afterHandler(OPERATIONS, (_request, reply) => {
      if (isError(reply.statusCode)) reply.type('text/plain; charset=utf-8');
    }),
  ),

  fault(
    'bodies-text-plain',
    'Every answer is declared text/plain although its body is JSON.',
    ['FMT-04'],
    OPERATIONS,
    afterHandler(OPERATIONS, (_request, reply) => {
      reply.type('text/plain; charset=utf-8');
    }),
  ),

  // ------------------------------------------------------------ pagination
  fault(
    'default-take-20',
    'Without take, paginated lists return 20 items.',
    ['PAG-01', 'PAG-02', 'PAG-03'],
    PAGINATED_OPERATIONS,
    withBehaviour({ defaultTake: 20 }),
  ),
  fault(
    'skip-ignored',
    'skip is ignored: every page starts at the first item.',
    ['PAG-08', 'PAG-09', 'PAG-10', 'PAG-11'],
    PAGINATED_OPERATIONS,
    withBehaviour({ pageSlice: (items, _skip, take) => items.slice(0, take) }),
  ),
  fault(
    'total-pages-off-by-one',
    'totalPages is floor(total / limit) + 1, one too many when total is a multiple of limit.',
    ['PAG-05'],
    PAGINATED_OPERATIONS,
    withBehaviour({ totalPages: (total, take) => Math.floor(total / take) + 1 }),
  ),
  fault(
    'envelope-data-renamed',
    'The envelopes of listGroups and listGroupParticipants name their array items instead of data.',
    ['GRP-01', 'GRP-04', 'PAG-12'],
    ['listGroups', 'listGroupParticipants'],
    rewriteBody(['listGroups', 'listGroupParticipants'], (body) => {
      if (isObject(body)) renameField(body, 'data', 'items');
      return body;
    }),
  ),

  // ============================================================ fixed points of the open choices (issue 25)
  // Each fault below makes an open choice of the interface in a way no reading allows: it breaks the
  // MUST that holds whatever the target chooses there (docs/level-audit.md), and nothing else.
  fault(
    'page-stuck-at-first',
    "pagination.page stays at the first page's number (1) on every page: skip=10&take=10 is page 1 too.",
    ['PAG-13'],
    PAGINATED_OPERATIONS,
    withBehaviour({ pageNumber: () => 1 }),
  ),
  // One list only: each list numbers its pages in order, but meeting statistics from 0 and the others from 1.
  fault(
    'page-base-differs-by-list',
    'Paginated meeting statistics number their pages from 0 (skip / take), the groups and group participants from 1.',
    ['PAG-13'],
    ['getMeetingStats'],
    rewriteBody(['getMeetingStats'], (body) => {
      if (!isObject(body) || !isObject(body['pagination']) || typeof body['pagination']['page'] !== 'number') return undefined;
      body['pagination']['page'] -= 1;
      return body;
    }),
  ),
  fault(
    'past-end-page-repeats-last',
    'A page that starts at or past the end of a non-empty list holds the last take items instead of none.',
    ['PAG-14'],
    PAGINATED_OPERATIONS,
    withBehaviour({
      pageSlice: (items, skip, take) => (skip > 0 && skip >= items.length ? items.slice(Math.max(0, items.length - take)) : items.slice(skip, skip + take)),
    }),
  ),
  fault(
    'past-end-page-total-zero',
    'A page that starts past the end of a non-empty list says total 0 (and totalPages 0), as if the list were empty.',
    ['PAG-14'],
    PAGINATED_OPERATIONS,
    rewriteBody(PAGINATED_OPERATIONS, (body, { request }) => {
      if (!isObject(body) || !isObject(body['pagination'])) return undefined;
      const pagination = body['pagination'];
      const skip = queryInteger(request, 'skip') ?? 0;
      if (typeof pagination['total'] !== 'number' || pagination['total'] === 0 || skip < pagination['total']) return undefined;
      Object.assign(pagination, { total: 0, totalPages: 0 });
      return body;
    }),
  ),
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
  fault(
    'recordings-both-filters-ignored',
    'listRecordings with both roomId and meetingId ignores both and lists every recording (one filter alone works).',
    ['REC-11'],
    ['listRecordings'],
    beforeHandler(['listRecordings'], (request) => {
      const query = queryOf(request);
      if (query['roomId'] === undefined || query['meetingId'] === undefined) return;
      delete query['roomId'];
      delete query['meetingId'];
    }),
  ),
  fault(
    'transcripts-without-environment-invented',
    'getTranscriptionStats without environment adds a record that neither environment lists (a copy of the first with another uuid).',
    ['TRS-06'],
    ['getTranscriptionStats'],
    rewriteBody(['getTranscriptionStats'], (body, { request }) => {
      const [first] = Array.isArray(body) ? body : [];
      if (queryOf(request)['environment'] !== undefined || !Array.isArray(body) || !isObject(first)) return undefined;
      return [...body, { ...first, uuid: '00000000-0000-4000-8000-00000000d1ff' }];
    }),
  ),
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

  // ============================================================ every MUST has a fault (issue 13)
  // Each fault below breaks what one MUST states (and declares a second requirement only where it
  // breaks that one too), so that the checks of its requirement, and as few others as possible, can
  // fail. The narrow kinds of the issue (one operation, one field of one item, one page, one header
  // spelling, one environment, one answer in N, only after a write, the Nth item of a long list)
  // are marked as such.

  // ------------------------------------------------------------ credentials each operation documents
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

  // ------------------------------------------------------------ participants
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

  // ------------------------------------------------------------ recordings
  fault(
    'recordings-room-filter-drops-last',
    'listRecordings with roomId (and no meetingId) leaves out the last recording of a room that has several (an off-by-one in the room query).',
    ['REC-04'],
    ['listRecordings'],
    rewriteBody(['listRecordings'], (body, { request }) => {
      const query = queryOf(request);
      const items = listArray(body);
      if (query['roomId'] !== undefined && query['meetingId'] === undefined && items !== undefined && items.length >= 2) items.pop();
      return body;
    }),
  ),
  fault(
    'recordings-meeting-filter-drops-first',
    'listRecordings with meetingId (and no roomId) leaves out the first recording of a meeting that has several.',
    ['REC-06'],
    ['listRecordings'],
    rewriteBody(['listRecordings'], (body, { request }) => {
      const query = queryOf(request);
      const items = listArray(body);
      if (query['meetingId'] !== undefined && query['roomId'] === undefined && items !== undefined && items.length >= 2) items.shift();
      return body;
    }),
  ),
  fault(
    'recordings-envelope-limit-fixed',
    'listRecordings answers the pagination envelope (variant recordings-envelope) whose pagination.limit is always 10, whatever take was sent (data and totalPages follow take).',
    ['REC-10'],
    ['listRecordings'],
    withVariant('recordings-envelope'),
    rewriteBody(['listRecordings'], (body) => {
      if (isObject(body) && isObject(body['pagination'])) body['pagination']['limit'] = 10;
      return body;
    }),
  ),

  // ------------------------------------------------------------ transcription statistics
  fault(
    'transcripts-in-envelope',
    'getTranscriptionStats answers a pagination envelope {pagination, data} instead of a bare array of records.',
    ['TRS-01'],
    ['getTranscriptionStats'],
    rewriteBody(['getTranscriptionStats'], (body) => {
      const records = Array.isArray(body) ? body : [];
      return { pagination: { page: 1, totalPages: 1, limit: records.length, total: records.length }, data: records };
    }),
  ),
  // One environment only: the production records are wrong wherever they are listed, the development ones right.
  fault(
    'production-transcript-minutes-string',
    'Transcription records of the production environment carry minutes as a string; development records are right.',
    ['TRS-02'],
    ['getTranscriptionStats'],
    rewriteBody(['getTranscriptionStats'], (body, { app }) => {
      const production = new Set(app.reference.store.transcriptions.filter((record) => record.environment === 'production').map((record) => record.uuid));
      return eachRecord((record) => production.has(String(record['uuid'])) && (record['minutes'] = String(record['minutes'])))(body);
    }),
  ),

  // ------------------------------------------------------------ security keys
  fault(
    'passphrase-masked',
    'The security key result carries the passphrase masked with asterisks instead of the passphrase sent.',
    ['SEC-02'],
    ['createSecurityKey'],
    rewriteBody(
      ['createSecurityKey'],
      eachRecord((record) => typeof record['passphrase'] === 'string' && (record['passphrase'] = '*'.repeat(record['passphrase'].length))),
    ),
  ),
  fault(
    'public-key-is-private',
    'The publicKey holds the private key of the pair (unencrypted PKCS#8 PEM) instead of the public key.',
    ['SEC-03'],
    ['createSecurityKey'],
    withBehaviour({
      exportSecurityKeyPair: (pair, passphrase) => ({
        ...defaultBehaviour.exportSecurityKeyPair(pair, passphrase),
        publicKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    }),
  ),
  fault(
    'missing-passphrase-defaulted',
    'createSecurityKey without a passphrase creates a key encrypted with a built-in default passphrase (200) instead of refusing.',
    ['SEC-10'],
    ['createSecurityKey'],
    beforeHandler(['createSecurityKey'], (request) => {
      if (request.body === undefined) request.body = {};
      if (isObject(request.body) && request.body['passphrase'] === undefined) request.body['passphrase'] = 'reference-default-passphrase';
    }),
  ),

  // ------------------------------------------------------------ meeting statistics
  fault(
    'only-summary-presence-means-records',
    'getMeetingStats answers records whenever onlySummary is present, whatever its value: onlySummary=true answers the bare array (without it, the summary).',
    ['MST-02'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      if (query['onlySummary'] !== undefined) query['onlySummary'] = 'false';
    }),
  ),
  fault(
    'use-pagination-defaults-true',
    'getMeetingStats paginates records unless usePagination=false is sent: onlySummary=false alone answers the pagination envelope instead of a bare array.',
    ['MST-03'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      query['usePagination'] ??= 'true';
    }),
  ),
  fault(
    'paginated-stats-default-development',
    'With usePagination=true and no environment, getMeetingStats pages the development records (the paginated path misses the production default); the other forms answer production.',
    ['MST-06', 'MST-10'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      if (query['usePagination'] === 'true') query['environment'] ??= 'development';
    }),
  ),
  fault(
    'stats-year-alone-ignored',
    'getMeetingStats applies year only together with month: year alone is ignored (every year is returned).',
    ['MST-08'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      if (query['month'] === undefined) delete query['year'];
    }),
  ),
  fault(
    'stats-environment-defaults-development',
    'getMeetingStats without environment answers the development data instead of production.',
    ['MST-10'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      query['environment'] ??= 'development';
    }),
  ),

  // ------------------------------------------------------------ realtime
  fault(
    'channel-events-renamed',
    'Channel info names its list of events lastEvents instead of events.',
    ['RT-01'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      if (isObject(body)) renameField(body, 'events', 'lastEvents');
      return body;
    }),
  ),
  fault(
    'channel-name-is-id',
    'The channel object of channel info carries the channel id in name instead of the channel name requested.',
    ['RT-03'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body, { request, app }) => {
      const requested = String(paramsOf(request)['channel']);
      const stored = environments
        .map((environment) => app.reference.store.environments[environment].channels.get(requested))
        .find((channel) => channel !== undefined);
      const channel = channelOf(body);
      if (channel !== undefined && stored !== undefined) channel['name'] = stored.id;
      return body;
    }),
  ),
  fault(
    'room-participant-stale-room',
    'The last participant of listRoomChannelParticipants carries the id of another room of the environment (a stale room from an earlier connection).',
    ['RT-11'],
    ['listRoomChannelParticipants'],
    rewriteBody(['listRoomChannelParticipants'], (body, { request }) => {
      const room = String(paramsOf(request)['room']);
      const otherRoom =
        [...(environmentOf(request)?.channels.values() ?? [])].map((channel) => channel.roomId).find((roomId) => roomId !== room) ?? `${room}-previous`;
      const last = itemsOf(body).at(-1);
      if (last !== undefined) last['roomId'] = otherRoom;
      return body;
    }),
  ),
  fault(
    'reopened-channel-keeps-end-time',
    'An open channel carries the endTime of an earlier session, an hour before its startTime, instead of null (a reopened channel whose endTime was not reset).',
    ['RT-13'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      const channel = channelOf(body);
      if (channel !== undefined && channel['endTime'] === null) channel['endTime'] = Number(channel['startTime']) - 3_600_000;
      return body;
    }),
  ),
  // The Nth item of a long list: TARGET_CHANNEL answers 250 events; only the 200th is wrong.
  fault(
    'event-200-connection-id-number',
    'The 200th event of a channel info answer carries connectionId as a number; the other events are right.',
    ['RT-04'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      const event = eventsOf(body)[199];
      if (event !== undefined) event['connectionId'] = 200;
      return body;
    }),
  ),

  // ------------------------------------------------------------ pagination
  fault(
    'total-counts-from-skip',
    'On pages after the first, pagination.total counts only the items from skip on (and totalPages follows it), so total changes during a walk.',
    ['PAG-04'],
    PAGINATED_OPERATIONS,
    rewriteBody(PAGINATED_OPERATIONS, (body, { request, app }) => {
      const skip = queryInteger(request, 'skip') ?? 0;
      const pagination = isObject(body) && isObject(body['pagination']) ? body['pagination'] : undefined;
      if (skip === 0 || pagination === undefined) return undefined;
      const total = Math.max(0, Number(pagination['total']) - skip);
      Object.assign(pagination, { total, totalPages: app.reference.behaviour.totalPages(total, Number(pagination['limit'])) });
      return body;
    }),
  ),
  fault(
    'take-one-returns-two',
    'take=1 returns two items (pagination.limit still says 1).',
    ['PAG-07'],
    PAGINATED_OPERATIONS,
    withBehaviour({ pageSlice: (items, skip, take) => items.slice(skip, skip + (take === 1 ? 2 : take)) }),
  ),
  // One page of a list: only the third page (skip = 2 take) of a group's participants is wrong.
  fault(
    'third-page-repeats-previous-item',
    "The third page of a group's participant list (skip = 2 × take) starts with the last participant of the second page, and so leaves out its own last one.",
    ['PAG-10', 'PAG-04', 'PAG-11'],
    ['listGroupParticipants'],
    rewriteBody(['listGroupParticipants'], (body, { request, app }) => {
      const { behaviour } = app.reference;
      const skip = queryInteger(request, 'skip') ?? 0;
      const take = queryInteger(request, 'take') ?? behaviour.defaultTake;
      const data = environmentOf(request);
      const groupId = String(paramsOf(request)['groupId']);
      const items = listArray(body);
      if (skip === 0 || skip !== 2 * take || data === undefined || items === undefined) return undefined;
      const members = [...data.participants.values()].filter((participant) => participant.groupIds.includes(groupId) && behaviour.isSearchable(participant));
      const previous = members[skip - 1];
      if (previous === undefined) return undefined;
      items.unshift(participantView(previous, behaviour));
      items.pop();
      return body;
    }),
  ),
  // ============================================================ end of the block of issue 13

  // ------------------------------------------------------------ groups
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

  // ------------------------------------------------------------ participants
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

  // ------------------------------------------------------------ recordings
  fault(
    'recording-stuck-processing',
    'Recordings stay processing forever.',
    ['REC-07'],
    ['listRecordings'],
    withBehaviour({ recordingStatus: () => 'processing' }),
  ),
  fault(
    'recording-url-relative',
    'Recording urls are relative references (/media/recordings/<uuid>.mp4).',
    ['REC-02'],
    ['listRecordings'],
    withBehaviour({ recordingUrl: (_origin, uuid) => `/media/recordings/${uuid}.mp4` }),
  ),
  fault(
    'recording-url-missing-when-available',
    'Available recordings carry no url.',
    ['REC-01', 'FMT-03'],
    ['listRecordings'],
    rewriteBody(
      ['listRecordings'],
      eachRecord((record) => record['status'] === 'available' && delete record['url']),
    ),
  ),
  fault(
    'recording-url-dead',
    'Recording urls point where nothing is served (404), even once available.',
    ['REC-08'],
    ['listRecordings'],
    withBehaviour({ recordingUrl: (origin, uuid) => `${origin}/media/expired/${uuid}.mp4` }),
  ),
  fault(
    'recordings-room-filter-ignored',
    'listRecordings ignores roomId.',
    ['REC-03'],
    ['listRecordings'],
    beforeHandler(['listRecordings'], (request) => void delete queryOf(request)['roomId']),
  ),
  fault(
    'recordings-meeting-filter-ignored',
    'listRecordings ignores meetingId.',
    ['REC-05'],
    ['listRecordings'],
    beforeHandler(['listRecordings'], (request) => void delete queryOf(request)['meetingId']),
  ),

  // ------------------------------------------------------------ transcription statistics
  fault(
    'transcripts-environment-ignored',
    'getTranscriptionStats ignores environment and returns the records of both environments.',
    ['TRS-03'],
    ['getTranscriptionStats'],
    beforeHandler(['getTranscriptionStats'], (request) => void delete queryOf(request)['environment']),
  ),
  fault(
    'transcripts-bad-environment-accepted',
    'getTranscriptionStats answers 200 to an environment other than development or production.',
    ['TRS-04'],
    ['getTranscriptionStats'],
    beforeHandler(['getTranscriptionStats'], (request) => {
      const query = queryOf(request);
      if (query['environment'] !== undefined && !environments.some((environment) => environment === query['environment'])) delete query['environment'];
    }),
  ),
  fault(
    'transcript-minutes-string',
    'Transcription records carry minutes as a string.',
    ['TRS-02'],
    ['getTranscriptionStats'],
    rewriteBody(
      ['getTranscriptionStats'],
      eachRecord((record) => (record['minutes'] = String(record['minutes']))),
    ),
  ),
  fault(
    'transcript-group-name-null',
    'Transcription records carry groupName null.',
    ['TRS-02', 'FMT-03'],
    ['getTranscriptionStats'],
    rewriteBody(
      ['getTranscriptionStats'],
      eachRecord((record) => (record['groupName'] = null)),
    ),
  ),
  fault(
    'usage-limit-never-reached',
    'The transcription usage limit is never reached: no 403 however many requests.',
    ['TRS-05'],
    ['getTranscriptionStats'],
    withBehaviour({ countUsage: (previous, now) => ({ windowStart: previous?.windowStart ?? now, count: 1 }) }),
  ),

  // ------------------------------------------------------------ formats
  fault(
    'timestamps-without-milliseconds',
    'String timestamps have no milliseconds (YYYY-MM-DDTHH:MM:SSZ).',
    ['FMT-01'],
    ['listGroups', 'getGroup', 'listGroupParticipants', 'getParticipant', 'archiveParticipant', 'listRecordings', 'getTranscriptionStats', 'getMeetingStats'],
    withBehaviour({ formatTimestamp: (epochMs) => new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z') }),
  ),
  fault(
    'timestamps-not-utc',
    'String timestamps are written with a +01:00 offset (same instant, not UTC).',
    ['FMT-01'],
    ['listGroups', 'getGroup', 'listGroupParticipants', 'getParticipant', 'archiveParticipant', 'listRecordings', 'getTranscriptionStats', 'getMeetingStats'],
    withBehaviour({ formatTimestamp: (epochMs) => new Date(epochMs + 3_600_000).toISOString().replace(/Z$/, '+01:00') }),
  ),
  fault(
    'event-timestamps-in-seconds',
    'Channel events carry timestamp in epoch seconds.',
    ['FMT-02'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      for (const event of eventsOf(body)) event['timestamp'] = Math.floor(Number(event['timestamp']) / 1000);
      return body;
    }),
  ),

  // ------------------------------------------------------------ security keys
  fault('secret-key-127-words', 'The secretKey holds 127 words.', ['SEC-07'], ['createSecurityKey'], withBehaviour({ secretKeyWordCount: 127 })),
  fault(
    'private-key-unencrypted',
    'The privateKey is not encrypted: it loads without the passphrase.',
    ['SEC-05'],
    ['createSecurityKey'],
    withBehaviour({
      exportSecurityKeyPair: (pair) => ({
        publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    }),
  ),
  fault(
    'private-key-other-passphrase',
    "The privateKey is encrypted with a fixed passphrase of the service, not the caller's.",
    ['SEC-04'],
    ['createSecurityKey'],
    withBehaviour({ exportSecurityKeyPair: (pair) => defaultBehaviour.exportSecurityKeyPair(pair, 'reference-fixed-passphrase') }),
  ),
  fault('private-key-mismatch', 'The privateKey does not belong to the publicKey.', ['SEC-06'], ['createSecurityKey'], privateKeyMismatch),
  fault(
    'secret-key-renamed',
    'The security key result names secret_key instead of secretKey.',
    ['SEC-01'],
    ['createSecurityKey'],
    rewriteBody(
      ['createSecurityKey'],
      eachRecord((record) => renameField(record, 'secretKey', 'secret_key')),
    ),
  ),

  // ------------------------------------------------------------ meetings summary and statistics
  fault(
    'summary-total-meetings-string',
    'The meetings summary carries totalMeetings as a string.',
    ['MSUM-01'],
    ['getMeetingsSummary'],
    rewriteBody(
      ['getMeetingsSummary'],
      eachRecord((record) => (record['totalMeetings'] = String(record['totalMeetings']))),
    ),
  ),
  fault(
    'only-summary-defaults-false',
    'getMeetingStats without onlySummary answers records, as if onlySummary defaulted to false.',
    ['MST-01'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      query['onlySummary'] ??= 'false';
    }),
  ),
  fault(
    'stats-price-string',
    'Meeting statistics records carry price as a string.',
    ['MST-04'],
    ['getMeetingStats'],
    rewriteBody(
      ['getMeetingStats'],
      eachRecord((record) => 'price' in record && (record['price'] = String(record['price']))),
    ),
  ),
  fault(
    'stats-participant-name-null',
    'Participant entries of meeting statistics records carry name null.',
    ['MST-05', 'FMT-03'],
    ['getMeetingStats'],
    rewriteBody(
      ['getMeetingStats'],
      eachRecord((record) => itemsOf(record['participants']).forEach((entry) => (entry['name'] = null))),
    ),
  ),
  ...(
    [
      ['month', 'MST-07', ['month']],
      ['date-range', 'MST-09', ['initialDate', 'endDate']],
      ['group', 'MST-12', ['groupId']],
      ['environment', 'MST-11', ['environment']],
    ] as const
  ).map(([filter, requirement, parameters]) =>
    fault(
      `stats-${filter}-filter-ignored`,
      `getMeetingStats ignores ${parameters.join(' and ')}${filter === 'environment' ? ' (always production)' : ''}.`,
      [requirement],
      ['getMeetingStats'],
      beforeHandler(['getMeetingStats'], (request) => {
        const query = queryOf(request);
        for (const parameter of parameters) delete query[parameter];
      }),
    ),
  ),

  // ------------------------------------------------------------ meeting close
  fault(
    'second-close-answers-200',
    'Closing a meeting that has already ended answers 200 {} instead of 500.',
    ['CLOSE-03', 'ERR-03'],
    ['closeMeeting'],
    rewriteBody(
      ['closeMeeting'],
      (_body, { reply }) => {
        reply.code(200);
        return {};
      },
      (status) => status === 500,
    ),
  ),
  fault(
    'close-keeps-participants',
    'Closing a meeting leaves its participants connected.',
    ['CLOSE-02'],
    ['closeMeeting', 'listRoomChannelParticipants'],
    closeKeepsParticipants,
  ),
  fault(
    'close-answers-body',
    'closeMeeting answers 200 with {"closed": true} instead of the empty object.',
    ['CLOSE-01'],
    ['closeMeeting'],
    rewriteBody(['closeMeeting'], () => ({ closed: true })),
  ),

  // ------------------------------------------------------------ realtime
  fault('events-over-250', 'Channel info returns up to 300 events.', ['RT-05'], ['getChannelInfo'], withBehaviour({ eventsLimit: 300 })),
  fault(
    'events-oldest-250',
    'Channel info returns the oldest 250 events instead of the newest.',
    ['RT-06'],
    ['getChannelInfo'],
    withBehaviour({ lastEvents: (events, limit) => events.slice(0, limit) }),
  ),
  fault(
    'channel-api-key-missing',
    'The channel object lacks apiKey.',
    ['RT-02', 'FMT-03'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      delete channelOf(body)?.['apiKey'];
      return body;
    }),
  ),
  fault(
    'event-data-string',
    'Channel events carry data as a JSON string instead of an object.',
    ['RT-04'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      for (const event of eventsOf(body)) event['data'] = JSON.stringify(event['data']);
      return body;
    }),
  ),
  fault(
    'versioned-participant-channel-missing',
    'Participants of the versioned interface lack channel.',
    ['RT-07', 'RT-08', 'FMT-03'],
    ['getChannelInfo', 'listChannelParticipants'],
    rewriteBody(
      ['listChannelParticipants'],
      eachRecord((record) => delete record['channel']),
    ),
    rewriteBody(['getChannelInfo'], (body) => {
      for (const participant of connectedOf(body)) delete participant['channel'];
      return body;
    }),
  ),
  fault(
    'room-participant-room-id-missing',
    'Participants of listRoomChannelParticipants lack roomId.',
    ['RT-09', 'RT-10', 'FMT-03'],
    ['listRoomChannelParticipants'],
    rewriteBody(
      ['listRoomChannelParticipants'],
      eachRecord((record) => delete record['roomId']),
    ),
  ),

  // ------------------------------------------------------------ bad input
  fault(
    'invalid-json-500',
    'A body that is not valid JSON (or empty, sent as application/json) makes the service answer 500.',
    ['INP-01', 'INP-02'],
    BODY_OPERATIONS,
    beforeRoutes((app) => {
      app.removeContentTypeParser('application/json');
      app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string));
        } catch (error) {
          done(error as Error, undefined);
        }
      });
    }),
  ),
  fault(
    'wrong-type-500',
    'A documented string field holding another JSON type makes the service answer 500.',
    ['INP-04'],
    BODY_OPERATIONS,
    beforeHandler(BODY_OPERATIONS, (request) => {
      const body = request.body;
      if (isObject(body) && STRING_FIELDS.some((field) => body[field] !== undefined && typeof body[field] !== 'string'))
        throw new TypeError('value.trim is not a function');
    }),
  ),
  fault(
    'bad-paging-query-500',
    'skip or take that is not a non-negative integer makes paginated lists answer 500.',
    ['INP-08'],
    ['listGroups', 'listGroupParticipants', 'listRecordings'],
    beforeHandler(['listGroups', 'listGroupParticipants', 'listRecordings'], (request) => {
      const query = queryOf(request);
      if (['skip', 'take'].some((name) => query[name] !== undefined && !/^\d+$/.test(String(query[name])))) throw unexpected('NaN in paging');
    }),
  ),

  // ------------------------------------------------------------ credentials echoed, opaque tokens (scripts/check-canary.ts)
  // The interface does not forbid echoing what a request carried: the first three break no
  // requirement, and exist to prove that the reports hold no credential the target sends back.
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

// ---------------------------------------------------------------- credentials echoed, opaque tokens

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

export function listFaults(): FaultDescription[] {
  return FAULTS.map(({ name, description, requirements }) => ({ name, description, requirements }));
}

export function findFault(name: string): Fault | undefined {
  return FAULTS.find((candidate) => candidate.name === name);
}
