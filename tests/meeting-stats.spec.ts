/**
 * Meeting statistics (getMeetingStats, developer accounts): the result forms chosen by onlySummary
 * and usePagination, the record and participant shapes, the filters, the environment default and
 * partition, and the refusal of an account that is not a developer.
 *
 * Filter values come from the records themselves, and each filter check needs a non-empty result
 * that is a strict subset of the unfiltered records, so that an ignored filter cannot pass.
 */
import { cites, expect, test } from '../fixtures/index.ts';
import {
  mayMatch,
  monthWindow,
  mustMatch,
  nearlyEqual,
  rangeOf,
  rangeWindow,
  readRecords,
  readStats,
  readSummary,
  statsForm,
  totalsOf,
  uuidsOf,
  yearWindow,
} from './support/meeting-stats.ts';
import type { MeetingStatsRecord, MeetingSummary, StatsQuery, TimeWindow } from './support/meeting-stats.ts';

test('meeting statistics without parameters answer the summary totals', cites('MST-01', 'MSUM-01'), async ({ api }) => {
  const exchange = await api.call('getMeetingStats');
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  expect(statsForm(exchange.json)).toBe('summary');
});

test('meeting statistics with onlySummary=true answer the summary totals', cites('MST-02'), async ({ api }) => {
  await readStats(api, { onlySummary: true }, 'summary');
});

test('meeting statistics with onlySummary=false answer a bare array of records', cites('MST-03'), async ({ api }) => {
  const exchange = await api.call('getMeetingStats', { query: { onlySummary: false } });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  expect(statsForm(exchange.json)).toBe('records');
});

test('every meeting statistics record carries the documented fields', cites('MST-04'), async ({ api, needs }) => {
  // readRecords validates each record against MeetingStatsRecord; an empty list would validate nothing.
  needs((await readRecords(api))[0], 'meeting statistics records in production', 'no record to check');
});

test('every participant entry of a meeting record carries the documented fields', cites('MST-05'), async ({ api, needs }) => {
  const records = await readRecords(api);
  needs(records.flatMap((record) => record.participants)[0], 'a meeting record with participants', 'no participant entry to check');
});

test('usePagination=true with onlySummary=false answers the pagination envelope of records', cites('MST-06'), async ({ api }) => {
  const all = await readRecords(api);
  const exchange = await readStats(api, { usePagination: true, onlySummary: false }, 'envelope');
  const body = exchange.json as { data: MeetingStatsRecord[]; pagination: { page: number; limit: number; total: number } };
  expect(body.pagination.total, 'pagination.total against the records of the same filters').toBe(all.length);
  expect(body.data.length).toBe(Math.min(body.pagination.limit, all.length));
  expect(uuidsOf(all)).toEqual(expect.arrayContaining(uuidsOf(body.data)));
});

test('usePagination=true with onlySummary at its default: the form is observed', cites('UNS-19'), async ({ api, observe }) => {
  const exchange = await api.call('getMeetingStats', { query: { usePagination: true } });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  const form = statsForm(exchange.json);
  expect(form, 'one of the documented result forms').not.toBe('other');
  observe('UNS-19', { summary: 'summary', envelope: 'pagination envelope of records', records: 'bare array of records', other: 'other' }[form]);
});

interface DateFilterCase {
  name: string;
  id: string;
  /** The query and the window it selects, chosen from the records. */
  pick: (records: MeetingStatsRecord[]) => { query: StatsQuery; window: TimeWindow } | undefined;
}

const DATE_FILTERS: readonly DateFilterCase[] = [
  {
    name: 'month and year',
    id: 'MST-07',
    pick: (records) => {
      const started = records[0] === undefined ? undefined : new Date(records[0].startedAt);
      if (started === undefined) return undefined;
      const year = started.getUTCFullYear();
      const month = started.getUTCMonth() + 1;
      // The interface shows the two-digit form of month.
      return { query: { month: String(month).padStart(2, '0'), year }, window: monthWindow(year, month) };
    },
  },
  {
    name: 'year',
    id: 'MST-08',
    pick: (records) => {
      const year = records[0] === undefined ? undefined : new Date(records[0].startedAt).getUTCFullYear();
      return year === undefined ? undefined : { query: { year }, window: yearWindow(year) };
    },
  },
  {
    name: 'initialDate and endDate',
    id: 'MST-09',
    pick: (records) => {
      const range = rangeOf(records);
      return range === undefined ? undefined : { query: range, window: rangeWindow(range.initialDate, range.endDate) };
    },
  },
];

