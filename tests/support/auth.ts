/**
 * Helpers of the login, authentication and error-shape specs: the credentials each operation
 * documents, valid request parts for each operation, bearer tokens crafted from a real one, and
 * the checks of a refusal (its 401, then its body through checkErrorBody of error-bodies.ts).
 *
 * The credentials come from the OpenAPI document (listOperations), so the authentication checks
 * follow the document; the request parts are a literal table, because they are data of the target.
 * Every assertion here is a check of one requirement (fixtures/verdict/checks.ts): a refusal's 401 on the
 * requirement the caller names, each part of an error body on its own error requirement, and only
 * where the catalogue lists the operation for it.
 */
import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

import { check, checkExchange, concerns, expect, isRecord, listOperations, notAssessed } from '../../fixtures/index.ts';
import type { ApiClient, CallOptions, Discovery, Exchange, JsonObject, Need, Observe, TargetConfig } from '../../fixtures/index.ts';
import { decodeJwt } from '../conditions/index.ts';
import type { SignedJwt } from '../conditions/index.ts';
import { checkErrorBody } from './error-bodies.ts';

/**
 * The one of `cites` that governs `operationId` (lists it among its operations), which a check of that
 * operation is bound to. Throws, when the test is declared, if none does: a check of a requirement on
 * an operation it does not govern would judge, and settle, what the requirement does not state.
 */
export function governing(cites: readonly string[], operationId: string, what: string): string {
  const found = cites.find((id) => concerns(id, operationId));
  if (found === undefined) throw new Error(`${what}: none of ${cites.join(', ')} governs ${operationId} (spec/requirements.yaml operations)`);
  return found;
}

// ---------------------------------------------------------------- documented credentials

export interface DocumentedCredentials {
  /** Authorization: Bearer <access token>. */
  bearer: boolean;
  /** The apikey header. */
  apiKey: boolean;
  /** The apiKey field of the JSON body (closeMeeting). */
  bodyApiKey: boolean;
  clientId: boolean;
  secret: boolean;
}

/** The same rule as the API client's: a request body that requires `apiKey` carries the API key. */
function requiresBodyApiKey(schema: unknown): boolean {
  const required = isRecord(schema) ? schema['required'] : undefined;
  return Array.isArray(required) && required.includes('apiKey');
}

const DOCUMENTED = listOperations().map((operation) => {
  const schemes = operation.security[0] ?? [];
  const credentials: DocumentedCredentials = {
    bearer: schemes.includes('bearerAuth'),
    apiKey: schemes.includes('apiKeyAuth'),
    bodyApiKey: requiresBodyApiKey(operation.requestBody?.schema),
    clientId: schemes.includes('clientId'),
    secret: schemes.includes('clientSecret'),
  };
  return { operationId: operation.operationId, credentials };
});

/** Every operationId of the document, in document order. */
export const ALL_OPERATIONS: readonly string[] = DOCUMENTED.map((entry) => entry.operationId);

export function credentialsOf(operationId: string): DocumentedCredentials {
  const found = DOCUMENTED.find((entry) => entry.operationId === operationId);
  if (found === undefined) throw new Error(`Unknown operationId "${operationId}"`);
  return found.credentials;
}

/** The operations (document order) whose documented credentials satisfy `predicate`, minus `except`. */
export function operationsWhere(predicate: (credentials: DocumentedCredentials) => boolean, except: readonly string[] = []): string[] {
  return DOCUMENTED.filter((entry) => predicate(entry.credentials) && !except.includes(entry.operationId)).map((entry) => entry.operationId);
}

const CREDENTIAL_HEADERS = ['authorization', 'apikey', 'client_id', 'secret'];

/** The credential header names a request carried, lower-case and sorted. */
export function credentialHeadersSent(exchange: Exchange): string[] {
  return Object.keys(exchange.request.headers)
    .map((name) => name.toLowerCase())
    .filter((name) => CREDENTIAL_HEADERS.includes(name))
    .sort();
}

/**
 * The client sent exactly the credential headers `names` (lower-case, sorted) that the document names
 * for the operation: what pins the document to the requirement a test of documented credentials checks.
 */
export function expectCredentialHeaders(exchange: Exchange, names: readonly string[]): void {
  expect(credentialHeadersSent(exchange), 'credential headers sent').toEqual([...names]);
}

// ---------------------------------------------------------------- credentials the service never issued

/** Fixed values, unrelated to the real ones, so that evidence never shows a near-copy of a secret. */
export const NEVER_ISSUED_API_KEY = 'conformance-never-issued-api-key-0000';
export const NEVER_ISSUED_CLIENT_ID = 'conformance-never-issued-client-id-0000';
export const WRONG_SECRET = 'conformance-wrong-secret-0000';

// ---------------------------------------------------------------- request parts

/** An identifier no target holds, so that a request wrongly accepted finds nothing to change. */
export const UNKNOWN_ID = 'conformance-unknown-id-0000';

