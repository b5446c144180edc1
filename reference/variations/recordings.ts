/**
 * Allowed variations of the recordings: the filters and the urls.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { badRequest } from '../errors.ts';
import { beforeHandler, environmentOf, isObject, queryOf, rewriteBody } from '../faults/tools.ts';
import { wrapBehaviour, type Variation } from './tools.ts';

export const variations: readonly Variation[] = [
  {
    name: 'recordings-filter-required',
    description: 'GET /recording without roomId and meetingId is refused with 400.',
    basis: 'Endpoint 8: "Whether at least one filter is required: not shown."',
    excludes: ['recordings-filters-union'],
    apply: beforeHandler(['listRecordings'], async (request, _reply, app) => {
      await app.auth.bearerAndApiKey(request);
      const { roomId, meetingId } = queryOf(request);
      if (roomId === undefined && meetingId === undefined) throw badRequest('roomId or meetingId is required');
    }),
  },
  {
    name: 'recordings-filters-union',
    description: 'GET /recording with both roomId and meetingId lists the recordings of the room and those of the meeting (union, not intersection).',
    basis: 'Endpoint 8: roomId "returns all recordings made in the room" and meetingId "returns the recordings of that meeting"; both together: not shown.',
    excludes: ['recordings-filter-required'],
    apply: rewriteBody(['listRecordings'], (body, { request, app }) => {
      const { roomId, meetingId } = queryOf(request);
      if (typeof roomId !== 'string' || typeof meetingId !== 'string' || !Array.isArray(body)) return undefined;
      // The handler intersected; the union adds the meeting's recordings in other rooms and the room's of other meetings.
      const known = new Set(body.filter(isObject).map((item) => item['uuid']));
      const data = environmentOf(request);
      const extra = (data?.recordings ?? []).filter(
        (recording) => recording.endedAt !== null && !known.has(recording.uuid) && (recording.roomId === roomId || recording.meetingId === meetingId),
      );
      const { behaviour, config, now } = app.reference;
      const base = `${request.protocol}://${request.host}${config.layout.basePath}`;
      return [
        ...body,
        ...extra.map((recording) => ({
          uuid: recording.uuid,
          url: behaviour.recordingUrl(base, recording.uuid),
          roomId: recording.roomId,
          status: behaviour.recordingStatus(recording.endedAt ?? 0, now(), config.recordingDelayMs),
          meetingId: recording.meetingId,
          createdAt: behaviour.formatTimestamp(recording.endedAt ?? 0),
        })),
      ];
    }),
  },
  {
    name: 'recording-url-signed',
    description: 'Recording urls carry an expiry and a signature in their query string, like a signed storage address.',
    basis: 'Recording: "url: temporary download/view address; it can expire".',
    apply: wrapBehaviour(
      'recordingUrl',
      (url) => (origin, uuid) => `${url(origin, uuid)}?expires=${Math.floor(Date.now() / 1000) + 3600}&signature=${uuid.replaceAll('-', '').slice(0, 16)}`,
    ),
  },
];
