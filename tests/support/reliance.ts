/**
 * Steps a check relies on but does not judge: an answer whose status or form another requirement
 * states (the meeting statistics records of MST-03 read by a filter check, the security key result of
 * SEC-01 read by a key-pair check), a login of a second account, a body the usage limit may replace.
 * Each failure lands on the requirement that governs it, and the check that relied on the step is
 * not assessed, so that one fault fails its own requirement and not every check that reads the answer.
 * Also: live reads compared with each other only once they agree (settled).
 */
import { expect, notAssessed, recordForeignFailure } from '../../fixtures/index.ts';
import type { ApiClient, Exchange } from '../../fixtures/index.ts';

function isSkip(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === 'SkipError';
}

/**
 * Runs `step`; when it fails, the failure is recorded on `governing` and the running check (or the
 * test's implicit check) becomes not assessable. Inside a check of `governing` itself the failure is
 * that check's own.
 */
export async function relyOn<T>(governing: string, label: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (notAssessed.is(error) || isSkip(error)) throw error;
    const failure = error instanceof Error ? error : new Error(String(error));
    if (!recordForeignFailure(governing, label, failure)) throw error;
    notAssessed.check(`${label} failed, which ${governing} governs`);
  }
}

/**
 * The bearer token of a second account (the usage-limit or the non-developer account). A login that
 * gives no usable token leaves the check unassessable: the login requirements judge login itself,
 * and any 2xx with an access_token is taken, as the harness takes the developer's token.
 */
export async function tokenOf(api: ApiClient, email: string, password: string, account: string): Promise<string> {
  const login = await api.login(email, password);
  const json = login.json;
  const token = typeof json === 'object' && json !== null && 'access_token' in json ? json.access_token : undefined;
  if (login.status < 200 || login.status > 299 || typeof token !== 'string' || token === '') {
    notAssessed.check(`the login of ${account} gave no usable token (HTTP ${login.status})`);
  }
  return token;
}

/** The interface documents a 403 of getTranscriptionStats when a usage limit is reached, on any read of it. */
export function unlessUsageLimited(exchange: Exchange): Exchange {
  if (exchange.operationId === 'getTranscriptionStats' && exchange.status === 403) {
    notAssessed.check('getTranscriptionStats answered 403, which the interface documents for a reached usage limit');
  }
  return exchange;
}

/** How long two live reads are read again until they agree. */
const SETTLE_MS = 3_000;

/**
 * Totals and lists are live, so two reads compared with each other are read again, together, until
 * they agree or SETTLE_MS passes (polled); the last reading is returned for the checks to judge. A
 * read that fails the first time is not retried: its failure is the answer.
 */
export async function settled<T>(read: () => Promise<T>, agree: (reading: T) => boolean): Promise<T> {
  let last = await read();
  if (agree(last)) return last;
  await expect
    .poll(async () => agree((last = await read())), { timeout: SETTLE_MS, message: 'live reads to agree' })
    .toBe(true)
    // The checks judge the last reading and say what disagrees.
    .catch(() => undefined);
  return last;
}

/**
 * The request of an exchange as `GET /path?query`, for assertion messages: those become step titles
 * in the reports even when they pass, so they carry neither headers nor body (the curl line with
 * them is in the exchange's evidence, and in the contract matcher's failure message).
 */
export function requestOf(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  return `${exchange.request.method} ${url.pathname}${url.search}`;
}
