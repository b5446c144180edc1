/**
 * Meeting statistics (getMeetingStats, developer accounts): the result forms chosen by onlySummary
 * and usePagination, the record and participant shapes, the filters, the environment default and
 * partition, and the refusal of an account that is not a developer.
 *
 * Filter values come from the records themselves, and each filter check needs a non-empty result
 * that is a strict subset of the unfiltered records, so that an ignored filter cannot pass. Totals
 * and lists are live: two reads compared with each other are read again, together, until they agree
 * or a few seconds pass (support/reliance.ts settled), so that a meeting ending between them is
 * not taken for a fault.
 */
import { check, cites, expect, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient } from '../fixtures/index.ts';
import {
  everyItemHas,
  everyItemWithin,
  isAPageOfTheRecords,
  isDocumentedStatsForm,
  isStatsForm,
  isTheRecordAskedFor,
  mayMatch,
  mustMatch,
  noMinutesWithoutRecordings,
  noneLeftOut,
  returnsSome,
  sameItems,
  shareNoRecord,
  summaryTotalIsCount,
  totalCountsTheRecords,
  totalIsSumOver,
} from './conditions/index.ts';
import type { Period } from './conditions/index.ts';
import { discerningMonth, discerningRange, discerningYear } from './support/date-bounds.ts';
import { nearlyEqual, readRecords, readStats, readSummary, statsForm, SUMMARY_TOTALS, totalsOf, uuidsOf } from './support/meeting-stats.ts';
import type { MeetingStatsRecord, StatsQuery } from './support/meeting-stats.ts';
import { formOf } from './support/recordings.ts';
import { settled, tokenOf } from './support/reliance.ts';

test('meeting statistics without parameters answer the summary totals', cites('MST-01', 'MSUM-01'), async ({ api }) => {
  const exchange = await api.call('getMeetingStats');
  const form = statsForm(exchange.json);
  await check('MST-01', 'without parameters the answer is 200 with the summary form', () => {
    expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
    isStatsForm(form, 'summary', exchange);
  });
  for (const total of SUMMARY_TOTALS) {
    await check('MSUM-01', `${total} of the default getMeetingStats answer is a number, not negative`, () => {
      if (exchange.status !== 200 || form !== 'summary') {
        notAssessed.check(`the answer is HTTP ${exchange.status} in the ${form} form (MST-01 judges it)`);
      }
      summaryTotalIsCount(exchange.json as Record<string, unknown>, total);
    });
  }
});

test('meeting statistics with onlySummary=true answer the summary totals', cites('MST-02'), async ({ api }) => {
  await readStats(api, { onlySummary: true }, 'summary');
});

test('meeting statistics with onlySummary=false answer a bare array of records', cites('MST-03'), async ({ api }) => {
  const exchange = await api.call('getMeetingStats', { query: { onlySummary: false } });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  isStatsForm(statsForm(exchange.json), 'records', exchange);
});

test('every meeting statistics record carries the documented fields', cites('MST-04'), async ({ api }) => {
  // readRecords validates each record against MeetingStatsRecord; an empty list would validate nothing.
  if ((await readRecords(api)).length === 0) notAssessed('no record to check', { lacking: 'meeting statistics records in production' });
});

test('every participant entry of a meeting record carries the documented fields', cites('MST-05'), async ({ api }) => {
  const records = await readRecords(api);
  if (records.flatMap((record) => record.participants).length === 0)
    notAssessed('no participant entry to check', { lacking: 'a meeting record with participants' });
});

test('usePagination=true with onlySummary=false answers the pagination envelope of records', cites('MST-06'), async ({ api }) => {
  type Page = { data: MeetingStatsRecord[]; pagination: { limit: number; total: number } };
  const readBoth = async (): Promise<[MeetingStatsRecord[], Page]> => {
    const [all, exchange] = await Promise.all([readRecords(api), readStats(api, { usePagination: true, onlySummary: false }, 'envelope')]);
    return [all, exchange.json as Page];
  };
  const [all, page] = await settled(readBoth, ([records, { pagination }]) => pagination.total === records.length);
  await check('MST-06', 'pagination.total counts the records of the same filters', () => {
    totalCountsTheRecords(page.pagination.total, all.length);
  });
  await check('MST-06', 'data holds a page of those records', () => {
    isAPageOfTheRecords(uuidsOf(page.data), page.pagination.limit, uuidsOf(all));
  });
});

const FORM_NAMES = { summary: 'summary', envelope: 'pagination envelope of records', records: 'bare array of records', other: 'another form' } as const;

/** onlySummary at its default, not sent or sent as true, with usePagination=true: the result is not shown (UNS-19). */
const UNSHOWN_FORMS: readonly { name: string; query: StatsQuery }[] = [
  { name: 'onlySummary not sent', query: { usePagination: true } },
  { name: 'onlySummary=true', query: { usePagination: true, onlySummary: true } },
];

