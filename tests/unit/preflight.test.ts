/**
 * Global setup's pre-flight login (fixtures/transport/preflight.ts) against a throwaway server on 127.0.0.1:
 * silent whenever the answer carries a usable token, one plain message otherwise.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadTargetConfig, secretValues } from '../../fixtures/config/profile.ts';
import type { TargetConfig } from '../../fixtures/config/profile.ts';
import { preflight as runPreflight, usableToken } from '../../fixtures/transport/preflight.ts';
import type { DownInterface, Preflight } from '../../fixtures/transport/preflight.ts';
import { closedPort } from '../../scripts/lib/closed-port.ts';
import { VALID_PROFILE } from './valid-profile.ts';

let answer: (response: ServerResponse, request: IncomingMessage) => void = (response) => response.end();
const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => answer(response, incoming));
});
let base = '';

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function target(baseUrl: string): TargetConfig {
  return loadTargetConfig({
    ...VALID_PROFILE,
    TARGET_BASE_URL: baseUrl,
    TARGET_REALTIME_URL: `${baseUrl}/v2`,
    TARGET_TIMEOUT_MS: '500',
  });
}

const send = (status: number, contentType: string, body: string) => (response: ServerResponse) => {
  response.writeHead(status, { 'content-type': contentType });
  response.end(body);
};

async function outcome(baseUrl: string = base, realtimeUrl?: string): Promise<Preflight> {
  const config = { ...target(baseUrl), ...(realtimeUrl === undefined ? {} : { realtimeUrl }) };
  return runPreflight(config, secretValues(config));
}

/** The message the run prints, undefined when the token is usable. */
async function preflight(baseUrl: string = base): Promise<string | undefined> {
  const result = await outcome(baseUrl);
  return result.kind === 'usable' ? undefined : result.message;
}

