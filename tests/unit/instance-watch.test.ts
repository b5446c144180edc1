/**
 * Self-verification watches each instance's processing recording once, from the moment the instance
 * listens (scripts/lib/instance-watch.ts), and every worker of the instance's project reads that one
 * result (fixtures/self-verify-projects.ts hands the file to the project's targetOverride).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { request } from '@playwright/test';
import { REFERENCE_TARGET_FILE, loadTargetConfig } from '../../fixtures/config.ts';
import { readRunWatch, watchMargin } from '../../fixtures/recording-watch.ts';
import { selfVerifyProjects } from '../../fixtures/self-verify-projects.ts';
import { buildApp } from '../../reference/app.ts';
import { clockFromFirstRequest, watchInstance } from '../../scripts/lib/instance-watch.ts';

describe("self-verification's watch of an instance", () => {
  it('started as the instance listens, gives every worker of its project the transition, however late the workers start', async () => {
    const delayMs = 1_500;
    // As scripts/self-verify.ts builds an instance: its clock starts with its first request.
    const clock = clockFromFirstRequest();
    const app = await buildApp({ recordingDelayMs: delayMs, now: clock.now });
    app.server.prependListener('request', clock.start);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const context = await request.newContext();
    const directory = mkdtempSync(join(tmpdir(), 'instance-watch-test-'));
    try {
      const target = loadTargetConfig({
        TARGET_FILE: REFERENCE_TARGET_FILE,
        TARGET_BASE_URL: baseUrl,
        TARGET_REALTIME_URL: `${baseUrl}/v2`,
        TARGET_RECORDING_READY_MS: String(delayMs),
      });
      const file = join(directory, 'watch-0.json');
      const watch = watchInstance(context, target, file);
      assert.ok(watch !== undefined, 'the reference profile names a processing meeting');
      // The project's workers begin once the delay and its margin are over: the recording is available by then.
      await delay(delayMs + watchMargin(delayMs) + 500);
      const [first, second] = await Promise.all([readRunWatch(file, 0), readRunWatch(file, 0)]);
      assert.deepEqual(second, first, 'every worker reads the same result');
      assert.equal(first.problem, undefined);
      assert.ok(first.processing.length > 0, 'the recording was processing when the watch began');
      assert.ok(
        first.availableAfterMs !== undefined && first.availableAfterMs <= first.delayMs + first.marginMs,
        `available within the delay: ${String(first.availableAfterMs)}`,
      );
      // What a watch of a worker's own, started as late, would see: nothing processing, REC-07 not assessed.
      const lateFile = join(directory, 'late.json');
      const late = watchInstance(context, target, lateFile);
      const seenLate = await readRunWatch(lateFile, 10_000);
      assert.deepEqual(seenLate.processing, []);
      await Promise.all([watch.stop(), late?.stop()]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
      await context.dispose();
      await app.close();
    }
  });

  it('gives no watch when the profile names no processing meeting', () => {
    const target = loadTargetConfig({
      TARGET_FILE: REFERENCE_TARGET_FILE,
      TARGET_BASE_URL: 'http://127.0.0.1:1',
      TARGET_REALTIME_URL: 'http://127.0.0.1:1/v2',
    });
    const withoutMeeting = { ...target, ids: { ...target.ids, processingMeetingId: undefined } };
    assert.equal(watchInstance({} as never, withoutMeeting, join(tmpdir(), 'never-written.json')), undefined);
  });

  it("hands the watch's file to every worker of the instance's project, through its targetOverride", () => {
    const directory = mkdtempSync(join(tmpdir(), 'instance-watch-projects-'));
    try {
      const file = join(directory, 'targets.json');
      writeFileSync(
        file,
        JSON.stringify([
          { name: 'plain', baseUrl: 'http://127.0.0.1:1', realtimeUrl: 'http://127.0.0.1:1/v2', recordingWatchFile: '/tmp/watch-0.json' },
          { name: 'fault:skip-ignored', baseUrl: 'http://127.0.0.1:2', realtimeUrl: 'http://127.0.0.1:2/v2', faulty: true, watchRecordings: false },
        ]),
      );
      const [plain, fault] = selfVerifyProjects(file);
      assert.deepEqual(plain?.use?.targetOverride, {
        baseUrl: 'http://127.0.0.1:1',
        realtimeUrl: 'http://127.0.0.1:1/v2',
        recordingWatchFile: '/tmp/watch-0.json',
      });
      assert.equal(plain?.use?.watchRecordings, true);
      assert.deepEqual(fault?.use?.targetOverride, { baseUrl: 'http://127.0.0.1:2', realtimeUrl: 'http://127.0.0.1:2/v2' });
      assert.equal(fault?.use?.watchRecordings, false);
      writeFileSync(file, JSON.stringify([{ name: 'plain', baseUrl: 'http://127.0.0.1:1', realtimeUrl: 'http://127.0.0.1:1/v2', recordingWatchFile: 7 }]));
      assert.throws(() => selfVerifyProjects(file), /recordingWatchFile\?/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
