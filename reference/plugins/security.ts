import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { objectBody, stringField } from '../validation.ts';

/** Longest passphrase accepted (the interface only recommends 8 to 64 characters). */
export const maxPassphraseLength = 1024;

/** Operation 10: a fresh key pair whose private key is encrypted with the caller's passphrase. */
export async function createSecurityKey(app: FastifyInstance, request: FastifyRequest): Promise<Record<string, string>> {
  const { behaviour, keyPairs } = app.reference;
  await app.auth.bearer(request);
  const passphrase = stringField(objectBody(request.body), 'passphrase', {
    required: true,
    minLength: 1,
    maxLength: maxPassphraseLength,
  });
  const { publicKey, privateKey } = behaviour.exportSecurityKeyPair(await keyPairs.take(), passphrase);
  return {
    passphrase,
    publicKey,
    privateKey,
    secretKey: behaviour.drawSecretKey(behaviour.secretKeyWordlist, behaviour.secretKeyWordCount),
  };
}

export const securityPlugin: FastifyPluginAsync = async (app) => {
  app.post('/security', (request) => createSecurityKey(app, request));
};
