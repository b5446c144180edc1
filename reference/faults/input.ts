/**
 * Faults of bad input: a malformed body or query answered 500 instead of a 4xx.
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { beforeHandler, beforeRoutes, fault, inFrontOfTheRouter, isObject, queryOf, unexpected, type Fault, type OperationId } from './tools.ts';

const BODY_OPERATIONS: readonly OperationId[] = ['login', 'upsertParticipant', 'createSecurityKey'];
/** The documented string fields of each body. */
const STRING_FIELDS = ['email', 'password', 'participantId', 'id', 'name', 'avatar', 'passphrase'];

export const faults: readonly Fault[] = [
  fault(
    'invalid-json-500',
    'A body that is not valid JSON (or empty, sent as application/json) makes the service answer 500.',
    ['INP-01', 'INP-02'],
    BODY_OPERATIONS,
    beforeRoutes((app) => {
      app.removeContentTypeParser('application/json');
      app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string));
        } catch (error) {
          done(error as Error, undefined);
        }
      });
    }),
  ),
  fault(
    'wrong-type-500',
    'A documented string field holding another JSON type makes the service answer 500.',
    ['INP-04'],
    BODY_OPERATIONS,
    beforeHandler(BODY_OPERATIONS, (request) => {
      const body = request.body;
      if (isObject(body) && STRING_FIELDS.some((field) => body[field] !== undefined && typeof body[field] !== 'string'))
        throw new TypeError('value.trim is not a function');
    }),
  ),
  fault(
    'bad-paging-query-500',
    'skip or take that is not a non-negative integer makes paginated lists answer 500.',
    ['INP-08'],
    ['listGroups', 'listGroupParticipants', 'listRecordings'],
    beforeHandler(['listGroups', 'listGroupParticipants', 'listRecordings'], (request) => {
      const query = queryOf(request);
      if (['skip', 'take'].some((name) => query[name] !== undefined && !/^\d+$/.test(String(query[name])))) throw unexpected('NaN in paging');
    }),
  ),
  fault(
    'undecodable-path-500',
    'A path whose percent-encoding does not decode (%E0%A4%A, %zz) makes the service answer 500, as a server that decodes it unguarded does.',
    ['INP-09'],
    ['getGroup', 'listGroupParticipants', 'getParticipant', 'archiveParticipant', 'getChannelInfo', 'listChannelParticipants', 'listRoomChannelParticipants'],
    inFrontOfTheRouter((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'URIError: URI malformed' }));
    }),
  ),
];
