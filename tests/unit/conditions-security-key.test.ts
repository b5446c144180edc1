/** The security key result (tests/conditions/security-key.ts), on key pairs made here. */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { ConditionFailure, differentSecrets, doesNotLoadWith, echoesPassphrase, formsKeyPair, holdsWords } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';
import { keyServedAtOneOf, loadsAsPublicKey, loadsWithPassphrase } from '../conditions/index.ts';

const PASSPHRASE = 'Unit-Test-Passphrase-1!';

describe('conditions: security key', () => {
  const one = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const two = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const publicPem = one.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const encryptedPem = one.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: PASSPHRASE }).toString();
  const plainPem = one.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it('keyServedAtOneOf: one path at least answers 200', () => {
    keyServedAtOneOf([
      ['/security', { status: 404 }],
      ['/participants', { status: 200 }],
    ]);
    fails(
      () =>
        keyServedAtOneOf([
          ['/security', { status: 404 }],
          ['/participants', { status: 401 }],
        ]),
      /no path answered 200 with a security key: \/security: HTTP 404, \/participants: HTTP 401/,
    );
  });

  it('echoesPassphrase: the passphrase sent, never shown', () => {
    echoesPassphrase(PASSPHRASE, PASSPHRASE);
    assert.throws(
      () => echoesPassphrase('Other-Passphrase', PASSPHRASE),
      (error: unknown) =>
        error instanceof ConditionFailure &&
        /is another string: expected the passphrase sent \(not shown\)/.test(error.message) &&
        !error.message.includes(PASSPHRASE) &&
        !error.message.includes('Other-Passphrase'),
    );
    fails(() => echoesPassphrase(undefined, PASSPHRASE), /the passphrase of the result is undefined/);
  });

  it('loadsAsPublicKey: a public key loads; anything else does not', () => {
    loadsAsPublicKey(publicPem);
    fails(() => loadsAsPublicKey('not a key'), /the publicKey does not load as a public key: /);
  });

  it('loadsWithPassphrase and doesNotLoadWith: encrypted with the passphrase sent', () => {
    loadsWithPassphrase(encryptedPem, PASSPHRASE);
    doesNotLoadWith(encryptedPem, undefined);
    doesNotLoadWith(encryptedPem, `${PASSPHRASE}-wrong`);
    fails(() => loadsWithPassphrase(encryptedPem, 'Another-1!'), /the privateKey does not load with the passphrase sent: /);
    fails(() => doesNotLoadWith(plainPem, undefined), /the privateKey loads without a passphrase: expected it to be encrypted with the passphrase sent/);
    fails(() => doesNotLoadWith(plainPem, 'Another-1!'), /the privateKey loads with another passphrase/);
  });

  it('formsKeyPair: the public half of the privateKey is the publicKey', () => {
    formsKeyPair(one.privateKey, one.publicKey);
    fails(() => formsKeyPair(one.privateKey, two.publicKey), /the public key derived from the privateKey is not the publicKey: expected one key pair/);
  });

  it('holdsWords: the count of words stated', () => {
    holdsWords(
      Array.from({ length: 128 }, () => 'abandon'),
      128,
    );
    fails(() => holdsWords(['abandon', 'ability'], 128), /the secretKey holds 2 words: expected 128/);
  });

  it('differentSecrets: two secretKeys differ, neither shown', () => {
    differentSecrets('a b c', 'a b d');
    assert.throws(
      () => differentSecrets('abandon ability', 'abandon ability'),
      (error: unknown) => error instanceof ConditionFailure && /the two secretKeys are equal/.test(error.message) && !error.message.includes('abandon'),
    );
  });
});
