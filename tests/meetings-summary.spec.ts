/**
 * Meetings summary (getMeetingsSummary): the totals of the API key's environment, read with the
 * API key alone.
 */
import { cites, expect, test } from '../fixtures/index.ts';

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
