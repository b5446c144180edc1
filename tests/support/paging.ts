/**
 * Helpers of the pagination and group specs: read one page of a paginated list (validated against
 * the operation), take its items' identifiers, and walk pages within a stated bound.
 */
import { expect } from '../../fixtures/index.ts';
import type { ApiClient, CallOptions, Exchange } from '../../fixtures/index.ts';

export interface PaginationInfo {
  page: number;
  totalPages: number;
  limit: number;
  total: number;
}

export interface Envelope {
  pagination: PaginationInfo;
  data: Record<string, unknown>[];
}

/** One paginated list: the operation, what selects the list, and the field that identifies an item. */
export interface ListRequest {
  operationId: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  key: 'id' | 'uuid';
}

export interface Paging {
  skip?: number;
  take?: number;
}

/** A walk visits at most this many pages, so that a huge list costs a bounded number of requests. */
export const MAX_WALK_PAGES = 6;

/** The largest take the suite sends in walks: PAG-07 states exact counts for take 1 to 10 only. */
export const MAX_TAKE = 10;

/** The body of a 200 that toMatchOperation has accepted as a pagination envelope. */
export function envelopeOf(exchange: Exchange): Envelope {
  const body = exchange.json as Partial<Envelope> | undefined;
  if (body === undefined || typeof body.pagination !== 'object' || !Array.isArray(body.data)) {
    throw new Error(`${exchange.operationId} did not answer with a pagination envelope (pagination and data array).\n${exchange.curl}`);
  }
  return body as Envelope;
}

/** Requests one page (skip/take only when given) and checks it against the operation: 200, schema. */
export async function fetchPage(api: ApiClient, list: ListRequest, paging: Paging = {}): Promise<Envelope> {
  const options: CallOptions = { query: { ...list.query, ...paging } };
  if (list.params !== undefined) options.params = list.params;
  const exchange = await api.call(list.operationId, options);
  expect(exchange).toMatchOperation(list.operationId, { status: 200 });
  return envelopeOf(exchange);
}

/** The identifiers of a page's items, in order. */
export function keysOf(page: Envelope, key: ListRequest['key']): string[] {
  return page.data.map((item) => String(item[key]));
}

/**
 * The take of a walk: about five pages for the whole list, never above MAX_TAKE, so that a list of
 * up to 50 items is walked completely in at most 5 requests.
 */
export function walkTake(total: number): number {
  return Math.min(MAX_TAKE, Math.max(1, Math.ceil(total / 5)));
}

export interface Walk {
  pages: Envelope[];
  /** Item identifiers in walk order (duplicates kept, so that a test can detect them). */
  keys: string[];
  /** False when the walk stopped at MAX_WALK_PAGES before reaching the end of the list. */
  complete: boolean;
}

/** Walks skip = 0, take, 2 take, ... while skip < total (as the first page states), within MAX_WALK_PAGES. */
export async function walk(api: ApiClient, list: ListRequest, take: number): Promise<Walk> {
  const first = await fetchPage(api, list, { skip: 0, take });
  const { total } = first.pagination;
  const pages = [first];
  let skip = take;
  while (skip < total && pages.length < MAX_WALK_PAGES) {
    pages.push(await fetchPage(api, list, { skip, take }));
    skip += take;
  }
  return { pages, keys: pages.flatMap((page) => keysOf(page, list.key)), complete: skip >= total };
}
