import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from './errors.ts';

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('body is not valid JSON');
  }
}

/**
 * Replaces Fastify's JSON parser so that an empty body with a JSON content type counts as no body
 * (clients often send the header on a bodyless PUT); the handlers then validate what they need.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJson(body as string));
    } catch (error) {
      done(error as HttpError, undefined);
    }
  });
}

const isJsonContentType = (value: string): boolean => /^application\/json\s*(;|$)/i.test(value.trim());

/**
 * Reads the JSON body of a GET request, which Fastify does not parse (the close operation takes
 * its API key there). Same limits and errors as the parsed methods.
 */
export async function readGetBody(request: FastifyRequest, bodyLimit: number): Promise<unknown> {
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    throw new HttpError(415, `Unsupported Media Type: ${contentType}`);
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > bodyLimit) throw new HttpError(413, 'Request body is too large');
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of request.raw) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    received += buffer.length;
    if (received > bodyLimit) throw new HttpError(413, 'Request body is too large');
    chunks.push(buffer);
  }
  return parseJson(Buffer.concat(chunks).toString('utf8'));
}
