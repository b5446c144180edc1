import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  formPair,
  keyEncoding,
  loadFailure,
  loadPrivateKey,
  loadPublicKey,
  secretKeyWords,
  unreadableKey,
  wordsOutsideBip39,
} from '../support/key-material.ts';

const PASSPHRASE = 'Unit-Test-Passphrase-1!';

/** An OpenSSH public key line of an Ed25519 key (RFC 8709 blob: string type, string key). */
function sshEd25519Line(publicKey: KeyObject): string {
  const x = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const field = (bytes: Buffer): Buffer => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(x)]).toString('base64')} unit@test`;
}

describe('key material of a security key result', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const x25519 = generateKeyPairSync('x25519');
  const ed25519 = generateKeyPairSync('ed25519');

  it('loads a public key as PEM, JWK, OpenSSH, and SPKI DER in base64, base64url and hex', () => {
    const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
    const forms = [
      rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      JSON.stringify(rsa.publicKey.export({ format: 'jwk' })),
      der.toString('base64'),
      der.toString('base64url'),
      der.toString('hex'),
    ];
    for (const form of forms) assert.ok(formPair(rsa.privateKey, loadPublicKey(form)), form.slice(0, 40));
    assert.ok(formPair(ed25519.privateKey, loadPublicKey(sshEd25519Line(ed25519.publicKey))));
  });

  it('refuses a private key offered as the public key', () => {
    assert.match(loadFailure(() => loadPublicKey(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())) ?? '', /not a public key/);
    assert.match(loadFailure(() => loadPublicKey(JSON.stringify(rsa.privateKey.export({ format: 'jwk' })))) ?? '', /private part/);
  });

  it('loads an encrypted private key only with its passphrase, as PEM and as base64 DER', () => {
    const pem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: PASSPHRASE }).toString();
    const der = rsa.privateKey.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase: PASSPHRASE }).toString('base64');
    for (const text of [pem, der]) {
      assert.equal(
        loadFailure(() => loadPrivateKey(text, PASSPHRASE)),
        undefined,
      );
      assert.notEqual(
        loadFailure(() => loadPrivateKey(text, undefined)),
        undefined,
      );
      assert.notEqual(
        loadFailure(() => loadPrivateKey(text, `${PASSPHRASE}-wrong`)),
        undefined,
      );
    }
  });

  it('tells a pair from two halves of different pairs, for keys that cannot sign too', () => {
    const other = generateKeyPairSync('x25519');
    assert.equal(formPair(x25519.privateKey, x25519.publicKey), true);
    assert.equal(formPair(x25519.privateKey, other.publicKey), false);
    assert.equal(formPair(rsa.privateKey, ed25519.publicKey), false);
  });

  it('tells the encodings it reads from those it does not, without quoting a key', () => {
    const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    assert.equal(keyEncoding(pem, 'public'), 'PEM');
    assert.equal(keyEncoding(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'public'), 'PEM');
    assert.equal(keyEncoding(JSON.stringify(rsa.publicKey.export({ format: 'jwk' })), 'public'), 'JWK');
    assert.equal(keyEncoding(sshEd25519Line(ed25519.publicKey), 'public'), 'OpenSSH');
    assert.equal(keyEncoding(rsa.publicKey.export({ type: 'spki', format: 'der' }).toString('hex'), 'public'), 'DER');
    assert.equal(keyEncoding('', 'private'), 'PEM');
    const pgp = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBF...\n-----END PGP PUBLIC KEY BLOCK-----';
    assert.equal(keyEncoding(pgp, 'public'), undefined);
    assert.equal(unreadableKey(pgp), 'a PEM block labelled "PGP PUBLIC KEY BLOCK"');
    assert.equal(keyEncoding('correct horse battery staple', 'private'), undefined);
    assert.equal(unreadableKey('correct horse battery staple'), '28 characters, not PEM, JWK, OpenSSH or DER');
  });

  it('splits a secretKey into its runs of letters, whatever separates them', () => {
    assert.deepEqual(secretKeyWords('abandon ability\nable,about-Above'), ['abandon', 'ability', 'able', 'about', 'Above']);
    assert.deepEqual(secretKeyWords(' 12 34 '), []);
  });

  it('counts the words outside the BIP-39 English list, in any letter case', () => {
    assert.equal(wordsOutsideBip39(['abandon', 'ABILITY', 'qwzx', 'Zoo']), 1);
  });
});
