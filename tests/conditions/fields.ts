/**
 * What a body holds field by field, where the interface states a field's type or value outside the
 * shapes of the OpenAPI document: a field that is a string, a field that is a string when present,
 * a body that is exactly the empty object.
 */
import { isRecord } from '../../fixtures/index.ts';
import { fail, shown } from './condition.ts';
import type { Answer } from './condition.ts';

const fieldOf = (body: unknown, name: string): unknown => (isRecord(body) ? body[name] : undefined);

/** The body carries `name`, a string. */
export function holdsString(answer: Pick<Answer, 'status' | 'json' | 'curl'>, name: string): void {
  const value = fieldOf(answer.json, name);
  if (typeof value !== 'string') fail(`${name} of the HTTP ${answer.status} body is ${shown(value)}: expected a string`, answer);
}

/** `name` of a record (a body, an object inside one) is a string when the record carries it. */
export function stringWhenPresent(record: unknown, name: string, answer?: Pick<Answer, 'curl'>): void {
  const value = fieldOf(record, name);
  if (value !== undefined && typeof value !== 'string') fail(`${name} is ${shown(value)}: expected a string, or no ${name}`, answer);
}

/** The body is exactly the empty JSON object. */
export function isEmptyObject(answer: Pick<Answer, 'status' | 'json' | 'text' | 'curl'>): void {
  const body = answer.json;
  if (!isRecord(body) || Object.keys(body).length > 0)
    fail(`the HTTP ${answer.status} body is ${body === undefined ? answer.text.slice(0, 200) || '(empty)' : shown(body)}: expected exactly {}`, answer);
}