test('usePagination=true with onlySummary at its default: the answer is observed', cites('UNS-19'), async ({ api, observe }) => {
  for (const { name, query } of UNSHOWN_FORMS) {
    const exchange = await api.call('getMeetingStats', { query });
    const form = statsForm(exchange.json);
    observe('UNS-19', `usePagination=true, ${name}: HTTP ${exchange.status}${exchange.status === 200 ? `, ${FORM_NAMES[form]}` : ''}`);
    // Nothing is shown for this case: what is recorded is whether the answer is one the interface knows.
    await check('UNS-19', `usePagination=true, ${name}: a 200 in a documented form, or a refusal`, () => {
      if (exchange.status >= 400 && exchange.status < 500) return;
      expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
      isDocumentedStatsForm(form, exchange);
    });
  }
});

interface DateFilterCase {
  name: string;
  id: string;
  /**
   * The query and the period it selects, chosen from the records; `blindTo` says which near misses of
   * the filter the records cannot tell from the right reading, and what data would (partly assessed).
   */
  pick: (records: MeetingStatsRecord[]) => { query: StatsQuery; period: Period; blindTo?: string } | undefined;
}

/** The partly-assessed reason of a filter whose records cannot tell `unseen` near misses from the right reading, naming the data that would. */
function blindness(filter: string, unseen: readonly string[], wanted: string): string | undefined {
  if (unseen.length === 0) return undefined;
  return `${filter}: the records cannot tell ${unseen.join(', ')} from the right reading; needs meeting statistics records in production ${wanted}`;
}

const DATE_FILTERS: readonly DateFilterCase[] = [
  {
    name: 'month and year',
    id: 'MST-07',
    pick: (records) => {
      // A month with records well inside it, beside records of the same month in another year (support/date-bounds.ts).
      const chosen = discerningMonth(records);
      if (chosen?.month === undefined) return undefined;
      const { year, month, period, unseen } = chosen;
      const blindTo = blindness('month and year', unseen, 'well inside one month (14 hours from its edges), and in the same month of another year');
      // The interface shows the two-digit form of month.
      return { query: { month: String(month).padStart(2, '0'), year }, period, blindTo };
    },
  },
  {
    name: 'year',
    id: 'MST-08',
    pick: (records) => {
      const chosen = discerningYear(records);
      if (chosen === undefined) return undefined;
      const blindTo = blindness('year', chosen.unseen, 'well inside one year (14 hours from its edges)');
      return { query: { year: chosen.year }, period: chosen.period, blindTo };
    },
  },
  {
    name: 'initialDate and endDate',
    id: 'MST-09',
    pick: (records) => {
      // Bounds a minute outside the first and last records the range must return (support/date-bounds.ts).
      const range = discerningRange(records);
      if (range === undefined) return undefined;
      const { initialDate, endDate, period, unseen } = range;
      const blindTo = blindness(
        'initialDate and endDate',
        unseen.map(({ name }) => `a range read ${name}`),
        'a few hours apart on one UTC day, each lasting less than an hour, and one more before and one after them on that day',
      );
      return { query: { initialDate, endDate }, period, blindTo };
    },
  },
];

const dates = ({ uuid, startedAt, endedAt, createdAt }: MeetingStatsRecord): Record<string, string> => ({ uuid, startedAt, endedAt, createdAt });

for (const c of DATE_FILTERS) {
  test(`filtering meeting records by ${c.name} returns exactly the records in that period`, cites(c.id), async ({ api }) => {
    const all = await readRecords(api);
    const { query, period, blindTo } =
      c.pick(all) ?? notAssessed(`no record to take a ${c.name} from`, { lacking: 'meeting statistics records in production' });
    if (blindTo !== undefined) notAssessed.case(blindTo);
    // Which date-time of a record the filter uses, and in which zone, is not shown (support/meeting-stats.ts).
    const outside = all.filter((record) => !mayMatch(record, period));
    if (outside.length === 0)
      notAssessed(`every record may lie in the period ${JSON.stringify(query)}, so an ignored filter would pass`, {
        lacking: `meeting statistics records in production dated outside ${JSON.stringify(query)}`,
      });

    const filtered = await readRecords(api, query);
    const returned = new Set(filtered.map((record) => record.uuid));
    await check(c.id, `no record outside ${JSON.stringify(query)} is returned`, () => everyItemWithin(filtered.map(dates), period, 1));
    await check(c.id, `every record inside ${JSON.stringify(query)} is returned`, () => {
      returnsSome(filtered, `records for ${JSON.stringify(query)}`);
      noneLeftOut(
        all.filter((record) => mustMatch(record, period) && !returned.has(record.uuid)).map(dates),
        `records whose date-times all lie in ${period.what} were`,
      );
    });
  });
}

