/**
 * Pagination (PAG-01..14) on every list the catalogue names as paginated: listGroups,
 * listGroupParticipants and getMeetingStats with usePagination=true&onlySummary=false. Each case
 * of the CASES table runs on each list of the LISTS table, with exact arithmetic on the envelope,
 * so that "totalPages off by one", "pages out of order", "skip ignored" or "default take other
 * than 10" each fail a check of the requirement they break. Each assertion is a check of one
 * requirement, one per take or row of a case. Only the fields of `pagination` the interface states
 * are compared (the object is not closed), and what it leaves open is observed: whether pages are
 * numbered from 0 or 1 (PAG-06), the answer to a skip past the end (PAG-09), a refused large take (UNS-05).
 * What stays fixed whatever the target chose there is checked as a MUST of its own: the numbers
 * follow skip / take from the first page's, one base for every list (PAG-13), and a 200 past the
 * end holds no items and the list's total (PAG-14).
 *
 * The cases compute the expected numbers from pagination.total as the target states it; whether
 * that total is itself right is PAG-04 (the walk). Walks and slices stay within a bounded number
 * of requests (see tests/support/paging.ts).
 */
import { allOf, check, cites, expect, notApplicable, notAssessed, requirement, test, together } from '../fixtures/index.ts';
import type { ApiClient, Discovery, Observe } from '../fixtures/index.ts';
import {
  dataIsArray,
  defaultPageHolds,
  emptyListHoldsNothing,
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
  sameItems,
  sameRecord,
  sameTotalOnEveryPage,
  totalPagesIsCeiling,
  walkYields,
} from './conditions/index.ts';
import { applicability } from './support/applicability.ts';
import { envelopeOf, fetchPage, keysOf, requestPage, walkInPages } from './support/paging.ts';
import type { ListRequest, PagedWalk } from './support/paging.ts';

interface PaginatedList {
  name: string;
  select: (discover: Discovery) => Promise<ListRequest>;
}

const LISTS: readonly PaginatedList[] = [
  {
    name: 'groups',
    select: async () => ({ operationId: 'listGroups', key: 'id' }),
  },
  {
    name: 'participants of a group',
    select: async (discover) => {
      const found =
        (await discover.groupWithParticipants()) ?? notAssessed('no group on the first page of listGroups has participants', { enable: 'TARGET_GROUP_ID' });
      return { operationId: 'listGroupParticipants', params: { groupId: found.group.id }, key: 'id' };
    },
  },
  {
    name: 'meeting statistics records',
    select: async () => ({ operationId: 'getMeetingStats', query: { usePagination: true, onlySummary: false }, key: 'uuid' }),
  },
];

/** The data a case of `list` lacks when the list is too short to judge it: `more than 10 groups`. */
function moreThan(count: number, list: ListRequest): string {
  const items: Readonly<Record<string, string>> = {
    listGroups: 'groups',
    listGroupParticipants: 'participants in the group (TARGET_GROUP_ID)',
    getMeetingStats: 'meeting statistics records in production',
  };
  return `more than ${count} ${items[list.operationId] ?? 'items in the list'}`;
}

/** Takes of the arithmetic cases: 1, a take that leaves a partial last page on most lists, and the default. */
const TAKES = [1, 3, 7, 10] as const;

interface CaseContext {
  api: ApiClient;
  list: ListRequest;
  annotate: (note: string) => void;
  observe: Observe;
}

interface Case {
  name: string;
  requirements: [string, ...string[]];
  run: (context: CaseContext) => Promise<void>;
}

/** pagination.total of the list, read with the default page. */
async function totalOf(api: ApiClient, list: ListRequest): Promise<number> {
  return (await fetchPage(api, list)).pagination.total;
}

/**
 * The fields of `pagination` the interface states. The object is not closed: a target may add
 * others (hasNextPage, an echo of skip and take), which no check compares.
 */
const PAGINATION_FIELDS = ['page', 'totalPages', 'limit', 'total'] as const;

