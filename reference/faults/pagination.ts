/**
 * Faults of the pagination of the paginated lists (listGroups, listGroupParticipants, getMeetingStats).
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { participantView } from '../views.ts';
import {
  environmentOf,
  fault,
  isObject,
  listArray,
  PAGINATED_OPERATIONS,
  paramsOf,
  queryInteger,
  renameField,
  rewriteBody,
  withBehaviour,
  type Fault,
} from './tools.ts';

export const faults: readonly Fault[] = [
  fault(
    'default-take-20',
    'Without take, paginated lists return 20 items.',
    ['PAG-01', 'PAG-02', 'PAG-03'],
    PAGINATED_OPERATIONS,
    withBehaviour({ defaultTake: 20 }),
  ),
  fault(
    'skip-ignored',
    'skip is ignored: every page starts at the first item.',
    ['PAG-08', 'PAG-09', 'PAG-10', 'PAG-11'],
    PAGINATED_OPERATIONS,
    withBehaviour({ pageSlice: (items, _skip, take) => items.slice(0, take) }),
  ),
  fault(
    'total-pages-off-by-one',
    'totalPages is floor(total / limit) + 1, one too many when total is a multiple of limit.',
    ['PAG-05'],
    PAGINATED_OPERATIONS,
    withBehaviour({ totalPages: (total, take) => Math.floor(total / take) + 1 }),
  ),
  fault(
    'envelope-data-renamed',
    'The envelopes of listGroups and listGroupParticipants name their array items instead of data.',
    ['GRP-01', 'GRP-04', 'PAG-12'],
    ['listGroups', 'listGroupParticipants'],
    rewriteBody(['listGroups', 'listGroupParticipants'], (body) => {
      if (isObject(body)) renameField(body, 'data', 'items');
      return body;
    }),
  ),
];

/** A fixed point of an open choice (docs/level-audit.md): the choice made in a way no reading allows. */
export const fixedPoints: readonly Fault[] = [
  fault(
    'page-stuck-at-first',
    "pagination.page stays at the first page's number (1) on every page: skip=10&take=10 is page 1 too.",
    ['PAG-13'],
    PAGINATED_OPERATIONS,
    withBehaviour({ pageNumber: () => 1 }),
  ),
  // One list only: each list numbers its pages in order, but meeting statistics from 0 and the others from 1.
  fault(
    'page-base-differs-by-list',
    'Paginated meeting statistics number their pages from 0 (skip / take), the groups and group participants from 1.',
    ['PAG-13'],
    ['getMeetingStats'],
    rewriteBody(['getMeetingStats'], (body) => {
      if (!isObject(body) || !isObject(body['pagination']) || typeof body['pagination']['page'] !== 'number') return undefined;
      body['pagination']['page'] -= 1;
      return body;
    }),
  ),
  fault(
    'past-end-page-repeats-last',
    'A page that starts at or past the end of a non-empty list holds the last take items instead of none.',
    ['PAG-14'],
    PAGINATED_OPERATIONS,
    withBehaviour({
      pageSlice: (items, skip, take) => (skip > 0 && skip >= items.length ? items.slice(Math.max(0, items.length - take)) : items.slice(skip, skip + take)),
    }),
  ),
  fault(
    'past-end-page-total-zero',
    'A page that starts past the end of a non-empty list says total 0 (and totalPages 0), as if the list were empty.',
    ['PAG-14'],
    PAGINATED_OPERATIONS,
    rewriteBody(PAGINATED_OPERATIONS, (body, { request }) => {
      if (!isObject(body) || !isObject(body['pagination'])) return undefined;
      const pagination = body['pagination'];
      const skip = queryInteger(request, 'skip') ?? 0;
      if (typeof pagination['total'] !== 'number' || pagination['total'] === 0 || skip < pagination['total']) return undefined;
      Object.assign(pagination, { total: 0, totalPages: 0 });
      return body;
    }),
  ),
];

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
  fault(
    'total-counts-from-skip',
    'On pages after the first, pagination.total counts only the items from skip on (and totalPages follows it), so total changes during a walk.',
    ['PAG-04'],
    PAGINATED_OPERATIONS,
    rewriteBody(PAGINATED_OPERATIONS, (body, { request, app }) => {
      const skip = queryInteger(request, 'skip') ?? 0;
      const pagination = isObject(body) && isObject(body['pagination']) ? body['pagination'] : undefined;
      if (skip === 0 || pagination === undefined) return undefined;
      const total = Math.max(0, Number(pagination['total']) - skip);
      Object.assign(pagination, { total, totalPages: app.reference.behaviour.totalPages(total, Number(pagination['limit'])) });
      return body;
    }),
  ),
  fault(
    'take-one-returns-two',
    'take=1 returns two items (pagination.limit still says 1).',
    ['PAG-07'],
    PAGINATED_OPERATIONS,
    withBehaviour({ pageSlice: (items, skip, take) => items.slice(skip, skip + (take === 1 ? 2 : take)) }),
  ),
  // A page edge: only a page that ends exactly at the end of the list (a full last page is one, PAG-08's).
  fault(
    'page-ending-at-total-short',
    'A page of take > 1 that ends exactly at the end of the list (skip + take = total) leaves out its last item: an end test written < instead of <=.',
    ['PAG-07', 'PAG-08'],
    PAGINATED_OPERATIONS,
    withBehaviour({ pageSlice: (items, skip, take) => items.slice(skip, take > 1 && skip + take === items.length ? skip + take - 1 : skip + take) }),
  ),
  // One page of a list: only the third page (skip = 2 take) of a group's participants is wrong.
  fault(
    'third-page-repeats-previous-item',
    "The third page of a group's participant list (skip = 2 × take) starts with the last participant of the second page, and so leaves out its own last one.",
    ['PAG-10', 'PAG-04', 'PAG-11'],
    ['listGroupParticipants'],
    rewriteBody(['listGroupParticipants'], (body, { request, app }) => {
      const { behaviour } = app.reference;
      const skip = queryInteger(request, 'skip') ?? 0;
      const take = queryInteger(request, 'take') ?? behaviour.defaultTake;
      const data = environmentOf(request);
      const groupId = String(paramsOf(request)['groupId']);
      const items = listArray(body);
      if (skip === 0 || skip !== 2 * take || data === undefined || items === undefined) return undefined;
      const members = [...data.participants.values()].filter((participant) => participant.groupIds.includes(groupId) && behaviour.isSearchable(participant));
      const previous = members[skip - 1];
      if (previous === undefined) return undefined;
      items.unshift(participantView(previous, behaviour));
      items.pop();
      return body;
    }),
  ),
];
