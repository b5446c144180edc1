/**
 * Error bodies: the 401, 403 and 500 bodies the interface shows (ERR-01..03), statusCode equal to the
 * HTTP status (ERR-04), error equal to the status name (ERR-05), and the general shape elsewhere
 * (ERR-06), each a check of its own requirement, for the operations its catalogue entry names.
 * Statuses are judged by the requirements that state them (AUTH, LOGIN, CLOSE, TRS): a body is judged
 * here only once the answer is the error it must describe.
 * Errors of state-changing operations are provoked only where the target allows the operation
 * (support/permissions.ts): a target that checks loosely would carry the request out.
 */
import { check, cites, expect, notAssessed, test, together } from '../fixtures/index.ts';
import type { CallOptions, Exchange } from '../fixtures/index.ts';
import { hasStatus, isDocumentedErrorBody, stringWhenPresent } from './conditions/index.ts';
import { ALL_OPERATIONS, UNKNOWN_ID, callOperation, orUnknown, requestParts } from './support/auth.ts';
import { checkErrorBody, concerning, errorBodyNotApplicable, errorBodyNotAssessed } from './support/error-bodies.ts';
import { field } from './support/observations.ts';
import { permissionOf, permissionTags, requirePermission, sharesOf } from './support/permissions.ts';
import { tokenOf } from './support/reliance.ts';
import { untilNotOk } from './support/usage-limit.ts';

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
  test(
    `${row.title} answers 401 with statusCode 401 and a message`,
    cites('ERR-01', 'ERR-05', 'VAR-05', { tag: permissionTags(permission) }),
    async ({ api, target, observe }) => {
      requirePermission(target, permission, [row.operationId]);
      // An ended or unknown meeting: a close that wrongly passes authentication changes nothing.
      const exchange = await api.call(row.operationId, row.request(target.ids.endedMeetingId ?? UNKNOWN_ID));
      const unauthorized = exchange.status === 401;
      const why = `${row.title} answered HTTP ${exchange.status}, not 401 (the authentication requirements judge the status)`;
      await check('ERR-01', `the 401 of ${row.title} is the documented body`, () => {
        if (!unauthorized) notAssessed.check(why);
        expect(exchange).toMatchOperation(row.operationId, { status: 401 });
        isDocumentedErrorBody(exchange, ['message']);
      });
      if (unauthorized) await checkErrorBody(exchange, row.title, ['ERR-05']);
      else errorBodyNotAssessed(row.operationId, row.title, ['ERR-05'], why);
      await check('VAR-05', `the 401 of ${row.title} carries error as a string or omits it`, () => {
        if (!unauthorized) notAssessed.check(why);
        stringWhenPresent(exchange.json, 'error', exchange);
        observe('VAR-05', field(exchange.json, 'error') === undefined ? 'error absent' : 'error present', row.title);
      });
    },
  );
}

