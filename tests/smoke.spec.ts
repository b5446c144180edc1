/**
 * Smoke: the harness end to end (configuration, login, credentials taken from the document,
 * discovery, contract matcher). If these fail, every other spec fails for the same cause.
 */
import { cites, expect, test } from '../fixtures/index.ts';

test('login with the developer account returns a JWT access token and the user name', cites('LOGIN-01', 'LOGIN-02'), async ({ api, target }) => {
  const exchange = await api.login(target.email, target.password);
  expect(exchange).toMatchOperation('login', { status: 200 });
  const body = exchange.json as { access_token: string };
  const [header, payload] = body.access_token.split('.');
  expect(body.access_token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
  expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8'))).toEqual(expect.any(Object));
  expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'))).toEqual(expect.any(Object));
});

test('listing groups returns a pagination envelope of groups', cites('GRP-01'), async ({ api }) => {
  const exchange = await api.call('listGroups');
  expect(exchange).toMatchOperation('listGroups', { status: 200 });
});

test('getting a listed group returns that group', cites('GRP-03'), async ({ api, discover, needs }) => {
  const listed = needs((await discover.groups())?.[0], 'a group in the account', 'listGroups listed none');
  const exchange = await api.call('getGroup', { params: { id: listed.id } });
  expect(exchange).toMatchOperation('getGroup', { status: 200 });
  expect(exchange.json).toMatchObject({ id: listed.id, name: listed.name, createdAt: listed.createdAt });
});
