/**
 * Security keys (createSecurityKey): the result, the key pair it holds (loaded with node:crypto),
 * the 128-word secretKey, and the refusal of a request without passphrase.
 *
 * Each creation generates a key pair on the target and cannot be undone, so these tests are
 * destructive, and the checks of one key's properties share the worker's first key creation, the
 * one that found the path the target serves (VAR-03; support/security-keys.ts), whichever test made
 * it; the randomness check creates one more. The refusal check is gated too, as a target that wrongly
 * accepts it creates a key. The secretKey is a secret: no check quotes its words.
 */
import { check, cites, notAssessed, test } from '../fixtures/index.ts';
import type { Discovery, TargetConfig } from '../fixtures/index.ts';
import { differentSecrets, doesNotLoadWith, echoesPassphrase, formsKeyPair, grantsNone, holdsWords } from './conditions/index.ts';
import { loadsAsPublicKey, loadsWithPassphrase, noSuccess, refusedWith4xx } from './conditions/index.ts';
import { checkErrorBody, concerning } from './support/error-bodies.ts';
import { bip39Observation, keyEncoding, loadFailure, loadPrivateKey, loadPublicKey, secretKeyWords, unreadableKey } from './support/key-material.ts';
import { callSecurityKey, createAnother, keyOf, keyPath, sharedCreation } from './support/security-keys.ts';
import type { Creation } from './support/security-keys.ts';

const WHY = 'creates an account security key pair';
const DESTRUCTIVE = { tag: ['@destructive'] };
const KEY_FIELDS = ['publicKey', 'privateKey', 'secretKey'] as const;

