/**
 * The shapes of the realtime channel info the interface states: the channel (name, participantId,
 * apiKey, an integer startTime, an integer or null endTime, an id that is a string when present) and
 * each event (a name, an integer timestamp, participantId, a string or null connectionId, an object
 * of data).
 */
import { isRecord } from '../../fixtures/index.ts';
import { fail, shown } from './condition.ts';

/** What breaks the channel shape, one phrase each; empty when it holds. */
function channelProblems(channel: Record<string, unknown>): string[] {
  const problems = ['name', 'participantId', 'apiKey']
    .filter((name) => typeof channel[name] !== 'string')
    .map((name) => `${name} is ${shown(channel[name])}, not a string`);
  if (!Number.isSafeInteger(channel['startTime'])) problems.push(`startTime is ${shown(channel['startTime'])}, not an integer`);
  if (!(channel['endTime'] === null || Number.isSafeInteger(channel['endTime'])))
    problems.push(`endTime is ${shown(channel['endTime'])}, not an integer or null`);
  if ('id' in channel && typeof channel['id'] !== 'string') problems.push(`id is ${shown(channel['id'])}, not a string`);
  return problems;
}

/** The channel of a channel-info body has the documented shape. */
export function isRealtimeChannel(channel: unknown): void {
  if (!isRecord(channel)) fail(`the channel is ${shown(channel)}, not an object`);
  const problems = channelProblems(channel);
  if (problems.length > 0) fail(`the channel breaks its shape: ${problems.join('; ')}`);
}

/** Whether an event has the documented shape. */
const isRealtimeEvent = (event: unknown): boolean =>
  isRecord(event) &&
  typeof event['name'] === 'string' &&
  Number.isSafeInteger(event['timestamp']) &&
  typeof event['participantId'] === 'string' &&
  (event['connectionId'] === null || typeof event['connectionId'] === 'string') &&
  isRecord(event['data']);

/** Every event of a channel-info body has the documented shape. */
export function everyEventIsRealtimeEvent(events: readonly unknown[]): void {
  const wrong = events.filter((event) => !isRealtimeEvent(event));
  if (wrong.length > 0) fail(`${wrong.length} of ${events.length} events break the Realtime event shape; the first: ${shown(wrong[0])}`);
}

/** The connected participants are listed in participants or in presences: a body carrying both names satisfies both documented forms (VAR-02). */
const holdsConnectedList = (body: Readonly<Record<string, unknown>>): boolean => ['participants', 'presences'].some((name) => Array.isArray(body[name]));

/** A channel-info body holds the channel (an object), its events (an array) and its connected participants (participants or presences, an array). */
export function isChannelInfo(body: unknown): void {
  if (!isRecord(body)) fail(`the channel-info body is ${shown(body)}, not an object`);
  const problems: string[] = [];
  if (!isRecord(body['channel'])) problems.push(`channel is ${shown(body['channel'], 80)}, not an object`);
  if (!Array.isArray(body['events'])) problems.push(`events is ${shown(body['events'], 80)}, not an array`);
  if (!holdsConnectedList(body))
    problems.push(`neither participants (${shown(body['participants'], 80)}) nor presences (${shown(body['presences'], 80)}) is an array`);
  if (problems.length > 0) fail(`the channel-info body breaks its shape: ${problems.join('; ')}`);
}

/** Channel info returns at most `limit` events. */
export function atMostEvents(events: readonly unknown[], limit: number): void {
  if (events.length > limit) fail(`channel info returned ${events.length} events, more than the ${limit} it returns at most`);
}

const timestampOf = (event: Readonly<Record<string, unknown>>): number => event['timestamp'] as number;

/** Events have no id: one event is the whole of its fields. */
const eventKey = (event: Readonly<Record<string, unknown>>): string =>
  JSON.stringify([event['name'], event['timestamp'], event['participantId'], event['connectionId'], event['data']]);

/**
 * Channel info returns the newest events: an event of an earlier read that is not older than the
 * oldest event of a later read is in that later read (a read that returns the oldest events skips it).
 */
export function keepsTheNewestEvents(earlier: readonly Readonly<Record<string, unknown>>[], later: readonly Readonly<Record<string, unknown>>[]): void {
  const oldestLater = Math.min(...later.map(timestampOf));
  const laterKeys = new Set(later.map(eventKey));
  const skipped = earlier.filter((event) => timestampOf(event) >= oldestLater && !laterKeys.has(eventKey(event)));
  if (skipped.length > 0) {
    fail(
      `${skipped.length} event(s) of the earlier read, not older than the later read's oldest (${oldestLater}), are missing from the later read, which should hold them: ${shown(skipped)}`,
    );
  }
}

