import type { FastifyPluginAsync } from 'fastify';
import { unauthorized } from '../errors.ts';
import { unmatchableHash, verifyPassword } from '../passwords.ts';
import { objectBody, stringField } from '../validation.ts';

/** Operation 1, login: e-mail (at most 191) and password (6 to 191) for a bearer token. */
export const loginPlugin: FastifyPluginAsync = async (app) => {
  const { store, config, behaviour, now } = app.reference;

  app.post('/login', async (request) => {
    const body = objectBody(request.body);
    const email = stringField(body, 'email', { required: true, maxLength: 191 });
    const password = stringField(body, 'password', { required: true, minLength: 6, maxLength: 191 });
    const user = store.users.find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
    // An unknown e-mail still pays for one hash, so that timing does not reveal which accounts exist.
    const matches = await verifyPassword(password, user?.passwordHash ?? unmatchableHash);
    if (user === undefined || !matches) throw unauthorized('Invalid email or password');
    return { access_token: await behaviour.issueToken(store.jwtSecret, user.id, now(), config.tokenTtlS), name: user.name };
  });
};
