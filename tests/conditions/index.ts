/**
 * Named conditions: each rule of the interface that the suite judges, written once as a small pure
 * function with a unit test of its own (tests/unit/conditions-*.test.ts), in the manner of the
 * OpenID conformance suite's condition classes. A condition names no requirement: the requirement is
 * bound where it is called, so that one condition can serve several requirements, and the
 * handwritten specs and the generated layer (tests/generated/assess.ts) call the same conditions.
 *
 * The one shape of a condition: it takes the values it judges (an answer, the numbers of a page, the
 * items of a list) and returns nothing when the rule holds; when it does not, it throws a
 * ConditionFailure whose message is the finding, what was found against what the rule asks, ending
 * with the answer's curl line when it has one. It never records a check, never calls expect and
 * never skips: which requirement a finding counts against, and when the rule applies, is the caller's.
 * Where the values are too few to tell (everyItemHas and everyItemWithin below the least number of
 * items their caller names), it says so with notAssessed.check, which check() records as not assessed.
 *
 *   await check('PAG-05', 'totalPages equals ceil(total / limit)', () => totalPagesIsCeiling(page.pagination));   // a spec
 *   const failure = failureOf(() => totalPagesIsCeiling(body.pagination));                                   // findings as data
 *
 * One module per subject: pagination (the arithmetic of a page), format (JSON bodies), error-body
 * (statusCode, error, the general error body), filters (what a filter implies for the items), answers
 * (refusals, no success, no 5xx, nothing granted, the status stated), agreement (two operations that
 * describe the same thing), asked-for (what an answer for an unknown id still holds), realtime (the
 * channel info and the connected participants), meeting-stats (the result forms and totals of
 * getMeetingStats), recordings (the url, the processing watch), fields (a field's type or value
 * outside the document's shapes), security-key (the key pair and its passphrase) and token (the JWT
 * login answers).
 */
export { ConditionFailure, failureOf } from './condition.ts';
export type { Answer } from './condition.ts';
export { noMinutesWithoutRecordings, sameTotals, stableIdsInOther } from './agreement.ts';
export type { ListsAround, MeetingBesideRecordings, SummariesOfTheSame } from './agreement.ts';
export { holdsTheFieldsAskedFor, isTheRecordAskedFor, listsOnlyOfRoom } from './asked-for.ts';
export { acceptedOrRefused, createdOrError, hasStatus, noServerError, noSuccess, okOrRefused, passesAuthentication, succeeds } from './answers.ts';
export { refusedAsInvalidUri, refusedOrTakenAlike, refusedWith4xx } from './answers.ts';
export { grantsNone, leavesOut, mentionsNoneOf, noParticipantCreated, notListed, refusedUpdateNotApplied } from './answers.ts';
export { errorIsStatusName, isDocumentedErrorBody, isGeneralErrorBody, namesStatus, statusCodeIsStatus, statusNames } from './error-body.ts';
export { holdsString, isEmptyObject, stringWhenPresent } from './fields.ts';
export { everyItemHas, everyItemWithin, FILTER_DATE_FIELDS, filterTimes, mayMatch, monthPeriod, mustMatch, rangePeriod, yearPeriod } from './filters.ts';
export type { Period } from './filters.ts';
export { declaresJson, parsesAsJson } from './format.ts';
export { channelIdIsStringOrAbsent, everyEventIsRealtimeEvent, isRealtimeChannel, listsConnected } from './realtime.ts';
export { differentSecrets, doesNotLoadWith, echoesPassphrase, formsKeyPair, holdsWords } from './security-key.ts';
export { keyServedAtOneOf, loadsAsPublicKey, loadsWithPassphrase } from './security-key.ts';
export type { ServedAt } from './security-key.ts';
export { decodeJwt, holdsJwt } from './token.ts';
export type { DecodedJwt, EncryptedJwt, SignedJwt } from './token.ts';
export {
  fullPageExpected,
  holdsTake,
  lastPageHoldsRest,
  limitIsTake,
  noItemTwice,
  pageFollowsSkip,
  pageIsOrdinal,
  pastTheEndAnswered,
  pastTheEndHoldsNothing,
  pastTheEndKeepsTotal,
  totalPagesIsCeiling,
} from './pagination.ts';
export type { PageNumbers } from './pagination.ts';
export { sameItems, sameRecord, totalIsSumOver } from './agreement.ts';
export { noneLeftOut, returnsSome, shareNoRecord } from './filters.ts';
export { bodyIsArray } from './format.ts';
export { isAPageOfTheRecords, isDocumentedStatsForm, isStatsForm, summaryTotalIsCount, totalCountsTheRecords } from './meeting-stats.ts';
export type { StatsFormName } from './meeting-stats.ts';
export {
  dataIsArray,
  defaultPageHolds,
  emptyListHoldsNothing,
  numberedAsFirstOf,
  paginationFieldIsNumber,
  sameTotalOnEveryPage,
  walkYields,
} from './pagination.ts';
export {
  apiKeyIsOneOf,
  atMostEvents,
  endsAfterItStarts,
  everyEventWithinLifetime,
  holdsTheNewestEvent,
  isChannelInfo,
  isConnectedParticipant,
  keepsTheNewestEvents,
  listsConnectedParticipants,
} from './realtime.ts';
export { availableWithinDelay, everyUrlIsAbsoluteHttp, watchSawRecordings } from './recordings.ts';
export type { RecordingUrl, WatchOutcome } from './recordings.ts';