/** The group of the most records (the first of equals): the values of both sides of the filter, and more than one record to return. */
function largestGroup(records: readonly MeetingStatsRecord[]): string | undefined {
  const counts = new Map<string, number>();
  for (const { groupId } of records) counts.set(groupId, (counts.get(groupId) ?? 0) + 1);
  const withOthers = [...counts].filter(([, count]) => count < records.length);
  const [largest] = (withOthers.length > 0 ? withOthers : [...counts]).sort((a, b) => b[1] - a[1]);
  return largest?.[0];
}

test('filtering meeting records by groupId returns exactly the records of that group', cites('MST-12'), async ({ api }) => {
  const all = await readRecords(api);
  const groupId = largestGroup(all) ?? notAssessed('no record to take a groupId from', { lacking: 'meeting statistics records in production' });
  if (all.every((record) => record.groupId === groupId)) notAssessed(`every record belongs to group ${groupId}, so an ignored filter would pass`);
  // One record of the group could not tell a filter that stops at the first match from the right one.
  if (all.filter((record) => record.groupId === groupId).length < 2) {
    notAssessed.case(
      `groupId: no group holds two records, so a filter that returns only the first record of the group passes; needs meeting statistics records in production, two of one group`,
    );
  }

  const filtered = await readRecords(api, { groupId });
  await check('MST-12', `no record of another group is returned for groupId=${groupId}`, () =>
    everyItemHas(
      filtered.map(({ uuid, groupId: other }) => ({ uuid, groupId: other })),
      'groupId',
      groupId,
      1,
    ),
  );
  const ofGroup = (records: MeetingStatsRecord[]): string[] => uuidsOf(records.filter((record) => record.groupId === groupId));
  const [everything, again] = await settled(
    () => Promise.all([readRecords(api), readRecords(api, { groupId })]),
    ([records, filteredAgain]) => uuidsOf(filteredAgain).join() === ofGroup(records).join(),
  );
  await check('MST-12', `every record of group ${groupId} is returned`, () => {
    sameItems(uuidsOf(again), ofGroup(everything), `the records of groupId=${groupId}, beside those of group ${groupId} in the unfiltered records`);
  });
});

// MST-10 is judged on the records (uuids): summary totals are live, and are not compared across two reads.
test('meeting records without environment are the production records', cites('MST-10'), async ({ api }) => {
  const [production, development] = await Promise.all([readRecords(api, { environment: 'production' }), readRecords(api, { environment: 'development' })]);
  if (production.length === 0) notAssessed('an empty default would match an empty production list', { lacking: 'meeting statistics records in production' });
  if (uuidsOf(production).join() === uuidsOf(development).join()) notAssessed('both environments hold the same records');
  const [byDefault, ofProduction] = await settled(
    () => Promise.all([readRecords(api), readRecords(api, { environment: 'production' })]),
    ([left, right]) => uuidsOf(left).join() === uuidsOf(right).join(),
  );
  await check('MST-10', 'the records without environment are the production records', () => {
    sameItems(uuidsOf(byDefault), uuidsOf(ofProduction), 'the records without environment, beside those of environment=production');
  });
});

test('development and production meeting records share no record', cites('MST-11'), async ({ api }) => {
  const [development, production] = await Promise.all([readRecords(api, { environment: 'development' }), readRecords(api, { environment: 'production' })]);
  if (development.length === 0) notAssessed('disjointness needs records on both sides', { lacking: 'meeting statistics records in development' });
  if (production.length === 0) notAssessed('disjointness needs records on both sides', { lacking: 'meeting statistics records in production' });
  shareNoRecord(uuidsOf(development), uuidsOf(production));
});

/** Groups looked up for the environment check: enough to catch environments read the other way round. */
const MAX_GROUP_LOOKUPS = 2;

