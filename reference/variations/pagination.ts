/**
 * Allowed variations of the pagination: page numbers, pages past the end, the maximum take.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { badRequest } from '../errors.ts';
import { beforeHandler, OPERATIONS, queryOf, withBehaviour } from '../faults/tools.ts';
import { wrapBehaviour, type Variation } from './tools.ts';

const PAGINATED_RESULTS_MAX = 100;

export const variations: readonly Variation[] = [
  {
    name: 'pages-from-zero',
    description: 'pagination.page counts from 0 (the first page is page 0, the last totalPages - 1).',
    basis:
      'Pagination envelope: "pagination.page: current page number"; where numbering starts: not shown. Contested: the brief of this work reads the interface as fixing it; left out of other-choices until the lead decides.',
    apply: wrapBehaviour('pageNumber', (number) => (skip, take) => number(skip, take) - 1),
  },
  {
    name: 'page-past-end-400',
    description: 'A page that starts past the end of a non-empty list (skip >= total) is refused with 400 instead of an empty page.',
    basis: 'Pagination: skip is "number of results to skip"; what a skip past the end answers: not shown.',
    apply: wrapBehaviour('pageSlice', (slice) => (items, skip, take) => {
      if (skip > 0 && skip >= items.length) throw badRequest(`skip ${skip} is past the end of the ${items.length} results`);
      return slice(items, skip, take);
    }),
  },
  {
    name: 'take-clamped',
    description: `A take over ${PAGINATED_RESULTS_MAX} is served as ${PAGINATED_RESULTS_MAX} (pagination.limit says so) instead of refused.`,
    basis: 'Limits: "Maximum value of take: not shown."',
    excludes: ['take-unbounded'],
    apply: beforeHandler(OPERATIONS, (request) => {
      const query = queryOf(request);
      if (typeof query['take'] === 'string' && /^\d+$/.test(query['take']) && Number(query['take']) > PAGINATED_RESULTS_MAX)
        query['take'] = String(PAGINATED_RESULTS_MAX);
    }),
  },
  {
    name: 'take-unbounded',
    description: 'Any take is served, however large (no maximum).',
    basis: 'Limits: "Maximum value of take: not shown."',
    excludes: ['take-clamped'],
    apply: withBehaviour({ maxTake: Number.MAX_SAFE_INTEGER }),
  },
];
