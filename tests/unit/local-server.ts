/** What the unit tests that run a throwaway HTTP server on 127.0.0.1 share. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InterfaceLiveness } from '../../fixtures/transport/outage.ts';

/** Starts the server on a free port of 127.0.0.1; its base URL (`http://127.0.0.1:PORT`). */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Ends the server's open connections, then the server. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A watch over outages that is never down and remembers what it was told, in order, in `told`. */
export function recordingLiveness(told: string[]): InterfaceLiveness {
  return {
    down: () => undefined,
    answered: () => told.push('answered'),
    unanswered: (_address: string, cause: string) => told.push(`unanswered: ${cause}`),
  } as unknown as InterfaceLiveness;
}
