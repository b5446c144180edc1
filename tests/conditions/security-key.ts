/**
 * What the interface states about a security key result: the passphrase sent comes back, the
 * publicKey is a public key, the privateKey is encrypted with the passphrase (it loads with it, not
 * without it or with another) and is the other half of the publicKey, the secretKey holds 128 words,
 * and two creations give two secretKeys. Keys are loaded with node:crypto (support/key-material.ts).
 * A key is a secret: no finding quotes a passphrase, a privateKey or a secretKey.
 */
import type { KeyObject } from 'node:crypto';
import { formPair, loadFailure, loadPrivateKey, loadPublicKey } from '../support/key-material.ts';
import { fail } from './condition.ts';
import type { Answer } from './condition.ts';

/** A path a creation was sent to, and its answer. */
export type ServedAt = readonly [path: string, answer: Pick<Answer, 'status'>];

/** At least one of the paths a creation was sent to answers 200 with a key. */
export function keyServedAtOneOf(paths: readonly ServedAt[]): void {
  if (!paths.some(([, answer]) => answer.status === 200))
    fail(`no path answered 200 with a security key: ${paths.map(([path, answer]) => `${path}: HTTP ${answer.status}`).join(', ')}`);
}

/** The passphrase of the result is the passphrase sent (neither is shown). */
export function echoesPassphrase(passphrase: unknown, sent: string): void {
  if (passphrase !== sent)
    fail(`the passphrase of the result is ${typeof passphrase === 'string' ? 'another string' : typeof passphrase}: expected the passphrase sent (not shown)`);
}

/** The publicKey loads as a public key. */
export function loadsAsPublicKey(publicKey: string): void {
  const failure = loadFailure(() => loadPublicKey(publicKey));
  if (failure !== undefined) fail(`the publicKey does not load as a public key: ${failure}`);
}

/** The privateKey loads with the passphrase sent. */
export function loadsWithPassphrase(privateKey: string, passphrase: string): void {
  const failure = loadFailure(() => loadPrivateKey(privateKey, passphrase));
  if (failure !== undefined) fail(`the privateKey does not load with the passphrase sent: ${failure}`);
}

/** The privateKey does not load without a passphrase (`passphrase` undefined) or with another one. */
export function doesNotLoadWith(privateKey: string, passphrase: string | undefined): void {
  if (loadFailure(() => loadPrivateKey(privateKey, passphrase)) === undefined)
    fail(
      `the privateKey loads ${passphrase === undefined ? 'without a passphrase' : 'with another passphrase'}: expected it to be encrypted with the passphrase sent`,
    );
}

/** The public half of the privateKey is the publicKey. */
export function formsKeyPair(privateKey: KeyObject, publicKey: KeyObject): void {
  if (!formPair(privateKey, publicKey)) fail('the public key derived from the privateKey is not the publicKey: expected one key pair');
}

/** The secretKey holds `count` words. */
export function holdsWords(words: readonly string[], count: number): void {
  if (words.length !== count) fail(`the secretKey holds ${words.length} words: expected ${count}`);
}

/** Two secretKeys differ (neither is shown). */
export function differentSecrets(one: string, two: string): void {
  if (one === two) fail('the two secretKeys are equal: expected a different secretKey from each creation (not shown)');
}
