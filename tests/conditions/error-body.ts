/**
 * What the interface states about error bodies: statusCode, when present, is the HTTP status;
 * error, when present, is the status name; and the general error body (statusCode, message and
 * error, which a 401 may leave out). Which operations each applies to is the catalogue's business,
 * decided where the condition is called.
 */
import { STATUS_CODES } from 'node:http';
import { fail, isRecord, shown } from './condition.ts';
import type { Answer } from './condition.ts';

/** RFC 9110 renamed these reason phrases; the older names, which Node still uses, are the status name too. */
const RFC_9110_NAMES: Readonly<Record<number, string>> = { 413: 'Content Too Large', 416: 'Range Not Satisfiable', 422: 'Unprocessable Content' };

/** The names of a status: Node's and RFC 9110's, exactly as written there. */
export function statusNames(status: number): string[] {
  return [STATUS_CODES[status], RFC_9110_NAMES[status]].filter((name): name is string => name !== undefined);
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
  if (typeof error !== 'string' || !statusNames(answer.status).includes(error)) {
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
  if (error === undefined ? status !== 401 : typeof error !== 'string' || !statusNames(status).includes(error)) {
    problems.push(`error is ${shown(error)}, not the status name ${named(status)}`);
  }
  if (problems.length > 0) fail(`the HTTP ${status} body is not the general error body: ${problems.join('; ')}`, answer);
}
