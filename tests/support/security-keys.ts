/**
 * Helpers of the security-key checks: create a key with a fresh passphrase at the path the target
 * serves, share one creation per worker, and hand its result to a check only once the creation is
 * judged (SEC-01 governs it).
 *
 * The interface names two paths for the operation (VAR-03): POST /security (the sample) and, in one
 * place, POST /participants. Which one the target serves is found once per worker, by its first key
 * creation (Discovery.securityKeys, fixtures/data/served.ts), the same discovery the authentication matrix
 * and the generated layer send by; that creation is the worker's shared key, and every later key
 * request of the worker goes to the path it found.
 */
import { expect, generatedSecret, notAssessed, sendKeyRequest, test } from '../../fixtures/index.ts';
import type { ApiClient, CallOptions, Discovery, Exchange, KeyCreation, KeyPath, KeyPathFound } from '../../fixtures/index.ts';
import { relyOn } from './reliance.ts';

export interface SecurityKeyResult {
  passphrase: string;
  publicKey: string;
  privateKey: string;
  secretKey: string;
}

export type { KeyPath };
export type Creation = KeyCreation;

/** A passphrase as the interface recommends: 8 to 64 characters mixing the four character classes. */
export function freshPassphrase(): string {
  return generatedSecret();
}

/** The worker's discovery of the key path; the test is not assessed when it could not be decided. */
async function found(discover: Discovery): Promise<KeyPathFound> {
  const result = await discover.securityKeys();
  return result.undecided === undefined ? result : notAssessed(result.undecided);
}

/**
 * The creation that the checks of one key's properties share: the worker's first key creation, which
 * found the path (its HTTP exchange is the evidence of the test that made it), reused by the others,
 * which note where it came from. Every key generation costs the target hundreds of milliseconds of CPU
 * and cannot be undone.
 */
export async function sharedCreation(discover: Discovery): Promise<Creation> {
  const result = await found(discover);
  const title = test.info().title;
  if (result.createdBy !== title) {
    test
      .info()
      .annotations.push({ type: 'note', description: `uses the security key that "${result.createdBy}" created in this worker (at POST ${result.path})` });
  }
  return result.creation;
}

/** The path the target serves security keys at, as the worker's discovery found it. */
export async function keyPath(discover: Discovery): Promise<KeyPath> {
  return (await found(discover)).path;
}

/** One more creation, at the path the worker found. */
export async function createAnother(api: ApiClient, discover: Discovery): Promise<Creation> {
  const path = await keyPath(discover);
  const passphrase = freshPassphrase();
  return { exchange: await sendKeyRequest(api, path, { body: { passphrase } }), path, passphrase };
}

/** A request of the security-key operation (a bad body, say) at the path the worker found. */
export async function callSecurityKey(api: ApiClient, discover: Discovery, options: CallOptions): Promise<Exchange> {
  return sendKeyRequest(api, await keyPath(discover), options);
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
    if (typeof body !== 'object' || body === null) notAssessed.check('the security key result is not an object');
    return body as SecurityKeyResult;
  });
}
