/**
 * Applicability per requirement, from the calls it concerns (docs/architecture.md, "Checks and
 * verdicts"). A requirement that states what one kind of answer holds (a 200 of getGroup is the
 * group asked for: GRP-05) applies in a test when one of the calls it concerns got that answer: a
 * call of an operation it governs (its `operations` in the catalogue), and of those the calls its
 * statement names (the read without environment for TRS-06, a page past the end for PAG-14). The
 * answers of other operations, and of other requests of its operations, decide nothing for it: a
 * test that sends getGroup and listGroupParticipants for an unknown group decides GRP-05 from
 * getGroup's answer alone, whatever listGroupParticipants answered.
 *
 * `applicability` is the decision (pure); `checkWhereItApplies` checks the requirement on each answer
 * it applies to, or records it not applicable in the test, with the statuses that decided it.
 */
import { check, notApplicable, requirement } from '../../fixtures/index.ts';

/** What the decision reads of an answer. */
export interface Answered {
  operationId: string;
  status: number;
}

export interface Concerns<T extends Answered> {
  /** Of the answers of the operations the requirement governs, those of the calls its statement names (default: all). */
  named?: (answer: T) => boolean;
  /** The answers the requirement's condition holds for (default: a 200). */
  holdsFor?: (answer: T) => boolean;
  /** That answer in words, for the reason (default: `200`). */
  what?: string;
}

/** The answers a requirement concerns in a test, those it applies to, and when none, why not. */
export interface Applicability<T> {
  concerned: T[];
  applying: T[];
  /** Set when `applying` is empty: the statuses of the concerned answers, and what the requirement asks of one. */
  notApplicable?: string;
}

/** The answers a requirement governing `operations` concerns: of those operations, and of the calls `named` selects. */
export function concernedAnswers<T extends Answered>(operations: readonly string[], answers: readonly T[], named: (answer: T) => boolean = () => true): T[] {
  return answers.filter((answer) => operations.includes(answer.operationId) && named(answer));
}

/** `getGroup 400`, `getTranscriptionStats 200, 400 ×2`: the statuses of the answers, by operation. */
function statusesOf(answers: readonly Answered[]): string {
  const byOperation = new Map<string, Map<number, number>>();
  for (const { operationId, status } of answers) {
    const counts = byOperation.get(operationId) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    byOperation.set(operationId, counts);
  }
  return [...byOperation]
    .map(([operationId, counts]) => `${operationId} ${[...counts].map(([status, count]) => (count > 1 ? `${status} ×${count}` : `${status}`)).join(', ')}`)
    .join('; ');
}

/**
 * Whether the requirement `governs` describes applies to `answers`: it does when one of the answers
 * it concerns is one its condition holds for, and those are the answers to check; else it says why
 * not, from its own answers only. Throws when none of the answers is one it concerns: that is a test that
 * asked nothing of the requirement, not a target's choice.
 */
export function applicability<T extends Answered>(
  governs: { id: string; operations: readonly string[] },
  answers: readonly T[],
  { named = () => true, holdsFor = (answer) => answer.status === 200, what = '200' }: Concerns<T> = {},
): Applicability<T> {
  const concerned = concernedAnswers(governs.operations, answers, named);
  if (concerned.length === 0) {
    throw new Error(`none of the answers (${statusesOf(answers) || 'none'}) is of a call ${governs.id} concerns (${governs.operations.join(', ')})`);
  }
  const applying = concerned.filter(holdsFor);
  if (applying.length > 0) return { concerned, applying };
  return { concerned, applying, notApplicable: `${statusesOf(concerned)}, not ${what} (${governs.id} states what a ${what} holds)` };
}

/**
 * Checks requirement `id` on each answer it applies to (`judge` asserts, as inside `check`; each
 * check is labelled `<operationId> <label>`), or, when none of the calls it concerns got such an
 * answer, records it not applicable in this test.
 */
export async function checkWhereItApplies<T extends Answered>(
  id: string,
  label: string,
  answers: readonly T[],
  judge: (answer: T) => unknown,
  concerns: Concerns<T> = {},
): Promise<void> {
  const { concerned, applying, notApplicable: reason } = applicability(requirement(id), answers, concerns);
  if (reason !== undefined) {
    notApplicable.record(id, `${[...new Set(concerned.map((answer) => answer.operationId))].join(', ')} ${label}`, reason);
    return;
  }
  for (const answer of applying) await check(id, `${answer.operationId} ${label}`, () => judge(answer));
}
