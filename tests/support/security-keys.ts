/**
 * Helpers of the security-key spec: create a key with a fresh passphrase, and load the returned
 * keys in every form SEC-03 allows (PEM, base64 DER in SPKI/PKCS#1/PKCS#8 form, or JWK).
 */
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { expect, generatedSecret, test } from '../../fixtures/index.ts';
import type { ApiClient } from '../../fixtures/index.ts';

export interface SecurityKeyResult {
  passphrase: string;
  publicKey: string;
  privateKey: string;
  secretKey: string;
}

/** A passphrase as the interface recommends: 8 to 64 characters mixing the four character classes. */
export function freshPassphrase(): string {
  return generatedSecret();
}

/** Creates one key pair (an RSA key generation on the reference, so tests keep the count low). */
export async function createKey(api: ApiClient, passphrase: string): Promise<SecurityKeyResult> {
  const exchange = await api.call('createSecurityKey', { body: { passphrase } });
  expect(exchange).toMatchOperation('createSecurityKey', { status: 200 });
  return exchange.json as SecurityKeyResult;
}

interface SharedKey {
  key: SecurityKeyResult;
  passphrase: string;
  /** The test that created it, for the note of the tests that reuse it. */
  createdBy: string;
}

/** The worker's shared key: one module instance, and so one promise, per worker. */
let shared: Promise<SharedKey> | undefined;

/**
 * The key that the checks of one key's properties share: created by the first of them that runs in
 * this worker (its HTTP exchange is that test's evidence), reused by the others, which note where it
 * came from. Every key generation costs the target hundreds of milliseconds of CPU and cannot be
 * undone. A failed creation fails every test that needs the key, each with the creation's error.
 */
export async function sharedKey(api: ApiClient): Promise<SharedKey> {
  const title = test.info().title;
  if (shared === undefined) {
    const passphrase = freshPassphrase();
    shared = createKey(api, passphrase).then((key) => ({ key, passphrase, createdBy: title }));
  }
  const result = await shared;
  if (result.createdBy !== title) {
    test.info().annotations.push({ type: 'note', description: `uses the security key that "${result.createdBy}" created in this worker` });
  }
  return result;
}

const PEM_LABEL = /-----BEGIN ([A-Z0-9 ]+)-----/;

function pemLabel(text: string): string | undefined {
  return PEM_LABEL.exec(text)?.[1];
}

function jwkOf(text: string): Record<string, unknown> | undefined {
  if (!text.trim().startsWith('{')) return undefined;
  return JSON.parse(text) as Record<string, unknown>;
}

/** The first loader that succeeds, else the error of the last one. */
function firstLoaded(loaders: readonly (() => KeyObject)[]): KeyObject {
  let failure: unknown;
  for (const load of loaders) {
    try {
      return load();
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/**
 * Loads a public key. Refuses a private key in disguise: node would derive a public key from a
 * private PEM or JWK, which would hide a result whose publicKey leaks the private key.
 */
export function loadPublicKey(text: string): KeyObject {
  const label = pemLabel(text);
  if (label !== undefined) {
    if (label !== 'PUBLIC KEY' && label !== 'RSA PUBLIC KEY') throw new Error(`PEM label "${label}" is not a public key`);
    return createPublicKey(text);
  }
  const jwk = jwkOf(text);
  if (jwk !== undefined) {
    if ('d' in jwk) throw new Error('the JWK holds a private part (d)');
    return createPublicKey({ key: jwk, format: 'jwk' });
  }
  const der = Buffer.from(text, 'base64');
  return firstLoaded([
    () => createPublicKey({ key: der, format: 'der', type: 'spki' }),
    () => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }),
  ]);
}

/** Loads a private key; `passphrase` undefined loads it as if it were not encrypted. */
export function loadPrivateKey(text: string, passphrase: string | undefined): KeyObject {
  if (pemLabel(text) !== undefined) return createPrivateKey({ key: text, format: 'pem', ...(passphrase === undefined ? {} : { passphrase }) });
  const jwk = jwkOf(text);
  if (jwk !== undefined) return createPrivateKey({ key: jwk, format: 'jwk' });
  const der = Buffer.from(text, 'base64');
  const secret = passphrase === undefined ? {} : { passphrase };
  return firstLoaded([
    () => createPrivateKey({ key: der, format: 'der', type: 'pkcs8', ...secret }),
    () => createPrivateKey({ key: der, format: 'der', type: 'pkcs1', ...secret }),
  ]);
}

/** Why loading fails, or undefined when it succeeds. */
export function loadFailure(load: () => unknown): string | undefined {
  try {
    load();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Signs with the private key and verifies with the public key (EdDSA keys take no digest). */
export function signatureVerifies(privateKey: KeyObject, publicKey: KeyObject): boolean {
  const digest = privateKey.asymmetricKeyType === 'ed25519' || privateKey.asymmetricKeyType === 'ed448' ? null : 'sha256';
  const data = Buffer.from('conformance suite: security key pair check');
  return verify(digest, data, publicKey, sign(digest, data, privateKey));
}

/** The separator is not shown (x-unspecified), so any run of whitespace separates two words. */
export function secretKeyWords(secretKey: string): string[] {
  return secretKey.trim().split(/\s+/);
}

/** The letter case is not shown, so words are compared with the list in lower case. */
export const BIP39_ENGLISH: ReadonlySet<string> = new Set(wordlist);
