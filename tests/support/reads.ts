/**
 * Reads that a check depends on without judging them (the harness side of a test), as discovery
 * makes them (fixtures/data/discovery-reads.ts): any usable answer is taken (a 2xx with the pagination envelope);
 * an answer that is not usable is a failed check of the operation's own requirement
 * (DISCOVERY_REQUIREMENTS), and the check that needed it is not assessed (`notAssessed.check` inside a
 * check; `discovered` turns that into a test not assessed, for reads made before any check).
 */

import { notAssessed, recordCheck, together } from '../../fixtures/index.ts';
import type { ApiClient, Exchange } from '../../fixtures/index.ts';
import { DISCOVERY_REQUIREMENTS } from './discovery.ts';
import { laterSkips, MAX_WALK_PAGES } from './paging.ts';
import type { Envelope, ListRequest, Paging } from './paging.ts';

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null) return false;
  const { pagination, data } = body as Partial<Envelope>;
  return typeof pagination === 'object' && pagination !== null && typeof pagination.total === 'number' && Array.isArray(data);
}

/** Records the unusable answer against the operation's requirement; the dependent check is not assessed. */
function unusable(exchange: Exchange, what: string): never {
  const { operationId, status } = exchange;
  const requirementId = DISCOVERY_REQUIREMENTS[operationId] ?? operationId;
  const answer = status < 200 || status > 299 ? `HTTP ${status}` : `HTTP ${status} without ${what}`;
  recordCheck(
    requirementId,
    `${operationId} answers a valid request with ${what} (read by the test)`,
    new Error(`${operationId} answered ${answer}.\n${exchange.curl}`),
  );
  return notAssessed.check(`the read ${operationId} answered ${answer} (a failure of ${requirementId})`);
}

/** One page of a paginated list (skip/take only when given); the check is not assessed when the answer is not a usable envelope. */
export async function readPage(api: ApiClient, list: ListRequest, paging: Paging = {}): Promise<Envelope> {
  const exchange = await api.call(list.operationId, { query: { ...list.query, ...paging }, ...(list.params === undefined ? {} : { params: list.params }) });
  if (exchange.status >= 200 && exchange.status <= 299 && isEnvelope(exchange.json)) return exchange.json;
  return unusable(exchange, 'a pagination envelope (pagination.total and a data array)');
}

/** The identifiers of a page's items that have one, in order. */
export function keysOf(page: Envelope, key: ListRequest['key']): string[] {
  return page.data.flatMap((item) => (typeof item[key] === 'string' ? [item[key]] : []));
}

export interface KeysWalk {
  keys: string[];
  /** False when the walk stopped at MAX_WALK_PAGES before the end of the list. */
  complete: boolean;
}

/**
 * The identifiers of every page (skip = 0, take, 2 take, ... while skip < total), within
 * MAX_WALK_PAGES. Once the first page has stated the total, the other pages are known and go out
 * together.
 */
export async function walkKeys(api: ApiClient, list: ListRequest, take: number): Promise<KeysWalk> {
  const first = await readPage(api, list, { skip: 0, take });
  const { total } = first.pagination;
  const pages = [first, ...(await together(laterSkips(total, take, MAX_WALK_PAGES), (skip) => readPage(api, list, { skip, take })))];
  return { keys: pages.flatMap((page) => keysOf(page, list.key)), complete: pages.length * take >= total };
}

/** For reads made before any check: an unusable answer skips the test as not assessed (its failure is already recorded). */
export async function discovered<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (notAssessed.is(error)) notAssessed(error.message);
    throw error;
  }
}

/** WHATWG URL parsing without a base: throws for a relative reference. */
export function isAbsoluteUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
