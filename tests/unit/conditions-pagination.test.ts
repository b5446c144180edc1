/** The page arithmetic conditions (tests/conditions/pagination.ts): each holds on a good page and fails with its finding on a bad one. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ConditionFailure,
  dataIsArray,
  defaultPageHolds,
  emptyListHoldsNothing,
  failureOf,
  fullPageExpected,
  holdsTake,
  lastPageHoldsRest,
  limitIsTake,
  noItemTwice,
  numberedAsFirstOf,
  pageFollowsSkip,
  paginationFieldIsNumber,
  pageIsOrdinal,
  pastTheEndAnswered,
  pastTheEndHoldsNothing,
  pastTheEndKeepsTotal,
  sameTotalOnEveryPage,
  totalPagesIsCeiling,
  walkYields,
} from '../conditions/index.ts';
import { fails } from './condition-fails.ts';

describe('conditions: pagination', () => {
  it('limitIsTake: the limit is the take sent', () => {
    limitIsTake({ limit: 3 }, 3);
    fails(() => limitIsTake({ limit: 10 }, 3), /pagination.limit is 10, not the take 3/);
  });

  it('totalPagesIsCeiling: ceil(total / limit), and 0 or 1 for an empty list', () => {
    totalPagesIsCeiling({ total: 25, limit: 10, totalPages: 3 });
    totalPagesIsCeiling({ total: 0, limit: 10, totalPages: 0 });
    totalPagesIsCeiling({ total: 0, limit: 10, totalPages: 1 });
    fails(() => totalPagesIsCeiling({ total: 25, limit: 10, totalPages: 2 }), /totalPages is 2, not 3: ceil\(total \/ limit\) for total 25 and limit 10/);
    fails(() => totalPagesIsCeiling({ total: 0, limit: 10, totalPages: 2 }), /totalPages is 2, not 0 or 1/);
  });

  it('pageIsOrdinal: the page at skip = k × take is k or k + 1', () => {
    pageIsOrdinal(0, 0, 3);
    pageIsOrdinal(1, 0, 3);
    pageIsOrdinal(3, 6, 3);
    fails(() => pageIsOrdinal(5, 6, 3), /page is 5 at skip 6, take 3: neither 2 nor 3/);
  });

  it('pageFollowsSkip: k pages on, the number is k more than the first page', () => {
    pageFollowsSkip(3, 1, 6, 3);
    fails(() => pageFollowsSkip(2, 1, 6, 3), /page is 2 at skip 6, take 3, not 3: the first page is numbered 1/);
  });

  it('holdsTake, with fullPageExpected: a full page holds take items', () => {
    assert.equal(fullPageExpected(10, 7, 3), true);
    assert.equal(fullPageExpected(9, 7, 3), false);
    holdsTake(3, 3);
    fails(() => holdsTake(2, 3), /the page holds 2 items, not the take 3/);
  });

  it('lastPageHoldsRest: the last page holds total - skip items', () => {
    lastPageHoldsRest(1, 7, 6);
    fails(() => lastPageHoldsRest(3, 7, 6), /the last page \(skip 6 of 7 items\) holds 3 items, not total - skip = 1/);
  });

  it('past the end: a 200, no items, the same total', () => {
    pastTheEndAnswered({ status: 200 });
    fails(() => pastTheEndAnswered({ status: 400, curl: 'curl http://x' }), /answered HTTP 400, not 200\ncurl http:\/\/x$/);
    pastTheEndHoldsNothing(0);
    fails(() => pastTheEndHoldsNothing(2), /returned 2 items, not none/);
    pastTheEndKeepsTotal({ total: 7 }, 7);
    fails(() => pastTheEndKeepsTotal({ total: 0 }, 7), /pagination.total is 0 past the end, not the list's total 7/);
  });

  it('failureOf: the finding as data, undefined when the rule holds; other errors go on', () => {
    assert.equal(
      failureOf(() => holdsTake(3, 3)),
      undefined,
    );
    assert.equal(
      failureOf(() => holdsTake(2, 3)),
      'the page holds 2 items, not the take 3',
    );
    assert.throws(() =>
      failureOf(() => {
        throw new TypeError('a fault of the caller');
      }),
    );
  });

  it('noItemTwice: the keys of a page or a walk are distinct', () => {
    noItemTwice(['g-1', 'g-2', 'g-3']);
    noItemTwice([]);
    assert.throws(
      () => noItemTwice(['g-1', 'g-2', 'g-1'], { curl: 'curl http://target/groups' }),
      (error: unknown) =>
        error instanceof ConditionFailure && /^1 item\(s\) listed more than once: \["g-1"\]\ncurl http:\/\/target\/groups$/.test(error.message),
    );
  });
});

describe('conditions: pagination, the envelope and the walk', () => {
  it('paginationFieldIsNumber: a number, not necessarily an integer', () => {
    paginationFieldIsNumber({ page: 1, limit: 2.5 }, 'page');
    paginationFieldIsNumber({ page: 1, limit: 2.5 }, 'limit');
    fails(() => paginationFieldIsNumber({ total: '12' }, 'total'), /pagination.total is "12", not a number/);
  });

  it('dataIsArray: data is an array', () => {
    dataIsArray([]);
    fails(() => dataIsArray({ items: [] }), /data is \{"items":\[\]\}, not an array/);
  });

  it('defaultPageHolds: min(10, total) items without skip and take', () => {
    defaultPageHolds(10, 25);
    defaultPageHolds(4, 4);
    fails(() => defaultPageHolds(20, 25), /holds 20 items, not min\(10, total 25\) = 10/);
    fails(() => defaultPageHolds(3, 4), /holds 3 items, not min\(10, total 4\) = 4/);
  });

  it('sameTotalOnEveryPage: each page states the total', () => {
    sameTotalOnEveryPage([12, 12, 12], 12);
    sameTotalOnEveryPage([], 12);
    fails(() => sameTotalOnEveryPage([12, 9], 12), /pagination.total is \[12,9\] on the pages read, not 12 on each/);
  });

  it('numberedAsFirstOf: every first page numbered as the reference list', () => {
    numberedAsFirstOf([1, 1], 1, 'listGroups');
    fails(() => numberedAsFirstOf([0, 1], 1, 'listGroups'), /numbered \[0,1\], not 1 as the first page of listGroups/);
  });

  it('walkYields: the count a walk yields', () => {
    walkYields(12, 12, 'items');
    fails(() => walkYields(11, 12, 'distinct items with take=3, the total'), /the walk yields 11 distinct items with take=3, the total, not 12/);
  });

  it('emptyListHoldsNothing: data is []', () => {
    emptyListHoldsNothing([]);
    fails(() => emptyListHoldsNothing([{ id: 'p' }]), /a list of total 0 answered data \[\{"id":"p"\}\], not \[\]/);
    fails(() => emptyListHoldsNothing(undefined), /answered data undefined, not \[\]/);
  });
});
