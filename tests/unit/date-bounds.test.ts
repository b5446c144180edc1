/** Bounds that discriminate: the range chosen from the records, and the misreadings it can tell (tests/support/date-bounds.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rangePeriod } from '../conditions/index.ts';
import { discerningMonth, discerningRange, discerningYear, RANGE_MISREADINGS, seesMisreading } from '../support/date-bounds.ts';

/** A record of a meeting that starts at `start` (UTC, on 2024-06-03 unless a date is given) and lasts `minutes`. */
function meeting(uuid: string, start: string, minutes: number): Record<string, string> {
  const startedAt = Date.parse(start.includes('T') ? start : `2024-06-03T${start}:00.000Z`);
  const iso = (time: number): string => new Date(time).toISOString();
  return { uuid, startedAt: iso(startedAt), endedAt: iso(startedAt + minutes * 60_000), createdAt: iso(startedAt + (minutes + 1) * 60_000) };
}

const misreading = (name: string): (typeof RANGE_MISREADINGS)[number] => {
  const found = RANGE_MISREADINGS.find((candidate) => candidate.name === name);
  assert.ok(found, name);
  return found;
};

const sameDay = [meeting('before', '08:00', 35), meeting('first', '10:00', 25), meeting('last', '12:30', 40), meeting('after', '15:00', 40)];
const weeksApart = [meeting('a', '2024-05-01T10:00:00.000Z', 90), meeting('b', '2024-05-23T10:00:00.000Z', 120), meeting('c', '2024-06-14T10:00:00.000Z', 90)];

describe('bounds that discriminate', () => {
  it('puts each bound a minute outside a record it must return, with records just outside on both sides of the same day', () => {
    const range = discerningRange([...weeksApart, ...sameDay]);
    assert.ok(range);
    assert.equal(range.initialDate, '2024-06-03T09:59:00.000Z');
    assert.equal(range.endDate, '2024-06-03T13:12:00.000Z');
    assert.deepEqual(range.unseen, []);
  });

  it('sees a range read a day late, or as local time at UTC-3, on records a few hours apart', () => {
    const period = rangePeriod('2024-06-03T09:59:00.000Z', '2024-06-03T13:12:00.000Z');
    assert.equal(seesMisreading(sameDay, period, misreading('a day late')), true);
    assert.equal(seesMisreading(sameDay, period, misreading('3 hours late (local time at UTC-3)')), true);
    // Only the record after the range: a reading 3 hours late takes it in; an hour late moves nothing.
    const afterOnly = [meeting('after', '15:00', 40)];
    assert.equal(seesMisreading(afterOnly, period, misreading('3 hours late (local time at UTC-3)')), true);
    assert.equal(seesMisreading(afterOnly, period, misreading('an hour late')), false);
  });

  it('never counts a record on the edge of the misread range as telling it (whether a bound belongs is not shown)', () => {
    const period = rangePeriod('2024-06-03T09:59:00.000Z', '2024-06-03T13:12:00.000Z');
    // Starts exactly where the range read a day early ends: it may or may not be returned.
    assert.equal(seesMisreading([meeting('edge', '2024-06-02T13:12:00.000Z', 30)], period, misreading('a day early')), false);
  });

  it('names what records weeks apart cannot tell, instead of passing blind', () => {
    const range = discerningRange(weeksApart);
    assert.ok(range);
    assert.deepEqual(
      range.unseen.map(({ name }) => name),
      ['an hour late', 'an hour early', 'initialDate read as its whole UTC day', 'endDate read as its whole UTC day'],
    );
  });

  it('never puts a bound within a minute of another record, and needs a record outside the range', () => {
    // Two records 30 seconds apart: a minute before the second lies on the first's span.
    const crowded = [meeting('x', '2024-06-03T10:00:00.000Z', 0), meeting('y', '2024-06-03T10:00:30.000Z', 0), meeting('z', '2024-06-10T10:00:00.000Z', 0)];
    const range = discerningRange(crowded);
    assert.ok(range);
    const bounds = [Date.parse(range.initialDate), Date.parse(range.endDate)];
    for (const record of crowded) {
      for (const field of ['startedAt', 'endedAt', 'createdAt'] as const) {
        for (const bound of bounds) assert.ok(Math.abs(Date.parse(record[field] as string) - bound) >= 60_000, `${record['uuid']} ${field}`);
      }
    }
    assert.equal(discerningRange([meeting('alone', '10:00', 30)]), undefined);
    assert.equal(discerningRange([]), undefined);
  });

  it('takes the month with records well inside it and the same month of another year, and names what it cannot tell', () => {
    const records = [
      meeting('jan-23', '2023-01-01T03:00:00.000Z', 30),
      meeting('mar-23', '2023-03-10T10:00:00.000Z', 30),
      meeting('mar-24', '2024-03-12T10:00:00.000Z', 30),
    ];
    const chosen = discerningMonth(records);
    assert.deepEqual([chosen?.year, chosen?.month, chosen?.unseen], [2023, 3, []]);
    // Only a record within 14 hours of its month's start, and no other year: the month can be told by nothing.
    const edge = discerningMonth([meeting('edge', '2023-01-01T03:00:00.000Z', 30), meeting('jul', '2023-07-10T10:00:00.000Z', 30)]);
    assert.deepEqual(edge?.unseen, ['the year left out']);
    const lone = discerningMonth([meeting('edge', '2023-01-01T03:00:00.000Z', 30), meeting('next', '2023-03-31T20:00:00.000Z', 30)]);
    assert.deepEqual([lone?.month, lone?.unseen], [1, ['a month read one late (months counted from 0)', 'a month read one early', 'the year left out']]);
  });

  it('takes a year with records well inside it', () => {
    // 2022 and 2024 each hold a record well inside them (the earlier is taken); 2023's one record may be 2024's in UTC+14.
    const records = [
      meeting('old', '2022-06-10T10:00:00.000Z', 30),
      meeting('edge', '2023-12-31T20:00:00.000Z', 30),
      meeting('mid', '2024-06-10T10:00:00.000Z', 30),
    ];
    const chosen = discerningYear(records);
    assert.deepEqual([chosen?.year, chosen?.unseen], [2022, []]);
    // Without 2022: 2024 holds every record in some zone, and 2023's only record lies within 14 hours of its end.
    assert.deepEqual(discerningYear(records.slice(1))?.unseen, ['a year read one early']);
    const blind = discerningYear([meeting('a', '2023-12-31T20:00:00.000Z', 30), meeting('b', '2025-01-01T02:00:00.000Z', 30)]);
    assert.deepEqual(blind?.unseen, ['a year read one late', 'a year read one early']);
    assert.equal(discerningYear([meeting('only', '2024-06-10T10:00:00.000Z', 30)]), undefined);
  });
});
