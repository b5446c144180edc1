/**
 * Helpers of the realtime, formats, variants, unspecified-behaviour and bad-input specs: timestamp
 * formats, refusals of bad requests, short descriptions of answers for observations, and the discovery of
 * the room a realtime channel belongs to (the profile names a channel but not its room).
 */
import type { APIRequestContext } from '@playwright/test';
import { concerns, expect, isRecord, notAssessed, recordExchange, test } from '../../fixtures/index.ts';
import type { ApiClient, Exchange, TargetConfig, Warn } from '../../fixtures/index.ts';
import { failureOf, isGeneralErrorBody, statusCodeIsStatus } from '../conditions/index.ts';

/** The records of a list body: a bare array, or the `data` array of the pagination envelope. */
export function itemsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (isRecord(body) && Array.isArray(body['data'])) return body['data'];
  return [];
}

/** The connected participants of a channel-info body, under whichever documented name it uses (VAR-02). */
export function connectedOf(body: unknown): unknown[] {
  if (!isRecord(body)) return [];
  const list = Array.isArray(body['participants']) ? body['participants'] : body['presences'];
  return Array.isArray(list) ? list : [];
}

/** The field of a record, or undefined when the record is not an object. */
export function field(record: unknown, name: string): unknown {
  return isRecord(record) ? record[name] : undefined;
}

/** FMT-01 allows the Z designator or +00:00; both name UTC. */
const DATE_TIME_MS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})(?:Z|\+00:00)$/;

/** An ISO 8601 UTC date-time with milliseconds that names a real calendar date-time (no 2024-02-30, no 24:00). */
export function isDateTimeMs(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = DATE_TIME_MS.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second, millisecond] = match.slice(1, 8).map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/** 10^12 ms is 2001-09-09: any later instant written in epoch seconds stays far below it (FMT-02). */
export const MIN_EPOCH_MS = 1e12;

export function isEpochMillis(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= MIN_EPOCH_MS;
}

/** A few words on a body, for observations: `empty`, `{statusCode:number, message:string}`, `array` (a count is a detail, not a form). */
export function shapeOf(exchange: Exchange): string {
  if (exchange.text.trim() === '') return 'empty body';
  const body = exchange.json;
  if (body === undefined) return `non-JSON body (${exchange.headers['content-type'] ?? 'no content-type'})`;
  if (Array.isArray(body)) return body.length === 0 ? 'empty array' : 'array';
  if (isRecord(body)) {
    const fields = Object.entries(body).map(([name, value]) => `${name}:${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`);
    return `{${fields.join(', ')}}`;
  }
  return `JSON ${body === null ? 'null' : typeof body}`;
}

/** Status and body shape, e.g. `HTTP 404, {statusCode:number, error:string, message:string}`. */
export function describeAnswer(exchange: Exchange): string {
  return `HTTP ${exchange.status}, ${shapeOf(exchange)}`;
}

function excerpt(exchange: Exchange): string {
  const text = exchange.text.length > 400 ? `${exchange.text.slice(0, 400)}…` : exchange.text;
  return `${exchange.request.method} answered HTTP ${exchange.status}: ${text === '' ? '(empty body)' : text}\n${exchange.curl}`;
}

/**
 * ERR-04: statusCode, when an error body carries it, is the HTTP status - for the operations ERR-04
 * lists (those whose error bodies the interface shows; elsewhere the general body is ERR-06, a
 * SHOULD). Returns the violation, if any.
 */
export function statusCodeProblem(exchange: Exchange): string | undefined {
  if (!concerns('ERR-04', exchange.operationId)) return undefined;
  const problem = failureOf(() => statusCodeIsStatus(withoutCurl(exchange)));
  return problem === undefined ? undefined : `${problem} (ERR-04)`;
}

/** The answer without its curl line, for findings that the caller's message ends with the curl line itself. */
const withoutCurl = ({ status, headers, text, json }: Exchange): Pick<Exchange, 'status' | 'headers' | 'text' | 'json'> => ({ status, headers, text, json });

