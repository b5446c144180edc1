/**
 * Helper of the usage-limit check: reaching a limit takes many requests that do not depend on each
 * other's answers, so they go out in waves of as many as the worker may have in flight.
 */

import { together } from '../../fixtures/index.ts';
import type { Exchange } from '../../fixtures/index.ts';

/**
 * Sends `send` until an answer is not a 200, at most `bound` times, in waves of `wave` requests, and
 * returns the answer that ended it: the first that is not a 200 (in the order the wave was sent),
 * else the last. The last wave is cut to the bound, so no more than `bound` requests are sent; a
 * target whose limit lies below the bound gets at most `wave - 1` requests more than one after
 * another would have sent, all of them within the bound.
 */
export async function untilNotOk(send: () => Promise<Exchange>, bound: number, wave: number): Promise<Exchange> {
  let sent = 0;
  for (;;) {
    const size = Math.max(1, Math.min(wave, bound - sent));
    const answers = await together(
      Array.from({ length: size }, (_, index) => index),
      () => send(),
    );
    sent += size;
    const ended = answers.find((answer) => answer.status !== 200);
    if (ended !== undefined || sent >= bound) return ended ?? (answers.at(-1) as Exchange);
  }
}