/** Resolves a piece of target data (`need`: what would supply it where the check needs it), else the made-up fallback. */
export type DataResolver = (value: string | undefined, need: Need, fallback: string) => string;

/** For rejections: the credential is checked whatever the resource, and an unknown one is harmless. */
export const orUnknown: DataResolver = (value, _need, fallback) => value ?? fallback;

/** For checks of success: the target's data, or the test is not assessed. */
export const required: DataResolver = (value, need) => value ?? notAssessed('the check needs data the target holds', need);

export interface PartsContext {
  discover: Discovery;
  target: TargetConfig;
  data: DataResolver;
}

/**
 * Valid request parts of each operation apart from the credentials, which the client takes from
 * the document. archiveParticipant and closeMeeting change state when they succeed, so they always
 * name a participant that does not exist and a meeting that has already ended: no authentication
 * check can archive or close anything. upsertParticipant writes whatever it is sent, so its checks
 * use a participant their own test created (see the specs); login has no credentials.
 */
const REQUEST_PARTS: Readonly<Record<string, (context: PartsContext) => Promise<CallOptions>>> = {
  listGroups: async () => ({}),
  getGroup: async ({ discover, data }) => ({ params: { id: data((await discover.group())?.id, { enable: 'TARGET_GROUP_ID' }, UNKNOWN_ID) } }),
  listGroupParticipants: async ({ discover, data }) => ({
    params: { groupId: data((await discover.group())?.id, { enable: 'TARGET_GROUP_ID' }, UNKNOWN_ID) },
  }),
  getParticipant: async ({ discover, data }) => ({
    params: { id: data((await discover.participant())?.id, { lacking: 'a group with participants (TARGET_GROUP_ID)' }, UNKNOWN_ID) },
  }),
  archiveParticipant: async () => ({ params: { id: UNKNOWN_ID } }),
  listRecordings: async ({ discover, data }) => ({ query: { meetingId: data(await discover.meetingId(), { enable: 'TARGET_MEETING_ID' }, UNKNOWN_ID) } }),
  getTranscriptionStats: async ({ target }) => ({ query: { environment: target.environment } }),
  createSecurityKey: async () => ({ body: { passphrase: 'Conformance-Key-2024!' } }),
  getMeetingsSummary: async () => ({}),
  getMeetingStats: async () => ({}),
  closeMeeting: async ({ target }) => ({ params: { meetingId: target.ids.endedMeetingId ?? UNKNOWN_ID } }),
  getChannelInfo: async ({ target, data }) => ({ params: { channel: data(target.ids.channel, { enable: 'TARGET_CHANNEL' }, UNKNOWN_ID) } }),
  listChannelParticipants: async ({ target, data }) => ({
    params: { channel_name: data(target.ids.channel, { enable: 'TARGET_CHANNEL' }, UNKNOWN_ID) },
  }),
  // The running meeting's room and channel are the one room/channel pair the profile names.
  listRoomChannelParticipants: async ({ target, data }) => ({
    params: {
      room: data(target.ids.runningMeetingRoomId, { enable: 'TARGET_RUNNING_MEETING_ROOM_ID' }, UNKNOWN_ID),
      channel: data(target.ids.runningMeetingChannel, { enable: 'TARGET_RUNNING_MEETING_CHANNEL' }, UNKNOWN_ID),
    },
  }),
};

export function requestParts(operationId: string, context: PartsContext): Promise<CallOptions> {
  const parts = REQUEST_PARTS[operationId];
  if (parts === undefined) throw new Error(`No request parts for ${operationId}; its checks build the request themselves`);
  return parts(context);
}

/** Sends a request of `operationId` in the form the worker's discovery found the target serves (fixtures/data/served.ts: VAR-03). */
export { callServed as callOperation } from '../../fixtures/index.ts';

// ---------------------------------------------------------------- crafted bearer tokens

/** The signed JWT a forgery is made from; a check that needs one is not assessed without it. */
function signedOrNotAssessed(token: string): SignedJwt {
  const decoded = decodeJwt(token);
  if (decoded === undefined) notAssessed.check('the access token from login is not a JWT in compact form (LOGIN-01), so no token can be crafted from it');
  if (decoded.form === 'JWE')
    notAssessed.check('the access token from login is an encrypted JWT (JWE): the suite can craft forged tokens only from a signed one');
  return decoded;
}

const encodeSegment = (value: JsonObject): string => Buffer.from(JSON.stringify(value)).toString('base64url');

const EC_CURVES: Readonly<Record<string, string>> = { '256': 'P-256', '384': 'P-384', '512': 'P-521' };