describe('pre-flight login', () => {
  it('is silent when the answer carries a token, whatever the 2xx status or the content type', async () => {
    answer = send(200, 'application/json', JSON.stringify({ access_token: 'a.b.c', name: 'Dev' }));
    assert.equal(await preflight(), undefined);
    answer = send(201, 'application/json', JSON.stringify({ access_token: 'a.b.c' }));
    assert.equal(await preflight(), undefined);
    answer = send(200, 'text/plain', JSON.stringify({ access_token: 'a.b.c' }));
    assert.equal(await preflight(), undefined);
  });

  it('stops at a refusal of the account, naming TARGET_EMAIL and TARGET_PASSWORD, without the password', async () => {
    answer = send(401, 'application/json', JSON.stringify({ statusCode: 401, message: 'Invalid credentials' }));
    const result = await outcome();
    assert.equal(result.kind, 'misconfigured');
    const message = result.kind === 'misconfigured' ? result.message : '';
    assert.equal(
      result.kind === 'misconfigured' ? result.cause : '',
      `the developer account could not log in (login answered HTTP 401 at ${base}/login): check TARGET_EMAIL and TARGET_PASSWORD`,
    );
    assert.match(message, /^Pre-flight: configuration error: the developer account could not log in .*: check TARGET_EMAIL and TARGET_PASSWORD\.\n/);
    assert.match(message, /stops before its tests \(exit code 2\) with a certificate that is not certifiable: the suite cannot tell a mistyped profile/);
    assert.match(message, /curl -sS -i -X POST '.*\/login'/);
    assert.doesNotMatch(message, /pw-S3cret!/);
    for (const status of [400, 403, 422]) {
      answer = send(status, 'application/json', JSON.stringify({ statusCode: status, message: 'no' }));
      const refused = await outcome();
      assert.match(
        refused.kind === 'misconfigured' ? refused.cause : refused.kind,
        /^the developer account could not log in .*check TARGET_EMAIL and TARGET_PASSWORD$/,
        `HTTP ${status}`,
      );
    }
  });

  it('stops at an address that serves no login, naming the path prefix of TARGET_BASE_URL, not the account', async () => {
    const cases: [number, string, string][] = [
      [404, 'application/json', JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Route POST:/api/v1/login not found' })],
      [405, 'text/plain', 'Method Not Allowed'],
      [500, 'text/html', '<!DOCTYPE html><pre>Cannot POST /api/v1/login</pre>'],
    ];
    for (const [status, type, body] of cases) {
      answer = send(status, type, body);
      const result = await outcome();
      assert.equal(
        result.kind === 'misconfigured' ? result.cause : result.kind,
        `login answered HTTP ${status} at ${base}/login: nothing the interface names is served there; check the path prefix of TARGET_BASE_URL`,
      );
    }
  });

  it('goes on when the account logs in with the apikey header that login must not need: the login tests judge that', async () => {
    let logins = 0;
    answer = (response, request) => {
      if (request.method === 'POST') logins += 1;
      const withKey = request.headers['apikey'] === 'key-0123456789';
      send(
        withKey ? 200 : 401,
        'application/json',
        JSON.stringify(withKey ? { access_token: 'a.b.c' } : { statusCode: 401, message: 'apikey required' }),
      )(response);
    };
    const result = await outcome();
    assert.equal(result.kind, 'unusable');
    assert.match(
      result.kind === 'unusable' ? result.message : '',
      /refused the login \(HTTP 401\); with an apikey header \(TARGET_API_KEY\) the same login gave a token/,
    );
    assert.equal(logins, 2, 'one more login, only because the first was refused');
  });

  it("goes on at the target's own answers: a 2xx without a token, a 5xx, a timeout status, a rate limit", async () => {
    for (const status of [200, 408, 429, 500, 503]) {
      answer = send(status, 'text/html', '<html>It works!</html>');
      assert.equal((await outcome()).kind, 'unusable', `HTTP ${status}`);
    }
  });

  it('names an answer without a token', async () => {
    answer = send(200, 'text/html', '<html>welcome</html>');
    assert.match(
      (await preflight()) ?? '',
      /cannot be used: login answered HTTP 200 without an access_token \(target answered text\/html where JSON was required\)\./,
    );
    answer = send(500, 'application/json', JSON.stringify({ statusCode: 500, message: 'boom' }));
    assert.match((await preflight()) ?? '', /cannot be used: login answered HTTP 500\./);
  });

  it('goes on when only the main interface cannot be reached, naming it down: the realtime checks can still be judged', async () => {
    answer = send(404, 'application/json', '{}');
    const port = await closedPort();
    const result = await outcome(`http://127.0.0.1:${port}`, `${base}/v2`);
    assert.equal(result.kind, 'usable');
    assert.deepEqual(result.kind === 'usable' ? result.down : undefined, {
      name: 'main',
      cause: 'login got no answer: connection refused: nothing listens at the target address',
    });
  });

  it('goes on when only the realtime interface cannot be reached, naming it down, with or without a usable token', async () => {
    const port = await closedPort();
    answer = send(200, 'application/json', JSON.stringify({ access_token: 'a.b.c' }));
    const usable = await outcome(base, `http://127.0.0.1:${port}/v2`);
    assert.equal(usable.kind, 'usable');
    assert.deepEqual(usable.kind === 'usable' ? usable.down : undefined, {
      name: 'realtime',
      cause: 'connection refused: nothing listens at the target address',
    });
    answer = send(500, 'application/json', '{}');
    const refused = await outcome(base, `http://127.0.0.1:${port}/v2`);
    assert.equal(refused.kind, 'unusable');
    assert.equal(refused.kind === 'unusable' ? refused.down?.name : undefined, 'realtime');
  });

  it('with a listener for the realtime interface, answers as soon as the login did and tells the listener later', async () => {
    const port = await closedPort();
    answer = send(200, 'application/json', JSON.stringify({ access_token: 'a.b.c' }));
    const config = { ...target(base), realtimeUrl: `http://127.0.0.1:${port}/v2` };
    let told: (down: DownInterface) => void = () => undefined;
    const later = new Promise<DownInterface>((resolve) => (told = resolve));
    const result = await runPreflight(config, secretValues(config), (down) => told(down));
    assert.deepEqual(result, { kind: 'usable' });
    assert.deepEqual(await later, { name: 'realtime', cause: 'connection refused: nothing listens at the target address' });
  });

  it('stops the run when neither interface answers at all: refused, or no answer in time', async () => {
    const port = await closedPort();
    const refused = await outcome(`http://127.0.0.1:${port}`);
    assert.equal(refused.kind, 'unreachable');
    assert.match(
      refused.kind === 'unreachable' ? refused.message : '',
      /^Pre-flight: the target cannot be reached \(connection refused: nothing listens at the target address\)\.\n[\s\S]*Realtime interface http:\/\/127\.0\.0\.1:\d+\/v2: connection refused[\s\S]*the run stops before its tests/,
    );
    assert.doesNotMatch(refused.kind === 'unreachable' ? refused.message : '', /pw-S3cret!/);
    answer = () => undefined;
    const hanging = await outcome();
    assert.equal(hanging.kind, 'unreachable');
    assert.match(hanging.kind === 'unreachable' ? hanging.cause : '', /target did not finish its response within 500 ms/);
    server.closeAllConnections();
  });

  it('takes a token only from a 2xx JSON object with a non-empty access_token', () => {
    const headers = {};
    assert.equal(usableToken({ status: 200, headers, text: '{"access_token":"t"}' }), 't');
    assert.equal(usableToken({ status: 401, headers, text: '{"access_token":"t"}' }), undefined);
    assert.equal(usableToken({ status: 200, headers, text: '{"access_token":""}' }), undefined);
    assert.equal(usableToken({ status: 200, headers, text: '{"token":"t"}' }), undefined);
    assert.equal(usableToken({ status: 200, headers, text: 'not json' }), undefined);
  });
});
