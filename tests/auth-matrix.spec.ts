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
 */
import { cites, expect, requireDestructive, test, together } from '../fixtures/index.ts';
import type { CallOptions, TargetConfig } from '../fixtures/index.ts';
import {
  NEVER_ISSUED_API_KEY,
  NEVER_ISSUED_CLIENT_ID,
  WRONG_SECRET,
  concerns,
  credentialHeadersSent,
  credentialsOf,
  expectUnauthorized,
  operationsWhere,
  orUnknown,
  requestParts,
  required,
  signedWithAnotherKey,
  withAlteredPayload,
  withAlteredSignature,
} from './support/auth.ts';
import type { DocumentedCredentials } from './support/auth.ts';
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
  test(`${row.title} succeeds with exactly the documented credentials (${row.sends.join(' + ')})`, cites(row.id), async ({ api, discover, target, needs }) => {
    const parts = await requestParts(row.operationId, { discover, target, data: required(needs) });
    const exchange = await api.call(row.operationId, parts);
    // The client sends what the document names; this pins the document to the requirement.
    expect(credentialHeadersSent(exchange), 'credential headers sent').toEqual([...row.sends]);
    expect(exchange).toMatchOperation(row.operationId, { status: 200 });
  });
}

test('creating a participant succeeds with the bearer token and the apikey header', cites('AUTH-02', { tag: ['@writes'] }), async ({ createParticipant }) => {
  const created = await createParticipant();
  expect(credentialHeadersSent(created.exchange), 'credential headers sent').toEqual(['apikey', 'authorization']);
  expect(created.exchange).toMatchOperation('upsertParticipant', { status: 201 });
});

test('archiving a participant succeeds with the bearer token and the apikey header', cites('AUTH-02', { tag: ['@writes'] }), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const exchange = await api.call('archiveParticipant', { params: { id: created.id } });
  expect(credentialHeadersSent(exchange), 'credential headers sent').toEqual(['apikey', 'authorization']);
  expect(exchange).toMatchOperation('archiveParticipant', { status: 200 });
  expect(exchange.json).toMatchObject({ id: created.id });
});

test('creating a security key succeeds with the bearer token alone', cites('AUTH-05', { tag: ['@destructive'] }), async ({ api, discover, target }) => {
  requireDestructive(target, 'creates a security key pair for the account');
  const exchange = await api.call('createSecurityKey', await requestParts('createSecurityKey', { discover, target, data: orUnknown }));
  expect(credentialHeadersSent(exchange), 'credential headers sent').toEqual(['authorization']);
  expect(exchange).toMatchOperation('createSecurityKey', { status: 200 });
});

// ---------------------------------------------------------------- missing or invalid credentials are refused

interface CaseContext {
  /** The worker's valid access token. */
  token: string;
  target: TargetConfig;
}

interface RejectionCase {
  title: string;
  cites: string[];
  appliesTo: (credentials: DocumentedCredentials) => boolean;
  /** The credential overrides; undefined when the target lacks what the case needs (`lacks`). */
  send: (context: CaseContext) => Pick<CallOptions, 'auth' | 'headers' | 'body'> | undefined;
  lacks?: { variable: string; why: string };
}

const bearer = (credentials: DocumentedCredentials): boolean => credentials.bearer;
const apiKey = (credentials: DocumentedCredentials): boolean => credentials.apiKey;
const bodyApiKey = (credentials: DocumentedCredentials): boolean => credentials.bodyApiKey;
const client = (credentials: DocumentedCredentials): boolean => credentials.clientId && credentials.secret;

