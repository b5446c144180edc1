import type { FastifyPluginAsync } from 'fastify';
import { badRequest, forbidden } from '../errors.ts';
import { environments, type Environment } from '../seed-types.ts';
import { MAIN_ACCOUNT, type TranscriptionRecord } from '../store.ts';
import { asQuery, queryValue } from '../validation.ts';

function parseEnvironment(raw: string | undefined): Environment | undefined {
  if (raw === undefined) return undefined;
  const environment = environments.find((candidate) => candidate === raw);
  if (environment === undefined) throw badRequest('environment must be development or production');
  return environment;
}

/**
 * Operation 9: transcription records of both environments unless `environment` narrows them.
 * Every authenticated request counts towards the account's usage limit; past it the answer is 403.
 */
export const transcriptsPlugin: FastifyPluginAsync = async (app) => {
  const { store, behaviour, config, now } = app.reference;

  const view = (record: TranscriptionRecord): Record<string, unknown> => ({
    uuid: record.uuid,
    meetingId: record.meetingId,
    minutes: record.minutes,
    startedAt: behaviour.formatTimestamp(record.startedAt),
    finishedAt: behaviour.formatTimestamp(record.finishedAt),
    groupId: record.groupId,
    groupName: record.groupName,
    createdAt: behaviour.formatTimestamp(record.createdAt),
    updatedAt: behaviour.formatTimestamp(record.updatedAt),
  });

  app.get('/transcript/stats', async (request, reply) => {
    const user = await app.auth.bearer(request);
    const at = now();
    const usage = behaviour.countUsage(store.usage.get(user.id), at, config.usageWindowMs);
    store.usage.set(user.id, usage);
    if (usage.count > config.usageLimit) {
      reply.header('retry-after', String(Math.max(1, Math.ceil((usage.windowStart + config.usageWindowMs - at) / 1000))));
      throw forbidden('Usage limit reached for transcription statistics');
    }
    const environment = parseEnvironment(queryValue(asQuery(request.query), 'environment'));
    return store.transcriptions
      .filter(
        (record) => (record.account ?? MAIN_ACCOUNT) === (user.account ?? MAIN_ACCOUNT) && (environment === undefined || record.environment === environment),
      )
      .map(view);
  });
};
