/** What the unit tests of the named conditions (tests/conditions/) share. */
import assert from 'node:assert/strict';
import { ConditionFailure } from '../conditions/index.ts';

/** The finding of a condition that must fail: a ConditionFailure whose message matches. */
export function fails(condition: () => void, message: RegExp): void {
  assert.throws(condition, (error: unknown) => error instanceof ConditionFailure && message.test(error.message));
}
