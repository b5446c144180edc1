import type { KeyPairKeyObjectResult } from 'node:crypto';

export interface KeyPairPool {
  /** A key pair nobody has received before: a ready one, or a freshly generated one. */
  take(): Promise<KeyPairKeyObjectResult>;
  /** Stops refilling and drops the ready pairs. */
  close(): void;
}

/**
 * RSA generation takes a hundred milliseconds or more on a small machine, so after the first request
 * `size` pairs are generated ahead in the background (libuv's thread pool) and each is handed out
 * once. `atStart` pairs are generated from the moment the pool is created, for an instance that
 * expects key requests soon and has idle cores while it starts: one after another, so that they
 * hold one thread of the pool and not all four, which would hold back the first logins (scrypt) and
 * token checks behind them by a key generation. A request takes the oldest pair, ready or still
 * being generated; when that one failed, it gets a fresh one.
 */
export function createKeyPairPool(size: number, generate: () => Promise<KeyPairKeyObjectResult>, atStart = 0): KeyPairPool {
  // Pairs being generated or ready, oldest first.
  const queue: Promise<KeyPairKeyObjectResult>[] = [];
  let closed = false;

  // A generator that throws at once still gives a rejected promise, handed to whoever takes the pair.
  const start = (): Promise<KeyPairKeyObjectResult> => Promise.resolve().then(generate);
  const add = (pair: Promise<KeyPairKeyObjectResult> = start()): void => {
    // Handled by whoever takes it; a pair nobody takes must not be an unhandled rejection.
    pair.catch(() => undefined);
    queue.push(pair);
  };
  // Each start-up pair begins when the one before it is done, whether that one succeeded or failed,
  // unless the pool was closed meanwhile.
  const next = (): Promise<KeyPairKeyObjectResult> => (closed ? Promise.reject(new Error('key pair pool closed')) : generate());
  let previous: Promise<unknown> | undefined;
  for (let started = 0; started < atStart; started += 1) {
    const pair = previous === undefined ? start() : previous.then(next, next);
    add(pair);
    previous = pair;
  }

  return {
    take() {
      const queued = queue.shift();
      const next = queued === undefined ? start() : queued.catch(start);
      while (!closed && queue.length < size) add();
      return next;
    },
    close() {
      closed = true;
      queue.length = 0;
    },
  };
}