const CASES: readonly Case[] = [
  {
    name: 'the envelope carries page, totalPages, limit and total as numbers and a data array',
    requirements: ['PAG-12'],
    run: async ({ api, list }) => {
      const { pagination, data } = await fetchPage(api, list);
      // "number" in the interface: a number, not necessarily an integer.
      for (const field of PAGINATION_FIELDS) {
        await check('PAG-12', `pagination.${field} is a number`, () => paginationFieldIsNumber(pagination, field));
      }
      await check('PAG-12', 'data is an array', () => dataIsArray(data));
    },
  },
  {
    name: 'without skip and take the first page is the page of skip=0&take=10',
    requirements: ['PAG-01'],
    run: async ({ api, list }) => {
      // Neither page depends on the other: both go out together.
      const [implicit, explicit] = await allOf([fetchPage(api, list), fetchPage(api, list, { skip: 0, take: 10 })]);
      await check('PAG-01', 'the items without skip and take are those of skip=0&take=10', () => {
        sameItems(keysOf(implicit, list.key), keysOf(explicit, list.key), 'the items without skip and take, beside those of skip=0&take=10');
      });
      await check('PAG-01', 'page, totalPages, limit and total without skip and take are those of skip=0&take=10', () => {
        sameRecord(implicit.pagination, explicit.pagination, PAGINATION_FIELDS, 'pagination without skip and take, beside that of skip=0&take=10');
      });
      await check('PAG-01', 'at most 10 items without skip and take', () => {
        defaultPageHolds(implicit.data.length, implicit.pagination.total);
      });
    },
  },
  {
    name: 'without skip and take a list of more than 10 items returns exactly 10',
    requirements: ['PAG-02'],
    run: async ({ api, list }) => {
      const page = await fetchPage(api, list);
      if (page.pagination.total <= 10) notAssessed(`the list holds ${page.pagination.total} items, not more than 10`, { lacking: moreThan(10, list) });
      holdsTake(page.data.length, 10);
    },
  },
  {
    name: 'limit equals the take sent, and 10 without take',
    requirements: ['PAG-03'],
    run: async ({ api, list }) => {
      await check('PAG-03', 'limit is 10 without take', async () => limitIsTake((await fetchPage(api, list)).pagination, 10));
      await together(TAKES, async (take) => {
        await check('PAG-03', `limit is ${take} for take=${take}`, async () => limitIsTake((await fetchPage(api, list, { take })).pagination, take));
      });
    },
  },
  {
    name: 'totalPages equals ceil(total / limit)',
    requirements: ['PAG-05'],
    run: async ({ api, list }) => {
      await together([undefined, ...TAKES], async (take) => {
        await check('PAG-05', `totalPages is ceil(total / limit) for take=${String(take)}`, async () => {
          totalPagesIsCeiling((await fetchPage(api, list, take === undefined ? {} : { take })).pagination);
        });
      });
    },
  },
  {
    name: 'page numbers the pages in order from the first, 0 or 1, with one base for every list',
    requirements: ['PAG-06', 'PAG-13'],
    run: async ({ api, list, observe }) => {
      const total = await totalOf(api, list);
      if (total === 0) notAssessed('the list is empty');
      // "pagination.page: current page number": whether the first page is numbered 0 or 1 is not said
      // (PAG-06, observed), but whatever it is, the page k pages on is k numbers on (PAG-13).
      // The first page of the groups (one envelope, one meaning of page) goes out with the takes.
      const groups: ListRequest = { operationId: 'listGroups', key: 'id' };
      const groupsBase =
        list.operationId === groups.operationId ? undefined : fetchPage(api, groups, { skip: 0, take: 3 }).then((page) => page.pagination.page);
      // The takes go out together; within one, the later pages (together) once the first has given its number.
      const numbered = together([3, 7], async (take) => {
        const first = await fetchPage(api, list, { skip: 0, take });
        const base = first.pagination.page;
        observe('PAG-06', `pages numbered from ${String(base)}`, `take=${take}`);
        await check('PAG-06', `take=${take}: the first page is numbered 0 or 1`, () => pageIsOrdinal(base, 0, take));
        const lastSkip = (Math.ceil(total / take) - 1) * take;
        await together(
          [...new Set([Math.min(take, lastSkip), lastSkip])].filter((value) => value > 0),
          async (skip) => {
            await check('PAG-13', `take=${take}: the page at skip=${skip} is numbered ${skip / take} after the first`, async () => {
              pageFollowsSkip((await fetchPage(api, list, { skip, take })).pagination.page, base, skip, take);
            });
          },
        );
        return base;
      });
      const [bases, groupsFirst] = await allOf([numbered, groupsBase]);
      if (groupsFirst !== undefined) {
        await check('PAG-13', `the first page is numbered as the first page of the groups (${String(groupsFirst)})`, () => {
          numberedAsFirstOf(bases, groupsFirst, 'listGroups');
        });
      }
    },
  },
  {
    name: 'take=t returns exactly t items when at least skip + t items follow',
    requirements: ['PAG-07'],
    run: async ({ api, list }) => {
      const total = await totalOf(api, list);
      // A page edge too: the page of take 3 that ends exactly at the end of the list (an end test off by one shows there only).
      const edge = { skip: total - Math.min(3, total), take: Math.min(3, total) };
      const rows = [{ skip: 0, take: 1 }, { skip: 1, take: 3 }, { skip: 2, take: 7 }, { skip: 5, take: 10 }, edge]
        .filter((row) => row.take > 0 && row.skip + row.take <= total)
        .filter((row, index, all) => all.findIndex((other) => other.skip === row.skip && other.take === row.take) === index);
      if (rows.length === 0) notAssessed(`the list holds only ${total} items`, { lacking: moreThan(total, list) });
      await together(rows, async (row) => {
        await check('PAG-07', `skip=${row.skip}, take=${row.take} of ${total} items returns ${row.take} items`, async () => {
          holdsTake((await fetchPage(api, list, row)).data.length, row.take);
        });
      });
    },
  },
  {
    name: 'the last page holds total - (totalPages - 1) * limit items',
    requirements: ['PAG-08'],
    run: async ({ api, list }) => {
      const total = await totalOf(api, list);
      if (total === 0) notAssessed('the list is empty');
      await together([3, 7, 10], async (take) => {
        const lastSkip = (Math.ceil(total / take) - 1) * take;
        await check('PAG-08', `the last page of take=${take} (skip=${lastSkip}) holds ${total - lastSkip} items`, async () => {
          lastPageHoldsRest((await fetchPage(api, list, { skip: lastSkip, take })).data.length, total, lastSkip);
        });
      });
    },
  },
  {
    name: 'a skip at or past the total gives empty data and the same total',
    requirements: ['PAG-09', 'PAG-14'],
    run: async ({ api, list, observe }) => {
      const total = await totalOf(api, list);
      // The answer past the end is not described (PAG-09: what the target does is recorded, and
      // compared with the catalogue's statement), but a 200 there holds what skip and total say (PAG-14).
      const answers = await together([total, total + 7], async (skip) => {
        const exchange = await requestPage(api, list, { skip, take: 10 });
        const page = exchange.status === 200 ? envelopeOf(exchange) : undefined;
        observe(
          'PAG-09',
          page === undefined ? `HTTP ${exchange.status}` : `HTTP 200, ${page.data.length === 0 ? 'no items' : 'items'}`,
          `skip=${skip} of ${total}${page === undefined ? '' : `; ${page.data.length} items, total ${page.pagination.total}`}`,
        );
        await check('PAG-09', `skip=${skip} of ${total} answers 200 with the envelope`, () => {
          pastTheEndAnswered(exchange);
          expect(exchange).toMatchOperation(list.operationId, { status: 200 });
        });
        if (page === undefined) return exchange;
        await check('PAG-14', `the 200 to skip=${skip} of ${total} holds no items`, () => pastTheEndHoldsNothing(page.data.length));
        await check('PAG-14', `the 200 to skip=${skip} of ${total} says total ${total}`, () => pastTheEndKeepsTotal(page.pagination, total));
        return exchange;
      });
      // Both reads past the end refused (PAG-09's open choice): what a 200 there holds does not apply,
      // decided from those reads alone (the read of the total was a 200 too).
      const { notApplicable: reason } = applicability(requirement('PAG-14'), answers);
      if (reason !== undefined) notApplicable.record('PAG-14', `a 200 to skip=${total} or ${total + 7} of ${total}`, reason);
    },
  },
  {
    name: 'walking the pages yields every item exactly once and the same total on every page',
    requirements: ['PAG-04', 'PAG-10'],
    run: async ({ api, list, annotate, observe }) => {
      // At most 5 pages whatever the size of the list (support/paging.ts), so the cost does not grow with the data.
      let total = 0;
      let walked: PagedWalk | undefined;
      const read = await check('PAG-10', 'every page of the walk answers 200 with the envelope', async () => {
        total = await totalOf(api, list);
        walked = await walkInPages(api, list, total);
      });
      if (!read || walked === undefined) {
        notAssessed.record('PAG-04', 'pagination.total on every page of the walk', 'the walk could not read its pages (PAG-10)');
        return;
      }
      const { pages, keys, complete, take, requested, refused } = walked;
      if (refused !== undefined)
        observe('UNS-05', `take=${refused.take} refused with HTTP ${refused.status}`, `${list.operationId}; the walk stepped by ${take}`);
      else if (take !== requested) annotate(`the target capped take=${requested} at limit ${take} (UNS-05); the walk stepped by ${take}`);
      await check('PAG-04', `pagination.total is ${total} on each of the ${pages.length} pages of take=${take}`, () => {
        sameTotalOnEveryPage(
          pages.map((page) => page.pagination.total),
          total,
        );
      });
      await check('PAG-10', `the walk with take=${take} yields no item twice`, () => {
        noItemTwice(keys);
      });
      const duplicated = keys.length !== new Set(keys).size;
      if (complete && duplicated) {
        // Pages that repeat items (PAG-10) leave too few distinct items whatever the total says.
        notAssessed.record('PAG-04', `the walk with take=${take} yields ${total} distinct items, the total`, 'the walk yields items more than once (PAG-10)');
      } else if (complete) {
        await check('PAG-04', `the walk with take=${take} yields ${total} distinct items, the total`, () => {
          walkYields(new Set(keys).size, total, `distinct items with take=${take}, the total`);
        });
      }
      if (complete) {
        await check('PAG-10', `the walk with take=${take} yields ${total} items in all`, () => {
          walkYields(keys.length, total, `items with take=${take}, the total`);
        });
      } else {
        annotate(`bounded walk: ${pages.length} pages of ${take} of ${total} items; only this window was checked`);
        notAssessed.record('PAG-04', `the walk yields ${total} distinct items`, `bounded walk: ${pages.length} pages of ${take} of ${total} items`);
        await check('PAG-10', `${pages.length} full pages of take=${take} yield ${pages.length * take} items`, () => {
          walkYields(keys.length, pages.length * take, `items on ${pages.length} full pages of take=${take}`);
        });
      }
    },
  },
  {
    name: 'the same page requested twice holds the same items in the same order',
    requirements: ['PAG-11'],
    run: async ({ api, list }) => {
      const first = keysOf(await fetchPage(api, list, { skip: 1, take: 7 }), list.key);
      if (first.length < 2) notAssessed('fewer than 2 items at skip=1');
      sameItems(keysOf(await fetchPage(api, list, { skip: 1, take: 7 }), list.key), first, 'the items of skip=1&take=7 read again, beside the first read');
    },
  },
  {
    name: 'the page at skip=s&take=t holds items s+1 to s+t of the take-10 sequence',
    requirements: ['PAG-11'],
    run: async ({ api, list }) => {
      const first = await fetchPage(api, list, { skip: 0, take: 10 });
      const { total } = first.pagination;
      const sequence = keysOf(first, list.key);
      if (total > 10) sequence.push(...keysOf(await fetchPage(api, list, { skip: 10, take: 10 }), list.key));
      const known = (skip: number, take: number): boolean => skip < total && (skip + take <= sequence.length || sequence.length === total);
      const rows = [
        { skip: 0, take: 3 },
        { skip: 3, take: 7 },
        { skip: 8, take: 4 },
        { skip: 12, take: 5 },
      ].filter((row) => known(row.skip, row.take));
      if (rows.length < 2) notAssessed(`the list holds only ${total} items`, { lacking: moreThan(total, list) });
      await together(rows, async (row) => {
        await check(
          'PAG-11',
          `the page at skip=${row.skip}, take=${row.take} holds items ${row.skip + 1} to ${row.skip + row.take} of the take-10 sequence`,
          async () => {
            const page = await fetchPage(api, list, row);
            sameItems(
              keysOf(page, list.key),
              sequence.slice(row.skip, row.skip + row.take),
              `the items at skip=${row.skip}, take=${row.take}, beside items ${row.skip + 1} to ${row.skip + row.take} of the take-10 sequence`,
            );
          },
        );
      });
    },
  },
];

