/**
 * The API client and the contract matcher against each mode of the hostile target
 * (scripts/lib/hostile-target.ts): every broken answer is named in plain words.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { DEFAULTS } from '../../fixtures/config/variables.ts';
import { checkExchange } from '../../fixtures/contract/index.ts';
import { hostileProfile, startHostileTarget } from '../../scripts/lib/hostile-target.ts';
import type { HostileMode } from '../../scripts/lib/hostile-target.ts';
import type { ApiClient, TokenStore } from '../../fixtures/transport/client.ts';
import type { InterfaceLiveness } from '../../fixtures/transport/outage.ts';
import { jsonProblem, transportCause } from '../../fixtures/contract/plain-causes.ts';
import { recordingLiveness } from './local-server.ts';
import { workerClient } from './worker-client.ts';

const TIMEOUT_MS = 500;
let context: APIRequestContext;
before(async () => {
  context = await request.newContext();
});
after(async () => {
  await context.dispose();
});

async function against<T>(mode: HostileMode, use: (api: ApiClient, tokens: TokenStore) => Promise<T>, liveness?: InterfaceLiveness): Promise<T> {
  const hostile = await startHostileTarget(mode);
  try {
    const target = loadTargetConfig(hostileProfile(hostile.url, TIMEOUT_MS));
    const { api, tokens } = workerClient(context, target, liveness === undefined ? {} : { liveness });
    return await use(api, tokens);
  } finally {
    await hostile.close();
  }
}

const ANSWERED: readonly { mode: HostileMode; cause: string }[] = [
  { mode: 'html', cause: 'target answered text/html where JSON was required' },
  { mode: 'invalid-json', cause: "target's response is not valid JSON" },
  { mode: 'wrong-content-type', cause: 'target answered text/plain where JSON was required' },
  { mode: 'empty', cause: 'target answered with an empty body' },
  { mode: 'redirect-loop', cause: 'target answered with a redirect (HTTP 302 to /meetings/summary), which the suite does not follow' },
];

const UNANSWERED: readonly { mode: HostileMode; cause: string }[] = [
  // Without the transport's watch (fixtures/transport/body-limit.ts), the client refuses the body once read.
  { mode: 'huge', cause: `got no usable response: target's response body exceeded the limit of ${DEFAULTS.maxBodyBytes} bytes (TARGET_MAX_BODY_BYTES): ` },
  { mode: 'never-ends', cause: `got no response: target did not finish its response within ${TIMEOUT_MS} ms` },
  { mode: 'hangs', cause: `got no response: target did not finish its response within ${TIMEOUT_MS} ms` },
  { mode: 'reset', cause: 'got no response: connection reset by the target' },
];

describe('a hostile target is named in plain words', () => {
  for (const { mode, cause } of ANSWERED) {
    it(`${mode}: the answer is kept, and the matcher and login name the cause`, async () => {
      await against(mode, async (api, tokens) => {
        const exchange = await api.call('getMeetingsSummary');
        assert.equal(jsonProblem(exchange), cause);
        const result = checkExchange(exchange, 'getMeetingsSummary', { status: 200 });
        assert.equal(result.pass, false);
        assert.ok(result.message.includes(cause), result.message);
        if (mode !== 'wrong-content-type') {
          await assert.rejects(
            tokens.bearer((email, password) => api.login(email, password)),
            (error: Error) => {
              assert.match(
                error.message.split('\n')[0] ?? '',
                new RegExp(
                  `^Login of the developer account \\(TARGET_EMAIL\\) failed with HTTP \\d+: ${escape(cause.replace('/meetings/summary', '/login'))}; `,
                ),
              );
              return true;
            },
          );
        }
      });
    });
  }

  for (const { mode, cause } of UNANSWERED) {
    it(`${mode}: the request fails with the cause on its first line`, async () => {
      await against(mode, async (api) => {
        await assert.rejects(api.call('getMeetingsSummary'), (error: Error) => {
          assert.ok((error.message.split('\n')[0] ?? '').includes(cause), error.message);
          return true;
        });
      });
    });
  }

  it('reset: a request the target may refuse by closing (callRefusable) takes the close as its answer, answered for the watch over outages', async () => {
    const told: string[] = [];
    const liveness = recordingLiveness(told);
    await against(
      'reset',
      async (api) => {
        const answer = await api.callRefusable('getGroup', { encodedParams: { id: '%zz' }, auth: { bearer: 'a-token' } });
        assert.ok('closed' in answer);
        assert.equal(answer.closed, 'connection reset by the target');
        assert.match(answer.curl, /^curl .*\/groups\/%zz/);
        // The same close to a plain call is no answer at all.
        await assert.rejects(api.call('getGroup', { params: { id: 'grp-1' }, auth: { bearer: 'a-token' } }), /got no response: connection reset by the target/);
      },
      liveness,
    );
    assert.deepEqual(told, ['answered', 'unanswered: connection reset by the target']);
  });

  it('names the low-level errors of a target that cannot be reached', () => {
    assert.equal(
      transportCause('apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:1\nCall log:', 1000),
      'connection refused: nothing listens at the target address',
    );
    assert.equal(transportCause('apiRequestContext.fetch: getaddrinfo ENOTFOUND api.example.invalid', 1000), "target's host name could not be resolved");
    assert.equal(transportCause('apiRequestContext.fetch: Max redirect count exceeded', 1000), 'too many redirects');
    assert.equal(transportCause('apiRequestContext.fetch: something new', 1000), 'something new');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
