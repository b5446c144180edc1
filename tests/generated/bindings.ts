/**
 * The requirements the generated cases check, bound here in the suite: the generators of
 * fixtures/generate/ derive requests from spec/openapi.yaml and ask these tables which requirement
 * covers a derived constraint and what answer it asks (CONSTRAINT_RULES), which requirement a valid
 * request checks (SHAPE_REQUIREMENT, meetingStatsForm) or which point of the interface leaves its
 * answer open (TOLERATED_*); assess.ts asks them which requirements an answer shows something about
 * (error bodies, filters, paging). The rules themselves are the conditions of tests/conditions/.
 */
import { concerns } from '../../fixtures/index.ts';
import type { CaseBindings, ConstraintBinding, ConstraintKind, GeneratedRequest, Outcome } from '../../fixtures/index.ts';
import { monthPeriod, rangePeriod, yearPeriod } from '../conditions/index.ts';
import type { Period } from '../conditions/index.ts';

/** Whether the catalogue entry of `id` lists the operation. */

interface ConstraintRule {
  kinds: readonly ConstraintKind[];
  /** The requirement; the rule applies only to the operations that requirement lists. */
  id: string;
  outcome: Outcome;
  /** Narrows the rule to one parameter or body field. */
  name?: string;
  /**
   * The requirement a 5xx answer breaks instead of `id`, where the operation is among its operations:
   * the interface states the limit (no login, no key) but not the status of the refusal, so that a
   * 5xx is a robustness finding, not a broken limit.
   */
  serverError?: string;
}

const QUERY_KINDS = ['query-type', 'query-minimum', 'query-maximum', 'query-enum', 'query-format'] as const;
const BODY_SHAPE_KINDS = ['body-missing', 'body-not-json', 'body-not-object'] as const;

/**
 * First matching rule wins, so the specific ones come first. The interface states limits for the
 * login fields (no login past them) and a required passphrase (no key without one), a rejection for
 * the transcription environment ("Invalid request") and credentials; malformed bodies of the POST
 * operations are refused by the robustness requirements (INP-*); for malformed query values and
 * unusual path segments no rule is stated, so there the answer need only be valid and never a 5xx.
 * A failed check counts by its requirement's level (a SHOULD is a warning).
 */
const CONSTRAINT_RULES: readonly ConstraintRule[] = [
  { kinds: ['query-enum'], name: 'environment', id: 'TRS-04', outcome: 'refused' },
  { kinds: QUERY_KINDS, id: 'INP-08', outcome: 'tolerated' },
  { kinds: ['path-unusual'], id: 'INP-09', outcome: 'tolerated' },
  { kinds: ['body-field-maxLength'], name: 'email', id: 'LOGIN-05', outcome: 'not-accepted', serverError: 'INP-06' },
  { kinds: ['body-field-minLength'], name: 'password', id: 'LOGIN-06', outcome: 'not-accepted', serverError: 'INP-06' },
  { kinds: ['body-field-maxLength'], name: 'password', id: 'LOGIN-07', outcome: 'not-accepted', serverError: 'INP-06' },
  { kinds: ['body-field-missing'], name: 'passphrase', id: 'SEC-10', outcome: 'not-accepted', serverError: 'INP-02' },
  // closeMeeting: its body holds the API key, so a missing or unreadable one is a missing credential.
  { kinds: ['body-field-missing', ...BODY_SHAPE_KINDS], id: 'AUTH-10', outcome: 'refused' },
  { kinds: ['body-field-type'], name: 'apiKey', id: 'AUTH-11', outcome: 'refused' },
  { kinds: ['body-field-type'], id: 'INP-04', outcome: 'refused' },
  { kinds: ['body-missing'], id: 'INP-02', outcome: 'refused' },
  { kinds: ['body-not-json'], id: 'INP-01', outcome: 'refused' },
  { kinds: ['body-not-object'], id: 'INP-03', outcome: 'refused' },
  { kinds: ['body-content-type'], id: 'INP-05', outcome: 'refused' },
];

/** The requirement and outcome of a derived constraint, or undefined when no requirement covers it. */
export function constraintRule(operationId: string, kind: ConstraintKind, name?: string): ConstraintBinding | undefined {
  const rule = CONSTRAINT_RULES.find(
    (candidate) => candidate.kinds.includes(kind) && (candidate.name === undefined || candidate.name === name) && concerns(candidate.id, operationId),
  );
  if (rule === undefined) return undefined;
  const binding: ConstraintBinding = { id: rule.id, outcome: rule.outcome };
  return rule.serverError !== undefined && concerns(rule.serverError, operationId) ? { ...binding, serverErrorRequirement: rule.serverError } : binding;
}

/** The requirement of the read-back: a participant a refused upsert named still does not exist. */
export const READ_BACK_REQUIREMENT = 'INP-07';

/**
 * The error answers whose bodies the interface shows (the Errors table and the endpoint entries):
 * the 401 of login, meeting statistics and meeting close, the 500 of meeting close, and the invalid
 * request and usage-limit 403 of transcription statistics. "Error bodies of the other endpoints: not
 * shown": only their general shape is a SHOULD (ERR-06).
 */
