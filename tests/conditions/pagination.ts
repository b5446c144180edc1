/**
 * The arithmetic of a page of a paginated list: what `pagination` and `data` must say given the
 * skip and take of the request and the list's total. Pages may be numbered from 0 or from 1, so the
 * conditions about the page number accept either base where the interface leaves it open.
 */
import { fail, shown } from './condition.ts';
import type { Answer } from './condition.ts';

/** The four numbers of `pagination` that the interface states. */
export interface PageNumbers {
  page: number;
  totalPages: number;
  limit: number;
  total: number;
}

/** The limit of a page is the take of its request (10 when take is not sent). */
export function limitIsTake(pagination: Pick<PageNumbers, 'limit'>, take: number): void {
  if (pagination.limit !== take) fail(`pagination.limit is ${JSON.stringify(pagination.limit)}, not the take ${take}`);
}

/** totalPages is ceil(total / limit); a list without items may say 0 or 1. */
export function totalPagesIsCeiling(pagination: Pick<PageNumbers, 'total' | 'limit' | 'totalPages'>): void {
  const { total, limit, totalPages } = pagination;
  const allowed = total === 0 ? [0, 1] : [Math.ceil(total / limit)];
  if (!allowed.includes(totalPages)) {
    fail(`totalPages is ${JSON.stringify(totalPages)}, not ${allowed.join(' or ')}: ceil(total / limit) for total ${total} and limit ${limit}`);
  }
}

/** The page at skip = k × take is numbered k or k + 1: its ordinal, counted from 0 or from 1. */
export function pageIsOrdinal(page: number, skip: number, take: number): void {
  const ordinal = skip / take;
  if (page !== ordinal && page !== ordinal + 1) fail(`page is ${JSON.stringify(page)} at skip ${skip}, take ${take}: neither ${ordinal} nor ${ordinal + 1}`);
}

/** The page at skip = k × take is numbered k after the first page's number, `first`. */
export function pageFollowsSkip(page: number, first: number, skip: number, take: number): void {
  const expected = first + skip / take;
  if (page !== expected) fail(`page is ${JSON.stringify(page)} at skip ${skip}, take ${take}, not ${expected}: the first page is numbered ${first}`);
}

/** Whether a page of `take` items must be full: the list holds at least skip + take items. */
export const fullPageExpected = (total: number, skip: number, take: number): boolean => total >= skip + take;

/** A full page holds exactly `take` items. */
export function holdsTake(count: number, take: number): void {
  if (count !== take) fail(`the page holds ${count} items, not the take ${take}`);
}

/** The last page, at `skip`, holds the rest of the list: total - skip items. */
export function lastPageHoldsRest(count: number, total: number, skip: number): void {
  if (count !== total - skip) fail(`the last page (skip ${skip} of ${total} items) holds ${count} items, not total - skip = ${total - skip}`);
}

/** A 200 to a skip at or past the total holds no items. */
export function pastTheEndHoldsNothing(count: number): void {
  if (count !== 0) fail(`a skip at or past the total returned ${count} items, not none`);
}

/** A 200 to a skip at or past the total still states the list's total. */
export function pastTheEndKeepsTotal(pagination: Pick<PageNumbers, 'total'>, total: number): void {
  if (pagination.total !== total) fail(`pagination.total is ${JSON.stringify(pagination.total)} past the end, not the list's total ${total}`);
}

/** A skip at or past the total is answered 200 (with no items), not refused. */
export function pastTheEndAnswered(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (answer.status !== 200) fail(`a skip at or past the total answered HTTP ${answer.status}, not 200`, answer);
}

/** No item is listed twice: the keys of a page, or of a walk over pages, are distinct. */
export function noItemTwice(keys: readonly unknown[], answer?: Pick<Answer, 'curl'>): void {
  const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
  if (repeated.length > 0) fail(`${repeated.length} item(s) listed more than once: ${shown(repeated)}`, answer);
}

/** A field of `pagination` the interface states ("number") is a number, not necessarily an integer. */
export function paginationFieldIsNumber<T extends object>(pagination: T, field: keyof T & string): void {
  const value: unknown = pagination[field];
  if (typeof value !== 'number') fail(`pagination.${field} is ${shown(value)}, not a number`);
}

/** The data of an envelope is an array. */
export function dataIsArray(data: unknown): void {
  if (!Array.isArray(data)) fail(`data is ${shown(data)}, not an array`);
}

/** The page read without skip and take holds min(10, total) items: the first page of the default take, 10. */
export function defaultPageHolds(count: number, total: number): void {
  const expected = Math.min(10, total);
  if (count !== expected) fail(`the page without skip and take holds ${count} items, not min(10, total ${total}) = ${expected}`);
}

/** Every page of one list states the same total, `total`. */
export function sameTotalOnEveryPage(totals: readonly unknown[], total: number): void {
  const other = totals.filter((value) => !Object.is(value, total));
  if (other.length > 0) fail(`pagination.total is ${shown(totals)} on the pages read, not ${total} on each`);
}

/** The first pages of every list are numbered alike: each of `bases` is the first page number of the groups, `first`. */
export function numberedAsFirstOf(bases: readonly unknown[], first: unknown, of: string): void {
  if (bases.some((base) => !Object.is(base, first))) fail(`the first pages are numbered ${shown(bases)}, not ${shown(first)} as the first page of ${of}`);
}

/** A walk over the pages yields `expected` items (`what`: which items are counted, and why that many). */
export function walkYields(count: number, expected: number, what: string): void {
  if (count !== expected) fail(`the walk yields ${count} ${what}, not ${expected}`);
}

/** The data of an empty list's page is an empty array. */
export function emptyListHoldsNothing(data: unknown): void {
  if (!Array.isArray(data) || data.length !== 0) fail(`a list of total 0 answered data ${shown(data)}, not []`);
}
