/**
 * The run's one watch of the processing recording (fixtures/data/recording-watch.ts): started in global
 * setup, read from its file by the test of REC-07, whenever its worker starts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { request } from '@playwright/test';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig, secretValues } from '../../fixtures/config/profile.ts';
import type { TargetConfig } from '../../fixtures/config/profile.ts';
import { InstanceWatches, readRunWatch, startRunWatch } from '../../fixtures/data/recording-watch.ts';
import { createSecretFile, removeSecretFile, SecretList } from '../../fixtures/evidence/secrets.ts';
import { buildApp } from '../../reference/app.ts';

/** The reference with a recording that processes for 1.5 s, on a free port of 127.0.0.1, and the profile of a run against it. */
async function processingReference(): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; target: TargetConfig }> {
  const app = await buildApp({ recordingDelayMs: 1_500 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const target = loadTargetConfig({
    TARGET_FILE: REFERENCE_TARGET_FILE,
    TARGET_BASE_URL: baseUrl,
    TARGET_REALTIME_URL: `${baseUrl}/v2`,
    TARGET_RECORDING_READY_MS: '1500',
  });
  return { app, target };
}

describe("the run's recording watch", () => {
  it('sees the recording processing from the start, writes one result every worker reads, however late the worker, with redacted evidence', async () => {
    const { app, target } = await processingReference();
    const context = await request.newContext();
    const directory = mkdtempSync(join(tmpdir(), 'watch-test-'));
    const secretsFile = createSecretFile();
    try {
      const file = join(directory, 'watch.json');
      const watch = startRunWatch(context, target, target.ids.processingMeetingId ?? '', file, secretValues(target), secretsFile);
      assert.equal(existsSync(file), false, 'nothing is written before the watch ends');
      // A worker that asks while the watch is under way waits for it.
      const early = await readRunWatch(file, 10_000);
      // One that starts after the recording became available reads the same result.
      const late = await readRunWatch(file, 0);
      await watch.stop();
      assert.deepEqual(late, early);
      assert.equal(early.problem, undefined);
      assert.ok(early.processing.length > 0, 'the recording was processing at the first read');
      assert.ok(
        early.availableAfterMs !== undefined && early.availableAfterMs <= early.delayMs + early.marginMs,
        `available within the delay: ${early.availableAfterMs}`,
      );
      const evidence = early.attachments.map((attachment) => attachment.body?.toString('utf8') ?? '').join('\n');
      assert.ok(evidence.includes('listRecordings') || evidence.includes('/recording'), 'the exchanges are the evidence');
      const secrets = new SecretList([], secretsFile);
      secrets.refresh();
      assert.ok(secrets.values.length > 0, "the token the watch obtained joined the run's secret list");
      for (const secret of [target.password, target.apiKey, ...secrets.values]) assert.ok(!evidence.includes(secret), 'and no credential is in its evidence');
    } finally {
      removeSecretFile(secretsFile);
      rmSync(directory, { recursive: true, force: true });
      await context.dispose();
      await app.close();
    }
  });

  it('self-verification: an instance is watched from when it is told to start, once, and its file is what its project reads', async () => {
    const { app, target } = await processingReference();
    const directory = mkdtempSync(join(tmpdir(), 'watch-test-'));
    const watches = new InstanceWatches();
    try {
      const file = join(directory, 'watch-0.json');
      const start = watches.prepare(target, secretValues(target), target.ids.processingMeetingId ?? '', file);
      await delay(300);
      assert.equal(existsSync(file), false, 'nothing is watched before it is told to start');
      start();
      start();
      const watch = await readRunWatch(file, 10_000);
      assert.equal(watch.problem, undefined);
      assert.ok(watch.processing.length > 0 && watch.availableAfterMs !== undefined, 'processing at the first read, then available');
      assert.equal(watch.attachments.filter((attachment) => attachment.name.startsWith('HTTP 200 POST')).length, 1, 'one watch: one login');
    } finally {
      await watches.stop();
      rmSync(directory, { recursive: true, force: true });
      await app.close();
    }
  });

  it('a worker gives up with a plain message when no watch writes a result', async () => {
    await assert.rejects(readRunWatch(join(tmpdir(), 'no-such-watch', 'watch.json'), 200), /wrote no result .* within 200 ms/);
  });
});
