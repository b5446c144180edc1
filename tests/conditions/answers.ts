/**
 * What the status and the body of an answer must be, whatever the operation: a request the
 * interface rejects is refused with a 4xx; a request it limits does not succeed and grants nothing;
 * a request whose answer it leaves open gets a success or a refusal; no request gets a 5xx.
 */
import { isRecord } from '../../fixtures/index.ts';
import { fail } from './condition.ts';
import type { Answer } from './condition.ts';

const isSuccess = (status: number): boolean => status >= 200 && status < 300;
const isRefusal = (status: number): boolean => status >= 400 && status < 500;

/** The request is refused with a 4xx (never a 2xx, a 3xx or a 5xx). */
export function refusedWith4xx(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (!isRefusal(answer.status)) fail(`answered HTTP ${answer.status}: the request must be refused with a 4xx`, answer);
}

/** The answer is not a server error. */
export function noServerError(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (answer.status >= 500) fail(`answered HTTP ${answer.status}: a 5xx is never an acceptable answer to this request`, answer);
}

/** The answer is a success (2xx) or a refusal (4xx). */
export function acceptedOrRefused(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (!isSuccess(answer.status) && !isRefusal(answer.status)) fail(`answered HTTP ${answer.status}: expected a 2xx or a 4xx`, answer);
}

/** The answer is 200 (not any other 2xx) or a refusal (4xx). */
export function okOrRefused(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (answer.status !== 200 && !isRefusal(answer.status)) fail(`answered HTTP ${answer.status}: expected 200 or a 4xx`, answer);
}

/**
 * A request that is not a valid URI (RFC 3986: a percent-encoding that does not decode) is answered
 * by whatever stands before the application (the HTTP server, a proxy) as by the application: any
 * 4xx with any body, or the connection closed (`closed`, its cause), pass; a success or a 5xx does
 * not. Nothing more is judged: the body of such a refusal is not the application's.
 */
export function refusedAsInvalidUri(answer: Pick<Answer, 'status' | 'curl'> | { closed: string }): void {
  if ('closed' in answer) return;
  if (isSuccess(answer.status)) fail(`answered HTTP ${answer.status}: a path that is not a valid URI must not succeed`, answer);
  if (answer.status >= 500) fail(`answered HTTP ${answer.status}: a 5xx is never an acceptable answer to this request`, answer);
}

/** The request does not succeed: no 2xx. */
export function noSuccess(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (isSuccess(answer.status)) fail(`answered HTTP ${answer.status}: the request must not succeed`, answer);
}

/** The body carries none of `fields` (what a success would grant: a token, a key). */
export function grantsNone(answer: Pick<Answer, 'status' | 'json' | 'curl'>, fields: readonly string[]): void {
  const body = answer.json;
  // A field grants something only when it holds one: null or an empty string grants nothing, and the
  // interface does not show the body of a refusal.
  const granted = isRecord(body) ? fields.filter((name) => typeof body[name] === 'string' && body[name] !== '') : [];
  if (granted.length > 0) fail(`answered HTTP ${answer.status} with ${granted.join(', ')} in the body`, answer);
}

/** A read of the participant a refused write named finds no such participant: the refusal created nothing. */
export function noParticipantCreated(readBack: Pick<Answer, 'status' | 'json' | 'curl'>, participantId: string): void {
  const body = readBack.json;
  if (isSuccess(readBack.status) && isRecord(body) && body['id'] === participantId) {
    fail(`the write was refused, yet getParticipant ${JSON.stringify(participantId)} now returns the participant`, readBack);
  }
}

/** The answer has the status the interface states for the request (`expected`, or one of them). */
export function hasStatus(answer: Pick<Answer, 'status' | 'curl'>, expected: number | readonly number[]): void {
  const statuses = typeof expected === 'number' ? [expected] : expected;
  if (!statuses.includes(answer.status)) fail(`answered HTTP ${answer.status}: expected HTTP ${statuses.join(' or ')}`, answer);
}

/** The request is accepted: a 2xx. */
export function succeeds(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (!isSuccess(answer.status)) fail(`answered HTTP ${answer.status}: expected a 2xx`, answer);
}

/** The credentials the request carries pass authentication: whatever else the answer is, it is not a 401. */
export function passesAuthentication(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (answer.status === 401) fail('answered HTTP 401: expected the credentials sent to pass authentication (any status but 401)', answer);
}

/** The answer is the documented 201 or an error status (4xx or 5xx). */
export function createdOrError(answer: Pick<Answer, 'status' | 'curl'>): void {
  if (answer.status !== 201 && answer.status < 400) fail(`answered HTTP ${answer.status}: expected the documented 201 or an error status`, answer);
}

/** The body carries none of `fields`, whatever their values (a refusal that must hold no token at all). */
export function leavesOut(answer: Pick<Answer, 'status' | 'json' | 'curl'>, fields: readonly string[]): void {
  const body = answer.json;
  const present = isRecord(body) ? fields.filter((name) => name in body) : [];
  if (present.length > 0) fail(`answered HTTP ${answer.status} with ${present.join(', ')} in the body: expected none of ${fields.join(', ')}`, answer);
}

/** The body mentions none of `ids` (each as a JSON string anywhere in it): nothing of what the request must not reach is returned. */
export function mentionsNoneOf(answer: Pick<Answer, 'status' | 'text' | 'curl'>, ids: readonly string[]): void {
  const found = ids.filter((id) => answer.text.includes(JSON.stringify(id)));
  if (found.length > 0)
    fail(`answered HTTP ${answer.status} holding ${found.length} of the ${ids.length} ids it must not return: ${JSON.stringify(found)}`, answer);
}

/**
 * A request whose credential a target may refuse or take (another scheme): refused with 401, or
 * answered as the same request with the documented credentials (`documented`, its status).
 * `interchangeable` are statuses either answer may show whatever the credential (the usage-limit 403
 * beside the 200 of transcription statistics).
 */
export function refusedOrTakenAlike(answer: Pick<Answer, 'status' | 'curl'>, documented: number, interchangeable: readonly number[] = []): void {
  if (answer.status === 401 || answer.status === documented) return;
  if (interchangeable.includes(answer.status) && interchangeable.includes(documented)) return;
  fail(
    `answered HTTP ${answer.status}; with the documented credentials it answers HTTP ${documented}: expected a 401, or the answer the documented credentials get`,
    answer,
  );
}

/** A read of the participant after a refused update does not show the name that update sent: the refusal changed nothing. */
export function refusedUpdateNotApplied(readBack: Pick<Answer, 'json' | 'curl'>, refusedName: string): void {
  if (isRecord(readBack.json) && readBack.json['name'] === refusedName)
    fail(`the participant read back holds the name ${JSON.stringify(refusedName)} the refused update sent: expected it unchanged`, readBack);
}

/** An id the interface says a list no longer holds (an archived participant) is on none of its pages read (`where` names the list). */
export function notListed(ids: readonly unknown[], id: string, where: string): void {
  if (ids.includes(id)) fail(`${where} still lists ${JSON.stringify(id)} among its ${ids.length} items: expected it absent`);
}
