/**
 * A recording HTTP proxy on 127.0.0.1: forwards every request unchanged to one upstream origin and
 * records its method and path (with the query), so that a check can assert what the suite sent.
 * With `delayMs` it holds every answer back that long once the upstream has answered, which makes
 * a local target as slow to answer as a remote one (scripts/bench/bench-latency.ts).
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path with query, as the client sent it. */
  path: string;
  /** Status the upstream answered, or undefined when it did not answer. */
  status?: number;
}

export interface RecordingProxy {
  /** Origin of the proxy, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  /** Every request received so far, in arrival order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Milliseconds each answer is held back before it is passed on (default 0). */
  delayMs?: number;
}

export async function startRecordingProxy(upstream: string, options: ProxyOptions = {}): Promise<RecordingProxy> {
  const delayMs = options.delayMs ?? 0;
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const entry: RecordedRequest = { method: incoming.method ?? '?', path: incoming.url ?? '/' };
    requests.push(entry);
    const forward = request(
      { agent, host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        entry.status = answer.statusCode;
        const pass = (): void => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        };
        // The answer's body waits in its stream meanwhile (paused until piped).
        if (delayMs > 0) setTimeout(pass, delayMs);
        else pass();
      },
    );
    forward.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`recording proxy: upstream failed: ${error.message}`);
    });
    // GET with a JSON body (closeMeeting) is forwarded with its body like any other request.
    incoming.pipe(forward);
  });
  // Node closes an idle keep-alive connection after 5 s; a client that reuses it at that moment gets
  // a reset. A worker can idle that long on a busy machine, so connections stay open for the run.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
