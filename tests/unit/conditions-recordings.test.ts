/** What the recordings of an account must show (tests/conditions/recordings.ts). */
import { describe, it } from 'node:test';
import { availableWithinDelay, everyUrlIsAbsoluteHttp, watchSawRecordings } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';
import type { WatchOutcome } from '../conditions/index.ts';

const WATCH: WatchOutcome = {
  delayMs: 1000,
  marginMs: 1000,
  firstListed: 1,
  processing: ['r-1'],
  lastStatuses: { 'r-1': 'available' },
  availableAfterMs: 1500,
};

describe('conditions: recordings', () => {
  it('everyUrlIsAbsoluteHttp: absolute http or https urls only', () => {
    everyUrlIsAbsoluteHttp([
      { uuid: 'r-1', url: 'https://cdn.example/r-1.mp4' },
      { uuid: 'r-2', url: 'http://cdn.example/r-2.mp4' },
    ]);
    everyUrlIsAbsoluteHttp([]);
    fails(
      () => everyUrlIsAbsoluteHttp([{ uuid: 'r-1', status: 'available', url: '/r-1.mp4' }]),
      /1 of 1 recordings .*not an absolute http\(s\) URL: \[\{"uuid":"r-1","status":"available","url":"\/r-1.mp4"\}\]/,
    );
    fails(() => everyUrlIsAbsoluteHttp([{ uuid: 'r-1', url: 'ftp://cdn.example/r-1' }, { uuid: 'r-2' }]), /2 of 2 recordings/);
  });

  it('watchSawRecordings: no failed read, and recordings at the first read', () => {
    watchSawRecordings(WATCH, 'meeting m-1');
    fails(() => watchSawRecordings({ ...WATCH, problem: 'HTTP 500' }, 'meeting m-1'), /a read of the watch of meeting m-1 failed: HTTP 500/);
    fails(() => watchSawRecordings({ ...WATCH, firstListed: 0 }, 'meeting m-1'), /listed 0 recordings, expected some/);
  });

  it('availableWithinDelay: all available within the delay and its margin', () => {
    availableWithinDelay(WATCH, 'meeting m-1');
    availableWithinDelay({ ...WATCH, availableAfterMs: 2000 }, 'meeting m-1');
    fails(
      () => availableWithinDelay({ ...WATCH, availableAfterMs: 2001 }, 'meeting m-1'),
      /all available 2001 ms after the first read; expected available within 1000 ms \(\+1000 ms margin\)/,
    );
    const { availableAfterMs: _never, ...never } = WATCH;
    fails(
      () => availableWithinDelay({ ...never, lastStatuses: { 'r-1': 'processing' } }, 'meeting m-1'),
      /never all available; expected .* last seen \{"r-1":"processing"\}/,
    );
  });
});
