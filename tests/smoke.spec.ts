/**
 * Smoke: the harness end to end (configuration, login, credentials taken from the document,
 * discovery, contract matcher). If these fail, every other spec fails for the same cause. The
 * login itself is certified in login.spec.ts.
 */
import { cites, expect, notAssessed, test } from '../fixtures/index.ts';

test('listing groups returns a pagination envelope of groups', cites('GRP-01'), async ({ api }) => {
  const exchange = await api.call('listGroups');
  expect(exchange).toMatchOperation('listGroups', { status: 200 });
});

test('getting a listed group returns that group', cites('GRP-03'), async ({ api, discover }) => {
  const listed = (await discover.groups())?.[0] ?? notAssessed('listGroups listed none', { lacking: 'a group in the account' });
  const exchange = await api.call('getGroup', { params: { id: listed.id } });
  expect(exchange).toMatchOperation('getGroup', { status: 200 });
  expect(exchange.json).toMatchObject({ id: listed.id, name: listed.name, createdAt: listed.createdAt });
});
