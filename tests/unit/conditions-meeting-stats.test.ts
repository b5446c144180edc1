/** What getMeetingStats answers (tests/conditions/meeting-stats.ts): each holds on a good answer and fails with its finding on a bad one. */
import { describe, it } from 'node:test';
import { isAPageOfTheRecords, isDocumentedStatsForm, isStatsForm, summaryTotalIsCount, totalCountsTheRecords } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';

describe('conditions: meeting statistics', () => {
  it('isStatsForm: the form the parameters choose, the curl line closing the finding', () => {
    isStatsForm('summary', 'summary');
    fails(
      () => isStatsForm('records', 'summary', { curl: 'curl http://target/stats' }),
      /^the answer is in the records form, not the summary form .*\ncurl http:\/\/target\/stats$/,
    );
  });

  it('isDocumentedStatsForm: a summary, an envelope or a bare array', () => {
    for (const form of ['summary', 'envelope', 'records'] as const) isDocumentedStatsForm(form);
    fails(() => isDocumentedStatsForm('other'), /none of the documented forms/);
  });

  it('summaryTotalIsCount: a number, not negative', () => {
    summaryTotalIsCount({ totalMeetings: 0, totalMinutes: 12.5 }, 'totalMinutes');
    fails(() => summaryTotalIsCount({ totalMeetings: '3' }, 'totalMeetings'), /totalMeetings is "3", not a number/);
    fails(() => summaryTotalIsCount({ totalMeetings: -1 }, 'totalMeetings'), /totalMeetings is -1, negative: expected 0 or more/);
    fails(() => summaryTotalIsCount({}, 'totalMeetings'), /totalMeetings is undefined, not a number/);
  });

  it('totalCountsTheRecords: pagination.total is the count without pagination', () => {
    totalCountsTheRecords(7, 7);
    fails(() => totalCountsTheRecords(9, 7), /pagination.total is 9, not 7/);
  });

  it('isAPageOfTheRecords: min(limit, all) records, each among all', () => {
    isAPageOfTheRecords(['a', 'b'], 2, ['c', 'b', 'a']);
    isAPageOfTheRecords(['a'], 10, ['a']);
    fails(() => isAPageOfTheRecords(['a'], 2, ['a', 'b', 'c']), /data holds 1 records, not min\(limit 2, 3 records\) = 2/);
    fails(() => isAPageOfTheRecords(['a', 'x'], 2, ['a', 'b']), /1 records of data are not among the 2 records read without pagination: \["x"\]/);
  });
});
