import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { resolveBehaviour } from './behaviour.ts';
import { installJsonParser } from './body.ts';
import type { ReferenceContext } from './context.ts';
import { HttpError, type ErrorBody } from './errors.ts';
import { createKeyPairPool } from './key-pool.ts';
import { ReferenceOptionError, resolveConfig, type ReferenceOptions } from './options.ts';
import { authPlugin } from './plugins/auth.ts';
import { groupsPlugin } from './plugins/groups.ts';
import { loginPlugin } from './plugins/login.ts';
import { meetingsPlugin } from './plugins/meetings.ts';
import { participantsPlugin } from './plugins/participants.ts';
import { roomRealtimePlugin, versionedRealtimePlugin } from './plugins/realtime.ts';
import { recordingsPlugin } from './plugins/recordings.ts';
import { securityPlugin } from './plugins/security.ts';
import { transcriptsPlugin } from './plugins/transcripts.ts';
import { createStore, loadSeed } from './store.ts';

export type { ReferenceOptions } from './options.ts';

/**
 * Security key pairs generated ahead once the first key has been asked for: one, so that the next
 * request finds a key ready. Each costs a hundred milliseconds of CPU or more whether or not anyone
 * asks for it.
 */
const keyPairsAhead = 1;

function statusOf(error: FastifyError | HttpError): number {
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

/** Which interfaces one Fastify instance serves. */
type Part = 'both' | 'main' | 'realtime';

/** The state every instance of one reference shares: one store, one clock, one key pool. */
function createContext(options: ReferenceOptions): ReferenceContext {
  const config = resolveConfig(options);
  const now = options.now ?? Date.now;
  const startedAt = now();
  const seed = options.seed === undefined ? loadSeed() : structuredClone(options.seed);
  const store = createStore(seed, { startedAt, scale: config.seedScale });
  const behaviour = resolveBehaviour(options.behaviour);
  const keyPairs = createKeyPairPool(keyPairsAhead, behaviour.generateSecurityKeyPair, config.keyPairsAtStart);
  return { store, config, behaviour, now, startedAt, keyPairs };
}

/** The API plugins of the main interface, registered together under its path prefix. */
async function mainInterface(app: FastifyInstance): Promise<void> {
  await app.register(loginPlugin);
  await app.register(groupsPlugin);
  await app.register(participantsPlugin);
  await app.register(recordingsPlugin);
  await app.register(transcriptsPlugin);
  await app.register(securityPlugin);
  await app.register(meetingsPlugin);
  await app.register(roomRealtimePlugin);
}

async function buildInstance(context: ReferenceContext, options: ReferenceOptions, part: Part): Promise<FastifyInstance> {
  const { config, behaviour, keyPairs, store } = context;
  const describeError = (error: FastifyError | HttpError): { status: number; body: ErrorBody } => {
    const status = statusOf(error);
    const expected = error instanceof HttpError || status < 500;
    const includeError = status !== 401 || config.variants.unauthorizedIncludesError || (error instanceof HttpError && error.alwaysIncludeError);
    return { status, body: behaviour.errorBody(status, expected ? error.message : 'An unexpected error occurred', includeError) };
  };

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimit,
    // Identifiers may be up to 191 characters, percent-encoded up to three times as long.
    routerOptions: { maxParamLength: 1000 },
    // Bad percent-encoding and over-long parameters, rejected before routing, get the same error body.
    frameworkErrors: (error, _request, reply) => {
      const { status, body } = describeError(error);
      // Fastify types this reply with an empty route generic that accepts no status code.
      return (reply as unknown as FastifyReply).code(status).send(body);
    },
  });
  app.decorate('store', store);
  app.decorate('reference', context);
  // The realtime-only instance of a separate origin never takes a key; the main one owns the pool.
  if (part !== 'realtime') app.addHook('onClose', async () => keyPairs.close());
  installJsonParser(app);

  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    const { status, body } = describeError(error);
    if (status >= 500 && !(error instanceof HttpError)) request.log.error(error);
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(behaviour.errorBody(404, `Route ${request.method} ${request.url.split('?')[0]} not found`, true)),
  );

  for (const extension of options.beforeRoutes ?? []) await extension(app);
  await app.register(authPlugin);
  if (part !== 'realtime') await app.register(mainInterface, { prefix: config.layout.basePath });
  if (part !== 'main') await app.register(versionedRealtimePlugin, { prefix: config.layout.realtimeBasePath });
  for (const extension of options.afterRoutes ?? []) await extension(app);
  return app;
}

/** The listeners of one reference: the main interface, and the realtime interface when it has its own origin. */
export interface ReferenceServers {
  main: FastifyInstance;
  /** Present when `layout.realtimeOrigin` is 'separate'; shares the main instance's store. */
  realtime?: FastifyInstance;
}

/**
 * The reference implementation as the layout asks: one instance serving both interfaces, or a main
 * and a realtime instance on one shared store (closing a meeting then empties the realtime lists).
 * Does not listen.
 */
export async function buildServers(options: ReferenceOptions = {}): Promise<ReferenceServers> {
  const context = createContext(options);
  if (context.config.layout.realtimeOrigin === 'same') return { main: await buildInstance(context, options, 'both') };
  return { main: await buildInstance(context, options, 'main'), realtime: await buildInstance(context, options, 'realtime') };
}

/**
 * The reference implementation of both interfaces on one instance (realtime under its prefix, /v2
 * by default), built on a fresh copy of the seed. Does not listen: use inject() or listen() on the
 * result. A layout with a separate realtime origin needs buildServers.
 */
export async function buildApp(options: ReferenceOptions = {}): Promise<FastifyInstance> {
  if (options.layout?.realtimeOrigin === 'separate') {
    throw new ReferenceOptionError('layout.realtimeOrigin', 'a separate realtime origin needs two listeners: use buildServers');
  }
  return (await buildServers(options)).main;
}
