/**
 * Faults of the formats every answer shares: the content type, the timestamps.
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { afterHandler, eventsOf, fault, isError, OPERATIONS, rewriteBody, withBehaviour, type Fault } from './tools.ts';

/** Content types. */
export const contentTypes: readonly Fault[] = [
  fault(
    'errors-not-json',
    'Error answers are declared text/plain although their body is JSON.',
    ['FMT-04'],
    OPERATIONS,
    afterHandler(OPERATIONS, (_request, reply) => {
      if (isError(reply.statusCode)) reply.type('text/plain; charset=utf-8');
    }),
  ),
  fault(
    'bodies-text-plain',
    'Every answer is declared text/plain although its body is JSON.',
    ['FMT-04'],
    OPERATIONS,
    afterHandler(OPERATIONS, (_request, reply) => {
      reply.type('text/plain; charset=utf-8');
    }),
  ),
];

/** Timestamps. */
export const timestamps: readonly Fault[] = [
  fault(
    'timestamps-without-milliseconds',
    'String timestamps have no milliseconds (YYYY-MM-DDTHH:MM:SSZ).',
    ['FMT-01'],
    ['listGroups', 'getGroup', 'listGroupParticipants', 'getParticipant', 'archiveParticipant', 'listRecordings', 'getTranscriptionStats', 'getMeetingStats'],
    withBehaviour({ formatTimestamp: (epochMs) => new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z') }),
  ),
  fault(
    'timestamps-not-utc',
    'String timestamps are written with a +01:00 offset (same instant, not UTC).',
    ['FMT-01'],
    ['listGroups', 'getGroup', 'listGroupParticipants', 'getParticipant', 'archiveParticipant', 'listRecordings', 'getTranscriptionStats', 'getMeetingStats'],
    withBehaviour({ formatTimestamp: (epochMs) => new Date(epochMs + 3_600_000).toISOString().replace(/Z$/, '+01:00') }),
  ),
  fault(
    'event-timestamps-in-seconds',
    'Channel events carry timestamp in epoch seconds.',
    ['FMT-02'],
    ['getChannelInfo'],
    rewriteBody(['getChannelInfo'], (body) => {
      for (const event of eventsOf(body)) event['timestamp'] = Math.floor(Number(event['timestamp']) / 1000);
      return body;
    }),
  ),
];
