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

/** A channel-info body lists its connected participants in participants or in presences (an array, either or both). */
export function listsConnected(body: unknown): void {
  const lists = ['participants', 'presences'].filter((name) => isRecord(body) && Array.isArray(body[name]));
  if (lists.length === 0)
    fail(
      `the channel info holds participants ${shown(isRecord(body) ? body['participants'] : undefined)} and presences ${shown(isRecord(body) ? body['presences'] : undefined)}: expected an array in one of them`,
    );
}

/** The channel of a channel-info body is an object whose id, when present, is a string. */
export function channelIdIsStringOrAbsent(channel: unknown): void {
  if (!isRecord(channel)) fail(`the channel is ${shown(channel)}: expected an object`);
  if ('id' in channel && typeof channel['id'] !== 'string') fail(`the channel id is ${shown(channel['id'])}: expected a string, or no id`);
}