for (const paginated of LISTS) {
  for (const c of CASES) {
    test(`${paginated.name}: ${c.name}`, cites(...c.requirements), async ({ api, discover, observe }, testInfo) => {
      const list = await paginated.select(discover);
      await c.run({ api, list, observe, annotate: (note) => testInfo.annotations.push({ type: 'bound', description: note }) });
    });
  }
}

test('participants of a group without participants: total 0, totalPages 0 or 1, empty data', cites('PAG-05'), async ({ api, discover }) => {
  // Bounded search: the groups of the first page of listGroups, one request each.
  const groups = (await discover.groups()) ?? notAssessed('listGroups listed no group', { enable: 'TARGET_GROUP_ID' });
  for (const group of groups) {
    const { pagination, data } = await fetchPage(api, { operationId: 'listGroupParticipants', params: { groupId: group.id }, key: 'id' });
    if (pagination.total !== 0) continue;
    emptyListHoldsNothing(data);
    totalPagesIsCeiling(pagination);
    return;
  }
  notAssessed(`none of the ${groups.length} groups of the first page is empty`, { lacking: 'a group without participants on the first page of listGroups' });
});

test('recordings, when listed as a pagination envelope, carry page, totalPages, limit and total as numbers', cites('PAG-12'), async ({ api, discover }) => {
  const roomId = await discover.roomId();
  const exchange = await api.call('listRecordings', { query: { roomId } });
  expect(exchange).toMatchOperation('listRecordings', { status: 200 });
  if (Array.isArray(exchange.json)) notApplicable('the target lists recordings as a bare array (the sample form of VAR-01); PAG-12 concerns the envelope');
  const { pagination } = envelopeOf(exchange);
  for (const field of PAGINATION_FIELDS) {
    await check('PAG-12', `pagination.${field} of recordings is a number`, () => paginationFieldIsNumber(pagination, field));
  }
});
