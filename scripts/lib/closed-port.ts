/**
 * Ports on 127.0.0.1: a free one a server of a check listens on, and one where nothing listens (bound,
 * then closed at once) for the checks of a target that cannot be reached (the pre-flight, exit code
 * 2, the action's summary).
 */
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';

/** Starts the server on a free port of 127.0.0.1; the port. */
export async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listenOnFreePort(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
