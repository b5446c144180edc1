/**
 * Allowed variations of the security keys: the path of the operation (a documented inconsistency) and the keys.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { generateKeyPair, type KeyObject, type KeyPairKeyObjectResult } from 'node:crypto';
import { badRequest, notFound } from '../errors.ts';
import { EVERYDAY_WORDS } from '../everyday-words.ts';
import { compose, onRequest, withBehaviour, type OptionsTransform } from '../faults/tools.ts';
import { withVariants, wrapBehaviour, type Variation } from './tools.ts';

/** One key pair for the whole instance: the interface does not say that every call makes a new one. */
const onePairPerInstance: OptionsTransform = (options) => {
  let pair: Promise<KeyPairKeyObjectResult> | undefined;
  return wrapBehaviour('generateSecurityKeyPair', (generate) => () => (pair ??= generate()))(options);
};

const x25519Pair = (): Promise<KeyPairKeyObjectResult> =>
  new Promise((resolve, reject) => {
    generateKeyPair('x25519', {}, (error: Error | null, publicKey: KeyObject, privateKey: KeyObject) =>
      error ? reject(error) : resolve({ publicKey, privateKey }),
    );
  });

/** The path of createSecurityKey, a documented inconsistency (VAR-03). */
export const paths: readonly Variation[] = [
  {
    name: 'security-key-participants-path-only',
    description:
      'Security keys are created only at POST /participants (a body with passphrase and no participant id); POST /security is an unknown route (404).',
    basis: 'Endpoint 10: "One place in the reference names the path as /participants for this operation; the sample request uses /security."',
    requirement: 'VAR-03',
    excludes: ['security-key-participants-path-400'],
    apply: compose(
      withVariants('security-path-participants'),
      onRequest(['createSecurityKey'], (request) => {
        throw notFound(`Route ${request.method} ${request.url.split('?')[0]} not found`);
      }),
    ),
  },
  {
    name: 'security-key-participants-path-400',
    description:
      'Security keys are created only at POST /participants (a body with passphrase and no participant id); POST /security answers every request, whatever its credentials, with 400 and the general error body.',
    basis:
      'Endpoint 10: "One place in the reference names the path as /participants for this operation; the sample request uses /security." Errors: what a path the service does not serve answers is not shown.',
    requirement: 'VAR-03',
    excludes: ['security-key-participants-path-only'],
    apply: compose(
      withVariants('security-path-participants'),
      onRequest(['createSecurityKey'], (request) => {
        throw badRequest(`${request.method} ${request.url.split('?')[0]} is not an operation of this service`);
      }),
    ),
  },
];

/** The keys a security key request returns. */
export const keys: readonly Variation[] = [
  {
    name: 'security-key-der',
    description: 'Security keys are base64 DER (SPKI public key, encrypted PKCS#8 private key) instead of PEM.',
    basis: 'Security key result: publicKey and privateKey are "string"; no encoding is given.',
    excludes: ['security-key-x25519'],
    apply: withBehaviour({
      exportSecurityKeyPair: (pair, passphrase) => ({
        publicKey: pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
        privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase }).toString('base64'),
      }),
    }),
  },
  {
    name: 'security-key-x25519',
    description: 'Security keys are X25519 (key agreement for encryption; they cannot sign), PEM encoded, the private key encrypted with the passphrase.',
    basis: 'Security key result: "publicKey: public key used to encrypt data", "privateKey: private key used to decrypt data"; the algorithm: not shown.',
    excludes: ['security-key-der'],
    apply: withBehaviour({ generateSecurityKeyPair: x25519Pair }),
  },
  {
    name: 'security-key-one-pair',
    description: 'Every security key request returns the same key pair (its private key encrypted with the new passphrase).',
    basis: 'Endpoint 10 creates "an account security key pair"; that each call makes a new pair: not shown.',
    apply: onePairPerInstance,
  },
  {
    name: 'secret-key-hyphenated',
    description: 'The 128 words of secretKey are joined by hyphens instead of spaces.',
    basis: 'Security key result: "secretKey: 128 randomly selected English words"; the separator: not shown.',
    apply: wrapBehaviour('drawSecretKey', (draw) => (wordlist, count) => draw(wordlist, count).split(' ').join('-')),
  },
  {
    name: 'secret-key-everyday-words',
    description: `The 128 words of secretKey are drawn from ${EVERYDAY_WORDS.length} everyday English words (part, login, the, status, meeting, must, passed...), 205 of them outside the BIP-39 English list.`,
    basis:
      'Security key result: "secretKey: 128 randomly selected English words"; from which list of English words: not shown (SEC-08 observes how many words are outside BIP-39).',
    requirement: 'SEC-08',
    apply: withBehaviour({ secretKeyWordlist: EVERYDAY_WORDS }),
  },
];
