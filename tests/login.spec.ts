/**
 * Login (operation 1): the bearer token, bad credentials, and the length limits of the body.
 *
 * Only LOGIN-03 and the two password-limit checks send the developer account's e-mail with a
 * wrong password (one attempt each per run), so that the suite cannot lock a live account.
 */
import { cites, expect, test } from '../fixtures/index.ts';
import { checkErrorBody, credentialHeadersSent, decodeJwt } from './support/auth.ts';

/** A well-formed address of a domain reserved for examples (RFC 2606): no account can own it. */
const UNKNOWN_EMAIL = 'conformance-no-such-account@example.com';

test(
  'login with the account e-mail and password, without any credential header, answers 200 with a JWT access token and the user name',
  cites('LOGIN-01', 'LOGIN-02', 'AUTH-01'),
  async ({ api, target }) => {
    const exchange = await api.login(target.email, target.password);
    expect(credentialHeadersSent(exchange), 'login documents no credentials, so none is sent').toEqual([]);
    expect(exchange).toMatchOperation('login', { status: 200 });
    const body = exchange.json as { access_token: string; name: string };
    expect(body.access_token, 'three base64url segments').toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
    expect(decodeJwt(body.access_token), 'header and payload decode to JSON objects').toBeDefined();
    expect(typeof body.name).toBe('string');
  },
);

test('login with a wrong password answers 401 with statusCode and message and no token', cites('LOGIN-03'), async ({ api, target, warn, observe }) => {
  const exchange = await api.login(target.email, 'Wrong-Passw0rd-for-conformance');
  expect(exchange).toMatchOperation('login', { status: 401 });
  expect(exchange.json).toMatchObject({ statusCode: 401, message: expect.any(String) });
  expect(exchange.json).not.toHaveProperty('access_token');
  checkErrorBody(exchange, { warn, observe }, 'with a wrong password');
});

test('login with an e-mail that belongs to no account answers 401 with statusCode and message and no token', cites('LOGIN-04'), async ({ api, target, warn, observe }) => {
  const exchange = await api.login(UNKNOWN_EMAIL, target.password);
  expect(exchange).toMatchOperation('login', { status: 401 });
  expect(exchange.json).toMatchObject({ statusCode: 401, message: expect.any(String) });
  expect(exchange.json).not.toHaveProperty('access_token');
  checkErrorBody(exchange, { warn, observe }, 'with an unknown e-mail');
});

/** 192 characters: one more than the documented maximum. */
const LONG_EMAIL = `${'a'.repeat(192 - '@example.com'.length)}@example.com`;

const LIMITS = [
  { id: 'LOGIN-05', name: 'an e-mail of 192 characters', body: (email: string, password: string) => ({ email: LONG_EMAIL, password }) },
  { id: 'LOGIN-06', name: 'a password of 5 characters', body: (email: string) => ({ email, password: 'Ab1!x' }) },
  {
    id: 'LOGIN-07',
    name: 'a password of 192 characters',
    // The real password padded: a target that truncates instead of refusing would let it in.
    body: (email: string, password: string) => ({ email, password: password.padEnd(192, 'x') }),
  },
] as const;

for (const limit of LIMITS) {
  test(`login with ${limit.name} is refused with a 4xx status and no token`, cites(limit.id), async ({ api, target, warn, observe }) => {
    const body = limit.body(target.email, target.password);
    const exchange = await api.call('login', { body });
    observe(limit.id, `HTTP ${exchange.status}`);
    expect(exchange.status, `${limit.name} must be refused with a 4xx status\n${exchange.curl}`).toBeGreaterThanOrEqual(400);
    expect(exchange.status, `${limit.name} must not cause a server error\n${exchange.curl}`).toBeLessThan(500);
    expect(exchange.json ?? {}).not.toHaveProperty('access_token');
    // 401 is documented for login; other 4xx statuses are not, so only the error body is checked.
    if (exchange.status === 401) expect(exchange).toMatchOperation('login', { status: 401 });
    checkErrorBody(exchange, { warn, observe }, `with ${limit.name}`);
  });
}