const REJECTIONS: RejectionCase[] = [
  {
    title: 'every bearer operation answers 401 without the Authorization header',
    cites: ['AUTH-03', 'AUTH-06', 'AUTH-09'],
    appliesTo: bearer,
    send: () => ({ auth: { bearer: null } }),
  },
  {
    title: 'every API-key operation answers 401 without the apikey header',
    cites: ['AUTH-04', 'AUTH-08'],
    appliesTo: apiKey,
    send: () => ({ auth: { apiKey: null } }),
  },
  {
    title: 'closing a meeting answers 401 when the JSON body is an empty object',
    cites: ['AUTH-10'],
    appliesTo: bodyApiKey,
    send: () => ({ auth: { bodyApiKey: null }, body: {} }),
  },
  {
    title: 'closing a meeting answers 401 when the request has no body',
    cites: ['AUTH-10'],
    appliesTo: bodyApiKey,
    send: () => ({ auth: { bodyApiKey: null } }),
  },
  {
    title: 'closing a meeting answers 401 when the body apiKey was never issued',
    cites: ['AUTH-11'],
    appliesTo: bodyApiKey,
    send: () => ({ auth: { bodyApiKey: NEVER_ISSUED_API_KEY } }),
  },
  {
    title: 'every client-credential operation answers 401 without the client_id header',
    cites: ['AUTH-13'],
    appliesTo: client,
    send: () => ({ auth: { clientId: null } }),
  },
  {
    title: 'every client-credential operation answers 401 without the secret header',
    cites: ['AUTH-13'],
    appliesTo: client,
    send: () => ({ auth: { secret: null } }),
  },
  {
    title: 'every client-credential operation answers 401 to a valid client_id with a wrong secret',
    cites: ['AUTH-14'],
    appliesTo: client,
    send: () => ({ auth: { secret: WRONG_SECRET } }),
  },
  {
    title: 'every client-credential operation answers 401 to a client_id that was never issued',
    cites: ['AUTH-14'],
    appliesTo: client,
    send: () => ({ auth: { clientId: NEVER_ISSUED_CLIENT_ID } }),
  },
  {
    title: 'every bearer operation answers 401 to a token with the same claims signed with another key',
    cites: ['AUTH-15'],
    appliesTo: bearer,
    send: ({ token }) => ({ auth: { bearer: signedWithAnotherKey(token) } }),
  },
  {
    title: 'every bearer operation answers 401 to a token whose payload was altered',
    cites: ['AUTH-16'],
    appliesTo: bearer,
    send: ({ token }) => ({ auth: { bearer: withAlteredPayload(token) } }),
  },
  {
    title: 'every bearer operation answers 401 to a token whose signature was altered',
    cites: ['AUTH-16'],
    appliesTo: bearer,
    send: ({ token }) => ({ auth: { bearer: withAlteredSignature(token) } }),
  },
  {
    title: 'every bearer operation answers 401 to the Bearer scheme without a token',
    cites: ['AUTH-17'],
    appliesTo: bearer,
    send: () => ({ auth: { bearer: null }, headers: { Authorization: 'Bearer' } }),
  },
  {
    title: 'every bearer operation answers 401 to a bearer token that is not a JWT',
    cites: ['AUTH-17'],
    appliesTo: bearer,
    send: () => ({ auth: { bearer: 'not-a-jwt' } }),
  },
  {
    title: 'every bearer operation answers 401 to an expired token the service issued',
    cites: ['AUTH-18'],
    appliesTo: bearer,
    send: ({ target }) => (target.expiredToken === undefined ? undefined : { auth: { bearer: target.expiredToken } }),
    lacks: { variable: 'TARGET_EXPIRED_TOKEN', why: 'an expired token the target issued' },
  },
  {
    title: 'every bearer operation answers 401 to the access token under the Basic scheme',
    cites: ['AUTH-19'],
    appliesTo: bearer,
    send: ({ token }) => ({ auth: { bearer: null }, headers: { Authorization: `Basic ${token}` } }),
  },
  {
    title: 'every bearer operation answers 401 to the access token under the Token scheme',
    cites: ['AUTH-19'],
    appliesTo: bearer,
    send: ({ token }) => ({ auth: { bearer: null }, headers: { Authorization: `Token ${token}` } }),
  },
  {
    title: 'every bearer operation answers 401 to the access token without a scheme',
    cites: ['AUTH-19'],
    appliesTo: bearer,
    send: ({ token }) => ({ auth: { bearer: null }, headers: { Authorization: token } }),
  },
  {
    title: 'every bearer operation answers 401 to the API key sent as the bearer token',
    cites: ['AUTH-20'],
    appliesTo: bearer,
    send: ({ target }) => ({ auth: { bearer: target.apiKey } }),
  },
  {
    title: 'every API-key operation answers 401 to the access token sent in the apikey header',
    cites: ['AUTH-20'],
    appliesTo: apiKey,
    send: ({ token }) => ({ auth: { apiKey: token } }),
  },
  {
    title: 'every API-key operation answers 401 to client_id and secret instead of the apikey header',
    cites: ['AUTH-20'],
    appliesTo: apiKey,
    send: ({ target }) => ({ auth: { apiKey: null, clientId: target.clientId, secret: target.secret } }),
  },
  {
    title: 'every API-key operation answers 401 to an apikey the service never issued',
    cites: ['AUTH-21'],
    appliesTo: apiKey,
    send: () => ({ auth: { apiKey: NEVER_ISSUED_API_KEY } }),
  },
];

