/**
 * "All bodies are JSON": a response with a body declares a JSON media type (application/json or a
 * structured +json type, as the contract matcher reads the document) and carries text that parses as JSON.
 */
import { isJsonMediaType } from '../../fixtures/index.ts';
import { fail, shown } from './condition.ts';
import type { Answer } from './condition.ts';

/** The body is declared with a JSON media type. */
export function declaresJson(answer: Answer): void {
  const contentType = answer.headers['content-type'];
  if (contentType === undefined || !isJsonMediaType(contentType)) {
    fail(`the HTTP ${answer.status} body is declared ${contentType === undefined ? 'with no Content-Type' : `as ${contentType}`}, not as JSON`, answer);
  }
}

/** The body parses as JSON. */
export function parsesAsJson(answer: Answer): void {
  if (answer.json === undefined) fail(`the HTTP ${answer.status} body does not parse as JSON: ${answer.text.slice(0, 200)}`, answer);
}

/** The body is a JSON array (a list answered as a bare array). */
export function bodyIsArray(answer: Pick<Answer, 'status' | 'json' | 'curl'>): void {
  if (!Array.isArray(answer.json)) fail(`the HTTP ${answer.status} body is ${shown(answer.json, 200)}, not an array`, answer);
}