for (const c of DATE_FILTERS) {
  test(`filtering meeting records by ${c.name} returns exactly the records in that period`, cites(c.id), async ({ api, needs }) => {
    const all = await readRecords(api);
    const { query, window } = needs(c.pick(all), 'meeting statistics records in production', `no record to take a ${c.name} from`);
    const outside = all.filter((record) => !mayMatch(record, window));
    test.skip(outside.length === 0, `not assessed: every record lies in the period ${JSON.stringify(query)}, so an ignored filter would pass`);

    const filtered = await readRecords(api, query);
    const returned = new Set(filtered.map((record) => record.uuid));
    expect(filtered.length, `records for ${JSON.stringify(query)}`).toBeGreaterThan(0);
    expect(
      filtered.filter((record) => !mayMatch(record, window)).map(({ uuid, startedAt, createdAt }) => ({ uuid, startedAt, createdAt })),
      'records returned although neither startedAt nor createdAt lies in the period',
    ).toEqual([]);
    expect(
      all.filter((record) => mustMatch(record, window) && !returned.has(record.uuid)).map(({ uuid, startedAt, createdAt }) => ({ uuid, startedAt, createdAt })),
      'records whose startedAt and createdAt both lie in the period but were left out',
    ).toEqual([]);
  });
}

test('filtering meeting records by groupId returns exactly the records of that group', cites('MST-12'), async ({ api, needs }) => {
  const all = await readRecords(api);
  const groupId = needs(all[0]?.groupId, 'meeting statistics records in production', 'no record to take a groupId from');
  const ofGroup = all.filter((record) => record.groupId === groupId);
  test.skip(ofGroup.length === all.length, `not assessed: every record belongs to group ${groupId}, so an ignored filter would pass`);

  const filtered = await readRecords(api, { groupId });
  expect(filtered.filter((record) => record.groupId !== groupId).map(({ uuid, groupId: other }) => ({ uuid, groupId: other }))).toEqual([]);
  expect(uuidsOf(filtered)).toEqual(uuidsOf(ofGroup));
});

test('meeting statistics without environment give the production summary', cites('MST-10'), async ({ api }) => {
  const [byDefault, production] = await Promise.all([readSummary(api), readSummary(api, { environment: 'production' })]);
  expect(byDefault).toEqual(production);
});

test('meeting records without environment are the production records', cites('MST-10'), async ({ api, needs }) => {
  const [byDefault, production, development] = await Promise.all([
    readRecords(api),
    readRecords(api, { environment: 'production' }),
    readRecords(api, { environment: 'development' }),
  ]);
  needs(production[0], 'meeting statistics records in production', 'an empty default would match an empty production list');
  test.skip(uuidsOf(production).join() === uuidsOf(development).join(), 'not assessed: both environments hold the same records');
  expect(uuidsOf(byDefault)).toEqual(uuidsOf(production));
});

test('development and production meeting records share no record', cites('MST-11'), async ({ api, needs }) => {
  const [development, production] = await Promise.all([
    readRecords(api, { environment: 'development' }),
    readRecords(api, { environment: 'production' }),
  ]);
  needs(development[0], 'meeting statistics records in development', 'disjointness needs records on both sides');
  needs(production[0], 'meeting statistics records in production', 'disjointness needs records on both sides');
  const productionUuids = new Set(uuidsOf(production));
  expect(uuidsOf(development).filter((uuid) => productionUuids.has(uuid)), 'uuids listed in both environments').toEqual([]);
});

interface ConsistencyCase {
  name: string;
  pick: (records: MeetingStatsRecord[]) => StatsQuery | undefined;
}

const CONSISTENCY: readonly ConsistencyCase[] = [
  { name: 'without filters', pick: () => ({}) },
  { name: 'for one group', pick: (records) => (records[0] === undefined ? undefined : { groupId: records[0].groupId }) },
  {
    name: 'for one year',
    pick: (records) => (records[0] === undefined ? undefined : { year: new Date(records[0].startedAt).getUTCFullYear() }),
  },
];

const TOTALS: readonly (keyof MeetingSummary)[] = ['totalMeetings', 'totalMeetingMinutes', 'totalRecordingMinutes'];

for (const c of CONSISTENCY) {
  test(`summary totals ${c.name} equal the sums over the records ${c.name}`, cites('MST-13'), async ({ api, needs, warn }) => {
    const query = needs(c.pick(await readRecords(api)), 'meeting statistics records in production', 'no record to take a filter from');
    const [summary, records] = await Promise.all([readSummary(api, query), readRecords(api, query)]);
    const sums = totalsOf(records);
    for (const total of TOTALS) {
      if (!nearlyEqual(summary[total], sums[total])) {
        warn('MST-13', `${total} for ${JSON.stringify(query)}: the summary says ${summary[total]}, the ${records.length} records give ${sums[total]}`);
      }
    }
  });
}

test('a bearer token of an account that is not a developer gets 401 Unauthorized', cites('MST-14'), async ({ api, target, needs }) => {
  const account = needs(target.nonDeveloper, 'TARGET_NON_DEVELOPER_EMAIL', 'an account that is not a developer');
  const login = await api.login(account.email, account.password);
  expect(login).toMatchOperation('login', { status: 200 });
  const token = (login.json as { access_token: string }).access_token;

  const exchange = await api.call('getMeetingStats', { auth: { bearer: token } });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 401 });
  expect(exchange.json).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
});
