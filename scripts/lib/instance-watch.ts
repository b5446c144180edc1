/**
 * Self-verification's reference instances and their one watch each of the processing recording
 * (REC-07), as `npm run conformance` has one per run (fixtures/global-setup.ts).
 *
 * scripts/self-verify.ts builds every instance before its Playwright run, and an instance's project
 * may begin minutes later. Its clock (clockFromFirstRequest) stands still until the instance's first
 * request; the watch (watchInstance) sends that request the moment the instance listens, before
 * Playwright starts, and writes its result to a file that every worker of the instance's project
 * reads (fixtures/recording-watch.ts readRunWatch, through the project's targetOverride). So no
 * verdict depends on when a worker starts: a worker that starts after the recording became available
 * (on a loaded machine, or the second worker of a project) reads the transition the watch saw.
 */
import type { APIRequestContext } from '@playwright/test';
import type { TargetConfig } from '../../fixtures/config.ts';
import { startRunWatch, type RunWatch } from '../../fixtures/recording-watch.ts';

/**
 * A clock that stands still until `start()`, then runs at the pace of the wall clock from where it
 * stood: an instance's seed times (a recording that ended as the reference started and is processing
 * for the profile's delay) begin with its first request, as they do for a reference that
 * `npm run conformance` starts just before its tests, however long after its building that comes.
 */
export function clockFromFirstRequest(): { now: () => number; start: () => void } {
  const builtAt = Date.now();
  let lag: number | undefined;
  return {
    now: () => (lag === undefined ? builtAt : Date.now() - lag),
    start: () => {
      lag ??= Date.now() - builtAt;
    },
  };
}

/**
 * Starts the one watch of `target`'s processing recording, writing to `file`; undefined when the
 * profile names no processing meeting. Self-verification has no secret file (its reporter writes
 * no evidence): the watch redacts its exchanges with the profile's secrets and the token it obtains.
 */
export function watchInstance(context: APIRequestContext, target: TargetConfig, file: string): RunWatch | undefined {
  const meetingId = target.ids.processingMeetingId;
  return meetingId === undefined ? undefined : startRunWatch(context, target, meetingId, file, undefined);
}
