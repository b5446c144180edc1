/**
 * The authentication matrix: every operation succeeds with the credentials it documents and
 * answers 401 when one of them is missing, malformed, forged, expired or of another scheme.
 *
 * Which operations a case applies to comes from the security requirements of the OpenAPI
 * document; the request parts each operation needs come from a literal table (support/auth.ts).
 * Rejection checks change nothing on a target that checks credentials: archiveParticipant names a
 * participant that does not exist, closeMeeting a meeting that has already ended, and
 * upsertParticipant is checked on a participant its own test created, read back afterwards. A
 * target that checks loosely would carry those requests out, so each case is split by the
 * permission its operations need (support/permissions.ts) and the state-changing shares are gated.
 *
 * Each operation of a case is one check, on the one requirement of the case that lists the
 * operation (AUTH-03 for listGroups, AUTH-06 for getTranscriptionStats, ...), with the request sent
 * inside it; the 401 body is checked after it, on the error requirements (support/auth.ts).
 */
import { check, cites, concerns, expect, notAssessed, test, together } from '../fixtures/index.ts';
import type { CallOptions, Exchange, Need, TargetConfig } from '../fixtures/index.ts';
import {
  NEVER_ISSUED_API_KEY,
  NEVER_ISSUED_CLIENT_ID,
  WRONG_SECRET,
  accessToken,
  callOperation,
  credentialsOf,
  expectCredentialHeaders,
  expectUnauthorized,
  governing,
  operationsWhere,
  orUnknown,
  requestParts,
  required,
  signedWithAnotherKey,
  unlessUsageLimit,
  withAlteredPayload,
  withAlteredSignature,
} from './support/auth.ts';
import type { DocumentedCredentials } from './support/auth.ts';
import { passesAuthentication, refusedOrTakenAlike, refusedUpdateNotApplied } from './conditions/index.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

// ---------------------------------------------------------------- documented credentials succeed

const ACCEPTED = [
  { operationId: 'listGroups', title: 'listing groups', id: 'AUTH-02', sends: ['apikey', 'authorization'] },
  { operationId: 'getGroup', title: 'getting a group', id: 'AUTH-02', sends: ['apikey', 'authorization'] },
  { operationId: 'listGroupParticipants', title: "listing a group's participants", id: 'AUTH-02', sends: ['apikey', 'authorization'] },
  { operationId: 'getParticipant', title: 'getting a participant', id: 'AUTH-02', sends: ['apikey', 'authorization'] },
  { operationId: 'listRecordings', title: 'listing recordings', id: 'AUTH-02', sends: ['apikey', 'authorization'] },
  { operationId: 'getTranscriptionStats', title: 'reading transcription statistics', id: 'AUTH-05', sends: ['authorization'] },
  { operationId: 'getMeetingStats', title: 'reading meeting statistics', id: 'AUTH-05', sends: ['authorization'] },
  { operationId: 'getMeetingsSummary', title: 'reading the meetings summary', id: 'AUTH-07', sends: ['apikey'] },
  { operationId: 'listRoomChannelParticipants', title: 'listing the participants of a channel in a room', id: 'AUTH-07', sends: ['apikey'] },
  { operationId: 'getChannelInfo', title: 'reading channel info', id: 'AUTH-12', sends: ['client_id', 'secret'] },
  { operationId: 'listChannelParticipants', title: 'listing the participants of a channel', id: 'AUTH-12', sends: ['client_id', 'secret'] },
] as const;

for (const row of ACCEPTED) {
  test(`${row.title} succeeds with exactly the documented credentials (${row.sends.join(' + ')})`, cites(row.id), async ({ api, discover, target }) => {
    const parts = await requestParts(row.operationId, { discover, target, data: required });
    const exchange = await api.call(row.operationId, parts);
    // The client sends what the document names; this pins the document to the requirement.
    expectCredentialHeaders(exchange, row.sends);
    await check(row.id, `${row.operationId} with ${row.sends.join(' + ')} answers 200`, () => {
      // Transcription statistics may answer any read with the documented usage-limit 403.
      unlessUsageLimit(exchange);
      expect(exchange).toMatchOperation(row.operationId, { status: 200 });
    });
  });
}

