/**
 * Helpers of the recordings spec: read listRecordings in either documented form (VAR-01: a bare
 * array or the pagination envelope), walking the envelope's pages within a stated bound.
 */
import { expect } from '../../fixtures/index.ts';
import type { ApiClient, Exchange, Recording } from '../../fixtures/index.ts';
import { relyOn, requestOf } from './reliance.ts';

export type RecordingsForm = 'bare array' | 'pagination envelope';

export interface RecordingsPagination {
  page: number;
  totalPages: number;
  limit: number;
  total: number;
}

export interface RecordingList {
  form: RecordingsForm;
  /** Every recording read, in the order the target listed them. */
  items: Recording[];
  /** False when an envelope holds more pages than MAX_RECORDING_PAGES. */
  complete: boolean;
  /** The first response, for tests that check it further. */
  first: Exchange;
}

/** At most this many envelope pages of one list are read (50 recordings at the default take). */
const MAX_RECORDING_PAGES = 5;

export type RecordingQuery = Record<string, string | number>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The documented form of a listRecordings body, if it has one: a bare array, or an envelope with a data array. */
export function formOf(json: unknown): RecordingsForm | undefined {
  if (Array.isArray(json)) return 'bare array';
  if (isObject(json) && Array.isArray(json['data']) && isObject(json['pagination'])) return 'pagination envelope';
  return undefined;
}

function pageOf(exchange: Exchange): { items: Recording[]; pagination?: RecordingsPagination } {
  if (Array.isArray(exchange.json)) return { items: exchange.json as Recording[] };
  const body = exchange.json as { data: Recording[]; pagination: RecordingsPagination };
  return { items: body.data, pagination: body.pagination };
}

/**
 * One page of listRecordings: a 200 in one of the two documented forms, which `governing` states
 * (VAR-01 unless the caller's own requirement does: a filter check judges its own filter's answer);
 * the recordings are then judged by the matcher, each issue on the requirement of its schema.
 */
export async function readPage(api: ApiClient, query: RecordingQuery, governing: string): Promise<Exchange> {
  const exchange = await api.call('listRecordings', { query });
  await relyOn(governing, `listRecordings with ${JSON.stringify(query)} answers 200 with a bare array or an envelope`, () => {
    expect(exchange.status, `status of ${requestOf(exchange)}`).toBe(200);
    expect(formOf(exchange.json), 'form of the body').toBeDefined();
  });
  expect(exchange).toMatchOperation('listRecordings', { status: 200 });
  return exchange;
}

/**
 * Reads a recordings list: one request for a bare array, pages of the target's default take for
 * an envelope (at most MAX_RECORDING_PAGES).
 */
export async function readRecordings(api: ApiClient, query: RecordingQuery, governing = 'VAR-01'): Promise<RecordingList> {
  return collect(api, query, await readPage(api, query, governing), governing);
}

/**
 * The recordings list without filters, or undefined when the target refuses it: whether a filter is
 * required is not shown (UNS-16), so a refusal only makes the comparisons that need it unavailable.
 */
export async function readUnfilteredRecordings(api: ApiClient): Promise<RecordingList | undefined> {
  const first = await api.call('listRecordings');
  if (first.status !== 200) return undefined;
  await relyOn('VAR-01', 'listRecordings without filters answers a bare array or an envelope', () => {
    expect(formOf(first.json), 'form of the body').toBeDefined();
  });
  expect(first).toMatchOperation('listRecordings', { status: 200 });
  return collect(api, {}, first, 'VAR-01');
}

async function collect(api: ApiClient, query: RecordingQuery, first: Exchange, governing: string): Promise<RecordingList> {
  const { items, pagination } = pageOf(first);
  const collected = [...items];
  if (pagination === undefined) return { form: 'bare array', items: collected, complete: true, first };
  let pages = 1;
  while (collected.length < pagination.total && pages < MAX_RECORDING_PAGES && pagination.limit > 0) {
    const page = pageOf(await readPage(api, { ...query, skip: pages * pagination.limit, take: pagination.limit }, governing)).items;
    if (page.length === 0) break;
    collected.push(...page);
    pages += 1;
  }
  return { form: 'pagination envelope', items: collected, complete: collected.length >= pagination.total, first };
}

/** The distinct values of one field, in first-seen order, at most `limit` of them. */
export function distinct(items: readonly Recording[], field: 'roomId' | 'meetingId', limit: number): string[] {
  const values = [...new Set(items.map((item) => item[field]).filter((value): value is string => value !== undefined))];
  return values.slice(0, limit);
}
