import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound } from '../errors.ts';
import { paginate, parsePageRequest } from '../pagination.ts';
import { environments } from '../seed-types.ts';
import type { Recording } from '../store.ts';
import { asQuery, queryValue } from '../validation.ts';

/** The smallest ISO base media file header ('ftyp' box), so that the download is recognisably MP4. */
const mediaPlaceholder = Buffer.from('0000001866747970697336350000000069736f6d69736f32', 'hex');

/**
 * Operation 8: finished recordings of the environment, optionally by room and meeting (neither is
 * required; both together intersect). Also serves each recording's url, which answers only once
 * the recording is available.
 */
export const recordingsPlugin: FastifyPluginAsync = async (app) => {
  const { store, behaviour, config, now } = app.reference;

  // The media route lives under the main interface's prefix, like the other routes of this plugin.
  const origin = (request: FastifyRequest): string => `${request.protocol}://${request.host || '127.0.0.1'}${config.layout.basePath}`;

  const recordingView = (recording: Recording & { endedAt: number }, at: number, base: string): Record<string, unknown> => ({
    uuid: recording.uuid,
    url: behaviour.recordingUrl(base, recording.uuid),
    roomId: recording.roomId,
    status: behaviour.recordingStatus(recording.endedAt, at, config.recordingDelayMs),
    meetingId: recording.meetingId,
    createdAt: behaviour.formatTimestamp(recording.endedAt),
  });

  app.get('/recording', async (request) => {
    const { environment } = await app.auth.bearerAndApiKey(request);
    const query = asQuery(request.query);
    const roomId = queryValue(query, 'roomId');
    const meetingId = queryValue(query, 'meetingId');
    const pageRequest = config.variants.recordingsForm === 'envelope' ? parsePageRequest(query, behaviour) : undefined;
    const matching = app.auth
      .data(request, environment)
      .recordings.filter(
        (recording): recording is Recording & { endedAt: number } =>
          recording.endedAt !== null && (roomId === undefined || recording.roomId === roomId) && (meetingId === undefined || recording.meetingId === meetingId),
      );
    const at = now();
    const base = origin(request);
    if (pageRequest === undefined) return matching.map((recording) => recordingView(recording, at, base));
    const page = paginate(matching, pageRequest, behaviour);
    return { pagination: page.pagination, data: page.data.map((recording) => recordingView(recording, at, base)) };
  });

  app.get<{ Params: { file: string } }>('/media/recordings/:file', async (request, reply) => {
    const uuid = request.params.file.replace(/\.mp4$/, '');
    const recording = environments.flatMap((environment) => store.environments[environment].recordings).find((candidate) => candidate.uuid === uuid);
    const endedAt = recording?.endedAt ?? null;
    if (endedAt === null || behaviour.recordingStatus(endedAt, now(), config.recordingDelayMs) !== 'available') {
      throw notFound(`Recording ${uuid} is not available`);
    }
    return reply.type('video/mp4').send(mediaPlaceholder);
  });
};
