/**
 * A front that lets login through and breaks everything else: a small proxy on 127.0.0.1 in front of
 * a reference, as staging looks on a bad day (the auth service is up, the data service is not; a
 * proxy that drips). `POST <prefix>/login` is passed through whole; every other request, on either
 * interface:
 *
 * - hang: is read and never answered;
 * - drip: is passed to the reference, whose status and headers are sent at once and its body one
 *   byte a second, so that no body ends within any sane timeout;
 * - huge: is answered at once with 200, application/json and a body of HUGE_FRONT_BODY_BYTES,
 *   streamed without a Content-Length (a list endpoint run wild, or a proxy serving a dump): the
 *   target answers, wrongly, and the run must judge that without reading every byte.
 *
 * For npm run check:hostile and npm run bench:suite (issue 31): the run must notice that the target
 * stopped answering, stop, and judge nothing for it.
 */
import { createServer, request as forward } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FRONT_MODES = ['hang', 'drip', 'huge'] as const;
export type FrontMode = (typeof FRONT_MODES)[number];

export interface HostileFront {
  mode: FrontMode;
  /** The front's origin: the main interface, with the realtime interface under `/v2` as on the reference. */
  url: string;
  /** Requests passed through (logins), and those held (hung or dripping). */
  counts(): { passed: number; held: number };
  close(): Promise<void>;
}

const DRIP_INTERVAL_MS = 1_000;
/** What the huge front answers: 30 MB, the size issue 37 measured a run against. */
export const HUGE_FRONT_BODY_BYTES = 30 * 1024 * 1024;
const HUGE_CHUNK = Buffer.alloc(1024 * 1024, ' ');

/** `[` and `]` around HUGE_FRONT_BODY_BYTES - 2 spaces, written as the client reads it; stops when the client goes. */
function sendHuge(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('[');
  let left = HUGE_FRONT_BODY_BYTES - 2;
  const write = (): void => {
    while (left > 0 && !response.destroyed) {
      const chunk = HUGE_CHUNK.subarray(0, Math.min(left, HUGE_CHUNK.length));
      left -= chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', write);
        return;
      }
    }
    if (!response.destroyed) response.end(']');
  };
  write();
}

/** `upstream`: the reference's origin (e.g. http://127.0.0.1:4010). */
export async function startHostileFront(mode: FrontMode, upstream: string): Promise<HostileFront> {
  const target = new URL(upstream);
  let passed = 0;
  let held = 0;
  const timers = new Set<NodeJS.Timeout>();

  const pass = (incoming: IncomingMessage, response: ServerResponse, onAnswer: (answer: IncomingMessage) => void): void => {
    const outgoing = forward({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, onAnswer);
    outgoing.once('error', () => response.destroy());
    incoming.pipe(outgoing);
  };

  const drip = (answer: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.once('end', () => {
      const body = Buffer.concat(chunks);
      response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
      let sent = 0;
      const timer = setInterval(() => {
        if (response.destroyed || sent >= body.length) {
          clearInterval(timer);
          timers.delete(timer);
          if (!response.destroyed) response.end();
          return;
        }
        response.write(body.subarray(sent, sent + 1));
        sent += 1;
      }, DRIP_INTERVAL_MS);
      timers.add(timer);
      response.once('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
    });
  };

  const server = createServer((incoming, response) => {
    const path = new URL(incoming.url ?? '/', 'http://front.invalid').pathname;
    if (incoming.method === 'POST' && path === `${target.pathname.replace(/\/$/, '')}/login`) {
      passed += 1;
      pass(incoming, response, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      return;
    }
    held += 1;
    if (mode === 'hang') {
      incoming.resume();
      return;
    }
    if (mode === 'huge') {
      incoming.resume();
      sendHuge(response);
      return;
    }
    pass(incoming, response, (answer) => drip(answer, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    mode,
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ passed, held }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        // Hung and dripping responses stay open for ever; they are cut here.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
