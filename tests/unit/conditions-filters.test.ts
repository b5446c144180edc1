/** What a filter implies for the items returned (tests/conditions/filters.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notAssessed } from '../../fixtures/index.ts';
import {
  everyItemHas,
  everyItemWithin,
  mayMatch,
  monthPeriod,
  mustMatch,
  noneLeftOut,
  rangePeriod,
  returnsSome,
  shareNoRecord,
  yearPeriod,
} from '../conditions/index.ts';

import { fails } from './condition-fails.ts';

function notJudged(condition: () => void, reason: RegExp): void {
  assert.throws(condition, (error: unknown) => notAssessed.is(error) && reason.test(error.message));
}

const at = (startedAt: string, endedAt = startedAt, createdAt = startedAt): Record<string, string> => ({ uuid: 'r', startedAt, endedAt, createdAt });

describe('conditions: filters', () => {
  it('everyItemHas: every item holds the value in the field', () => {
    everyItemHas([{ roomId: 'room-1' }, { roomId: 'room-1' }], 'roomId', 'room-1', 2);
    everyItemHas([], 'roomId', 'room-1', 0);
    fails(
      () => everyItemHas([{ roomId: 'room-1' }, { roomId: 'room-2' }], 'roomId', 'room-1', 1),
      /1 of 2 items lack roomId equal to "room-1"; the first: \{"roomId":"room-2"\}/,
    );
    fails(() => everyItemHas(['room-1'], 'roomId', 'room-1', 1), /1 of 1 items lack roomId/);
  });

  it('everyItemHas and everyItemWithin: fewer items than they need are not assessed, never passed', () => {
    notJudged(() => everyItemHas([], 'roomId', 'room-1', 1), /0 item\(s\) returned, fewer than the 1 it takes to judge roomId equal to "room-1"/);
    notJudged(() => everyItemHas([{ roomId: 'room-1' }], 'roomId', 'room-1', 2), /needs at least 2 item\(s\) in the filtered answer/);
    notJudged(() => everyItemWithin([], monthPeriod(2024, 6), 1), /fewer than the 1 it takes to judge one of startedAt, endedAt, createdAt within/);
  });

  it('a month or a year may be counted in any zone from UTC-12 to UTC+14', () => {
    const june = monthPeriod(2024, 6);
    assert.equal(mayMatch(at('2024-06-30T23:59:59.999Z'), june), true);
    assert.equal(mayMatch(at('2024-07-01T09:00:00.000Z'), june), true, 'June in UTC-12');
    assert.equal(mayMatch(at('2024-07-02T00:00:00.000Z'), june), false);
    assert.equal(mustMatch(at('2024-06-15T00:00:00.000Z'), june), true);
    assert.equal(mustMatch(at('2024-06-01T02:00:00.000Z'), june), false, 'May in UTC+14');
    assert.equal(mayMatch(at('2023-12-31T20:00:00.000Z'), yearPeriod(2024)), true);
  });

  it('a range of UTC date-times: an item may lie on its bounds, and must be returned only inside them', () => {
    const range = rangePeriod('2024-01-01T00:00:00.000Z', '2024-01-31T00:00:00.000Z');
    assert.equal(mayMatch(at('2024-01-31T00:00:00.000Z'), range), true);
    assert.equal(mayMatch(at('2024-01-31T00:00:00.001Z'), range), false);
    assert.equal(mustMatch(at('2024-01-31T00:00:00.000Z'), range), false);
    assert.equal(mustMatch(at('2024-01-15T00:00:00.000Z'), range), true);
  });

  it('everyItemWithin: one date-time of every item lies in the period', () => {
    const june = monthPeriod(2024, 6);
    everyItemWithin([at('2024-05-01T00:00:00.000Z', '2024-06-02T00:00:00.000Z')], june, 1);
    fails(
      () => everyItemWithin([at('2024-06-10T00:00:00.000Z'), at('2024-08-01T00:00:00.000Z')], june, 1),
      /1 of 2 items lack one of startedAt, endedAt, createdAt within month 06\/2024/,
    );
    fails(() => everyItemWithin([{ uuid: 'r' }], june, 1), /1 of 1 items lack/);
  });
});

describe('conditions: filters, some returned and none left out', () => {
  it('returnsSome: at least one item', () => {
    returnsSome([{ uuid: 'r-1' }], 'recordings with roomId=r');
    fails(() => returnsSome([], 'recordings with roomId=r'), /^no recordings with roomId=r returned; at least one was expected$/);
  });

  it('noneLeftOut: no item the filter selects is missing', () => {
    noneLeftOut([], 'recordings were');
    fails(
      () => noneLeftOut(['r-2'], 'recordings with roomId=r were by the roomId filter'),
      /^1 recordings with roomId=r were by the roomId filter left out, none expected: \["r-2"\]$/,
    );
  });

  it('shareNoRecord: no uuid in both environments', () => {
    shareNoRecord(['a', 'b'], ['c']);
    shareNoRecord([], []);
    fails(() => shareNoRecord(['a', 'b'], ['b', 'c']), /1 records are listed in both development and production, expected none: \["b"\]/);
  });
});
