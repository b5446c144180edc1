/**
 * Login (operation 1): the bearer token, bad credentials, and the length limits of the body.
 *
 * Only LOGIN-03 and the two password-limit checks send the developer account's e-mail with a
 * wrong password (one attempt each per run), so that the suite cannot lock a live account.
 */
import { check, cites, expect, notAssessed, test } from '../fixtures/index.ts';
import type { Exchange, Observe } from '../fixtures/index.ts';
import { grantsNone, hasStatus, holdsJwt, holdsString, isDocumentedErrorBody, leavesOut, noSuccess, refusedWith4xx, succeeds } from './conditions/index.ts';
import { expectCredentialHeaders } from './support/auth.ts';
import { checkErrorBody } from './support/error-bodies.ts';

/** A well-formed address of a domain reserved for examples (RFC 2606): no account can own it. */
const UNKNOWN_EMAIL = 'conformance-no-such-account@example.com';

const isSuccess = (exchange: Exchange): boolean => exchange.status >= 200 && exchange.status <= 299;

test(
  'login with the account e-mail and password, without any credential header, answers 200 with a JWT access token and the user name',
  cites('LOGIN-01', 'LOGIN-02', 'AUTH-01'),
  async ({ api, target }) => {
    const exchange = await api.login(target.email, target.password);
    // The client sends no credential to login (the document names none); a failure here is the suite's.
    expectCredentialHeaders(exchange, []);
    // The exact status and the token are LOGIN-01's: AUTH-01 is that no credential is needed.
    await check('AUTH-01', 'login without any credential header is accepted (2xx)', () => succeeds(exchange));
    await check('LOGIN-01', 'login answers 200 with an access_token holding a JWT in compact serialization', () => {
      hasStatus(exchange, 200);
      holdsJwt(exchange, 'access_token');
    });
    await check('LOGIN-02', 'the login body carries name, a string', () => {
      if (!isSuccess(exchange)) notAssessed.check(`login answered HTTP ${exchange.status}, not a success body (LOGIN-01)`);
      holdsString(exchange, 'name');
    });
  },
);

/** LOGIN-03 and LOGIN-04: a bad credential gets 401 with statusCode 401, a message and no token. */
async function expectBadCredentials(requirementId: string, exchange: Exchange, observe: Observe, cause: string): Promise<void> {
  await check(requirementId, `login ${cause} answers 401 with statusCode 401, a message and no access_token`, () => {
    expect(exchange).toMatchOperation('login', { status: 401 });
    isDocumentedErrorBody(exchange, ['message']);
    leavesOut(exchange, ['access_token']);
  });
  await checkErrorBody(exchange, `login ${cause}`, ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], observe);
}

test('login with a wrong password answers 401 with statusCode and message and no token', cites('LOGIN-03'), async ({ api, target, observe }) => {
  await expectBadCredentials('LOGIN-03', await api.login(target.email, 'Wrong-Passw0rd-for-conformance'), observe, 'with a wrong password');
});

test(
  'login with an e-mail that belongs to no account answers 401 with statusCode and message and no token',
  cites('LOGIN-04'),
  async ({ api, target, observe }) => {
    await expectBadCredentials('LOGIN-04', await api.login(UNKNOWN_EMAIL, target.password), observe, 'with an unknown e-mail');
  },
);

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
  test(`login with ${limit.name} does not log in`, cites(limit.id, 'INP-06'), async ({ api, target, observe }) => {
    const body = limit.body(target.email, target.password);
    const exchange = await api.call('login', { body });
    observe(limit.id, `HTTP ${exchange.status}`);
    await check(limit.id, `login with ${limit.name} does not log in: no 2xx and no access_token`, () => {
      noSuccess(exchange);
      grantsNone(exchange, ['access_token']);
    });
    // The interface states the limits, not the status of the refusal: a 4xx rather than a 5xx is INP-06's (SHOULD).
    await check('INP-06', `login with ${limit.name} is refused with a 4xx status, not a 5xx`, () => refusedWith4xx(exchange));
    // 401 is documented for login, with its body (ERR-01); other 4xx statuses are not, so only the error-body checks apply.
    if (exchange.status === 401) {
      await check('ERR-01', `login with ${limit.name}: the 401 body`, () => expect(exchange).toMatchOperation('login', { status: 401 }));
    }
    await checkErrorBody(exchange, `login with ${limit.name}`, ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], observe);
  });
}