/** What keeps an error body from being the general error body (statusCode, message, error; error may be absent from a 401). */
function generalBodyProblem(exchange: Exchange): string | undefined {
  const problem = failureOf(() => isGeneralErrorBody(withoutCurl(exchange)));
  return problem === undefined ? undefined : `${exchange.operationId}: ${problem}`;
}

/** ERR-06 (SHOULD): for the operations it names, the general error body; error may be absent from a 401. */
export function warnUnlessGeneralErrorBody(exchange: Exchange, warn: Warn): void {
  if (!concerns('ERR-06', exchange.operationId)) return;
  const problem = generalBodyProblem(exchange);
  if (problem !== undefined) warn('ERR-06', problem);
}

/**
 * For tables of bad requests: what is wrong with an answer that must be a 4xx (or, with `allowed`,
 * one of those statuses too), including an ERR-04 violation; ERR-06 is warned about. Undefined when
 * nothing is wrong, so that a test can list every bad answer of its table in one assertion.
 */
export function refusalProblem(exchange: Exchange, warn: Warn, what: string, allowed: (status: number) => boolean = () => false): string | undefined {
  const refused = exchange.status >= 400 && exchange.status < 500;
  if (!refused && !allowed(exchange.status)) return `${what}: HTTP ${exchange.status} (${shapeOf(exchange)})`;
  if (exchange.status < 400) return undefined;
  warnUnlessGeneralErrorBody(exchange, warn);
  const problem = statusCodeProblem(exchange);
  return problem === undefined ? undefined : `${what}: ${problem}`;
}

/** A refusal: a 4xx status, statusCode equal to it (ERR-04, where listed), the general body warned about (ERR-06). */
export function expectRefused(exchange: Exchange, warn: Warn, what: string): void {
  expect(refusalProblem(exchange, warn, what), excerpt(exchange)).toBeUndefined();
}

/** Any status but 5xx; an error body is checked as expectRefused checks it. */
export function expectNoServerError(exchange: Exchange, warn: Warn, what: string): void {
  expect(
    refusalProblem(exchange, warn, what, (status) => status < 400),
    excerpt(exchange),
  ).toBeUndefined();
}

/** Response headers that speak of rate limits or retrying, as `name=value` pairs. */
export function rateLimitHeaders(exchange: { headers: Record<string, string> }): string {
  const found = Object.entries(exchange.headers).filter(([name]) => /ratelimit|rate-limit|retry-after|x-ratelimit|quota/i.test(name));
  return found.length === 0 ? 'no rate-limit headers' : found.map(([name, value]) => `${name}=${value}`).join(', ');
}

