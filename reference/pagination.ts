import { badRequest } from './errors.ts';
import { nonNegativeInteger, queryValue, type Query } from './validation.ts';

export interface PageRequest {
  skip: number;
  take: number;
}

export interface PaginationInfo {
  page: number;
  totalPages: number;
  limit: number;
  total: number;
}

export interface Page<T> {
  pagination: PaginationInfo;
  data: T[];
}

export interface PagingRules {
  defaultTake: number;
  maxTake: number;
  pageNumber(skip: number, take: number): number;
  totalPages(total: number, take: number): number;
  pageSlice<T>(items: readonly T[], skip: number, take: number): T[];
}

export const pageNumber = (skip: number, take: number): number => Math.floor(skip / take) + 1;

export const totalPages = (total: number, take: number): number => Math.ceil(total / take);

export const pageSlice = <T>(items: readonly T[], skip: number, take: number): T[] => items.slice(skip, skip + take);

export function parsePageRequest(query: Query, rules: PagingRules): PageRequest {
  const rawSkip = queryValue(query, 'skip');
  const rawTake = queryValue(query, 'take');
  const skip = rawSkip === undefined ? 0 : nonNegativeInteger(rawSkip, 'skip');
  const take = rawTake === undefined ? rules.defaultTake : nonNegativeInteger(rawTake, 'take');
  if (take < 1 || take > rules.maxTake) throw badRequest(`take must be between 1 and ${rules.maxTake}`);
  return { skip, take };
}

export function paginate<T>(items: readonly T[], request: PageRequest, rules: PagingRules): Page<T> {
  const { skip, take } = request;
  return {
    pagination: {
      page: rules.pageNumber(skip, take),
      totalPages: rules.totalPages(items.length, take),
      limit: take,
      total: items.length,
    },
    data: rules.pageSlice(items, skip, take),
  };
}
