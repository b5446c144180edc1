/**
 * What a list answer to a generated case shows besides its shape: what the request's filters imply
 * for every item, and the arithmetic of a page (the paging requirements, each where it applies).
 * Each rule is a condition of tests/conditions/, bound to the requirement bindings.ts names.
 */
import { isRecord, pagingOf } from '../../fixtures/index.ts';
import type { CaseCheck, GeneratedCase } from '../../fixtures/index.ts';
import {
  everyItemHas,
  everyItemWithin,
  failureOf,
  FILTER_DATE_FIELDS,
  fullPageExpected,
  holdsTake,
  lastPageHoldsRest,
  limitIsTake,
  pageIsOrdinal,
  pastTheEndHoldsNothing,
  totalPagesIsCeiling,
} from '../conditions/index.ts';
import { filterChecks, pagingRequirements } from './bindings.ts';
import type { FilterCheck } from './bindings.ts';
import { judged } from './answer-body.ts';

/** The items of a list body: a bare array or the `data` array of an envelope. */
function itemsOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  return isRecord(body) && Array.isArray(body['data']) ? body['data'] : undefined;
}

function wantedOf(check: FilterCheck): string {
  return check.kind === 'equals'
    ? `${check.field} equal to ${JSON.stringify(check.value)}`
    : `one of ${FILTER_DATE_FIELDS.join(', ')} within ${check.period.what}`;
}

/**
 * One check per filter of the request: every returned item honours it. A generated query is not
 * chosen for its power, and most return few items or none: the handwritten tests judge the filters on
 * data chosen to tell (at least one item), so a generated list is judged whatever its length (least 0).
 */
export function filterFindings(generated: GeneratedCase, body: unknown): CaseCheck[] {
  const items = itemsOf(body);
  if (items === undefined) return [];
  return filterChecks(generated.operationId, generated.request.query ?? {}).map((check) => {
    const label = `${generated.operationId} ${generated.description}: every item has ${wantedOf(check)}`;
    const failure = failureOf(() => (check.kind === 'equals' ? everyItemHas(items, check.field, check.value, 0) : everyItemWithin(items, check.period, 0)));
    return judged(check.id, label, failure);
  });
}

interface Envelope {
  pagination: { page: number; totalPages: number; limit: number; total: number };
  data: unknown[];
}

function isEnvelope(body: unknown): body is Envelope {
  if (!isRecord(body) || !Array.isArray(body['data']) || !isRecord(body['pagination'])) return false;
  const pagination = body['pagination'];
  return ['page', 'totalPages', 'limit', 'total'].every((key) => typeof pagination[key] === 'number');
}

/** PAG-07 pins the item count for a take sent from 1 to 10; the page without take is PAG-01's and PAG-03's. */
const LARGEST_PINNED_TAKE = 10;

/**
 * The paging requirements as they apply to one page, each a check of its own where it applies
 * (REC-10 names them all for recordings in the envelope). Pages may be numbered from 0 or from 1
 * (the interface says only "current page number"), so PAG-06 accepts either base.
 */
export function pagingFindings(generated: GeneratedCase, body: unknown): CaseCheck[] {
  const ids = pagingRequirements(generated.operationId);
  if (generated.paging !== true || ids.length === 0 || !isEnvelope(body)) return [];
  const owner = (id: string): string => (ids.includes(id) ? id : (ids[0] ?? id));
  const { skip, take } = pagingOf(generated);
  const { pagination } = body;
  const { page, totalPages, limit, total } = pagination;
  const count = body.data.length;
  const where = `(skip ${skip}, take ${take}; pagination ${JSON.stringify(pagination)}, ${count} items)`;
  const checks: CaseCheck[] = [];
  const add = (id: string, what: string, condition: () => void): void => {
    const requirementId = owner(id);
    const label = `${generated.operationId} ${generated.description}: ${requirementId === id ? '' : `${id}: `}${what}`;
    const failure = failureOf(condition);
    checks.push(judged(requirementId, label, failure === undefined ? undefined : `${failure} ${where}`));
  };
  add('PAG-03', 'limit equals the take', () => limitIsTake(pagination, take));
  add('PAG-05', 'totalPages equals ceil(total / limit)', () => totalPagesIsCeiling(pagination));
  if (skip % take === 0) add('PAG-06', 'page is the ordinal of the page (from 0 or from 1)', () => pageIsOrdinal(page, skip, take));
  const sentTake = generated.request.query?.['take'] !== undefined;
  if (sentTake && take <= LARGEST_PINNED_TAKE && fullPageExpected(total, skip, take)) add('PAG-07', 'holds take items', () => holdsTake(count, take));
  if (total > 0 && skip < total && skip === (totalPages - 1) * limit)
    add('PAG-08', 'the last page holds the rest', () => lastPageHoldsRest(count, total, skip));
  // Whether a skip past the end is answered 200 is PAG-09's open choice; a 200 there holds no items (PAG-14).
  if (skip >= total) add('PAG-14', 'a 200 to a skip at or past the total holds no items', () => pastTheEndHoldsNothing(count));
  return checks;
}
