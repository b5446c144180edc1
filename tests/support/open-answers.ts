/**
 * The check of an answer the interface leaves open (an unknown id, an unusual request): a 200 is the
 * operation's documented body, else an error status whose body goes through the error-body checks
 * that govern it (ERR-04, ERR-05 and the 401 body of ERR-01 where listed, ERR-06 a warning, UNS-15
 * an observation).
 */
import { check, concerns, expect } from '../../fixtures/index.ts';
import type { Exchange } from '../../fixtures/index.ts';
import { checkErrorBody } from './error-bodies.ts';
import type { ErrorRequirement } from './error-bodies.ts';
import { describeAnswer } from './observations.ts';

/** What an error body the interface leaves open is checked for, each where its requirement lists the operation. */
export const UNSPECIFIED_ERROR_BODY: readonly ErrorRequirement[] = ['ERR-04', 'ERR-05', 'ERR-01', 'ERR-06', 'UNS-15'];

/**
 * The check of an answer the interface leaves open, as a check of `requirementId`: a 200 matches
 * the operation's documented body, else the answer is an error status; an error body gets the
 * checks of checkErrorBody. Returns the answer's description, for the observation.
 */
export async function checkOpenAnswer(requirementId: string, exchange: Exchange, what = exchange.operationId): Promise<string> {
  await check(requirementId, `${what}: answers the documented 200 body or an error status`, () => {
    if (exchange.status >= 400) return;
    expect(exchange, what).toMatchOperation(exchange.operationId, { status: 200 });
  });
  if (exchange.status >= 400) await checkErrorBody(exchange, exchange.operationId, UNSPECIFIED_ERROR_BODY);
  return describeAnswer(exchange);
}

/**
 * UNS-15 where one of the operations is among its operations: cited by the tests of unknown ids,
 * whose answers are error statuses on most targets. The other tests check it on any error body they
 * meet without citing it (an error there is the target's choice).
 */
export const errorShapeCitations = (operations: readonly string[]): string[] =>
  operations.some((operation) => concerns('UNS-15', operation)) ? ['UNS-15'] : [];
