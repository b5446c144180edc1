/**
 * Allowed variations of every answer: extra fields, extra headers, latency.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { isObject, operationOf, type JsonObject, type OptionsTransform } from '../faults/tools.ts';
import { everyAnswer, everyJsonAnswer, type Variation } from './tools.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Extra properties on every object of every JSON answer; one of them counts the answers (state per built instance). */
const extraFields: OptionsTransform = (options) => {
  let answers = 0;
  return everyJsonAnswer((body, { request, reply }) => {
    if (operationOf(request) === 'closeMeeting' && reply.statusCode === 200) return undefined;
    // One value per answer: extra fields need not be stable across two reads of the same data.
    answers += 1;
    const answer = answers;
    const extend = (value: unknown, key?: string): unknown => {
      if (Array.isArray(value)) return value.map((item) => extend(item));
      // An event's data is what a participant published, not an object of the service: left as published.
      if (!isObject(value) || key === 'data') return value;
      const copy: JsonObject = Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, extend(inner, field)]));
      if (key === 'pagination') {
        const page = Number(copy['page']);
        copy['hasNextPage'] = page < Number(copy['totalPages']);
        copy['hasPreviousPage'] = page > 1;
      }
      return { ...copy, vendorRevision: 7, vendorNote: 'extra field', vendorAnswer: answer };
    };
    return extend(body);
  })(options);
};

export const variations: readonly Variation[] = [
  {
    name: 'extra-fields',
    description:
      "Every object of every JSON answer carries extra properties (pagination too: hasNextPage, hasPreviousPage), one of them different in every answer (vendorAnswer, a count of answers), except the close's empty object and the data events carry (what a participant published).",
    basis: 'The field tables list what an object carries; none says it carries nothing else. Endpoint 13: "200: empty object" is kept empty.',
    apply: extraFields,
  },
  {
    name: 'extra-headers',
    description: 'Every answer carries extra headers: cache-control, a request id, CORS and vary.',
    basis: 'The interface states no response headers.',
    apply: everyAnswer((payload, { request, reply }) => {
      reply
        .header('cache-control', 'no-store')
        .header('x-request-id', request.id)
        .header('access-control-allow-origin', '*')
        .header('vary', 'Origin, Accept-Encoding');
      return payload;
    }),
  },
  {
    name: 'latency',
    description: 'Every answer is sent 40 ms late.',
    basis: 'The interface states no response time.',
    apply: everyAnswer(async (payload) => {
      await sleep(40);
      return payload;
    }),
  },
];