test('creating a participant succeeds with the bearer token and the apikey header', cites('AUTH-02', { tag: ['@writes'] }), async ({ createParticipant }) => {
  const created = await createParticipant();
  expectCredentialHeaders(created.exchange, ['apikey', 'authorization']);
  await check('AUTH-02', 'upsertParticipant with the bearer token and the apikey header answers 201', () => {
    expect(created.exchange).toMatchOperation('upsertParticipant', { status: 201 });
  });
});

test(
  'archiving a participant succeeds with the bearer token and the apikey header',
  cites('AUTH-02', { tag: ['@writes'] }),
  async ({ api, createParticipant }) => {
    const created = await createParticipant();
    const exchange = await api.call('archiveParticipant', { params: { id: created.id } });
    expectCredentialHeaders(exchange, ['apikey', 'authorization']);
    // The record it answers with is PART-09's (participants-lifecycle.spec.ts).
    await check('AUTH-02', 'archiveParticipant with the bearer token and the apikey header answers 200', () => {
      expect(exchange).toMatchOperation('archiveParticipant', { status: 200 });
    });
  },
);

test('creating a security key succeeds with the bearer token alone', cites('AUTH-05', { tag: ['@destructive'] }), async ({ api, discover, target }) => {
  if (!target.allowDestructive) notAssessed('creates a security key pair for the account', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
  let exchange: Exchange | undefined;
  await check('AUTH-05', 'createSecurityKey with the bearer token alone answers 200', async () => {
    // At the path the worker's discovery found the target serves keys at (VAR-03: POST /security or POST /participants).
    exchange = await callOperation(api, discover, 'createSecurityKey', await requestParts('createSecurityKey', { discover, target, data: orUnknown }));
    expect(exchange).toMatchOperation('createSecurityKey', { status: 200 });
  });
  if (exchange !== undefined) expectCredentialHeaders(exchange, ['authorization']);
});

// ---------------------------------------------------------------- missing or invalid credentials are refused

interface CaseContext {
  target: TargetConfig;
  /** The worker's valid access token (not assessable inside a check when login gives none). */
  token: () => Promise<string>;
  /** Without what a case needs from the target profile: the test is not assessed (`notAssessed`), or in a loop that case's check (`notAssessed.check`). */
  notAssessed: (reason: string, need?: Need) => never;
}

type Overrides = Pick<CallOptions, 'auth' | 'headers' | 'body'>;

interface RejectionCase {
  title: string;
  /** What is wrong with the request, for labels: the title after "answers 401". */
  cause: string;
  /** The requirements the case checks; each operation's check goes to the one that lists the operation. */
  cites: string[];
  appliesTo: (credentials: DocumentedCredentials) => boolean;
  /** The credential overrides (run inside the check: a token that cannot be crafted makes the case not assessable). */
  send: (context: CaseContext) => Promise<Overrides>;
  /**
   * Where the case's own requirement leaves the answer open (AUTH-19: another scheme may be taken),
   * the requirement that holds whatever the target chose: a refusal is 401, else the answer is the
   * one the documented credentials get.
   */
  fixed?: string;
}

/** Whom a case concerns (the operations whose documented credentials include the scheme), as its title names them. */
const SCHEMES = {
  bearer: { who: 'every bearer operation', appliesTo: (credentials: DocumentedCredentials) => credentials.bearer },
  apiKey: { who: 'every API-key operation', appliesTo: (credentials: DocumentedCredentials) => credentials.apiKey },
  bodyApiKey: { who: 'closing a meeting', appliesTo: (credentials: DocumentedCredentials) => credentials.bodyApiKey },
  client: { who: 'every client-credential operation', appliesTo: (credentials: DocumentedCredentials) => credentials.clientId && credentials.secret },
} as const;

/** The rule every case states: each operation of `scheme` answers 401 `cause`, a check of the one of `cites` that governs it. */
function refused(scheme: keyof typeof SCHEMES, cause: string, cites: string[], send: RejectionCase['send'], fixed?: string): RejectionCase {
  const { who, appliesTo } = SCHEMES[scheme];
  return { title: `${who} answers 401 ${cause}`, cause, cites, appliesTo, send, ...(fixed === undefined ? {} : { fixed }) };
}

const REJECTIONS: RejectionCase[] = [
  refused('bearer', 'without the Authorization header', ['AUTH-03', 'AUTH-06', 'AUTH-09'], async () => ({ auth: { bearer: null } })),
  refused('apiKey', 'without the apikey header', ['AUTH-04', 'AUTH-08'], async () => ({ auth: { apiKey: null } })),
  refused('bodyApiKey', 'when the JSON body is an empty object', ['AUTH-10'], async () => ({ auth: { bodyApiKey: null }, body: {} })),
  refused('bodyApiKey', 'when the request has no body', ['AUTH-10'], async () => ({ auth: { bodyApiKey: null } })),
  refused('bodyApiKey', 'when the body apiKey was never issued', ['AUTH-11'], async () => ({ auth: { bodyApiKey: NEVER_ISSUED_API_KEY } })),
  refused('client', 'without the client_id header', ['AUTH-13'], async () => ({ auth: { clientId: null } })),
  refused('client', 'without the secret header', ['AUTH-13'], async () => ({ auth: { secret: null } })),
  refused('client', 'to a valid client_id with a wrong secret', ['AUTH-14'], async () => ({ auth: { secret: WRONG_SECRET } })),
  refused('client', 'to a client_id that was never issued', ['AUTH-14'], async () => ({ auth: { clientId: NEVER_ISSUED_CLIENT_ID } })),
  refused('bearer', 'to a token with the same claims signed with another key', ['AUTH-15'], async ({ token }) => ({
    auth: { bearer: signedWithAnotherKey(await token()) },
  })),
  refused('bearer', 'to a token whose payload was altered', ['AUTH-16'], async ({ token }) => ({ auth: { bearer: withAlteredPayload(await token()) } })),
  refused('bearer', 'to a token whose signature was altered', ['AUTH-16'], async ({ token }) => ({ auth: { bearer: withAlteredSignature(await token()) } })),
  refused('bearer', 'to the Bearer scheme without a token', ['AUTH-17'], async () => ({ auth: { bearer: null }, headers: { Authorization: 'Bearer' } })),
  refused('bearer', 'to a bearer token that is not a JWT', ['AUTH-17'], async () => ({ auth: { bearer: 'not-a-jwt' } })),
  refused('bearer', 'to an expired token the service issued', ['AUTH-18'], async ({ target, notAssessed }) => ({
    auth: { bearer: target.expiredToken ?? notAssessed('an expired token the target issued', { enable: 'TARGET_EXPIRED_TOKEN' }) },
  })),
  refused(
    'bearer',
    'to the access token under the Basic scheme',
    ['AUTH-19'],
    async ({ token }) => ({ auth: { bearer: null }, headers: { Authorization: `Basic ${await token()}` } }),
    'AUTH-28',
  ),
  refused(
    'bearer',
    'to the access token under the Token scheme',
    ['AUTH-19'],
    async ({ token }) => ({ auth: { bearer: null }, headers: { Authorization: `Token ${await token()}` } }),
    'AUTH-28',
  ),
  refused(
    'bearer',
    'to the access token without a scheme',
    ['AUTH-19'],
    async ({ token }) => ({ auth: { bearer: null }, headers: { Authorization: await token() } }),
    'AUTH-28',
  ),
  refused('bearer', 'to the API key sent as the bearer token', ['AUTH-20'], async ({ target }) => ({ auth: { bearer: target.apiKey } })),
  refused('apiKey', 'to the access token sent in the apikey header', ['AUTH-20'], async ({ token }) => ({ auth: { apiKey: await token() } })),
  refused('apiKey', 'to client_id and secret instead of the apikey header', ['AUTH-20'], async ({ target }) => ({
    auth: { apiKey: null, clientId: target.clientId, secret: target.secret },
  })),
  refused('apiKey', 'to an apikey the service never issued', ['AUTH-21'], async () => ({ auth: { apiKey: NEVER_ISSUED_API_KEY } })),
];

/** The usage-limit 403 of transcription statistics may meet any accepted request (AUTH-05). */
const interchangeable = (operationId: string): number[] => (operationId === 'getTranscriptionStats' ? [200, 403] : []);

/**
 * The fixed point of an open case (AUTH-28 for AUTH-19): the answer is a 401, or the target took the
 * credential, and then the answer is the one the same request gets with the documented credentials
 * (sent only then, so a target that refuses costs no request more).
 */
async function refusedOrTaken(
  requirementId: string,
  operationId: string,
  cause: string,
  answered: Exchange,
  documented: () => Promise<Exchange>,
): Promise<void> {
  await check(requirementId, `${operationId} ${cause}: refused with 401, or answered as with the documented credentials`, async () => {
    if (answered.status === 401) return;
    refusedOrTakenAlike(answered, (await documented()).status, interchangeable(operationId));
  });
}

/** Checked in its own test below, on a participant that test created. */
const WRITES_ANYTHING_IT_IS_SENT = ['upsertParticipant'];

/** The requirement a case checks for one operation: the one of its citations that governs the operation (support/auth.ts governing). */
const requirementFor = (rejection: RejectionCase, operationId: string): string => governing(rejection.cites, operationId, rejection.title);

for (const rejection of REJECTIONS) {
  for (const share of sharesOf(operationsWhere(rejection.appliesTo, WRITES_ANYTHING_IT_IS_SENT), (operationId) => operationId)) {
    // Cites what the share's operations are checked against: a share of one operation checks one of the case's requirements.
    const own = share.operations.length === 0 ? rejection.cites : [...new Set(share.operations.map((operationId) => requirementFor(rejection, operationId)))];
    const fixed = rejection.fixed;
    const checked = fixed === undefined || !share.operations.some((operationId) => concerns(fixed, operationId)) ? own : [...own, fixed];
    test(`${rejection.title}${share.label}`, cites(...checked, { tag: permissionTags(share.permission) }), async ({ api, discover, target, observe }) => {
      requirePermission(target, share.permission, share.operations);
      expect(share.operations.length, 'operations of the document this case applies to').toBeGreaterThan(0);
      const context: CaseContext = { target, token: () => accessToken(api), notAssessed };
      // One check per operation, each self-contained (the request is sent inside it); the operations go out together.
      await together(share.operations, async (operationId) => {
        const parts = async (): Promise<CallOptions> => requestParts(operationId, { discover, target, data: orUnknown });
        const answered = await expectUnauthorized(
          {
            requirementId: requirementFor(rejection, operationId),
            operationId,
            cause: rejection.cause,
            send: async () => {
              const overrides = await rejection.send(context);
              return callOperation(api, discover, operationId, { ...(await parts()), ...overrides });
            },
          },
          { observe },
        );
        if (fixed !== undefined && answered !== undefined && concerns(fixed, operationId))
          await refusedOrTaken(fixed, operationId, rejection.cause, answered, async () => callOperation(api, discover, operationId, await parts()));
      });
    });
  }
}

const UPSERT_REJECTIONS = REJECTIONS.filter((rejection) => rejection.appliesTo(credentialsOf('upsertParticipant')));
const UPSERT_CITES = [...new Set(UPSERT_REJECTIONS.map((rejection) => requirementFor(rejection, 'upsertParticipant')))];

test(
  'a participant update with a missing or invalid credential answers 401 and changes nothing',
  cites(...UPSERT_CITES, { tag: ['@writes'] }),
  async ({ api, target, createParticipant, observe }) => {
    const created = await createParticipant();
    // A case that lacks profile data is not assessed; the others go on.
    const context: CaseContext = { target, token: () => accessToken(api), notAssessed: notAssessed.check };
    // The refused updates go out together, then the participant is read back once per case: the same
    // requests as one read after each update, without a wait per case against a remote target. Each
    // case sends a name of its own, so an update that was applied shows as that case's name.
    const refused = await together([...UPSERT_REJECTIONS.entries()], async ([index, rejection]) => {
      const requirementId = requirementFor(rejection, 'upsertParticipant');
      const cause = rejection.cause;
      const body = { ...created.input, name: `${created.input.name} refused ${index + 1}` };
      const send = async (): Promise<Exchange> => api.call('upsertParticipant', { body, ...(await rejection.send(context)) });
      const sent = await expectUnauthorized({ requirementId, operationId: 'upsertParticipant', cause, send }, { observe });
      return sent === undefined ? undefined : { requirementId, cause, name: body.name, send };
    });
    const cases = refused.filter((entry) => entry !== undefined);
    const readBack = async (): Promise<{ exchange: Exchange } | { error: unknown }> =>
      api.call('getParticipant', { params: { id: created.id } }).then(
        (exchange) => ({ exchange }),
        (error: unknown) => ({ error }),
      );
    const unchanged = (read: { exchange: Exchange } | { error: unknown }, name: string): void => {
      if ('error' in read) throw read.error;
      const { exchange } = read;
      const json: unknown = exchange.json;
      if (exchange.status !== 200 || typeof json !== 'object' || json === null)
        notAssessed.check(`getParticipant of the participant answered HTTP ${exchange.status} without a record (PART-05)`);
      refusedUpdateNotApplied(exchange, name);
    };
    const reads = await together(cases, readBack);
    const refusedNames = new Set<unknown>(cases.map((entry) => entry.name));
    const applied = reads.some((read) => 'exchange' in read && refusedNames.has((read.exchange.json as { name?: unknown } | null | undefined)?.name));
    const label = (cause: string): string => `upsertParticipant ${cause} leaves the participant unchanged`;
    if (!applied) {
      for (const [index, { requirementId, cause, name }] of cases.entries())
        await check(requirementId, label(cause), () => unchanged(reads[index] as (typeof reads)[number], name));
    } else {
      // A refused update was applied, and a read after all of them shows only the last one applied:
      // each case again, alone, its update and then its read, so that each applied update is caught
      // by its own case (more requests, to a faulty target only).
      for (const { requirementId, cause, name, send } of cases) {
        await check(requirementId, label(cause), async () => {
          await send();
          unchanged(await readBack(), name);
        });
      }
    }
  },
);

// ---------------------------------------------------------------- the API key of closeMeeting travels in the body

test(
  'closing a meeting reads the API key from the JSON body of the GET request',
  cites('AUTH-25', 'AUTH-10', { tag: ['@destructive'] }),
  async ({ api, target, observe }) => {
    // An ended meeting: with the key in the body the request passes authentication and meets the
    // documented "already ended" answer. It is gated all the same: no closeMeeting request, whatever
    // its meeting, is sent to a target that does not allow closing meetings.
    const meetingId = target.ids.endedMeetingId ?? notAssessed('a meeting that has already ended', { enable: 'TARGET_ENDED_MEETING_ID' });
    if (!target.allowDestructive) notAssessed('sends closeMeeting for TARGET_ENDED_MEETING_ID', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    // Only "not 401": the answer for an ended meeting is ERR-03's (error-shapes.spec.ts), and its body is shown for 500 alone.
    await check('AUTH-25', 'closeMeeting with a valid apiKey in the JSON body passes authentication', async () => {
      const withKey = await api.call('closeMeeting', { params: { meetingId } });
      passesAuthentication(withKey);
    });
    // The same request without the key: refused, so the key was read from the body.
    await expectUnauthorized(
      {
        requirementId: 'AUTH-10',
        operationId: 'closeMeeting',
        cause: 'without the body apiKey',
        send: () => api.call('closeMeeting', { params: { meetingId }, auth: { bodyApiKey: null } }),
      },
      { observe },
    );
  },
);
