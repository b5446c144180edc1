/**
 * Faults of the transcription statistics (getTranscriptionStats).
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { environments } from '../seed-types.ts';
import { beforeHandler, eachRecord, fault, isObject, queryOf, rewriteBody, withBehaviour, type Fault } from './tools.ts';

export const faults: readonly Fault[] = [
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
];

/** A fixed point of an open choice (docs/level-audit.md): the choice made in a way no reading allows. */
export const fixedPoints: readonly Fault[] = [
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
];

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
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
];
