/**
 * Global setup's pre-flight login (fixtures/preflight.ts) against a throwaway server on 127.0.0.1:
 * silent whenever the answer carries a usable token, one plain message otherwise.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadTargetConfig, secretValues } from '../../fixtures/config.ts';
import type { TargetConfig } from '../../fixtures/config.ts';
import { preflightLogin, usableToken } from '../../fixtures/preflight.ts';

let answer: (response: ServerResponse) => void = (response) => response.end();
const server = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => answer(response));
});
let base = '';

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function target(baseUrl: string): TargetConfig {
  return loadTargetConfig({
    TARGET_BASE_URL: baseUrl,
    TARGET_REALTIME_URL: `${baseUrl}/v2`,
    TARGET_EMAIL: 'dev@example.test',
    TARGET_PASSWORD: 'pw-S3cret!',
    TARGET_API_KEY: 'key-0123456789',
    TARGET_ENVIRONMENT: 'development',
    TARGET_CLIENT_ID: 'client-abcdef',
    TARGET_SECRET: 'secret-fedcba',
    TARGET_TIMEOUT_MS: '500',
  });
}

const send = (status: number, contentType: string, body: string) => (response: ServerResponse) => {
  response.writeHead(status, { 'content-type': contentType });
  response.end(body);
};

async function preflight(baseUrl: string = base): Promise<string | undefined> {
  const config = target(baseUrl);
  return preflightLogin(config, secretValues(config));
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

  it('says plainly that the login was refused, without the password', async () => {
    answer = send(401, 'application/json', JSON.stringify({ statusCode: 401, message: 'Invalid credentials' }));
    const message = await preflight();
    assert.match(message ?? '', /^Pre-flight: the developer account \(TARGET_EMAIL, TARGET_PASSWORD\) cannot be used: the target refused the login \(HTTP 401\)\.\n/);
    assert.match(message ?? '', /every check that needs the bearer token is not assessed for this cause/);
    assert.match(message ?? '', /curl -sS -i -X POST '.*\/login'/);
    assert.doesNotMatch(message ?? '', /pw-S3cret!/);
  });

  it('names an answer without a token', async () => {
    answer = send(200, 'text/html', '<html>welcome</html>');
    assert.match((await preflight()) ?? '', /cannot be used: login answered HTTP 200 without an access_token \(target answered text\/html where JSON was required\)\./);
    answer = send(500, 'application/json', JSON.stringify({ statusCode: 500, message: 'boom' }));
    assert.match((await preflight()) ?? '', /cannot be used: login answered HTTP 500\./);
  });

  it('names a target that cannot be reached or does not answer in time', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    assert.match((await preflight(`http://127.0.0.1:${port}`)) ?? '', /login got no answer: connection refused: nothing listens at the target address\.\n {2}The run goes on: every check fails/);
    answer = () => undefined;
    assert.match((await preflight()) ?? '', /login got no answer: target did not finish its response within 500 ms/);
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
