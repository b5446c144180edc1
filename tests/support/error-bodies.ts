/**
 * What the interface states about error bodies, one check per requirement: ERR-04 (statusCode, when
 * present, is the HTTP status), ERR-05 (error, when present, is the status name), ERR-06 (the general
 * error body). Each runs only for the operations its catalogue entry names, so that the scope the
 * level audit gives a requirement flows into the checks without editing them.
 */
import { check, concerns, notApplicable, notAssessed } from '../../fixtures/index.ts';
import type { Exchange } from '../../fixtures/index.ts';
import { errorIsStatusName, isGeneralErrorBody, statusCodeIsStatus } from '../conditions/index.ts';

export type ErrorRequirement = 'ERR-04' | 'ERR-05' | 'ERR-06';

/** Those of `ids` that concern one of `operations` at least: what a test over these operations cites. */
export function concerning(ids: readonly ErrorRequirement[], operations: readonly string[]): ErrorRequirement[] {
  return ids.filter((id) => operations.some((operationId) => concerns(id, operationId)));
}

const ASSERTIONS: Readonly<Record<ErrorRequirement, { label: string; assert: (exchange: Exchange) => void }>> = {
  'ERR-04': { label: 'statusCode, when present, is the HTTP status', assert: statusCodeIsStatus },
  'ERR-05': { label: 'error, when present, is the HTTP status name', assert: errorIsStatusName },
  'ERR-06': { label: 'the body is the general error body', assert: isGeneralErrorBody },
};

/**
 * The checks of `ids` on an error answer, each where its requirement concerns the operation;
 * `what` names the case in the labels (`getGroup of an unknown group`).
 */
export async function checkErrorBody(exchange: Exchange, what: string, ids: readonly ErrorRequirement[]): Promise<void> {
  for (const id of ids) {
    if (!concerns(id, exchange.operationId)) continue;
    const { label, assert } = ASSERTIONS[id];
    await check(id, `${what} (HTTP ${exchange.status}): ${label}`, () => assert(exchange));
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
