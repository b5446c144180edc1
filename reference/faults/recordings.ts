/**
 * Faults of the recordings (listRecordings): the filters, the urls, the processing delay.
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import {
  beforeHandler,
  eachRecord,
  fault,
  isObject,
  listArray,
  queryOf,
  rewriteBody,
  withBehaviour,
  withVariant,
  type Fault,
  type OptionsTransform,
} from './tools.ts';

export const faults: readonly Fault[] = [
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
];

/** A fixed point of an open choice (docs/level-audit.md): the choice made in a way no reading allows. */
export const fixedPoints: readonly Fault[] = [
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
];

/** listRecordings filtered by `filter` alone leaves out the recording `drop` takes from a list of two or more. */
function dropsOneFilteredBy(filter: 'roomId' | 'meetingId', drop: (items: unknown[]) => void): OptionsTransform {
  const other = filter === 'roomId' ? 'meetingId' : 'roomId';
  return rewriteBody(['listRecordings'], (body, { request }) => {
    const query = queryOf(request);
    const items = listArray(body);
    if (query[filter] !== undefined && query[other] === undefined && items !== undefined && items.length >= 2) drop(items);
    return body;
  });
}

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
  fault(
    'recordings-room-filter-drops-last',
    'listRecordings with roomId (and no meetingId) leaves out the last recording of a room that has several (an off-by-one in the room query).',
    ['REC-04'],
    ['listRecordings'],
    dropsOneFilteredBy('roomId', (items) => items.pop()),
  ),
  fault(
    'recordings-meeting-filter-drops-first',
    'listRecordings with meetingId (and no roomId) leaves out the first recording of a meeting that has several.',
    ['REC-06'],
    ['listRecordings'],
    dropsOneFilteredBy('meetingId', (items) => items.shift()),
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
];
