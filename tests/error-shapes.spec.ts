/**
 * Error bodies: the 401, 403 and 500 bodies the interface shows, statusCode equal to the HTTP
 * status everywhere, error equal to the status name, and the general shape elsewhere (SHOULD).
 * Errors of state-changing operations are provoked only where the target allows the operation
 * (support/permissions.ts): a target that checks loosely would carry the request out.
 */
import { cites, expect, requireDestructive, test, together } from '../fixtures/index.ts';
import type { CallOptions } from '../fixtures/index.ts';
import { ALL_OPERATIONS, UNKNOWN_ID, checkErrorBody, orUnknown, requestParts, statusNames } from './support/auth.ts';
import { untilNotOk } from './support/usage-limit.ts';
import { permissionOf, permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

// ---------------------------------------------------------------- the documented bodies

const UNAUTHORIZED = [
  {
    title: 'a failed login',
    operationId: 'login',
    request: (): CallOptions => ({ body: { email: 'conformance-no-such-account@example.com', password: 'Wrong-Passw0rd-for-conformance' } }),
  },
  { title: 'meeting statistics without the bearer token', operationId: 'getMeetingStats', request: (): CallOptions => ({ auth: { bearer: null } }) },
  {
    title: 'closing a meeting without the bearer token',
    operationId: 'closeMeeting',
    request: (meetingId: string): CallOptions => ({ params: { meetingId }, auth: { bearer: null } }),
  },
  {
    title: 'closing a meeting without the body apiKey',
    operationId: 'closeMeeting',
    request: (meetingId: string): CallOptions => ({ params: { meetingId }, auth: { bodyApiKey: null } }),
  },
] as const;

for (const row of UNAUTHORIZED) {
  const permission = permissionOf(row.operationId);
  test(`${row.title} answers 401 with statusCode 401 and a message`, cites('ERR-01', 'VAR-05', { tag: permissionTags(permission) }), async ({ api, target, warn, observe }) => {
    requirePermission(target, permission, [row.operationId]);
    // An ended or unknown meeting: a close that wrongly passes authentication changes nothing.
    const exchange = await api.call(row.operationId, row.request(target.ids.endedMeetingId ?? UNKNOWN_ID));
    expect(exchange).toMatchOperation(row.operationId, { status: 401 });
    expect(exchange.json).toMatchObject({ statusCode: 401, message: expect.any(String) });
    checkErrorBody(exchange, { warn, observe }, row.title);
  });
}

test(
  'transcription statistics answer 403 with the documented body once the usage limit is reached',
  cites('TRS-05', 'ERR-02', 'ERR-04', 'ERR-05', { tag: ['@destructive'] }),
  async ({ api, target, needs }) => {
    const account = needs(target.usageLimit, 'TARGET_USAGE_LIMIT_EMAIL', 'an account whose transcription usage limit may be exhausted');
    requireDestructive(target, 'exhausts the transcription usage limit of TARGET_USAGE_LIMIT_EMAIL');
    const login = await api.login(account.email, account.password);
    expect(login, 'login of the usage-limit account').toMatchOperation('login', { status: 200 });
    const token = (login.json as { access_token: string }).access_token;
    // Bounded by TARGET_USAGE_LIMIT_REQUESTS; every answer before the limit is a success.
    const answer = await untilNotOk(() => api.call('getTranscriptionStats', { auth: { bearer: token } }), account.requests, api.inFlight);
    expect(answer, `a 403 within ${account.requests} requests`).toMatchOperation('getTranscriptionStats', { status: 403 });
    const body = answer.json as { statusCode: number; error: string; message: string };
    expect(body.statusCode).toBe(403);
    expect(statusNames(403)).toContain(body.error);
  },
);

test('closing a meeting that has already ended answers 500 with statusCode, message and error', cites('ERR-03', 'ERR-04', 'ERR-05', { tag: ['@destructive'] }), async ({ api, target, needs }) => {
  const meetingId = needs(target.ids.endedMeetingId, 'TARGET_ENDED_MEETING_ID', 'a meeting that has already ended');
  requireDestructive(target, 'sends closeMeeting for TARGET_ENDED_MEETING_ID');
  const exchange = await api.call('closeMeeting', { params: { meetingId } });
  expect(exchange).toMatchOperation('closeMeeting', { status: 500 });
  const body = exchange.json as { statusCode: number; error: string; message: string };
  expect(body.statusCode).toBe(500);
  expect(statusNames(500)).toContain(body.error);
});

// ---------------------------------------------------------------- every error body

/** No credential of any scheme: the answer is an error whatever the operation documents. */
const NO_CREDENTIALS = { bearer: null, apiKey: null, bodyApiKey: null, clientId: null, secret: null } as const;

for (const share of sharesOf(ALL_OPERATIONS, (operationId) => operationId)) {
  test(
    `every operation answers a request without credentials with an error body whose statusCode is the HTTP status${share.label}`,
    cites('ERR-04', 'ERR-06', { tag: permissionTags(share.permission) }),
    async ({ api, discover, target, warn, observe }) => {
      requirePermission(target, share.permission, share.operations);
      await together(share.operations, async (operationId) => {
        const request: CallOptions =
          operationId === 'login'
            ? UNAUTHORIZED[0].request()
            : operationId === 'upsertParticipant'
              ? // An empty body: a write that wrongly passes authentication has nothing to write.
                { body: {} }
              : await requestParts(operationId, { discover, target, data: orUnknown });
        const exchange = await api.call(operationId, { ...request, auth: NO_CREDENTIALS });
        expect.soft(exchange.status, `${operationId} without credentials must be refused\n${exchange.curl}`).toBeGreaterThanOrEqual(400);
        checkErrorBody(exchange, { warn, observe }, 'without credentials');
      });
    },
  );
}

/**
 * Errors other than authentication: invalid query values and unknown ids. Their statuses are not
 * shown (a 200 passes), so only the error bodies that do come are checked.
 */
const OTHER_ERRORS: readonly { operationId: string; cause: string; request: CallOptions }[] = [
  { operationId: 'getTranscriptionStats', cause: 'with environment=staging', request: { query: { environment: 'staging' } } },
  { operationId: 'getMeetingStats', cause: 'with environment=staging', request: { query: { environment: 'staging' } } },
  { operationId: 'getMeetingStats', cause: 'with month=13', request: { query: { month: 13 } } },
  { operationId: 'getGroup', cause: 'of an unknown group', request: { params: { id: UNKNOWN_ID } } },
  { operationId: 'listGroupParticipants', cause: 'of an unknown group', request: { params: { groupId: UNKNOWN_ID } } },
  { operationId: 'getParticipant', cause: 'of an unknown participant', request: { params: { id: UNKNOWN_ID } } },
  { operationId: 'archiveParticipant', cause: 'of an unknown participant', request: { params: { id: UNKNOWN_ID } } },
  { operationId: 'closeMeeting', cause: 'of an unknown meeting', request: { params: { meetingId: UNKNOWN_ID } } },
  { operationId: 'getChannelInfo', cause: 'of an unknown channel', request: { params: { channel: UNKNOWN_ID } } },
  { operationId: 'listChannelParticipants', cause: 'of an unknown channel', request: { params: { channel_name: UNKNOWN_ID } } },
  { operationId: 'listRoomChannelParticipants', cause: 'of an unknown room and channel', request: { params: { room: UNKNOWN_ID, channel: UNKNOWN_ID } } },
];

for (const share of sharesOf(OTHER_ERRORS, (error) => error.operationId)) {
  test(
    `error bodies for invalid query values and unknown ids carry statusCode equal to the HTTP status${share.label}`,
    cites('ERR-04', 'ERR-05', 'ERR-06', { tag: permissionTags(share.permission) }),
    async ({ api, target, warn, observe }) => {
      requirePermission(target, share.permission, share.operations);
      await together(share.items, async ({ operationId, cause, request }) => {
        const exchange = await api.call(operationId, request);
        if (exchange.status < 400) return;
        // The one error body the interface shows besides 401/403/500: an invalid transcription request.
        if (operationId === 'getTranscriptionStats') expect.soft(exchange).toMatchOperation(operationId, { status: exchange.status });
        checkErrorBody(exchange, { warn, observe }, cause);
      });
    },
  );
}
