/**
 * Helpers of the pagination and group specs: read one page of a paginated list (validated against
 * the operation), take its items' identifiers, and walk pages within a stated bound.
 */
import { expect, together } from '../../fixtures/index.ts';
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

/** The pagination walk (walkInPages) reads a list in this many pages, whatever its size. */
export const WALK_PAGES = 5;

/**
 * The largest take walkInPages sends. The interface shows no maximum take (UNS-05); 100 is the
 * conventional bound (the reference caps there), so a list of up to WALK_PAGES * 100 items is
 * walked whole and a longer one over a window of its first WALK_PAGES pages.
 */
export const MAX_WALK_TAKE = 100;

/** PAG-03 and PAG-07 pin limit and item counts for take 1 to 10; above that a target may cap take. */
const LARGEST_PINNED_TAKE = 10;

/** The body of a 200 that toMatchOperation has accepted as a pagination envelope. */
export function envelopeOf(exchange: Exchange): Envelope {
  const body = exchange.json as Partial<Envelope> | undefined;
  if (body === undefined || typeof body.pagination !== 'object' || !Array.isArray(body.data)) {
    throw new Error(`${exchange.operationId} did not answer with a pagination envelope (pagination and data array).\n${exchange.curl}`);
  }
  return body as Envelope;
}

/** Requests one page (skip/take only when given), whatever the answer. */
export async function requestPage(api: ApiClient, list: ListRequest, paging: Paging = {}): Promise<Exchange> {
  const options: CallOptions = { query: { ...list.query, ...paging } };
  if (list.params !== undefined) options.params = list.params;
  return api.call(list.operationId, options);
}

/** Requests one page (skip/take only when given) and checks it against the operation: 200, schema. */
export async function fetchPage(api: ApiClient, list: ListRequest, paging: Paging = {}): Promise<Envelope> {
  const exchange = await requestPage(api, list, paging);
  expect(exchange).toMatchOperation(list.operationId, { status: 200 });
  return envelopeOf(exchange);
}

/** The identifiers of a page's items, in order. */
export function keysOf(page: Envelope, key: ListRequest['key']): string[] {
  return page.data.map((item) => String(item[key]));
}

export interface Walk {
  pages: Envelope[];
  /** Item identifiers in walk order (duplicates kept, so that a test can detect them). */
  keys: string[];
  /** False when the walk stopped at MAX_WALK_PAGES before reaching the end of the list. */
  complete: boolean;
}

/** The skips of the pages after the first: take, 2 take, ... while below `total`, `pages` pages in all at most. */
export function laterSkips(total: number, take: number, pages: number): number[] {
  const skips: number[] = [];
  for (let skip = take; skip < total && skips.length + 1 < pages; skip += take) skips.push(skip);
  return skips;
}

/**
 * Walks skip = 0, take, 2 take, ... while skip < total (as the first page states), within
 * MAX_WALK_PAGES. Once the first page has stated the total, the other pages are known and go out
 * together.
 */
export async function walk(api: ApiClient, list: ListRequest, take: number): Promise<Walk> {
  const first = await fetchPage(api, list, { skip: 0, take });
  const { total } = first.pagination;
  const pages = [first, ...(await together(laterSkips(total, take, MAX_WALK_PAGES), (skip) => fetchPage(api, list, { skip, take })))];
  return { pages, keys: pages.flatMap((page) => keysOf(page, list.key)), complete: pages.length * take >= total };
}

export interface PagedWalk extends Walk {
  /** The take the walk stepped by: the one sent, or the smaller limit of a target that caps take. */
  take: number;
  /** The take sent with every request. */
  requested: number;
  /** The answer to a take above 10 that the target refused (UNS-05), after which the walk sent take 10. */
  refused?: { take: number; status: number };
}

/**
 * Walks a list of `total` items with take = ceil(total / WALK_PAGES), within MAX_WALK_TAKE, while
 * skip < total and for at most WALK_PAGES pages. That is exactly WALK_PAGES requests for every
 * list of more than 16 items (fewer for some shorter ones), so the cost does not grow with the
 * data; a list of more than WALK_PAGES * MAX_WALK_TAKE items is walked over its first pages only
 * (complete false). A take above 10 is not pinned by the interface (its maximum is not shown,
 * UNS-05): when the first page states a smaller limit of at least 10 (the target caps take), the
 * walk steps by that limit instead, and when the target refuses it with a 4xx, by 10.
 */
export async function walkInPages(api: ApiClient, list: ListRequest, total: number): Promise<PagedWalk> {
  const requested = Math.min(MAX_WALK_TAKE, Math.max(1, Math.ceil(total / WALK_PAGES)));
  const answer = await requestPage(api, list, { skip: 0, take: requested });
  if (requested > LARGEST_PINNED_TAKE && answer.status >= 400 && answer.status < 500) {
    const refused = { take: requested, status: answer.status };
    return { ...(await stepBy(api, list, total, LARGEST_PINNED_TAKE)), requested: LARGEST_PINNED_TAKE, refused };
  }
  expect(answer).toMatchOperation(list.operationId, { status: 200 });
  const first = envelopeOf(answer);
  const { limit } = first.pagination;
  const capped = requested > LARGEST_PINNED_TAKE && Number.isInteger(limit) && limit >= LARGEST_PINNED_TAKE && limit < requested;
  return { ...(await stepBy(api, list, total, capped ? limit : requested, first)), requested };
}

/** The pages of skip = 0, take, 2 take, ... while skip < total, for at most WALK_PAGES pages (`first` when already read). */
async function stepBy(api: ApiClient, list: ListRequest, total: number, take: number, first?: Envelope): Promise<Walk & { take: number }> {
  const start = first ?? (await fetchPage(api, list, { skip: 0, take }));
  // The first page stated how the list is cut: the other pages go out together.
  const pages = [start, ...(await together(laterSkips(total, take, WALK_PAGES), (skip) => fetchPage(api, list, { skip, take })))];
  return { pages, keys: pages.flatMap((page) => keysOf(page, list.key)), complete: pages.length * take >= total, take };
}