const ERROR_BODIES_SHOWN: Readonly<Record<string, (status: number) => boolean>> = {
  login: (status) => status === 401,
  getMeetingStats: (status) => status === 401,
  closeMeeting: (status) => status === 401 || status === 500,
  getTranscriptionStats: (status) => status >= 400 && status < 500,
};

export const errorBodyShown = (operationId: string, status: number): boolean => ERROR_BODIES_SHOWN[operationId]?.(status) ?? false;

/**
 * The requirements about the error body of a 4xx, each where the catalogue lists the operation:
 * statusCode equals the status, error is the status name, and the general error body (a SHOULD).
 */
export function errorBodyRequirements(operationId: string): { statusCode?: string; statusName?: string; general?: string } {
  const where = (id: string): string | undefined => (concerns(id, operationId) ? id : undefined);
  const [statusCode, statusName, general] = [where('ERR-04'), where('ERR-05'), where('ERR-06')];
  return {
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(statusName === undefined ? {} : { statusName }),
    ...(general === undefined ? {} : { general }),
  };
}

/**
 * The requirement that fixes the documented body of an error status of an operation: the 401 bodies
 * (ERR-01), the usage-limit 403 of transcription statistics (ERR-02), the 500 of meeting close
 * (ERR-03). Undefined for other statuses (their body belongs to the case's own requirement).
 */
export function documentedErrorRequirement(operationId: string, status: number): string | undefined {
  if (status === 401 && concerns('ERR-01', operationId)) return 'ERR-01';
  if (status === 403 && concerns('ERR-02', operationId)) return 'ERR-02';
  if (status === 500 && concerns('ERR-03', operationId)) return 'ERR-03';
  return undefined;
}

/** The requirement every answer with a body is held to: a JSON media type and a body that parses. */
export const JSON_BODY_REQUIREMENT = 'FMT-04';

/**
 * Answers an operation may give to any request whatever its parameters: transcription statistics
 * "can answer 403 when a usage limit is reached". Such an answer assesses nothing of the case.
 */
export const ANY_REQUEST_STATUS: Readonly<Record<string, { status: number; why: string }>> = {
  getTranscriptionStats: { status: 403, why: 'the usage limit on requests was reached (the documented 403)' },
};

/** Fields of a success body that a refused login or key request must not carry. */
export const GRANTED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  login: ['access_token'],
  createSecurityKey: ['privateKey', 'secretKey', 'publicKey'],
};

/**
 * The requirement a valid request to the operation checks: its answer is the documented success
 * status with the documented body. Issues of the body's parts go to the `x-requirement` of their
 * schema (a Group's fields to GRP-02, a timestamp to FMT-01, the pagination object to PAG-12).
 * Meeting statistics have one form per combination of flags (meetingStatsForm).
 */
export const SHAPE_REQUIREMENT: Readonly<Record<string, string>> = {
  login: 'LOGIN-04',
  listGroups: 'GRP-01',
  getGroup: 'GRP-02',
  listGroupParticipants: 'GRP-04',
  upsertParticipant: 'PART-04',
  getParticipant: 'PART-01',
  archiveParticipant: 'PART-09',
  listRecordings: 'VAR-01',
  getTranscriptionStats: 'TRS-01',
  createSecurityKey: 'SEC-01',
  getMeetingsSummary: 'MSUM-02',
  getChannelInfo: 'RT-01',
  listChannelParticipants: 'RT-08',
  listRoomChannelParticipants: 'RT-10',
};

/** Valid combinations where the interface does not state the answer: accepted as 2xx or 4xx, never 5xx. */
interface ToleratedCombination {
  operationId: string;
  id: string;
  /** The query matches when every listed parameter has the given value (undefined = absent). */
  query: Readonly<Record<string, string | undefined>>;
}

const TOLERATED_COMBINATIONS: readonly ToleratedCombination[] = [
  { operationId: 'listRecordings', id: 'UNS-16', query: { roomId: undefined, meetingId: undefined } },
  // "onlySummary at its default", whether sent or not.
  { operationId: 'getMeetingStats', id: 'UNS-19', query: { usePagination: 'true', onlySummary: undefined } },
  { operationId: 'getMeetingStats', id: 'UNS-19', query: { usePagination: 'true', onlySummary: 'true' } },
  // environment is listed with its allowed values, not stated optional.
  { operationId: 'getTranscriptionStats', id: 'UNS-22', query: { environment: undefined } },
];

/** listRecordings with both filters: intersection, union or else is not shown (UNS-25). */
const TOLERATED_FILTER_PAIRS: readonly { operationId: string; id: string; names: readonly [string, string] }[] = [
  { operationId: 'listRecordings', id: 'UNS-25', names: ['roomId', 'meetingId'] },
];

/** Body fields whose absence the interface leaves open: omitting them is tolerated, not required. */
const OMITTABLE_BODY_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // The body lists participantId, name, email and avatar; only the sample adds id (UNS-09).
  upsertParticipant: { id: 'UNS-09' },
};

