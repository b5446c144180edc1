/**
 * Meetings summary (getMeetingsSummary): the totals of the API key's environment, read with the
 * API key alone.
 */
import { check, cites, expect, test } from '../fixtures/index.ts';
import { hasStatus, sameTotals } from './conditions/index.ts';
import { nearlyEqual, readSummary, SUMMARY_TOTALS } from './support/meeting-stats.ts';
import type { MeetingSummary } from './support/meeting-stats.ts';
import { relyOn, settled } from './support/reliance.ts';

test('meetings summary answers the three totals as numbers that are not negative', cites('MSUM-01'), async ({ api }) => {
  const exchange = await api.call('getMeetingsSummary');
  // MeetingStatsSummary requires the three totals, numbers with minimum 0 ("number" in the interface: no integer is asked).
  expect(exchange).toMatchOperation('getMeetingsSummary', { status: 200 });
});

test('meetings summary answers 200 to a request carrying only the apikey header', cites('MSUM-02'), async ({ api }) => {
  const exchange = await api.call('getMeetingsSummary', { auth: { bearer: null, clientId: null, secret: null } });
  const sent = Object.keys(exchange.request.headers).map((name) => name.toLowerCase());
  expect(sent, 'credential headers sent').toEqual(expect.arrayContaining(['apikey']));
  expect(
    sent.filter((name) => ['authorization', 'client_id', 'secret'].includes(name)),
    'other credentials sent',
  ).toEqual([]);
  expect(exchange).toMatchOperation('getMeetingsSummary', { status: 200 });
});

// Both answer "Meeting statistics summary"; the API key "determines whether data comes from the development or the production environment".
test('the meetings summary gives the totals of the meeting statistics of its environment', cites('MSUM-03'), async ({ api, target }) => {
  const read = async (): Promise<[Awaited<ReturnType<typeof api.call>>, MeetingSummary]> =>
    Promise.all([api.call('getMeetingsSummary'), readSummary(api, { environment: target.environment })]);
  const totalsOf = (json: unknown): Record<string, number> => (typeof json === 'object' && json !== null ? (json as Record<string, number>) : {});
  // Totals are live: the two are read again, together, until they agree or a few seconds pass.
  const [exchange, stats] = await settled(read, ([summary, fromStats]) =>
    SUMMARY_TOTALS.every(
      (total) => typeof totalsOf(summary.json)[total] === 'number' && nearlyEqual(totalsOf(summary.json)[total] as number, fromStats[total]),
    ),
  );
  await relyOn('MSUM-02', 'getMeetingsSummary answers 200', () => hasStatus(exchange, 200));
  await check('MSUM-03', `the meetings summary holds the totals of getMeetingStats with environment=${target.environment}`, () =>
    sameTotals({
      names: ['getMeetingsSummary', `getMeetingStats environment=${target.environment}`],
      totals: [totalsOf(exchange.json), { ...stats }],
      compared: SUMMARY_TOTALS,
      curl: exchange.curl,
    }),
  );
});