/** Channel info returns the newest events: the newest it returns is not older than the channel's newest event, `newest`. */
export function holdsTheNewestEvent(events: readonly Readonly<Record<string, unknown>>[], newest: number): void {
  const latest = Math.max(...events.map(timestampOf));
  if (!(latest >= newest)) {
    fail(`the newest event returned is at ${latest}, older than the channel's newest event at ${newest}: expected the newest events, received older ones`);
  }
}

/**
 * A connected participant carries a string id and name, a string or null connectionId, an integer
 * timestamp ("Timestamps written as numbers are integer epoch milliseconds") and a string `place`:
 * channel on the versioned interface, roomId on the main one.
 */
export function isConnectedParticipant(participant: unknown, place: 'channel' | 'roomId'): void {
  if (!isRecord(participant)) fail(`the connected participant is ${shown(participant)}, not an object`);
  const wrong = [
    typeof participant['id'] === 'string' ? '' : 'id is not a string',
    typeof participant['name'] === 'string' ? '' : 'name is not a string',
    participant['connectionId'] === null || typeof participant['connectionId'] === 'string' ? '' : 'connectionId is neither a string nor null',
    Number.isSafeInteger(participant['timestamp']) ? '' : 'timestamp is not an integer',
    typeof participant[place] === 'string' ? '' : `${place} is not a string`,
  ].filter((problem) => problem !== '');
  if (wrong.length > 0)
    fail(`the connected participant breaks its shape (id, name, connectionId, timestamp, ${place}): ${wrong.join(', ')}: ${shown(participant)}`);
}

/** A list of the connected participants of a channel that has some holds at least one. */
export function listsConnectedParticipants(participants: readonly unknown[], list: string): void {
  if (participants.length === 0) fail(`${list} lists no connected participant; expected the channel's connected participants`);
}

/** A closed channel (endTime not null) has an integer endTime not earlier than its startTime. */
export function endsAfterItStarts(channel: Readonly<Record<string, unknown>>): void {
  const { startTime, endTime } = channel;
  if (endTime === null) return;
  if (!Number.isSafeInteger(endTime)) fail(`a closed channel's endTime is ${shown(endTime)}, not an integer`);
  if (typeof startTime !== 'number' || !((endTime as number) >= startTime))
    fail(`the channel's endTime ${shown(endTime)} is earlier than its startTime ${shown(startTime)}: expected not earlier`);
}

/** Every event's timestamp lies within the channel's lifetime: from startTime to endTime, or on while endTime is null. */
export function everyEventWithinLifetime(events: readonly Readonly<Record<string, unknown>>[], channel: Readonly<Record<string, unknown>>): void {
  const start = channel['startTime'] as number;
  const end = channel['endTime'] as number | null;
  const outside = events.filter((event) => timestampOf(event) < start || (end !== null && timestampOf(event) > end));
  if (outside.length > 0) {
    fail(
      `${outside.length} of ${events.length} events lie outside the channel's lifetime [${start}, ${end ?? 'open'}]; the first at ${shown(outside[0]?.['timestamp'])}`,
    );
  }
}

/** The channel's apiKey is one of `keys`. The value is a credential: the finding never shows it. */
export function apiKeyIsOneOf(channel: Readonly<Record<string, unknown>>, keys: readonly string[], names: string): void {
  if (!keys.includes(channel['apiKey'] as string)) fail(`the channel's apiKey is none of ${names} (its value is a credential and is not shown)`);
}

/** A channel-info body lists its connected participants in participants or in presences (an array, either or both). */
export function listsConnected(body: unknown): void {
  if (!isRecord(body) || !holdsConnectedList(body))
    fail(
      `the channel info holds participants ${shown(isRecord(body) ? body['participants'] : undefined)} and presences ${shown(isRecord(body) ? body['presences'] : undefined)}: expected an array in one of them`,
    );
}

/** The channel of a channel-info body is an object whose id, when present, is a string. */
export function channelIdIsStringOrAbsent(channel: unknown): void {
  if (!isRecord(channel)) fail(`the channel is ${shown(channel)}: expected an object`);
  if ('id' in channel && typeof channel['id'] !== 'string') fail(`the channel id is ${shown(channel['id'])}: expected a string, or no id`);
}
