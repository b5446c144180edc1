/**
 * Faults of the security keys (createSecurityKey).
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import { generateKeyPairSync, type KeyPairKeyObjectResult } from 'node:crypto';
import { defaultBehaviour } from '../behaviour.ts';
import { beforeHandler, eachRecord, fault, isObject, renameField, rewriteBody, withBehaviour, type Fault, type OptionsTransform } from './tools.ts';

/** The private key comes from another pair than the public key (one spare pair per instance). */
const privateKeyMismatch: OptionsTransform = (options) => {
  let spare: KeyPairKeyObjectResult | undefined;
  return withBehaviour({
    exportSecurityKeyPair: (pair, passphrase) => {
      spare ??= generateKeyPairSync('rsa', { modulusLength: 2048 });
      return {
        publicKey: defaultBehaviour.exportSecurityKeyPair(pair, passphrase).publicKey,
        privateKey: defaultBehaviour.exportSecurityKeyPair(spare, passphrase).privateKey,
      };
    },
  })(options);
};

export const faults: readonly Fault[] = [
  fault('secret-key-127-words', 'The secretKey holds 127 words.', ['SEC-07'], ['createSecurityKey'], withBehaviour({ secretKeyWordCount: 127 })),
  fault(
    'private-key-unencrypted',
    'The privateKey is not encrypted: it loads without the passphrase.',
    ['SEC-05'],
    ['createSecurityKey'],
    withBehaviour({
      exportSecurityKeyPair: (pair) => ({
        publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    }),
  ),
  fault(
    'private-key-other-passphrase',
    "The privateKey is encrypted with a fixed passphrase of the service, not the caller's.",
    ['SEC-04'],
    ['createSecurityKey'],
    withBehaviour({ exportSecurityKeyPair: (pair) => defaultBehaviour.exportSecurityKeyPair(pair, 'reference-fixed-passphrase') }),
  ),
  fault('private-key-mismatch', 'The privateKey does not belong to the publicKey.', ['SEC-06'], ['createSecurityKey'], privateKeyMismatch),
  fault(
    'secret-key-renamed',
    'The security key result names secret_key instead of secretKey.',
    ['SEC-01'],
    ['createSecurityKey'],
    rewriteBody(
      ['createSecurityKey'],
      eachRecord((record) => renameField(record, 'secretKey', 'secret_key')),
    ),
  ),
];

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
  fault(
    'passphrase-masked',
    'The security key result carries the passphrase masked with asterisks instead of the passphrase sent.',
    ['SEC-02'],
    ['createSecurityKey'],
    rewriteBody(
      ['createSecurityKey'],
      eachRecord((record) => typeof record['passphrase'] === 'string' && (record['passphrase'] = '*'.repeat(record['passphrase'].length))),
    ),
  ),
  fault(
    'public-key-is-private',
    'The publicKey holds the private key of the pair (unencrypted PKCS#8 PEM) instead of the public key.',
    ['SEC-03'],
    ['createSecurityKey'],
    withBehaviour({
      exportSecurityKeyPair: (pair, passphrase) => ({
        ...defaultBehaviour.exportSecurityKeyPair(pair, passphrase),
        publicKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    }),
  ),
  fault(
    'missing-passphrase-defaulted',
    'createSecurityKey without a passphrase creates a key encrypted with a built-in default passphrase (200) instead of refusing.',
    ['SEC-10'],
    ['createSecurityKey'],
    beforeHandler(['createSecurityKey'], (request) => {
      if (request.body === undefined) request.body = {};
      if (isObject(request.body) && request.body['passphrase'] === undefined) request.body['passphrase'] = 'reference-default-passphrase';
    }),
  ),
];
