/**
 * What stays fixed whatever the target answers for an id it does not know (the status is its
 * choice): a record it does return is the one asked for, and a list it returns for a room holds
 * only that room's items.
 */
import { isRecord } from '../../fixtures/index.ts';
import { fail, shown } from './condition.ts';
import type { Answer } from './condition.ts';

/** The value at `path` of a record answered for `asked` (`['id']`, `['channel', 'name']`) is `asked`. */
export function isTheRecordAskedFor(record: unknown, path: readonly string[], asked: string): void {
  const found = path.reduce<unknown>((node, name) => (isRecord(node) ? node[name] : undefined), record);
  if (found !== asked) fail(`${path.join('.')} of the record answered is ${shown(found)}, not ${shown(asked)}, the one asked for`);
}

/** Every item of a list answered for `room` names that room in roomId. */
export function listsOnlyOfRoom(items: readonly unknown[], room: string): void {
  const others = items.map((item) => (isRecord(item) ? item['roomId'] : undefined)).filter((roomId) => roomId !== room);
  if (others.length > 0) fail(`${others.length} of ${items.length} items name a roomId other than ${shown(room)}: ${shown(others)}`);
}

/** The record an answer holds carries each of `fields` with the value of the one asked for (its id, name, email). */
export function holdsTheFieldsAskedFor(answer: Answer, fields: Readonly<Record<string, unknown>>): void {
  const record = isRecord(answer.json) ? answer.json : {};
  const wrong = Object.entries(fields).filter(([name, value]) => record[name] !== value);
  if (wrong.length > 0) {
    fail(
      `the record answered is not the one asked for: ${wrong.map(([name, value]) => `${name} is ${shown(record[name])}, not ${shown(value)}`).join('; ')}`,
      answer,
    );
  }
}
