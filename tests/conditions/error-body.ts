/**
 * What the interface states about error bodies: statusCode, when present, is the HTTP status;
 * error, when present, is the status name; and the general error body (statusCode, message and
 * error, which a 401 may leave out). Which operations each applies to is the catalogue's business,
 * decided where the condition is called.
 */
import { STATUS_CODES } from 'node:http';
import { isRecord } from '../../fixtures/index.ts';
import { fail, shown } from './condition.ts';
import type { Answer } from './condition.ts';

/**
 * Other names a status has had: RFC 9110's (Node still uses the older ones) and RFC 2616's, which
 * some platforms still send (Go's http.StatusText(413) is "Request Entity Too Large"). Each is the
 * status name.
 */
const OTHER_NAMES: Readonly<Record<number, readonly string[]>> = {
  413: ['Content Too Large', 'Request Entity Too Large'],
  414: ['Request-URI Too Long'],
  416: ['Range Not Satisfiable', 'Requested Range Not Satisfiable'],
  422: ['Unprocessable Content'],
};

/** The names of a status: Node's, RFC 9110's and RFC 2616's, as written there. */
export function statusNames(status: number): string[] {
  return [...new Set([STATUS_CODES[status], ...(OTHER_NAMES[status] ?? [])].filter((name): name is string => name !== undefined))];
}

/**
 * Whether a value names the status. The interface says `error` is the HTTP status name, not in which
 * letter case, so case and surrounding spaces are not judged (no two status names differ only in case).
 */
export function namesStatus(status: number, value: unknown): boolean {
  return typeof value === 'string' && statusNames(status).some((name) => name.toLowerCase() === value.trim().toLowerCase());
}

const named = (status: number): string => statusNames(status).join(' or ') || 'no known name';

/** statusCode, when the body carries it, is the HTTP status. */
export function statusCodeIsStatus(answer: Answer): void {
  const body = answer.json;
  if (!isRecord(body) || !('statusCode' in body) || body['statusCode'] === answer.status) return;
  fail(`statusCode ${shown(body['statusCode'])} in the body of an HTTP ${answer.status}`, answer);
}

/** error, when the body carries it, is the name of the HTTP status. */
export function errorIsStatusName(answer: Answer): void {
  const body = answer.json;
  if (!isRecord(body) || !('error' in body)) return;
  const error = body['error'];
  if (!namesStatus(answer.status, error)) {
    fail(`error ${shown(error)} is not the name of HTTP ${answer.status} (${named(answer.status)})`, answer);
  }
}

/** The general error body: statusCode equal to the status, message a string, error the status name (which a 401 may leave out). */
export function isGeneralErrorBody(answer: Answer): void {
  const { status } = answer;
  const body = answer.json;
  if (!isRecord(body)) fail(`the HTTP ${status} body is not a JSON object: ${answer.text.slice(0, 200) || '(empty)'}`, answer);
  const problems: string[] = [];
  if (body['statusCode'] !== status) problems.push(`statusCode is ${shown(body['statusCode'])}, not the status ${status}`);
  if (typeof body['message'] !== 'string') problems.push(`message is ${shown(body['message'])}, not a string`);
  const error = body['error'];
  if (error === undefined ? status !== 401 : !namesStatus(status, error)) {
    problems.push(`error is ${shown(error)}, not the status name ${named(status)}`);
  }
  if (problems.length > 0) fail(`the HTTP ${status} body is not the general error body: ${problems.join('; ')}`, answer);
}

/**
 * The error body the interface shows for an answer (the 401 of login, the 403 of the usage limit,
 * the 500 of an ended meeting): statusCode equal to the HTTP status, and each of `strings` a string.
 */
export function isDocumentedErrorBody(answer: Answer, strings: readonly ('message' | 'error')[]): void {
  const { status } = answer;
  const body = answer.json;
  if (!isRecord(body)) fail(`the HTTP ${status} body is not a JSON object: ${answer.text.slice(0, 200) || '(empty)'}`, answer);
  const problems: string[] = [];
  if (body['statusCode'] !== status) problems.push(`statusCode is ${shown(body['statusCode'])}, expected ${status}`);
  for (const name of strings) if (typeof body[name] !== 'string') problems.push(`${name} is ${shown(body[name])}, expected a string`);
  if (problems.length > 0) fail(`the HTTP ${status} body is not the documented error body: ${problems.join('; ')}`, answer);
}
