import { badRequest } from './errors.ts';

/** Query objects as Fastify's parser yields them: repeated keys become arrays. */
export type Query = Record<string, string | string[] | undefined>;

/** Longest identifier or free-text field the reference accepts (the interface's own e-mail limit). */
export const maxFieldLength = 191;

export function asQuery(value: unknown): Query {
  return (typeof value === 'object' && value !== null ? value : {}) as Query;
}

/** The single value of a query parameter; a repeated parameter is ambiguous and rejected. */
export function queryValue(query: Query, name: string, maxLength = maxFieldLength): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`query parameter ${name} must be given once`);
  if (value.length > maxLength) throw badRequest(`query parameter ${name} must be at most ${maxLength} characters`);
  return value;
}

export function nonNegativeInteger(raw: string, name: string): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw badRequest(`${name} must be a non-negative integer`);
  return value;
}

export function booleanQuery(query: Query, name: string): boolean | undefined {
  const raw = queryValue(query, name);
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`${name} must be true or false`);
}

export type JsonObject = Record<string, unknown>;

export function objectBody(body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object');
  return body as JsonObject;
}

interface StringRule {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
}

export function stringField(body: JsonObject, name: string, rule: StringRule & { required: true }): string;
export function stringField(body: JsonObject, name: string, rule?: StringRule): string | undefined;
export function stringField(body: JsonObject, name: string, rule: StringRule = {}): string | undefined {
  const value = body[name];
  if (value === undefined) {
    if (rule.required === true) throw badRequest(`${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
  const { minLength = 0, maxLength = maxFieldLength } = rule;
  if (value.length < minLength) throw badRequest(`${name} must be at least ${minLength} characters`);
  if (value.length > maxLength) throw badRequest(`${name} must be at most ${maxLength} characters`);
  return value;
}