/** The worker's shared key creation, which every property check reads; a target that allows no destruction is not assessed. */
async function sharedKey(discover: Discovery, target: TargetConfig): Promise<Creation> {
  if (!target.allowDestructive) notAssessed(WHY, { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
  return sharedCreation(discover);
}

test(
  'creating a security key answers passphrase, publicKey, privateKey and secretKey, echoing the passphrase',
  cites('SEC-01', 'SEC-02', DESTRUCTIVE),
  async ({ discover, target }) => {
    const creation = await sharedKey(discover, target);
    // The matcher checks the four fields are strings (SecurityKeyResult); that they are not empty is not
    // stated, and an empty key fails SEC-03 or SEC-04.
    await check('SEC-01', `POST ${creation.path} answers 200 with a security key result`, async () => {
      await keyOf(creation);
    });
    await check('SEC-02', 'the passphrase of the result is the passphrase sent', async () => {
      // The finding never quotes the passphrase.
      echoesPassphrase((await keyOf(creation)).passphrase, creation.passphrase);
    });
  },
);

/** The key text when the suite can read its encoding; none is stated, so another one leaves the check not assessed. */
function readable(text: string, kind: 'public' | 'private'): string {
  if (keyEncoding(text, kind) === undefined)
    notAssessed.check(`the ${kind === 'public' ? 'publicKey' : 'privateKey'} is in an encoding the suite cannot read (${unreadableKey(text)})`);
  return text;
}

test('the publicKey parses as a public key', cites('SEC-03', DESTRUCTIVE), async ({ discover, target }) => {
  const creation = await sharedKey(discover, target);
  await check('SEC-03', 'the publicKey loads as a public key', async () => {
    loadsAsPublicKey(readable((await keyOf(creation)).publicKey, 'public'));
  });
});

test(
  'the privateKey is encrypted with the passphrase: it loads with it, not without it or with another',
  cites('SEC-04', 'SEC-05', DESTRUCTIVE),
  async ({ discover, target }) => {
    const creation = await sharedKey(discover, target);
    await check('SEC-04', 'the privateKey loads with the passphrase sent', async () => {
      loadsWithPassphrase(readable((await keyOf(creation)).privateKey, 'private'), creation.passphrase);
    });
    await check('SEC-05', 'the privateKey does not load without a passphrase', async () => {
      doesNotLoadWith(readable((await keyOf(creation)).privateKey, 'private'), undefined);
    });
    await check('SEC-05', 'the privateKey does not load with another passphrase', async () => {
      doesNotLoadWith(readable((await keyOf(creation)).privateKey, 'private'), `${creation.passphrase}-wrong`);
    });
  },
);

test('the privateKey and the publicKey form one key pair', cites('SEC-06', DESTRUCTIVE), async ({ discover, target }) => {
  const creation = await sharedKey(discover, target);
  await check('SEC-06', 'the public half of the privateKey is the publicKey', async () => {
    const key = await keyOf(creation);
    const [privateText, publicText] = [readable(key.privateKey, 'private'), readable(key.publicKey, 'public')];
    // Keys that SEC-03 or SEC-04 find unreadable cannot be compared here.
    const failure = loadFailure(() => [loadPrivateKey(privateText, creation.passphrase), loadPublicKey(publicText)]);
    if (failure !== undefined) notAssessed.check(`the keys do not load (${failure}), which SEC-03 and SEC-04 judge`);
    formsKeyPair(loadPrivateKey(privateText, creation.passphrase), loadPublicKey(publicText));
  });
});

test(
  'the secretKey is 128 words; how many are outside the BIP-39 English list is observed',
  cites('SEC-07', 'SEC-08', DESTRUCTIVE),
  async ({ discover, target, observe }) => {
    const creation = await sharedKey(discover, target);
    await check('SEC-07', 'the secretKey holds 128 words', async () => {
      holdsWords(secretKeyWords((await keyOf(creation)).secretKey), 128);
    });
    // "128 randomly selected English words" names no list: BIP-39's is the common one, and how many
    // words lie outside it is what the certificate reports (SEC-08, observed).
    await check('SEC-08', 'the words of the secretKey are counted against the BIP-39 English list', async () => {
      const words = secretKeyWords((await keyOf(creation)).secretKey);
      const { form, detail } = bip39Observation(words);
      observe('SEC-08', form, detail);
    });
  },
);

test('two key creations return different secretKeys', cites('SEC-09', DESTRUCTIVE), async ({ api, discover, target }) => {
  if (!target.allowDestructive) notAssessed(WHY, { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
  // The worker's shared key is one creation; this test makes the second.
  const [first, second] = await Promise.all([sharedCreation(discover), createAnother(api, discover)]);
  await check('SEC-09', 'the second secretKey differs from the first', async () => {
    const [one, two] = [await keyOf(first), await keyOf(second)];
    // The finding never quotes the secretKeys.
    differentSecrets(one.secretKey, two.secretKey);
    // Whether every call makes a new key pair is not stated; what the target did is noted.
    test
      .info()
      .annotations.push({ type: 'note', description: `the two creations returned ${one.publicKey === two.publicKey ? 'the same' : 'different'} publicKeys` });
  });
});

test(
  'creating a security key without a passphrase creates no key',
  cites('SEC-10', 'INP-02', ...concerning(['ERR-04', 'ERR-06'], ['createSecurityKey']), DESTRUCTIVE),
  async ({ api, discover, target }) => {
    // A target that wrongly accepts the request creates a key pair, so this is gated like a creation.
    if (!target.allowDestructive)
      notAssessed('a target that wrongly accepts a request without passphrase creates a key pair', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    const path = await keyPath(discover);
    const exchange = await callSecurityKey(api, discover, { body: {} });
    // The passphrase is required, so no key may come; which refusal is not shown (a 4xx is what
    // robustness asks, INP-02), nor the error body of this operation (ERR-06 where it applies).
    await check('SEC-10', `POST ${path} without a passphrase does not answer a success`, () => noSuccess(exchange));
    await check('SEC-10', `POST ${path} without a passphrase returns no key`, () => grantsNone(exchange, KEY_FIELDS));
    await check('INP-02', `POST ${path} without a passphrase is refused with a 4xx`, () => refusedWith4xx(exchange));
    if (exchange.status >= 400) await checkErrorBody(exchange, `POST ${path} without a passphrase`, ['ERR-04', 'ERR-06']);
  },
);
