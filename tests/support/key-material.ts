/**
 * Key material of a security key result, read in every encoding a service may reasonably choose: the
 * interface says only "public key used to encrypt data" and "private key used to decrypt data", not the
 * algorithm or the encoding. Pure functions over node:crypto, unit-tested in tests/unit/key-material.test.ts.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { wordlist } from '@scure/bip39/wordlists/english.js';

const PEM_LABEL = /-----BEGIN ([A-Z0-9 ]+)-----/;
/** PEM labels node reads a public key from (an X.509 certificate carries one). */
const PUBLIC_PEM_LABELS: ReadonlySet<string> = new Set(['PUBLIC KEY', 'RSA PUBLIC KEY', 'CERTIFICATE']);
/** PEM labels node reads a private key from. */
const PRIVATE_PEM_LABELS: ReadonlySet<string> = new Set(['PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'DSA PRIVATE KEY']);

function pemLabel(text: string): string | undefined {
  return PEM_LABEL.exec(text)?.[1];
}

function jwkOf(text: string): Record<string, unknown> | undefined {
  if (!text.trim().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && 'kty' in parsed ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The first loader that succeeds, else the error of the last one. */
function firstLoaded(loaders: readonly (() => KeyObject)[]): KeyObject {
  let failure: unknown = new Error('no loader');
  for (const load of loaders) {
    try {
      return load();
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/** DER bytes written as base64, base64url or hex (the text holds nothing else). */
function derCandidates(text: string): Buffer[] {
  const compact = text.replace(/\s+/g, '');
  const candidates: Buffer[] = [];
  if (/^[0-9a-fA-F]+$/.test(compact) && compact.length % 2 === 0) candidates.push(Buffer.from(compact, 'hex'));
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) candidates.push(Buffer.from(compact, 'base64'));
  if (/^[A-Za-z0-9_-]+$/.test(compact)) candidates.push(Buffer.from(compact, 'base64url'));
  return candidates;
}

/** The length-prefixed fields of an OpenSSH public key blob (RFC 4253 section 6.6). */
function sshFields(blob: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  for (let at = 0; at + 4 <= blob.length;) {
    const length = blob.readUInt32BE(at);
    fields.push(blob.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

const unsigned = (mpint: Buffer): string => (mpint[0] === 0 ? mpint.subarray(1) : mpint).toString('base64url');
const SSH_CURVES: Readonly<Record<string, string>> = { nistp256: 'P-256', nistp384: 'P-384', nistp521: 'P-521' };

/** An OpenSSH public key line (`ssh-rsa AAAA... comment`) as a JWK, for the key types node can load. */
function sshPublicJwk(text: string): Record<string, unknown> | undefined {
  const match = /^(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(?:256|384|521))\s+([A-Za-z0-9+/]+={0,2})(?:\s|$)/.exec(text.trim());
  if (match === null) return undefined;
  const [type, ...fields] = sshFields(Buffer.from(match[2] ?? '', 'base64'));
  if (type?.toString() === 'ssh-rsa' && fields.length >= 2) return { kty: 'RSA', e: unsigned(fields[0] as Buffer), n: unsigned(fields[1] as Buffer) };
  if (type?.toString() === 'ssh-ed25519' && fields[0] !== undefined) return { kty: 'OKP', crv: 'Ed25519', x: fields[0].toString('base64url') };
  const curve = SSH_CURVES[fields[0]?.toString() ?? ''];
  const point = fields[1];
  if (curve === undefined || point === undefined || point[0] !== 4) return undefined;
  const size = (point.length - 1) / 2;
  return { kty: 'EC', crv: curve, x: point.subarray(1, 1 + size).toString('base64url'), y: point.subarray(1 + size).toString('base64url') };
}

/** The encodings the suite reads a key in. */
export type KeyEncoding = 'PEM' | 'JWK' | 'OpenSSH' | 'DER';

/** Does the text look like an ASN.1 DER SEQUENCE written in base64, base64url or hex. */
function looksLikeDer(text: string): boolean {
  return derCandidates(text).some((der) => der.length > 16 && der[0] === 0x30);
}

/**
 * The encoding a key is written in, among those the suite reads, or undefined for any other (PGP
 * armour, an OpenSSH private key, ...): no encoding is stated, so a key the suite cannot read is
 * not judged. A PEM block of the other kind of key counts as read (a private key offered as the
 * publicKey is wrong, not unreadable), and so does an empty text (it is no key at all).
 */
export function keyEncoding(text: string, kind: 'public' | 'private'): KeyEncoding | undefined {
  if (text.trim() === '') return 'PEM';
  const label = pemLabel(text);
  if (label !== undefined) return PUBLIC_PEM_LABELS.has(label) || PRIVATE_PEM_LABELS.has(label) ? 'PEM' : undefined;
  if (jwkOf(text) !== undefined) return 'JWK';
  if (kind === 'public' && sshPublicJwk(text) !== undefined) return 'OpenSSH';
  return looksLikeDer(text) ? 'DER' : undefined;
}

/** A few words on a key the suite cannot read, never its contents: its PEM armour label or its length. */
export function unreadableKey(text: string): string {
  const label = pemLabel(text);
  return label === undefined ? `${text.length} characters, not PEM, JWK, OpenSSH or DER` : `a PEM block labelled "${label}"`;
}

/**
 * Loads a public key: PEM, JWK, an OpenSSH line, or DER (SPKI or PKCS#1) in base64, base64url or hex.
 * Refuses a private key in disguise: node would derive a public key from a private PEM or JWK, which
 * would hide a result whose publicKey leaks the private key.
 */
export function loadPublicKey(text: string): KeyObject {
  const label = pemLabel(text);
  if (label !== undefined) {
    if (!PUBLIC_PEM_LABELS.has(label)) throw new Error(`PEM label "${label}" is not a public key`);
    return createPublicKey(text);
  }
  const jwk = jwkOf(text);
  if (jwk !== undefined) {
    if ('d' in jwk) throw new Error('the JWK holds a private part (d)');
    return createPublicKey({ key: jwk, format: 'jwk' });
  }
  const ssh = sshPublicJwk(text);
  if (ssh !== undefined) return createPublicKey({ key: ssh, format: 'jwk' });
  return firstLoaded(
    derCandidates(text).flatMap((der) => [
      () => createPublicKey({ key: der, format: 'der', type: 'spki' }),
      () => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }),
    ]),
  );
}

/**
 * Loads a private key (PEM, JWK, or DER in PKCS#8 or PKCS#1 in base64, base64url or hex);
 * `passphrase` undefined loads it as if it were not encrypted.
 */
export function loadPrivateKey(text: string, passphrase: string | undefined): KeyObject {
  const secret = passphrase === undefined ? {} : { passphrase };
  if (pemLabel(text) !== undefined) return createPrivateKey({ key: text, format: 'pem', ...secret });
  const jwk = jwkOf(text);
  if (jwk !== undefined) return createPrivateKey({ key: jwk, format: 'jwk' });
  return firstLoaded(
    derCandidates(text).flatMap((der) => [
      () => createPrivateKey({ key: der, format: 'der', type: 'pkcs8', ...secret }),
      () => createPrivateKey({ key: der, format: 'der', type: 'pkcs1', ...secret }),
    ]),
  );
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

/**
 * Whether the two keys form a pair: the public half of the private key is the public key. Compared
 * as SPKI bytes, which every key type exports, so that a pair only for encryption or key agreement
 * (RSA-OAEP, X25519), which cannot sign, is a pair as much as a signing one.
 */
export function formPair(privateKey: KeyObject, publicKey: KeyObject): boolean {
  const derived = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return derived.equals(publicKey.export({ type: 'spki', format: 'der' }));
}

/**
 * The words of a secretKey: its runs of letters. The separator is not shown (x-unspecified), so any
 * run of other characters (spaces, commas, hyphens, line breaks) separates two words.
 */
export function secretKeyWords(secretKey: string): string[] {
  return secretKey.match(/[\p{L}\p{M}]+/gu) ?? [];
}

/** The letter case is not shown, so words are compared with the list in lower case. */
export const BIP39_ENGLISH: ReadonlySet<string> = new Set(wordlist);

/** How many of `words` are not in the BIP-39 English list (counted, never quoted: they are a secret). */
export function wordsOutsideBip39(words: readonly string[]): number {
  return words.filter((word) => !BIP39_ENGLISH.has(word.toLowerCase())).length;
}

/**
 * What SEC-08 observes of a secretKey's words: the form is whether some lie outside the BIP-39 English
 * list, the detail how many (a count is no change of form: docs/certification.md, diff-certificates).
 * Counted, never quoted: the words are the secret.
 */
export function bip39Observation(words: readonly string[]): { form: string; detail: string } {
  const outside = wordsOutsideBip39(words);
  return {
    form: outside === 0 ? 'every word is in the BIP-39 English list' : 'some words are not in the BIP-39 English list',
    detail: `${outside} of ${words.length} words`,
  };
}
