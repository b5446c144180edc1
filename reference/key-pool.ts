import type { KeyPairKeyObjectResult } from 'node:crypto';

export interface KeyPairPool {
  /** A key pair nobody has received before: a ready one, or a freshly generated one. */
  take(): Promise<KeyPairKeyObjectResult>;
  /** Stops refilling and drops the ready pairs. */
  close(): void;
}

/**
 * RSA generation takes hundreds of milliseconds on a small machine, so after the first request a
 * few pairs are generated ahead in the background (libuv's thread pool) and each is handed out once.
 */
export function createKeyPairPool(size: number, generate: () => Promise<KeyPairKeyObjectResult>): KeyPairPool {
  const ready: KeyPairKeyObjectResult[] = [];
  let pending = 0;
  let closed = false;

  const refill = (): void => {
    while (!closed && ready.length + pending < size) {
      pending += 1;
      generate().then(
        (pair) => {
          pending -= 1;
          if (!closed) ready.push(pair);
        },
        () => {
          pending -= 1;
        },
      );
    }
  };

  return {
    async take() {
      const pair = ready.shift() ?? (await generate());
      refill();
      return pair;
    },
    close() {
      closed = true;
      ready.length = 0;
    },
  };
}