/**
 * Meeting statistics by request: the flags select the documented form of the body (MST-01, -02,
 * -03, -06) and the schema that form must match, or none where the form is not shown (UNS-19).
 */
export function meetingStatsForm(query: Readonly<Record<string, string>>): { id: string; schema?: string } {
  const { usePagination, onlySummary } = query;
  // onlySummary at its default (true), sent or not, with usePagination=true: not shown.
  if (usePagination === 'true' && onlySummary !== 'false') return { id: 'UNS-19' };
  if (onlySummary === 'false')
    return usePagination === 'true' ? { id: 'MST-06', schema: 'MeetingStatsPage' } : { id: 'MST-03', schema: 'MeetingStatsRecordList' };
  if (onlySummary === 'true') return { id: 'MST-02', schema: 'MeetingStatsSummary' };
  // usePagination=false is the default, so the request means the same as one without flags.
  return { id: 'MST-01', schema: 'MeetingStatsSummary' };
}

/** Why the interface lets this valid request be refused, when it does: the unspecified point that leaves it open. */
function toleratedBy(operationId: string, request: GeneratedRequest): string | undefined {
  const query = request.query ?? {};
  const combination = TOLERATED_COMBINATIONS.find(
    (entry) => entry.operationId === operationId && Object.entries(entry.query).every(([name, value]) => query[name] === value),
  );
  if (combination !== undefined) return combination.id;
  const pair = TOLERATED_FILTER_PAIRS.find((entry) => entry.operationId === operationId && entry.names.every((name) => query[name] !== undefined));
  if (pair !== undefined) return pair.id;
  const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : undefined;
  const omitted = Object.entries(OMITTABLE_BODY_FIELDS[operationId] ?? {}).find(([name]) => body !== undefined && !(name in body));
  return omitted?.[1];
}

/** A property every returned item must have, given the filters of the request, and the requirement that states it. */
export type FilterCheck = { id: string; kind: 'equals'; field: string; value: string } | { id: string; kind: 'window'; period: Period };

/** Equality filters: the query parameter names the field each returned item must hold its value in. */
const EQUALITY_FILTERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  listRecordings: { roomId: 'REC-03', meetingId: 'REC-05' },
  getMeetingStats: { groupId: 'MST-12' },
};

/** Meeting statistics filter only records (onlySummary=false); totals carry no item to check. */
const RECORDS_ONLY: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  getMeetingStats: { onlySummary: 'false' },
};

/** The checks the filters of a request imply for the items of a 2xx body. */
export function filterChecks(operationId: string, query: Readonly<Record<string, string>>): FilterCheck[] {
  const recordsOnly = RECORDS_ONLY[operationId] ?? {};
  if (Object.entries(recordsOnly).some(([name, value]) => query[name] !== value)) return [];
  const pairOpen = TOLERATED_FILTER_PAIRS.some((pair) => pair.operationId === operationId && pair.names.every((name) => query[name] !== undefined));
  const checks: FilterCheck[] = [];
  if (!pairOpen) {
    for (const [field, id] of Object.entries(EQUALITY_FILTERS[operationId] ?? {})) {
      const value = query[field];
      if (value !== undefined) checks.push({ id, kind: 'equals', field, value });
    }
  }
  if (operationId !== 'getMeetingStats') return checks;
  const year = query['year'] === undefined ? undefined : Number(query['year']);
  const month = query['month'] === undefined ? undefined : Number(query['month']);
  if (year !== undefined) {
    checks.push(
      month === undefined ? { id: 'MST-08', kind: 'window', period: yearPeriod(year) } : { id: 'MST-07', kind: 'window', period: monthPeriod(year, month) },
    );
  }
  const { initialDate, endDate } = query;
  if (initialDate !== undefined && endDate !== undefined) checks.push({ id: 'MST-09', kind: 'window', period: rangePeriod(initialDate, endDate) });
  return checks;
}

/** Paging requirements a 2xx envelope answer to the operation is checked against. */
export function pagingRequirements(operationId: string): string[] {
  if (concerns('REC-10', operationId)) return ['REC-10'];
  return ['PAG-03', 'PAG-05', 'PAG-06', 'PAG-07', 'PAG-08', 'PAG-09', 'PAG-14'].filter((id) => concerns(id, operationId));
}

/** What the generators ask the suite (fixtures/generate/types.ts CaseBindings). */
export const CASE_BINDINGS: CaseBindings = {
  constraint: constraintRule,
  validRequest: (operationId, request) => {
    const shape = operationId === 'getMeetingStats' ? meetingStatsForm(request.query ?? {}).id : SHAPE_REQUIREMENT[operationId];
    if (shape === undefined) throw new Error(`${operationId}: no shape requirement for its valid requests (tests/generated/bindings.ts SHAPE_REQUIREMENT)`);
    const tolerated = toleratedBy(operationId, request);
    return { requirementId: tolerated ?? shape, tolerated: tolerated !== undefined };
  },
  omittableBodyFields: (operationId) => Object.keys(OMITTABLE_BODY_FIELDS[operationId] ?? {}),
  readBack: READ_BACK_REQUIREMENT,
};
