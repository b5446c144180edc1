import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { resolveBehaviour } from './behaviour.ts';
import { installJsonParser } from './body.ts';
import type { ReferenceContext } from './context.ts';
import { HttpError, type ErrorBody } from './errors.ts';
import { createKeyPairPool } from './key-pool.ts';
import { resolveConfig, type ReferenceOptions } from './options.ts';
import { authPlugin } from './plugins/auth.ts';
import { groupsPlugin } from './plugins/groups.ts';
import { loginPlugin } from './plugins/login.ts';
import { meetingsPlugin } from './plugins/meetings.ts';
import { participantsPlugin } from './plugins/participants.ts';
import { realtimePlugin } from './plugins/realtime.ts';
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

/**
 * The reference implementation of both interfaces (realtime under /v2), built on a fresh copy of
 * the seed. Does not listen: use inject() or listen() on the result.
 */
export async function buildApp(options: ReferenceOptions = {}): Promise<FastifyInstance> {
  const config = resolveConfig(options);
  const now = options.now ?? Date.now;
  const startedAt = now();
  const seed = options.seed === undefined ? loadSeed() : structuredClone(options.seed);
  const store = createStore(seed, { startedAt, scale: config.seedScale });
  const behaviour = resolveBehaviour(options.behaviour);
  const keyPairs = createKeyPairPool(keyPairsAhead, behaviour.generateSecurityKeyPair, config.keyPairsAtStart);
  const context: ReferenceContext = { store, config, behaviour, now, startedAt, keyPairs };

  const describeError = (error: FastifyError | HttpError): { status: number; body: ErrorBody } => {
    const status = statusOf(error);
    const expected = error instanceof HttpError || status < 500;
    const includeError =
      status !== 401 || config.variants.unauthorizedIncludesError || (error instanceof HttpError && error.alwaysIncludeError);
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
  app.addHook('onClose', async () => keyPairs.close());
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
  await app.register(loginPlugin);
  await app.register(groupsPlugin);
  await app.register(participantsPlugin);
  await app.register(recordingsPlugin);
  await app.register(transcriptsPlugin);
  await app.register(securityPlugin);
  await app.register(meetingsPlugin);
  await app.register(realtimePlugin);
  for (const extension of options.afterRoutes ?? []) await extension(app);
  return app;
}
