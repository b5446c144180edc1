/**
 * Allowed variations of the recordings: the filters and the urls.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { eachRecord, environmentOf, isObject, queryOf, rewriteBody } from '../faults/tools.ts';
import type { EnvironmentData } from '../store.ts';
import { refusedWithout, wrapBehaviour, type Variation } from './tools.ts';

/**
 * When each recording of `data` started: the end of the previous recording of its meeting, or the
 * start of the meeting for its first (recording is switched on and off during a meeting).
 */
function recordingStarts(data: EnvironmentData): Map<string, number> {
  const starts = new Map<string, number>();
  const ended = data.recordings.filter((recording) => recording.endedAt !== null).sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
  const previousEnd = new Map<string, number>();
  for (const recording of ended) {
    const start = previousEnd.get(recording.meetingId) ?? data.meetings.get(recording.meetingId)?.startedAt ?? recording.endedAt ?? 0;
    starts.set(recording.uuid, start);
    previousEnd.set(recording.meetingId, recording.endedAt ?? start);
  }
  return starts;
}

export const variations: readonly Variation[] = [
  {
    name: 'recordings-filter-required',
    description: 'GET /recording without roomId and meetingId is refused with 400.',
    basis: 'Endpoint 8: "Whether at least one filter is required: not shown."',
    excludes: ['recordings-filters-union'],
    apply: refusedWithout(
      'listRecordings',
      (auth, request) => auth.bearerAndApiKey(request),
      (query) => query['roomId'] === undefined && query['meetingId'] === undefined,
      'roomId or meetingId is required',
    ),
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
    name: 'recording-created-at-start',
    description:
      "A recording's createdAt is when the recording started (the end of the meeting's previous recording, or the meeting's start), not when it ended; it still becomes available the stated delay after its end.",
    basis:
      'Recording: "createdAt: creation date-time"; States: processing becomes available "about 5 minutes" after "the end of the recording"; whether the record is created at the start or the end: not shown.',
    requirement: 'REC-09',
    apply: rewriteBody(['listRecordings'], (body, { request, app }) => {
      const data = environmentOf(request);
      if (data === undefined) return undefined;
      const starts = recordingStarts(data);
      return eachRecord((record) => {
        const start = starts.get(String(record['uuid']));
        if (start !== undefined && 'createdAt' in record) record['createdAt'] = app.reference.behaviour.formatTimestamp(start);
      })(body);
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
