/**
 * The checks of the body of one answer to a generated case: its content type and JSON, the body
 * against the operation's documented response (its issues attributed to the requirement their schema
 * declares, `x-requirement`), and an error answer's body where the catalogue lists the operation.
 * Each rule is a condition of tests/conditions/, bound to the requirement bindings.ts names; judged()
 * makes the checks every part of the generated judge returns (assess.ts, list-findings.ts).
 */
import { checkExchange, isRecord, withoutBranchMismatches } from '../../fixtures/index.ts';
import type { CaseCheck, Exchange, GeneratedCase } from '../../fixtures/index.ts';
import { declaresJson, errorIsStatusName, failureOf, isGeneralErrorBody, parsesAsJson, statusCodeIsStatus } from '../conditions/index.ts';
import { JSON_BODY_REQUIREMENT, documentedErrorRequirement, errorBodyRequirements, errorBodyShown } from './bindings.ts';

/** A check of `requirementId`, failed with `failure` when there is one. */
export const judged = (requirementId: string, label: string, failure: string | undefined, aggregate?: string): CaseCheck => ({
  requirementId,
  label,
  ...(failure === undefined ? {} : { failure }),
  ...(aggregate === undefined ? {} : { aggregate }),
});

export const notJson = (operationId: string): string => `${operationId} answered a body that is not JSON (${JSON_BODY_REQUIREMENT})`;

/** The answer's content type and JSON, one check per status over the test. */
export function jsonBodyCheck(exchange: Exchange): CaseCheck | undefined {
  if (exchange.text.trim() === '') return undefined;
  const { operationId, status } = exchange;
  const failure = failureOf(() => {
    declaresJson(exchange);
    parsesAsJson(exchange);
  });
  return judged(JSON_BODY_REQUIREMENT, `${operationId} answers ${status} as JSON with a JSON content type`, failure, `${JSON_BODY_REQUIREMENT} ${status}`);
}

interface Issue {
  instancePath: string;
  requirementId: string | undefined;
}

/**
 * Whether a schema issue belongs to the requirement being checked: an issue of a part no other
 * requirement governs, or of one that declares this requirement; issues of a part whose schema
 * declares another requirement (`x-requirement`) are that requirement's, as the contract matcher
 * attributes them. `rootIsOwn`: an issue of the body itself (its type, a missing member) is the
 * form of the answer, the caller's (a meeting-statistics form, whose schema declares none itself).
 */
export function isOwn(issue: Issue, own: string, rootIsOwn = false): boolean {
  return (rootIsOwn && issue.instancePath === '') || issue.requirementId === undefined || issue.requirementId === own;
}

/**
 * The body against the operation's documented response for its status (`status` when the case
 * expects one): the status and the issues of no other requirement are the caller's; the issues whose
 * schema declares another requirement are checks of that requirement, one per status over the test.
 */
export function documentedBody(
  generated: GeneratedCase,
  exchange: Exchange,
  own: string,
  status?: number,
): { failure?: string; notJson?: boolean; foreign: CaseCheck[] } {
  const result = checkExchange(exchange, generated.operationId, { anyContentType: true, ...(status === undefined ? {} : { status }) });
  if (result.pass) return { foreign: [] };
  if (result.check !== 'body') return { failure: result.message, foreign: [] };
  if (result.issues === undefined) return { notJson: true, foreign: [] };
  const issues = withoutBranchMismatches(result.issues);
  const foreignIds = [...new Set(issues.filter((issue) => !isOwn(issue, own)).map((issue) => issue.requirementId as string))];
  const foreign = foreignIds.map((id): CaseCheck => ({
    requirementId: id,
    label: `${generated.operationId} answers ${exchange.status} with the parts of the body ${id} states`,
    failure: result.message,
    aggregate: `${id} ${exchange.status}`,
  }));
  const mine = issues.some((issue) => isOwn(issue, own));
  return mine ? { failure: result.message, foreign } : { foreign };
}

/** The checks of an error answer's body, each where the catalogue lists the operation. */
export function errorBodyChecks(generated: GeneratedCase, exchange: Exchange): CaseCheck[] {
  const { operationId, status } = exchange;
  const { statusCode, statusName, general } = errorBodyRequirements(operationId);
  const checks: CaseCheck[] = [];
  const body = exchange.json;
  // Only where the interface shows the error body is the documented body a requirement.
  if (errorBodyShown(operationId, status)) {
    const owner = documentedErrorRequirement(operationId, status) ?? generated.requirementId;
    const documented = checkExchange(exchange, operationId, { anyContentType: true });
    if (documented.check !== 'documented-status' && !(documented.check === 'body' && documented.issues === undefined)) {
      const label = `${operationId} answers ${status} with the documented error body`;
      checks.push(judged(owner, label, documented.pass ? undefined : documented.message, `${owner} ${status} body`));
    }
  }
  /** The requirement's check of a condition on this answer, aggregated by requirement and status. */
  const bound = (requirementId: string, label: string, condition: (answer: Exchange) => void): CaseCheck =>
    judged(
      requirementId,
      label,
      failureOf(() => condition(exchange)),
      `${requirementId} ${status}`,
    );
  if (statusCode !== undefined && isRecord(body) && 'statusCode' in body) {
    checks.push(bound(statusCode, `${operationId}: statusCode equals the status in its ${status} bodies`, statusCodeIsStatus));
  }
  if (statusName !== undefined && isRecord(body) && 'error' in body) {
    checks.push(bound(statusName, `${operationId}: error is the status name in its ${status} bodies`, errorIsStatusName));
  }
  if (general !== undefined) {
    checks.push(bound(general, `${operationId}: its ${status} bodies are the general error body`, isGeneralErrorBody));
  }
  return checks;
}
