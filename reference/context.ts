import type { Behaviour } from './behaviour.ts';
import type { KeyPairPool } from './key-pool.ts';
import type { ReferenceConfig } from './options.ts';
import type { Authenticator } from './plugins/auth.ts';
import type { Store } from './store.ts';

/** What every plugin reads from the root instance. */
export interface ReferenceContext {
  store: Store;
  config: ReferenceConfig;
  behaviour: Behaviour;
  now: () => number;
  /** `now()` when the instance was built; seed offsets are relative to it. */
  startedAt: number;
  /** Security key pairs, each handed out once. */
  keyPairs: KeyPairPool;
}

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    reference: ReferenceContext;
    auth: Authenticator;
  }
}
