/**
 * The permission each state-changing operation needs, and the split of a looped check into the
 * operations that change nothing and those gated on each permission.
 *
 * A check that sends a state-changing operation with a refused credential, an empty body or an
 * unknown id changes nothing on a target that checks as documented; a target that checks loosely
 * carries the request out. So such requests are sent only where the target allows the operation
 * itself: participant writes with TARGET_ALLOW_WRITES, meeting close and key creation with
 * TARGET_ALLOW_DESTRUCTIVE (closeMeeting is a GET, so the method alone does not tell). A looped
 * check is split into one test per share, so that on a read-only target the gated shares are
 * reported as skipped (not assessed), never as passed.
 */
import { notAssessed } from '../../fixtures/index.ts';
import type { TargetConfig } from '../../fixtures/index.ts';

export type Permission = 'writes' | 'destructive';

const PERMISSIONS: Readonly<Record<string, Permission>> = {
  upsertParticipant: 'writes',
  archiveParticipant: 'writes',
  createSecurityKey: 'destructive',
  closeMeeting: 'destructive',
};

/** The permission a request to `operationId` needs; undefined for operations that change nothing. */
export function permissionOf(operationId: string): Permission | undefined {
  return PERMISSIONS[operationId];
}

/** The tags of a test gated on `permissions` (for --grep); none for a test that changes nothing. */
export function permissionTags(...permissions: (Permission | undefined)[]): string[] {
  return [...new Set(permissions.filter((permission): permission is Permission => permission !== undefined).map((permission) => `@${permission}`))];
}

/** Skips the running test as not assessed unless the target allows what `operations` would do if wrongly accepted. */
export function requirePermission(target: TargetConfig, permission: Permission | undefined, operations: readonly string[]): void {
  const why = `sends ${[...new Set(operations)].join(', ')}, which a target that wrongly accepted the request would carry out`;
  if (permission === 'writes' && !target.allowWrites) notAssessed(why, { enable: 'TARGET_ALLOW_WRITES' });
  if (permission === 'destructive' && !target.allowDestructive) notAssessed(why, { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
}

/** The items of a looped check that need one permission (or none). */
export interface Share<T> {
  permission: Permission | undefined;
  items: T[];
  /** The operations of the items, in item order, each once. */
  operations: string[];
  /** Title suffix that tells the shares of one check apart; empty when the check is not split. */
  label: string;
}

const ORDER: readonly (Permission | undefined)[] = [undefined, 'writes', 'destructive'];

/**
 * Splits the items of a looped check by the permission of their operation, those that change
 * nothing first. Empty shares are left out, except that a check with no items at all keeps one
 * empty share, so that its test can still fail on having nothing to check.
 */
export function sharesOf<T>(items: readonly T[], operationOf: (item: T) => string): Share<T>[] {
  const shares = ORDER.map((permission) => {
    const selected = items.filter((item) => permissionOf(operationOf(item)) === permission);
    return { permission, items: selected, operations: [...new Set(selected.map(operationOf))] };
  }).filter((share) => share.items.length > 0);
  if (shares.length === 0) return [{ permission: undefined, items: [], operations: [], label: '' }];
  if (shares.length === 1) return shares.map((share) => ({ ...share, label: '' }));
  return shares.map((share) => ({
    ...share,
    label: share.permission === undefined ? ' (operations that change nothing)' : ` (${share.operations.join(', ')})`,
  }));
}
