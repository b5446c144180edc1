/**
 * The answer to an unknown id, observed in the spec of its area (UNS-01 groups, UNS-02 participants,
 * UNS-03 meetings, UNS-04 realtime): its status is the target's choice, but a 200 still answers
 * with the record or the list asked for, which the requirement governing the operation states
 * (GRP-05, PART-11, RT-03, RT-11) and a named condition judges (tests/conditions/asked-for.ts).
 */
import { cites, concerns, test, together } from '../../fixtures/index.ts';
import type { CallOptions, Exchange } from '../../fixtures/index.ts';
import { isTheRecordAskedFor, listsOnlyOfRoom } from '../conditions/index.ts';
import { checkWhereItApplies } from './applicability.ts';
import { itemsOf } from './observations.ts';
import { checkOpenAnswer, errorShapeCitations } from './open-answers.ts';
import { permissionTags, requirePermission, sharesOf } from './permissions.ts';

/** An id no target holds. */
export const UNKNOWN = 'cs-no-such-id-0000';

/** One case: the UNS requirement that observes it, what it asks for, and its calls (sent together). */
export interface UnknownIdCase {
  id: string;
  what: string;
  calls: [string, CallOptions][];
}

/**
 * What stays fixed whatever status the target gives an unknown id: a 200 answers with the record or
 * the list asked for. Each entry is the requirement that states it for the operation, and its condition.
 */
const ASKED_FOR: Readonly<Record<string, { id: string; what: string; holds: (json: unknown) => void }>> = {
  getGroup: { id: 'GRP-05', what: 'is the group asked for', holds: (json) => isTheRecordAskedFor(json, ['id'], UNKNOWN) },
  getParticipant: { id: 'PART-11', what: 'is the participant asked for', holds: (json) => isTheRecordAskedFor(json, ['id'], UNKNOWN) },
  archiveParticipant: { id: 'PART-11', what: 'is the participant asked for', holds: (json) => isTheRecordAskedFor(json, ['id'], UNKNOWN) },
  getChannelInfo: { id: 'RT-03', what: 'is the channel asked for', holds: (json) => isTheRecordAskedFor(json, ['channel', 'name'], UNKNOWN) },
  listRoomChannelParticipants: { id: 'RT-11', what: 'lists only participants of the room asked for', holds: (json) => listsOnlyOfRoom(itemsOf(json), UNKNOWN) },
};

/** What requirement `id` states a 200 of the exchange's operation to an unknown id holds (ASKED_FOR). */
function askedFor(id: string, exchange: Exchange): void {
  const asked = ASKED_FOR[exchange.operationId];
  if (asked?.id !== id) throw new Error(`${exchange.operationId}: ASKED_FOR names no check of ${id} for its 200 to an unknown id`);
  asked.holds(exchange.json);
}

/** What requirement `id` asks of a 200 to an unknown id, in words. */
const whatIsAskedFor = (id: string): string => Object.values(ASKED_FOR).find((asked) => asked.id === id)?.what ?? 'is the one asked for';

/** The test of one case: each answer observed on the case's UNS requirement, and a 200 judged by the requirement of its operation. */
export function observeUnknownId(c: UnknownIdCase): void {
  // The archive and the close of unknown ids are gated like the operations (support/permissions.ts).
  const shares = sharesOf(c.calls, ([operation]) => operation);
  const operations = c.calls.map(([operation]) => operation);
  const fixed = [...new Set(operations.flatMap((operation) => (ASKED_FOR[operation] === undefined ? [] : [ASKED_FOR[operation].id])))];
  test(
    `the answer to ${c.what} is observed`,
    cites(c.id, ...fixed, ...errorShapeCitations(operations), { tag: permissionTags(...shares.map((share) => share.permission)) }),
    async ({ api, target, observe }) => {
      for (const share of shares) requirePermission(target, share.permission, share.operations);
      // The calls do not depend on each other: they go out together, each judged by its own checks.
      const exchanges = await together(c.calls, async ([operation, options]) => {
        const exchange = await api.call(operation, options);
        const answer = await checkOpenAnswer(c.id, exchange);
        observe(c.id, answer, operation);
        if (exchange.status >= 400 && concerns('UNS-15', operation)) observe('UNS-15', answer, operation);
        return exchange;
      });
      // Whether an unknown id gets a 200 is the target's choice: each requirement stating what a 200
      // holds applies when an operation it governs answered 200, whatever the others answered.
      for (const id of fixed) await checkWhereItApplies(id, `of an unknown id: a 200 ${whatIsAskedFor(id)}`, exchanges, (exchange) => askedFor(id, exchange));
    },
  );
}
