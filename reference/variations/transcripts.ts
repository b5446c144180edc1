/**
 * Allowed variations of the transcription statistics: the environment filter.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { beforeHandler, queryOf } from '../faults/tools.ts';
import { refusedWithout, type Variation } from './tools.ts';

export const variations: readonly Variation[] = [
  {
    name: 'transcripts-environment-production',
    description: 'GET /transcript/stats without environment returns the production records only (the default meeting statistics have), not both environments.',
    basis:
      'Endpoint 9: "Query: environment (string; allowed values development, production; filters the environment of the transcribed meetings)"; no default is given.',
    excludes: ['transcripts-environment-required'],
    apply: beforeHandler(['getTranscriptionStats'], (request) => {
      const query = queryOf(request);
      query['environment'] ??= 'production';
    }),
  },
  {
    name: 'transcripts-environment-required',
    description: 'GET /transcript/stats without environment is refused with 400 (after the credential check).',
    basis: 'Endpoint 9: environment is listed without "optional" and without a default.',
    excludes: ['transcripts-environment-production'],
    apply: refusedWithout(
      'getTranscriptionStats',
      (auth, request) => auth.bearer(request),
      (query) => query['environment'] === undefined,
      'environment is required',
    ),
  },
];
