/** An API client as one worker of a run has it, for the unit tests that send requests through the harness. */
import type { APIRequestContext, TestInfo } from '@playwright/test';
import type { TargetConfig } from '../../fixtures/config/profile.ts';
import { SecretList } from '../../fixtures/evidence/secrets.ts';
import { WorkerTelemetry } from '../../fixtures/run/telemetry.ts';
import { ApiClient, RequestGate, TokenStore, operationsById } from '../../fixtures/transport/client.ts';
import type { Transport } from '../../fixtures/transport/client.ts';

/** The parts of the transport a test may set; the others are a gate of 4 at 100 per second and no secrets. */
export type TransportParts = Partial<Pick<Transport, 'gate' | 'secrets' | 'liveness' | 'bodyLimit'>>;

export interface WorkerClient {
  api: ApiClient;
  tokens: TokenStore;
  telemetry: WorkerTelemetry;
  /** A stand-in: the client only adds evidence and annotations; nothing else of TestInfo is used. */
  testInfo: TestInfo;
}

export function workerClient(context: APIRequestContext, target: TargetConfig, parts: TransportParts = {}): WorkerClient {
  const telemetry = new WorkerTelemetry();
  const transport: Transport = {
    context,
    gate: new RequestGate(4, 100),
    telemetry,
    target,
    secrets: new SecretList([]),
    operations: operationsById(),
    ...parts,
  };
  const tokens = new TokenStore({ email: target.email, password: target.password }, telemetry);
  const testInfo = { annotations: [], attachments: [], attach: async () => {} } as unknown as TestInfo;
  return { api: new ApiClient(transport, tokens, testInfo), tokens, telemetry, testInfo };
}