/** Checked in its own test below, on a participant that test created. */
const WRITES_ANYTHING_IT_IS_SENT = ['upsertParticipant'];

/** The cause of the 401, for assertion messages: the title after "answers 401". */
const causeOf = (rejection: RejectionCase): string => rejection.title.replace(/^.*? answers 401 /, '');

for (const rejection of REJECTIONS) {
  for (const share of sharesOf(operationsWhere(rejection.appliesTo, WRITES_ANYTHING_IT_IS_SENT), (operationId) => operationId)) {
    test(`${rejection.title}${share.label}`, cites(...rejection.cites, { tag: permissionTags(share.permission) }), async ({ api, discover, target, needs, warn, observe }) => {
      requirePermission(target, share.permission, share.operations);
      const send = rejection.send({ token: await api.bearer(), target });
      const overrides = rejection.lacks === undefined ? send : needs(send, rejection.lacks.variable, rejection.lacks.why);
      expect(share.operations.length, 'operations of the document this case applies to').toBeGreaterThan(0);
      await together(share.operations, async (operationId) => {
        const parts = await requestParts(operationId, { discover, target, data: orUnknown });
        const exchange = await api.call(operationId, { ...parts, ...overrides });
        expectUnauthorized(exchange, { warn, observe }, causeOf(rejection));
      });
    });
  }
}

const UPSERT_REJECTIONS = REJECTIONS.filter((rejection) => rejection.appliesTo(credentialsOf('upsertParticipant')));
const UPSERT_CITES = [...new Set(UPSERT_REJECTIONS.flatMap((rejection) => rejection.cites))].filter((id) => concerns(id, 'upsertParticipant'));

test(
  'a participant update with a missing or invalid credential answers 401 and changes nothing',
  cites(...UPSERT_CITES, { tag: ['@writes'] }),
  async ({ api, target, createParticipant, warn, observe }, testInfo) => {
    const created = await createParticipant();
    const token = await api.bearer();
    await together(UPSERT_REJECTIONS, async (rejection) => {
      const overrides = rejection.send({ token, target });
      if (overrides === undefined) {
        testInfo.annotations.push({ type: 'not assessed', description: `${rejection.title}: needs ${rejection.lacks?.variable ?? 'target data'}` });
        return;
      }
      const body = { ...created.input, name: `${created.input.name} rejected` };
      const exchange = await api.call('upsertParticipant', { body, ...overrides });
      expectUnauthorized(exchange, { warn, observe }, causeOf(rejection));
    });
    const after = await api.call('getParticipant', { params: { id: created.id } });
    expect(after).toMatchOperation('getParticipant', { status: 200 });
    expect(after.json, 'the refused updates left the participant as created').toMatchObject({ id: created.id, name: created.input.name });
  },
);

// ---------------------------------------------------------------- the API key of closeMeeting travels in the body

test('closing a meeting reads the API key from the JSON body of the GET request', cites('AUTH-25', { tag: ['@destructive'] }), async ({ api, target, needs, warn, observe }) => {
  // An ended meeting: with the key in the body the request passes authentication and meets the
  // documented "already ended" answer. It is gated all the same: no closeMeeting request, whatever
  // its meeting, is sent to a target that does not allow closing meetings.
  const meetingId = needs(target.ids.endedMeetingId, 'TARGET_ENDED_MEETING_ID', 'a meeting that has already ended');
  requireDestructive(target, 'sends closeMeeting for TARGET_ENDED_MEETING_ID');
  const withKey = await api.call('closeMeeting', { params: { meetingId } });
  expect(withKey.status, `a valid apiKey in the body must pass authentication\n${withKey.curl}`).not.toBe(401);
  expect(withKey).toMatchOperation('closeMeeting');
  const withoutKey = await api.call('closeMeeting', { params: { meetingId }, auth: { bodyApiKey: null } });
  expectUnauthorized(withoutKey, { warn, observe }, 'without the body apiKey');
});
