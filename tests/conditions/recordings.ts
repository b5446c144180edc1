/**
 * What the recordings of an account must show: an absolute http(s) url, and a recording that was
 * processing when the watch of its meeting began is available within the stated delay.
 */
import { fail, shown } from './condition.ts';

/** A recording as these conditions read it. */
export interface RecordingUrl {
  uuid: string;
  status?: string;
  url?: string;
}

const protocol = (url: string | undefined): string => (url !== undefined && URL.canParse(url) ? new URL(url).protocol : 'not an absolute URL');

/** Every recording's url is an absolute http or https URL. */
export function everyUrlIsAbsoluteHttp(recordings: readonly RecordingUrl[]): void {
  const wrong = recordings
    .filter((recording) => !['http:', 'https:'].includes(protocol(recording.url)))
    .map(({ uuid, status, url }) => ({ uuid, status, url }));
  if (wrong.length > 0) fail(`${wrong.length} of ${recordings.length} recordings have a url that is not an absolute http(s) URL: ${shown(wrong)}`);
}

/** The watch of a meeting's recordings (fixtures/data/recording-watch.ts), as these conditions read it. */
export interface WatchOutcome {
  delayMs: number;
  marginMs: number;
  firstListed: number;
  processing: readonly string[];
  lastStatuses: unknown;
  availableAfterMs?: number;
  problem?: string;
}

/** The watch read the meeting's recordings: no read failed, and the first listed some. `watched`: the meeting and the reads, in words. */
export function watchSawRecordings(watch: WatchOutcome, watched: string): void {
  if (watch.problem !== undefined) fail(`a read of the watch of ${watched} failed: ${watch.problem}`);
  if (!(watch.firstListed > 0)) fail(`the first read of the watch of ${watched} listed ${watch.firstListed} recordings, expected some`);
}

/** The recordings processing at the first read were all available within the delay and its margin from it. */
export function availableWithinDelay(watch: WatchOutcome, watched: string): void {
  const limit = watch.delayMs + watch.marginMs;
  const expected = `expected available within ${watch.delayMs} ms (+${watch.marginMs} ms margin)`;
  if (watch.availableAfterMs === undefined)
    fail(
      `recordings ${watch.processing.join(', ')} of ${watched}: processing at the first read, never all available; ${expected}; last seen ${shown(watch.lastStatuses)}`,
    );
  if (!(watch.availableAfterMs <= limit))
    fail(`recordings ${watch.processing.join(', ')} of ${watched}: all available ${watch.availableAfterMs} ms after the first read; ${expected}`);
}
