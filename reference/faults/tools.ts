import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Behaviour } from '../behaviour.ts';
import { HttpError } from '../errors.ts';
import type { ReferenceExtension, ReferenceOptions } from '../options.ts';
import type { Environment } from '../seed-types.ts';
import type { EnvironmentData, User } from '../store.ts';

/**
 * Building blocks of the fault catalogue. A fault never edits the reference's code: it replaces a
 * named piece of `Behaviour`, or registers hooks on the root instance (before the API plugins, so
 * that they see every route) that rewrite a request before its handler or a response after it, or
 * wraps a method of the authenticator once it exists.
 */

/** The reference's route (method and Fastify URL pattern) of each operation of docs/architecture.md. */
export const OPERATION_ROUTES = {
  login: 'POST /login',
  listGroups: 'GET /groups',
  getGroup: 'GET /groups/:id',
  listGroupParticipants: 'GET /groups/participants/:groupId',
  upsertParticipant: 'POST /participants',
  getParticipant: 'GET /participants/:id',
  archiveParticipant: 'PUT /participants/:id/archive',
  listRecordings: 'GET /recording',
  getTranscriptionStats: 'GET /transcript/stats',
  createSecurityKey: 'POST /security',
  getMeetingsSummary: 'GET /meetings/summary',
  getMeetingStats: 'GET /meetingstats',
  closeMeeting: 'GET /meeting/close/:meetingId',
  getChannelInfo: 'GET /v2/realtime/:channel',
  listChannelParticipants: 'GET /v2/realtime/participants/:channel_name',
  listRoomChannelParticipants: 'GET /realtime/participants/:room/:channel',
} as const;

export type OperationId = keyof typeof OPERATION_ROUTES;

export const OPERATIONS = Object.keys(OPERATION_ROUTES) as OperationId[];

