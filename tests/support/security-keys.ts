/**
 * Helpers of the security-key checks: create a key with a fresh passphrase at the path the target
 * serves, share one creation per worker, and hand its result to a check only once the creation is
 * judged (SEC-01 governs it).
 *
 * The interface names two paths for the operation (VAR-03): POST /security (the sample) and, in one
 * place, POST /participants. A target may serve either; the first creation of a worker finds out
 * which (/security first, then /participants with a body holding only the passphrase and no apikey
 * header, as variants.spec.ts sends it), and every later key request of the worker goes there.
 */
import { expect, generatedSecret, NotAssessable, test } from '../../fixtures/index.ts';
import type { ApiClient, CallOptions, Exchange, TargetConfig } from '../../fixtures/index.ts';
import { isSuccess } from '../../fixtures/ledger.ts';
import { relyOn } from './reliance.ts';

export interface SecurityKeyResult {
  passphrase: string;
  publicKey: string;
  privateKey: string;
  secretKey: string;
}

export type KeyPath = '/security' | '/participants';

/** One key creation: its answer, where it was sent, and the passphrase sent. */
export interface Creation {
  exchange: Exchange;
  path: KeyPath;
  passphrase: string;
}

/** A passphrase as the interface recommends: 8 to 64 characters mixing the four character classes. */
export function freshPassphrase(): string {
  return generatedSecret();
}

/** A request of the security-key operation at `path`: POST /participants is the upsert's path, sent without its apikey. */
function callAt(api: ApiClient, path: KeyPath, options: CallOptions): Promise<Exchange> {
  if (path === '/security') return api.call('createSecurityKey', options);
  return api.call('upsertParticipant', { ...options, auth: { ...options.auth, apiKey: null } });
}

/**
 * Creates a key at /security; when that is not a success and participant writes are allowed (POST
 * /participants is also the upsert), at /participants. The answer of /security stands when neither
 * path answers a success, so that SEC-01 judges the documented sample path.
 */
async function discoverAndCreate(api: ApiClient, target: TargetConfig, passphrase: string): Promise<Creation> {
  const atSecurity = await callAt(api, '/security', { body: { passphrase } });
  if (isSuccess(atSecurity.status) || !target.allowWrites) return { exchange: atSecurity, path: '/security', passphrase };
  const atParticipants = await callAt(api, '/participants', { body: { passphrase } });
  if (!isSuccess(atParticipants.status)) return { exchange: atSecurity, path: '/security', passphrase };
  test.info().annotations.push({ type: 'note', description: `POST /security answered HTTP ${atSecurity.status}; security keys are served at POST /participants (VAR-03)` });
  return { exchange: atParticipants, path: '/participants', passphrase };
}

interface Shared extends Creation {
  /** The test that created it, for the note of the tests that reuse it. */
  createdBy: string;
}

/** The worker's shared creation: one module instance, and so one promise, per worker. */
let shared: Promise<Shared> | undefined;

/**
 * The creation that the checks of one key's properties share: made by the first of them that runs in
 * this worker (its HTTP exchange is that test's evidence), reused by the others, which note where it
 * came from. Every key generation costs the target hundreds of milliseconds of CPU and cannot be undone.
 */
export async function sharedCreation(api: ApiClient, target: TargetConfig): Promise<Creation> {
  const title = test.info().title;
  shared ??= discoverAndCreate(api, target, freshPassphrase()).then((creation) => ({ ...creation, createdBy: title }));
  const result = await shared;
  if (result.createdBy !== title) {
    test.info().annotations.push({ type: 'note', description: `uses the security key that "${result.createdBy}" created in this worker (at POST ${result.path})` });
  }
  return result;
}

/** The path the target serves security keys at, as the worker's shared creation found it. */
export async function keyPath(api: ApiClient, target: TargetConfig): Promise<KeyPath> {
  return (await sharedCreation(api, target)).path;
}

/** One more creation, at the path the worker found. */
export async function createAnother(api: ApiClient, target: TargetConfig): Promise<Creation> {
  const path = await keyPath(api, target);
  const passphrase = freshPassphrase();
  return { exchange: await callAt(api, path, { body: { passphrase } }), path, passphrase };
}

/** A request of the security-key operation (a bad body, say) at the path the worker found. */
export async function callSecurityKey(api: ApiClient, target: TargetConfig, options: CallOptions): Promise<Exchange> {
  return callAt(api, await keyPath(api, target), options);
}

/**
 * The key of a creation, for a check: the creation's answer is judged first (a 200 with a security
 * key result, SEC-01), and a creation that fails that leaves the check not assessed, with the
 * failure recorded on SEC-01. In SEC-01's own check the failure is SEC-01's.
 */
export async function keyOf(creation: Creation): Promise<SecurityKeyResult> {
  return relyOn('SEC-01', `POST ${creation.path} with a passphrase answers 200 with a security key result`, () => {
    expect(creation.exchange).toMatchOperation('createSecurityKey', { status: 200 });
    const body = creation.exchange.json;
    if (typeof body !== 'object' || body === null) throw new NotAssessable('the security key result is not an object');
    return body as SecurityKeyResult;
  });
}