/** A signature with a fresh key for the token's own algorithm; undefined for algorithms not covered. */
function signWithFreshKey(alg: string, input: string): string | undefined {
  const data = Buffer.from(input);
  const match = /^(HS|RS|ES)(256|384|512)$/.exec(alg);
  if (match === null) return undefined;
  const [, family, bits = '256'] = match;
  const hash = `sha${bits}`;
  if (family === 'HS') return createHmac(hash, randomBytes(64)).update(data).digest('base64url');
  const privateKey: KeyObject =
    family === 'RS'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
      : generateKeyPairSync('ec', { namedCurve: EC_CURVES[bits] ?? 'P-256' }).privateKey;
  return sign(hash, data, { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
}

/**
 * The same header and claims signed with a key the service never had: its own algorithm where
 * covered (HMAC, RSA, ECDSA), else HS256 (another algorithm is another key as well). Throws
 * not assessed for a token that is not a signed JWT.
 */
export function signedWithAnotherKey(token: string): string {
  const { header, segments } = signedOrNotAssessed(token);
  const input = `${segments[0]}.${segments[1]}`;
  const signature = signWithFreshKey(String(header['alg']), input);
  if (signature !== undefined) return `${input}.${signature}`;
  const hs256Input = `${encodeSegment({ ...header, alg: 'HS256' })}.${segments[1]}`;
  return `${hs256Input}.${signWithFreshKey('HS256', hs256Input) ?? ''}`;
}

/** The token with its lifetime extended by a day and the original signature: a forgery. */
export function withAlteredPayload(token: string): string {
  const { claims, segments } = signedOrNotAssessed(token);
  const exp = typeof claims['exp'] === 'number' ? claims['exp'] : Math.floor(Date.now() / 1000);
  return `${segments[0]}.${encodeSegment({ ...claims, exp: exp + 86_400 })}.${segments[2]}`;
}

/** The token with one character in the middle of its signature changed (a full 6-bit digit). */
export function withAlteredSignature(token: string): string {
  const { segments } = signedOrNotAssessed(token);
  const signature = segments[2];
  const middle = Math.floor(signature.length / 2);
  const replaced = signature[middle] === 'A' ? 'B' : 'A';
  return `${segments[0]}.${segments[1]}.${signature.slice(0, middle)}${replaced}${signature.slice(middle + 1)}`;
}

/**
 * The worker's access token for a check that sends a credential made from it. Inside a check: a
 * login that gives no token is login's failure (LOGIN-01, AUTH-01), so the check is not assessable.
 */
export async function accessToken(api: ApiClient): Promise<string> {
  try {
    return await api.bearer();
  } catch (error) {
    return notAssessed.check(`no access token: ${errorMessageLine(error)}`);
  }
}

const errorMessageLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

// ---------------------------------------------------------------- answers that leave a check unassessable

/**
 * True for the usage-limit 403 of transcription statistics with its documented body: the interface
 * allows it as the answer to any read of that operation, so a check that needs another answer is
 * not assessable (ERR-02 judges the body in its own test).
 */
export function usageLimitReached(exchange: Exchange): boolean {
  return exchange.operationId === 'getTranscriptionStats' && exchange.status === 403 && checkExchange(exchange, 'getTranscriptionStats', { status: 403 }).pass;
}

/** The check is not assessed when `exchange` is the documented usage-limit 403 (see usageLimitReached). */
export function unlessUsageLimit(exchange: Exchange): void {
  if (usageLimitReached(exchange)) notAssessed.check(`${exchange.operationId} answered the documented usage-limit 403`);
}

// ---------------------------------------------------------------- error bodies

/** Where the checks of a refusal's error body record what they observe (VAR-05: the form of the 401's error). */
export interface ErrorReport {
  observe: Observe;
}

/** One refusal to check: the request, the requirement that states its 401, and what was wrong with its credentials. */
export interface Refusal {
  requirementId: string;
  operationId: string;
  /** What is wrong with the request, for labels: 'without the apikey header'. */
  cause: string;
  /** Sends the request (inside the check, so that what it cannot do makes the check not assessable). */
  send: () => Promise<Exchange>;
}

/**
 * One check that the request answers 401, on the refusal's requirement; then the 401 body: where
 * the interface shows it (ERR-01: login, meeting statistics, meeting close) a check of ERR-01 against
 * the document, and everywhere the error-body checks of checkErrorBody. Returns the exchange, when
 * the request was sent.
 */
export async function expectUnauthorized(refusal: Refusal, report: ErrorReport): Promise<Exchange | undefined> {
  const { requirementId, operationId, cause } = refusal;
  let exchange: Exchange | undefined;
  await check(requirementId, `${operationId} ${cause} answers 401`, async () => {
    exchange = await refusal.send();
    expect(exchange.status, `${operationId} ${cause} must answer 401\n${exchange.curl}`).toBe(401);
  });
  const refused: Exchange | undefined = exchange;
  if (refused?.status !== 401) return refused;
  if (concerns('ERR-01', operationId)) {
    await check('ERR-01', `${operationId} ${cause}: the 401 body holds statusCode 401 and a message`, () => {
      expect(refused, `${operationId} ${cause}`).toMatchOperation(operationId, { status: 401 });
      expect(refused.json, `${operationId} ${cause}\n${refused.curl}`).toMatchObject({ statusCode: 401 });
    });
  }
  await checkErrorBody(refused, `${operationId} ${cause}`, ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], report.observe);
  return refused;
}