/** Routes as registered inside their interface's plugin, i.e. without the path prefix of the layout (/v2 by default). */
const operationByRoute = new Map<string, OperationId>(OPERATIONS.map((operation) => [OPERATION_ROUTES[operation].replace(/^(\w+) \/v2\//, '$1 /'), operation]));

/**
 * The operation a routed request belongs to; undefined for the 404 handler and the media route.
 * The route's own encapsulation context knows the prefix it was registered under, so this holds
 * for any layout (reference/options.ts).
 */
export function operationOf(request: FastifyRequest): OperationId | undefined {
  const url = request.routeOptions.url;
  if (url === undefined) return undefined;
  const prefix = request.server.prefix;
  return url.startsWith(prefix) ? operationByRoute.get(`${request.method} ${url.slice(prefix.length)}`) : undefined;
}

/**
 * The operations whose credentials include each scheme (docs/architecture.md). Operations 2 to 8 of
 * its table, listGroups to listRecordings, take either; OPERATIONS keeps the table's order.
 */
const BEARER_OR_API_KEY_OPERATIONS = OPERATIONS.slice(OPERATIONS.indexOf('listGroups'), OPERATIONS.indexOf('listRecordings') + 1);
export const BEARER_OPERATIONS: readonly OperationId[] = [
  ...BEARER_OR_API_KEY_OPERATIONS,
  'getTranscriptionStats',
  'createSecurityKey',
  'getMeetingStats',
  'closeMeeting',
];
export const API_KEY_HEADER_OPERATIONS: readonly OperationId[] = [...BEARER_OR_API_KEY_OPERATIONS, 'getMeetingsSummary', 'listRoomChannelParticipants'];
export const PAGINATED_OPERATIONS: readonly OperationId[] = ['listGroups', 'listGroupParticipants', 'getMeetingStats'];

// ---------------------------------------------------------------- composing option transforms

export type OptionsTransform = (options: ReferenceOptions) => ReferenceOptions;

export const compose =
  (...transforms: OptionsTransform[]): OptionsTransform =>
  (options) =>
    transforms.reduce((current, transform) => transform(current), options);

export const withBehaviour =
  (overrides: Partial<Behaviour>): OptionsTransform =>
  (options) => ({ ...options, behaviour: { ...options.behaviour, ...overrides } });

export const beforeRoutes =
  (extension: ReferenceExtension): OptionsTransform =>
  (options) => ({ ...options, beforeRoutes: [...(options.beforeRoutes ?? []), extension] });

export const afterRoutes =
  (extension: ReferenceExtension): OptionsTransform =>
  (options) => ({ ...options, afterRoutes: [...(options.afterRoutes ?? []), extension] });

/**
 * Answers a request whose path is not a valid URI (a percent-encoding that does not decode: `%zz`,
 * a cut UTF-8 escape) in front of the router, as the HTTP server or a proxy before the application
 * would: such a path never reaches a route or a hook (the router refuses it first). Other requests
 * go on to the instance. Works on a listening instance (inject() calls the router directly).
 */
export const inFrontOfTheRouter = (answerInvalidUri: (request: IncomingMessage, response: ServerResponse) => void): OptionsTransform =>
  beforeRoutes((app) => {
    const routed = app.server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
    app.server.removeAllListeners('request');
    app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      try {
        decodeURIComponent((request.url ?? '').split('?')[0] ?? '');
      } catch {
        answerInvalidUri(request, response);
        return;
      }
      for (const listener of routed) listener(request, response);
    });
  });

// ---------------------------------------------------------------- hooks on chosen operations

type RequestHook = (request: FastifyRequest, reply: FastifyReply, app: FastifyInstance) => void | Promise<void>;

function hookOn(stage: 'onRequest' | 'preHandler', operations: readonly OperationId[], hook: RequestHook): OptionsTransform {
  const chosen = new Set(operations);
  return beforeRoutes((app) => {
    app.addHook(stage, async (request, reply) => {
      const operation = operationOf(request);
      if (operation !== undefined && chosen.has(operation)) await hook(request, reply, app);
    });
  });
}

/** Runs before the body is parsed: for rewriting headers (credentials). */
export const onRequest = (operations: readonly OperationId[], hook: RequestHook): OptionsTransform => hookOn('onRequest', operations, hook);

/** Runs after the body and query are parsed, just before the handler. */
export const beforeHandler = (operations: readonly OperationId[], hook: RequestHook): OptionsTransform => hookOn('preHandler', operations, hook);

const isSuccess = (status: number): boolean => status >= 200 && status < 300;
export const isError = (status: number): boolean => status >= 400;

interface ResponseContext {
  request: FastifyRequest;
  reply: FastifyReply;
  app: FastifyInstance;
}

/**
 * Rewrites the JSON body the chosen operations answer with a status in `statuses` (default: 2xx).
 * `rewrite` returns the new body, or undefined to leave the answer unchanged; it may also change
 * the status with `reply.code()`.
 */
export function rewriteBody(
  operations: readonly OperationId[],
  rewrite: (body: unknown, context: ResponseContext) => unknown,
  statuses: (status: number) => boolean = isSuccess,
): OptionsTransform {
  const chosen = new Set(operations);
  return beforeRoutes((app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      const operation = operationOf(request);
      if (operation === undefined || !chosen.has(operation) || !statuses(reply.statusCode) || typeof payload !== 'string') return payload;
      const changed: unknown = await rewrite(JSON.parse(payload) as unknown, { request, reply, app });
      return changed === undefined ? payload : JSON.stringify(changed);
    });
  });
}

/** Runs after the handler of the chosen operations answered, whatever the status; the answer is sent unchanged. */
export function afterHandler(operations: readonly OperationId[], hook: RequestHook): OptionsTransform {
  const chosen = new Set(operations);
  return beforeRoutes((app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      const operation = operationOf(request);
      if (operation !== undefined && chosen.has(operation)) await hook(request, reply, app);
      return payload;
    });
  });
}

// ---------------------------------------------------------------- small helpers for rewrites

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The items of a bare array or of a pagination envelope's data. */
export function itemsOf(body: unknown): JsonObject[] {
  const items = Array.isArray(body) ? body : isObject(body) && Array.isArray(body['data']) ? body['data'] : [];
  return items.filter(isObject);
}

/** Applies `change` to every item of a list body (bare array or envelope) or to a single object body. */
export function eachRecord(change: (record: JsonObject) => void): (body: unknown) => unknown {
  return (body) => {
    const records = Array.isArray(body) || (isObject(body) && Array.isArray(body['data'])) ? itemsOf(body) : isObject(body) ? [body] : [];
    records.forEach(change);
    return body;
  };
}

export function renameField(record: JsonObject, from: string, to: string): void {
  if (!(from in record)) return;
  record[to] = record[from];
  delete record[from];
}

