import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.ts';
import type { Environment } from '../seed-types.ts';
import type { Behaviour } from '../behaviour.ts';
import { MAIN_ACCOUNT, type Client, type EnvironmentData, type Store, type User } from '../store.ts';

/**
 * Credential checks of the three schemes. Every missing or invalid credential is a 401; each
 * operation calls the check its entry names before it looks at anything else of the request.
 */
export interface Authenticator {
  /** Authorization: Bearer <JWT issued by /login>. */
  bearer(request: FastifyRequest): Promise<User>;
  /** apikey header (any case); the key selects the environment. */
  apiKey(request: FastifyRequest): Environment;
  bearerAndApiKey(request: FastifyRequest): Promise<{ user: User; environment: Environment }>;
  /** An API key given elsewhere than the header (the close operation's JSON body); with `owner`, a key of another account is refused. */
  apiKeyValue(value: unknown, owner?: User): Environment;
  /** client_id + secret headers of the versioned realtime interface. */
  client(request: FastifyRequest): Client;
  /** The data of `environment` of the account the request's credentials belong to (the main account's without any). */
  data(request: FastifyRequest, environment: Environment): EnvironmentData;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function createAuthenticator(store: Store, behaviour: Behaviour, now: () => number): Authenticator {
  const apiKeyValue = (value: unknown): Environment => {
    if (value === undefined || value === '') throw unauthorized('API key is missing');
    const environment = typeof value === 'string' ? store.apiKeys.get(value) : undefined;
    if (environment === undefined) throw unauthorized('API key is invalid');
    return environment;
  };

  /** The account whose data each request reads, as its credentials say. */
  const accounts = new WeakMap<FastifyRequest, string>();

  const bearer = async (request: FastifyRequest): Promise<User> => {
    const authorization = header(request, 'authorization');
    if (authorization === undefined) throw unauthorized('Authorization header is missing');
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (token === undefined) throw unauthorized('Authorization header must be: Bearer <token>');
    const userId = await behaviour.verifyToken(store.jwtSecret, token, now());
    const user = store.users.find((candidate) => candidate.id === userId);
    if (user === undefined) throw unauthorized('Bearer token is invalid or expired');
    accounts.set(request, user.account ?? MAIN_ACCOUNT);
    return user;
  };

  /** The environment of a valid key, unless the key belongs to another account than the user's: how it is refused is not shown, 401 here. */
  const ownKey = (environment: Environment, value: unknown, owner: User | undefined): Environment => {
    const account = typeof value === 'string' ? store.apiKeyAccounts.get(value) : undefined;
    if (owner !== undefined && account !== (owner.account ?? MAIN_ACCOUNT)) throw unauthorized('API key belongs to another account');
    return environment;
  };

  const apiKey = (request: FastifyRequest): Environment => {
    const environment = apiKeyValue(header(request, 'apikey'));
    accounts.set(request, store.apiKeyAccounts.get(header(request, 'apikey') ?? '') ?? MAIN_ACCOUNT);
    return environment;
  };

  return {
    bearer,
    apiKey,
    apiKeyValue: (value, owner) => ownKey(apiKeyValue(value), value, owner),
    async bearerAndApiKey(request) {
      const user = await bearer(request);
      return { user, environment: ownKey(apiKey(request), header(request, 'apikey'), user) };
    },
    data(request, environment) {
      const data = store.accounts.get(accounts.get(request) ?? MAIN_ACCOUNT) ?? store.environments;
      return data[environment];
    },
    client(request) {
      const clientId = header(request, 'client_id');
      const secret = header(request, 'secret');
      if (clientId === undefined || secret === undefined) throw unauthorized('client_id and secret headers are required');
      const client = store.clients.get(clientId);
      if (client === undefined || !safeEqual(client.secret, secret)) throw unauthorized('Client credentials are invalid');
      return client;
    },
  };
}

/** Not encapsulated (skip-override, as fastify-plugin does) so that sibling plugins see `app.auth`. */
export const authPlugin: FastifyPluginAsync = Object.assign(
  async (app: Parameters<FastifyPluginAsync>[0]) => {
    const { store, behaviour, now } = app.reference;
    app.decorate('auth', createAuthenticator(store, behaviour, now));
  },
  { [Symbol.for('skip-override')]: true },
);
