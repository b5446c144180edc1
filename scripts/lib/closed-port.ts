/**
 * A port on 127.0.0.1 where nothing listens: bound, then closed at once. For the checks of a target
 * that cannot be reached (the pre-flight, exit code 2, the action's summary).
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