test("the meeting records of the API key's environment refer to groups that key can read", cites('MST-11'), async ({ api, target }) => {
  // Disjoint environments still pass when the two values are read the other way round (the default
  // with them); the API key selects the environment of groups, so a record of the other environment
  // names a group this key cannot read (as the transcription records' check, TRS-03).
  const records = await readRecords(api, { environment: target.environment });
  if (records.length === 0) notAssessed('no record to check', { lacking: `meeting statistics records in ${target.environment}` });
  for (const groupId of [...new Set(records.map((record) => record.groupId))].slice(0, MAX_GROUP_LOOKUPS)) {
    const group = await api.call('getGroup', { params: { id: groupId } });
    expect(group, `group ${groupId} of a ${target.environment} meeting record, read with the ${target.environment} API key`).toMatchOperation('getGroup', {
      status: 200,
    });
    isTheRecordAskedFor(group.json, ['id'], groupId);
  }
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

for (const c of CONSISTENCY) {
  test(`summary totals ${c.name} equal the sums over the records ${c.name}`, cites('MST-13'), async ({ api }) => {
    const query = c.pick(await readRecords(api)) ?? notAssessed('no record to take a filter from', { lacking: 'meeting statistics records in production' });
    const [summary, records] = await settled(
      () => Promise.all([readSummary(api, query), readRecords(api, query)]),
      ([totals, list]) => SUMMARY_TOTALS.every((total) => nearlyEqual(totals[total], totalsOf(list)[total])),
    );
    const sums = totalsOf(records);
    for (const total of SUMMARY_TOTALS) {
      await check('MST-13', `${total} for ${JSON.stringify(query)} equals the sum over the ${records.length} records`, () => {
        totalIsSumOver(summary[total], sums[total], total);
      });
    }
  });
}

test('a bearer token of an account that is not a developer gets 401 Unauthorized', cites('MST-14'), async ({ api, target }) => {
  const account = target.nonDeveloper ?? notAssessed('an account that is not a developer', { enable: 'TARGET_NON_DEVELOPER_EMAIL' });
  await check('MST-14', 'getMeetingStats with the token of an account that is not a developer answers 401 with error Unauthorized', async () => {
    const token = await tokenOf(api, account.email, account.password, 'the account that is not a developer (TARGET_NON_DEVELOPER_EMAIL)');
    const exchange = await api.call('getMeetingStats', { auth: { bearer: token } });
    expect(exchange).toMatchOperation('getMeetingStats', { status: 401 });
    expect(exchange.json).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
  });
});

/** At most this many meetings' recordings are read (one listRecordings request each), spread over the records. */
const MAX_MEETINGS_READ = 24;

/** Every k-th item, so that at most `max` are taken from the whole list. */
function spread<T>(items: readonly T[], max: number): T[] {
  const step = Math.max(1, Math.ceil(items.length / max));
  return items.filter((_, index) => index % step === 0);
}

/**
 * The recordings of one meeting as listRecordings gives them on its first page (either form): how many
 * are of that meeting, or undefined when the answer cannot say (not a 200 of a documented form, or a
 * page of other meetings' recordings only, which REC-05 judges).
 */
async function recordingsOf(api: ApiClient, meetingId: string): Promise<{ count: number | undefined; curl: string }> {
  const exchange = await api.call('listRecordings', { query: { meetingId } });
  const form = formOf(exchange.json);
  if (exchange.status !== 200 || form === undefined) return { count: undefined, curl: exchange.curl };
  const items = (Array.isArray(exchange.json) ? exchange.json : (exchange.json as { data: unknown[] }).data) as { meetingId?: unknown }[];
  const count = items.filter((item) => item.meetingId === meetingId).length;
  return { count: count === 0 && items.length > 0 ? undefined : count, curl: exchange.curl };
}

// "recordingMinutes: minutes recorded" of the record's meeting; "meetingId: returns the recordings of that meeting".
test('a meeting whose recordings list is empty shows no minutes recorded', cites('MST-15'), async ({ api, target }) => {
  // The records of the API key's environment, beside the recordings that key lists.
  const records = await readRecords(api, { environment: target.environment });
  if (records.length === 0) notAssessed('no record to hold against its recordings', { lacking: `meeting statistics records in ${target.environment}` });
  // Only a record that shows minutes can break the rule; its meeting's recordings are read.
  const showing = [...new Map(records.filter((record) => record.recordingMinutes !== 0).map((record) => [record.meetingId, record])).values()];
  const read = await Promise.all(
    spread(showing, MAX_MEETINGS_READ).map(async (record) => {
      // A recording is listed from the end of the meeting on (processing, then available); a list read
      // empty is read again for a few seconds, so that a recording about to be listed is not missed.
      const { count, curl } = await settled(
        () => recordingsOf(api, record.meetingId),
        (reading) => reading.count !== 0,
      );
      return { meetingId: record.meetingId, recordingMinutes: record.recordingMinutes, recordings: count, curl };
    }),
  );
  const judged = read.filter((meeting): meeting is typeof meeting & { recordings: number } => meeting.recordings !== undefined);
  if (read.length > 0 && judged.length === 0) notAssessed(`listRecordings gave no usable list for the ${read.length} meetings read (REC-05, VAR-01 judge it)`);
  await check(
    'MST-15',
    `none of the ${judged.length} meetings read of the ${showing.length} showing minutes recorded (of ${records.length} records) has an empty recordings list`,
    () => noMinutesWithoutRecordings(judged),
  );
});