/** Every secret of the profile, for hand-made evidence (the API client redacts its own). */
function secretsOf(target: TargetConfig): string[] {
  return [
    target.password,
    target.apiKey,
    target.otherApiKey,
    target.clientId,
    target.secret,
    target.nonDeveloper?.password,
    target.usageLimit?.password,
    target.expiredToken,
  ].filter((secret): secret is string => secret !== undefined && secret !== '');
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * A GET outside the operations of the document (a realtime path on the main address, UNS-18), which
 * the API client cannot address. Its evidence is attached with the profile's secrets removed.
 */
export async function rawGet(request: APIRequestContext, target: TargetConfig, url: string, headers: Record<string, string>): Promise<RawAnswer> {
  let response: Awaited<ReturnType<APIRequestContext['get']>>;
  try {
    response = await request.get(url, { headers, failOnStatusCode: false, maxRedirects: 0, timeout: target.timeoutMs });
  } catch (error) {
    // No answer judged nothing (README, "An unusable login or a broken target").
    notAssessed.check(`GET ${url} got no response: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`);
  }
  const answer: RawAnswer = { status: response.status(), headers: response.headers(), text: (await response.body()).toString('utf8') };
  await response.dispose();
  // Outside the operations of the document: counted apart in the coverage of the interface.
  recordExchange(test.info().annotations, null, answer.status);
  let evidence = `GET ${url}\nrequest headers: ${Object.keys(headers).join(', ')}\n\nHTTP ${answer.status}\n${Object.entries(answer.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')}\n\n${answer.text.slice(0, 4000)}`;
  for (const secret of secretsOf(target)) evidence = evidence.split(secret).join('[REDACTED]');
  await test.info().attach(`HTTP ${answer.status} GET ${new URL(url).pathname}`, { body: evidence, contentType: 'text/plain' });
  return answer;
}

/** At most this many rooms are tried when looking for a channel's room. */
const MAX_ROOM_CANDIDATES = 8;
/** At most this many meetings' recordings are read for their rooms. */
const MAX_MEETINGS_READ = 3;

const roomsOf = (body: unknown): string[] =>
  itemsOf(body)
    .map((recording) => field(recording, 'roomId'))
    .filter((room): room is string => typeof room === 'string');

/**
 * Sources of candidate rooms for a channel, cheapest first, each read only when the ones before it
 * found nothing: what the profile names; the `channel` field of the versioned participant list when
 * it holds a room (VAR-07); the rooms of the recordings of TARGET_MEETING_ID and TARGET_ROOM_ID; of
 * the unfiltered recordings list (whether a filter is required is not shown, UNS-16); of the
 * recordings of the meetings that meeting statistics name.
 */
function roomSources(api: ApiClient, target: TargetConfig, channel: string): (() => Promise<string[]>)[] {
  const { roomId, meetingId, runningMeetingChannel, runningMeetingRoomId } = target.ids;
  return [
    async () => [
      ...(runningMeetingChannel === channel && runningMeetingRoomId !== undefined ? [runningMeetingRoomId] : []),
      ...(roomId === undefined ? [] : [roomId]),
    ],
    async () => {
      const list = await api.call('listChannelParticipants', { params: { channel_name: channel } });
      return itemsOf(list.status === 200 ? list.json : [])
        .map((participant) => field(participant, 'channel'))
        .filter((room): room is string => typeof room === 'string' && room !== channel);
    },
    async () => {
      const filtered = [...(meetingId === undefined ? [] : [{ meetingId }]), ...(roomId === undefined ? [] : [{ roomId }])];
      const answers = await Promise.all(filtered.map((query) => api.call('listRecordings', { query })));
      return answers.flatMap((answer) => (answer.status === 200 ? roomsOf(answer.json) : []));
    },
    async () => {
      const all = await api.call('listRecordings');
      return all.status === 200 ? roomsOf(all.json) : [];
    },
    async () => {
      const stats = await api.call('getMeetingStats', { query: { onlySummary: false, environment: target.environment } });
      const meetings = [
        ...new Set(
          itemsOf(stats.status === 200 ? stats.json : [])
            .map((record) => field(record, 'meetingId'))
            .filter((id): id is string => typeof id === 'string'),
        ),
      ];
      const answers = await Promise.all(meetings.slice(0, MAX_MEETINGS_READ).map((id) => api.call('listRecordings', { query: { meetingId: id } })));
      return answers.flatMap((answer) => (answer.status === 200 ? roomsOf(answer.json) : []));
    },
  ];
}

/**
 * The room a channel belongs to (the profile names a channel but not its room), found by asking
 * listRoomChannelParticipants for the channel in each candidate room of roomSources until one
 * answers 200 with connected participants; at most MAX_ROOM_CANDIDATES rooms are tried. Undefined
 * when none does.
 */
export async function roomOfChannel(api: ApiClient, target: TargetConfig, channel: string): Promise<string | undefined> {
  const tried = new Set<string>();
  for (const source of roomSources(api, target, channel)) {
    for (const room of await source()) {
      if (tried.has(room) || tried.size >= MAX_ROOM_CANDIDATES) continue;
      tried.add(room);
      const exchange = await api.call('listRoomChannelParticipants', { params: { room, channel } });
      if (exchange.status === 200 && Array.isArray(exchange.json) && exchange.json.length > 0) return room;
    }
    if (tried.size >= MAX_ROOM_CANDIDATES) return undefined;
  }
  return undefined;
}