test(
  'transcription statistics answer 403 with the documented body once the usage limit is reached',
  cites('TRS-05', 'ERR-02', 'ERR-04', 'ERR-05', { tag: ['@destructive'] }),
  async ({ api, target }) => {
    const account = target.usageLimit ?? notAssessed('an account whose transcription usage limit may be exhausted', { enable: 'TARGET_USAGE_LIMIT_EMAIL' });
    if (!target.allowDestructive) notAssessed('exhausts the transcription usage limit of TARGET_USAGE_LIMIT_EMAIL', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    let answer: Exchange | undefined;
    let sent = 0;
    await check('TRS-05', `a 403 comes within ${account.requests} requests of the usage-limit account`, async () => {
      const token = await tokenOf(api, account.email, account.password, 'the usage-limit account (TARGET_USAGE_LIMIT_EMAIL)');
      // Bounded by TARGET_USAGE_LIMIT_REQUESTS; every answer before the limit is a success. The
      // requests do not depend on each other: they go out in waves of what the worker may have in flight.
      const query = { environment: target.environment };
      answer = await untilNotOk(
        () => {
          sent += 1;
          return api.call('getTranscriptionStats', { query, auth: { bearer: token } });
        },
        account.requests,
        api.inFlight,
      );
      // The first answer that was not a 200, of `sent` requests (at most account.requests).
      hasStatus(answer, 403);
    });
    const limited = answer?.status === 403 ? answer : undefined;
    const why = `no 403 within ${sent} request(s) (TRS-05 judges the status)`;
    await check('ERR-02', 'the 403 of the usage limit is the documented body', () => {
      if (limited === undefined) notAssessed.check(why);
      expect(limited).toMatchOperation('getTranscriptionStats', { status: 403 });
      isDocumentedErrorBody(limited, ['error', 'message']);
    });
    if (limited !== undefined) await checkErrorBody(limited, 'the 403 of the usage limit', ['ERR-04', 'ERR-05']);
    else errorBodyNotAssessed('getTranscriptionStats', 'the 403 of the usage limit', ['ERR-04', 'ERR-05'], why);
  },
);

test(
  'closing a meeting that has already ended answers 500 with statusCode, message and error',
  cites('CLOSE-03', 'ERR-03', 'ERR-04', 'ERR-05', { tag: ['@destructive'] }),
  async ({ api, target }) => {
    const meetingId = target.ids.endedMeetingId ?? notAssessed('a meeting that has already ended', { enable: 'TARGET_ENDED_MEETING_ID' });
    if (!target.allowDestructive) notAssessed('sends closeMeeting for TARGET_ENDED_MEETING_ID', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    const exchange = await api.call('closeMeeting', { params: { meetingId } });
    await check('CLOSE-03', 'closing the ended meeting TARGET_ENDED_MEETING_ID answers 500', () => {
      hasStatus(exchange, 500);
    });
    const why = `the close answered HTTP ${exchange.status}, not 500 (CLOSE-03 judges the status)`;
    await check('ERR-03', 'the 500 of closeMeeting is the documented body', () => {
      if (exchange.status !== 500) notAssessed.check(why);
      expect(exchange).toMatchOperation('closeMeeting', { status: 500 });
      isDocumentedErrorBody(exchange, ['message', 'error']);
    });
    if (exchange.status === 500) await checkErrorBody(exchange, 'the 500 of closing an ended meeting', ['ERR-04', 'ERR-05']);
    else errorBodyNotAssessed('closeMeeting', 'the 500 of closing an ended meeting', ['ERR-04', 'ERR-05'], why);
  },
);

// ---------------------------------------------------------------- every error body

/** No credential of any scheme: the answer is an error whatever the operation documents. */
const NO_CREDENTIALS = { bearer: null, apiKey: null, bodyApiKey: null, clientId: null, secret: null } as const;

for (const share of sharesOf(ALL_OPERATIONS, (operationId) => operationId)) {
  test(
    `every operation answers a request without credentials with an error body whose statusCode is the HTTP status${share.label}`,
    cites(...concerning(['ERR-04', 'ERR-06'], share.operations), { tag: permissionTags(share.permission) }),
    async ({ api, discover, target }) => {
      requirePermission(target, share.permission, share.operations);
      // The operations do not depend on each other: they go out together, their checks each on its own.
      await together(share.operations, async (operationId) => {
        const request: CallOptions =
          operationId === 'login'
            ? UNAUTHORIZED[0].request()
            : operationId === 'upsertParticipant'
              ? // An empty body: a write that wrongly passes authentication has nothing to write.
                { body: {} }
              : await requestParts(operationId, { discover, target, data: orUnknown });
        let exchange: Exchange;
        try {
          // Security keys where the worker's discovery found them served (VAR-03), not at the sample's path.
          exchange = await callOperation(api, discover, operationId, { ...request, auth: NO_CREDENTIALS });
        } catch (error) {
          if (!notAssessed.is(error)) throw error;
          errorBodyNotAssessed(operationId, `${operationId} without credentials`, ['ERR-04', 'ERR-06'], error.message);
          return;
        }
        // That the request is refused is the authentication requirements' (AUTH-03, AUTH-04, ...); here only an error body is judged.
        if (exchange.status < 400) {
          errorBodyNotAssessed(operationId, `${operationId} without credentials`, ['ERR-04', 'ERR-06'], `answered HTTP ${exchange.status}: no error body`);
          return;
        }
        await checkErrorBody(exchange, `${operationId} without credentials`, ['ERR-04', 'ERR-06']);
      });
    },
  );
}

/**
 * Errors other than authentication: invalid query values and unknown ids. Their statuses are not
 * shown (a 200 is not an error, and leaves nothing to check), so only the error bodies that do come
 * are checked. The invalid transcription request, whose body the interface shows, is TRS-04's.
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
    cites(...concerning(['ERR-04', 'ERR-05', 'ERR-06'], share.operations), { tag: permissionTags(share.permission) }),
    async ({ api, target }) => {
      requirePermission(target, share.permission, share.operations);
      await together(share.items, async ({ operationId, cause, request }) => {
        const exchange = await api.call(operationId, request);
        const what = `${operationId} ${cause}`;
        // What an error body holds does not apply to an answer that is no error, decided from this call alone.
        if (exchange.status < 400) errorBodyNotApplicable(operationId, what, ['ERR-04', 'ERR-05', 'ERR-06'], `answered HTTP ${exchange.status}, no error`);
        else await checkErrorBody(exchange, what, ['ERR-04', 'ERR-05', 'ERR-06']);
      });
    },
  );
}
