/**
 * What the interface states about error bodies, one check per requirement, the one binding of the
 * error-body rules in the specs: ERR-01 (the documented 401 body), ERR-04 (statusCode, when present,
 * is the HTTP status), ERR-05 (error, when present, is the status name), ERR-06 (the general error
 * body, a SHOULD), UNS-15 (the general body where the interface does not show the operation's error
 * bodies, observed) and VAR-05 (a 401's error a string or absent, whose form is recorded). Each runs
 * only for the operations its catalogue entry names, so that the scope the level audit gives a
 * requirement flows into the checks without editing them; the caller names which of them its case
 * judges.
 */
import { check, concerns, expect, isRecord, notApplicable, notAssessed } from '../../fixtures/index.ts';
import type { Exchange, Observe } from '../../fixtures/index.ts';
import { errorIsStatusName, isGeneralErrorBody, statusCodeIsStatus } from '../conditions/index.ts';

export type ErrorRequirement = 'ERR-01' | 'ERR-04' | 'ERR-05' | 'ERR-06' | 'UNS-15' | 'VAR-05';

/** Those of `ids` that concern one of `operations` at least: what a test over these operations cites. */
export function concerning(ids: readonly ErrorRequirement[], operations: readonly string[]): ErrorRequirement[] {
  return ids.filter((id) => operations.some((operationId) => concerns(id, operationId)));
}

/** The error of a 401 body (VAR-05): a string or absent. */
const errorOf = (exchange: Exchange): unknown => (isRecord(exchange.json) ? exchange.json['error'] : undefined);

interface ErrorBodyAssertion {
  label: string;
  /** Whether the rule speaks of this answer at all (a 401, a body that is an object); every error answer when absent. */
  judges?: (exchange: Exchange) => boolean;
  assert: (exchange: Exchange) => void;
}

const ASSERTIONS: Readonly<Record<ErrorRequirement, ErrorBodyAssertion>> = {
  'ERR-01': {
    label: 'the 401 body holds statusCode 401 and a message',
    judges: (exchange) => exchange.status === 401,
    assert: (exchange) => expect(exchange).toMatchOperation(exchange.operationId, { status: 401 }),
  },
  'ERR-04': { label: 'statusCode, when present, is the HTTP status', assert: statusCodeIsStatus },
  'ERR-05': { label: 'error, when present, is the HTTP status name', assert: errorIsStatusName },
  'ERR-06': { label: 'the body is the general error body', assert: isGeneralErrorBody },
  'UNS-15': { label: 'the body is the general error body', assert: isGeneralErrorBody },
  'VAR-05': {
    label: 'error is a string or absent',
    judges: (exchange) => exchange.status === 401 && isRecord(exchange.json),
    assert: (exchange) => expect(['undefined', 'string'], `error is ${JSON.stringify(errorOf(exchange))}`).toContain(typeof errorOf(exchange)),
  },
};

/**
 * The checks of `ids` on an error answer, each where its requirement concerns the operation and
 * speaks of the answer; `what` names the case in the labels (`getGroup of an unknown group`). With
 * `observe`, a VAR-05 check that passed records the form the target chose.
 */
export async function checkErrorBody(exchange: Exchange, what: string, ids: readonly ErrorRequirement[], observe?: Observe): Promise<void> {
  for (const id of ids) {
    const { label, judges, assert } = ASSERTIONS[id];
    if (!concerns(id, exchange.operationId) || judges?.(exchange) === false) continue;
    const passed = await check(id, `${what} (HTTP ${exchange.status}): ${label}`, () => assert(exchange));
    if (passed && id === 'VAR-05') observe?.('VAR-05', errorOf(exchange) === undefined ? 'error absent' : 'error present', what);
  }
}

/** Records that the checks of `ids` could not judge an error body of `operationId` (where they concern it), and why. */
export function errorBodyNotAssessed(operationId: string, what: string, ids: readonly ErrorRequirement[], reason: string): void {
  for (const id of ids) if (concerns(id, operationId)) notAssessed.record(id, `${what}: ${ASSERTIONS[id].label}`, reason);
}

/**
 * Records that the checks of `ids` do not apply to an answer of `operationId` that is no error (where
 * they concern it): the target's choice where the interface leaves the status open (an unknown id).
 */
export function errorBodyNotApplicable(operationId: string, what: string, ids: readonly ErrorRequirement[], reason: string): void {
  for (const id of ids) if (concerns(id, operationId)) notApplicable.record(id, `${what}: ${ASSERTIONS[id].label}`, reason);
}
