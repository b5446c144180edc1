/**
 * Allowed variations of the transport: content type labels, compression, chunking. Applied last, since they
 * change the bytes the others read.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { headerValue, inFrontOfTheRouter } from '../faults/tools.ts';
import { everyAnswer, relabelJson, type Variation } from './tools.ts';

export const variations: readonly Variation[] = [
  {
    name: 'content-type-without-charset',
    description: 'JSON answers are labelled application/json with no charset parameter.',
    basis: 'Addresses: "All bodies are JSON." JSON is UTF-8 (RFC 8259); the charset parameter is optional.',
    excludes: ['content-type-charset-upper'],
    apply: relabelJson((bare) => bare),
  },
  {
    name: 'content-type-charset-upper',
    description: 'JSON answers are labelled application/json;charset=UTF-8 (no space, upper case).',
    basis: 'Addresses: "All bodies are JSON." Media type parameters are case-insensitive (RFC 9110).',
    excludes: ['content-type-without-charset'],
    apply: relabelJson((bare) => `${bare};charset=UTF-8`),
  },
  {
    name: 'gzip',
    description: 'Answers are gzip-compressed when the request accepts gzip.',
    basis: 'The interface states nothing about content codings; HTTP clients that announce gzip accept it (RFC 9110).',
    apply: everyAnswer((payload, { request, reply }) => {
      if (
        !/\bgzip\b/i.test(headerValue(request, 'accept-encoding') ?? '') ||
        (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
        payload.length === 0
      )
        return payload;
      reply.header('content-encoding', 'gzip');
      return gzipSync(payload);
    }),
  },
  {
    name: 'invalid-uri-plain-400',
    description:
      'A request whose path is not a valid URI (a percent-encoding that does not decode: %zz, a cut UTF-8 escape) is refused by the HTTP server, before any plugin, with a plain-text 400 Bad Request, as Node, nginx and the proxies in front of real deployments answer it.',
    basis:
      "The interface states nothing about requests that are not valid URIs (RFC 3986); they never reach the application of most deployments, so its error body is not the application's.",
    requirement: 'INP-09',
    apply: inFrontOfTheRouter((_request, response) => {
      response.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
      response.end('Bad Request');
    }),
  },
  {
    name: 'chunked',
    description: 'Answers with a body are streamed with Transfer-Encoding: chunked (no Content-Length), in two chunks.',
    basis: 'The interface states nothing about framing; chunked transfer is plain HTTP/1.1.',
    apply: everyAnswer((payload) => {
      if ((typeof payload !== 'string' && !Buffer.isBuffer(payload)) || payload.length === 0) return payload;
      const bytes = Buffer.from(payload);
      const middle = Math.ceil(bytes.length / 2);
      return Readable.from([bytes.subarray(0, middle), bytes.subarray(middle)]);
    }),
  },
];