/** A header value as Node hands it over (lower-case name), or undefined. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The header names exactly as the client wrote them on the wire. */
export function rawHeaderNames(request: FastifyRequest): string[] {
  return request.raw.rawHeaders.filter((_, index) => index % 2 === 0);
}

// ---------------------------------------------------------------- credentials

export function developer(app: FastifyInstance): User {
  const user = app.reference.store.users.find((candidate) => candidate.developer);
  if (user === undefined) throw new Error('the seed holds no developer account');
  return user;
}

/** A valid bearer token of `user`, issued the way login issues one. */
export function tokenFor(app: FastifyInstance, user: User): Promise<string> {
  const { store, behaviour, config, now } = app.reference;
  return behaviour.issueToken(store.jwtSecret, user.id, now(), config.tokenTtlS);
}

export function apiKeyOf(app: FastifyInstance, environment: Environment): string {
  const entry = [...app.reference.store.apiKeys].find(([, keyEnvironment]) => keyEnvironment === environment);
  if (entry === undefined) throw new Error(`the seed holds no ${environment} API key`);
  return entry[0];
}

/** True when `check` rejects the request with a 401. */
export async function fails(check: () => unknown): Promise<boolean> {
  try {
    await check();
    return false;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 401) return true;
    throw error;
  }
}

/** The user a bearer header names, when its token is valid. */
export async function bearerUser(app: FastifyInstance, request: FastifyRequest): Promise<User | undefined> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(request, 'authorization') ?? '')?.[1];
  if (token === undefined) return undefined;
  const { store, behaviour, now } = app.reference;
  const userId = await behaviour.verifyToken(store.jwtSecret, token, now());
  return store.users.find((user) => user.id === userId);
}

// ---------------------------------------------------------------- narrow faults (one page, one item, one answer in N)

/** Switches on a documented variant as well: a fault of one variant's form (VAR-01's envelope, say) needs that form. */
export const withVariant =
  (name: string): OptionsTransform =>
  (options) => ({ ...options, variants: [...new Set([...(options.variants ?? []), name])] });

/**
 * A transform whose state (a counter, a saved record) belongs to one built instance: `make` runs
 * once per application of the fault, so that two instances never share it.
 */
export const perInstance =
  (make: () => OptionsTransform): OptionsTransform =>
  (options) =>
    make()(options);

/** True on every `n`th call (the nth, 2nth, ...): a deterministic "one answer in n". */
export function everyNth(n: number): () => boolean {
  let calls = 0;
  return () => {
    calls += 1;
    return calls % n === 0;
  };
}

/** A query parameter that holds a decimal integer, or undefined. */
export function queryInteger(request: FastifyRequest, name: string): number | undefined {
  const query = request.query;
  const value = isObject(query) ? query[name] : undefined;
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The mutable array of items of a list body: the bare array itself or an envelope's data. */
export function listArray(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  return isObject(body) && Array.isArray(body['data']) ? body['data'] : undefined;
}

// ---------------------------------------------------------------- what a fault is

/** A named deviation from the interface as written, declaring the requirements it violates. */
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

export function fault(
  name: string,
  description: string,
  requirements: readonly string[],
  operations: readonly OperationId[],
  ...transforms: OptionsTransform[]
): Fault {
  return { name, description, requirements, operations, apply: compose(...transforms) };
}

// ---------------------------------------------------------------- requests and answers of the faults

/** The parsed query; the hooks of a fault may change it before the handler reads it. */
export const queryOf = (request: FastifyRequest): JsonObject => (isObject(request.query) ? request.query : {});

/** The path parameters. */
export const paramsOf = (request: FastifyRequest): JsonObject => (isObject(request.params) ? request.params : {});

/** The events of channel info. */
export function eventsOf(body: unknown): JsonObject[] {
  return isObject(body) ? itemsOf(body['events']) : [];
}

/** Which environment the request's API key selects, or undefined when it has no valid one. */
export function environmentOf(request: FastifyRequest): EnvironmentData | undefined {
  const app = request.server;
  const environment = app.reference.store.apiKeys.get(headerValue(request, 'apikey') ?? '');
  return environment === undefined ? undefined : app.reference.store.environments[environment];
}

/** An error the reference does not expect: it answers 500. */
export const unexpected = (what: string): Error => new Error(`fault: ${what}`);
