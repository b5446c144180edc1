/**
 * Faults of the meetings: summary (getMeetingsSummary), statistics (getMeetingStats) and close (closeMeeting).
 * Part of the fault catalogue: reference/faults/index.ts puts them in its order.
 */
import type { FastifyRequest } from 'fastify';
import { environments } from '../seed-types.ts';
import type { Connection, EnvironmentData } from '../store.ts';
import {
  afterHandler,
  afterRoutes,
  beforeHandler,
  compose,
  eachRecord,
  fault,
  itemsOf,
  queryOf,
  rewriteBody,
  type Fault,
  type OptionsTransform,
} from './tools.ts';

/** The close ends the meeting but its connections are put back afterwards. */
const closeKeepsParticipants: OptionsTransform = (options) => {
  const saved = new WeakMap<FastifyRequest, [EnvironmentData, Connection[]][]>();
  return compose(
    beforeHandler(['closeMeeting'], (request, _reply, app) => {
      saved.set(
        request,
        environments.map((environment) => {
          const data = app.reference.store.environments[environment];
          return [data, data.connections];
        }),
      );
    }),
    afterHandler(['closeMeeting'], (request) => {
      for (const [data, connections] of saved.get(request) ?? []) data.connections = connections;
    }),
  )(options);
};

const HOUR_MS = 3_600_000;
const ZONE_DESIGNATOR = /(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * getMeetingStats reads initialDate and endDate with `reread`, which takes the date-time as sent and
 * returns the instant the faulty target takes it for; a value that is not a date-time is left for
 * the handler to refuse. The shift is explicit: no fault depends on the machine's timezone.
 */
function rangeReadAs(reread: (raw: string) => number): OptionsTransform {
  return beforeHandler(['getMeetingStats'], (request) => {
    const query = queryOf(request);
    for (const name of ['initialDate', 'endDate']) {
      const raw = query[name];
      if (typeof raw !== 'string' || !ZONE_DESIGNATOR.test(raw) || Number.isNaN(Date.parse(raw))) continue;
      const instant = reread(raw);
      if (Number.isFinite(instant)) query[name] = new Date(instant).toISOString();
    }
  });
}

export const faults: readonly Fault[] = [
  fault(
    'summary-total-meetings-string',
    'The meetings summary carries totalMeetings as a string.',
    ['MSUM-01'],
    ['getMeetingsSummary'],
    rewriteBody(
      ['getMeetingsSummary'],
      eachRecord((record) => (record['totalMeetings'] = String(record['totalMeetings']))),
    ),
  ),
  fault(
    'only-summary-defaults-false',
    'getMeetingStats without onlySummary answers records, as if onlySummary defaulted to false.',
    ['MST-01'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      query['onlySummary'] ??= 'false';
    }),
  ),
  fault(
    'stats-price-string',
    'Meeting statistics records carry price as a string.',
    ['MST-04'],
    ['getMeetingStats'],
    rewriteBody(
      ['getMeetingStats'],
      eachRecord((record) => 'price' in record && (record['price'] = String(record['price']))),
    ),
  ),
  fault(
    'stats-participant-name-null',
    'Participant entries of meeting statistics records carry name null.',
    ['MST-05', 'FMT-03'],
    ['getMeetingStats'],
    rewriteBody(
      ['getMeetingStats'],
      eachRecord((record) => itemsOf(record['participants']).forEach((entry) => (entry['name'] = null))),
    ),
  ),
  ...(
    [
      ['month', 'MST-07', ['month']],
      ['date-range', 'MST-09', ['initialDate', 'endDate']],
      ['group', 'MST-12', ['groupId']],
      ['environment', 'MST-11', ['environment']],
    ] as const
  ).map(([filter, requirement, parameters]) =>
    fault(
      `stats-${filter}-filter-ignored`,
      `getMeetingStats ignores ${parameters.join(' and ')}${filter === 'environment' ? ' (always production)' : ''}.`,
      [requirement],
      ['getMeetingStats'],
      beforeHandler(['getMeetingStats'], (request) => {
        const query = queryOf(request);
        for (const parameter of parameters) delete query[parameter];
      }),
    ),
  ),
  fault(
    'second-close-answers-200',
    'Closing a meeting that has already ended answers 200 {} instead of 500.',
    ['CLOSE-03', 'ERR-03'],
    ['closeMeeting'],
    rewriteBody(
      ['closeMeeting'],
      (_body, { reply }) => {
        reply.code(200);
        return {};
      },
      (status) => status === 500,
    ),
  ),
  fault(
    'close-keeps-participants',
    'Closing a meeting leaves its participants connected.',
    ['CLOSE-02'],
    ['closeMeeting', 'listRoomChannelParticipants'],
    closeKeepsParticipants,
  ),
  fault(
    'close-answers-body',
    'closeMeeting answers 200 with {"closed": true} instead of the empty object.',
    ['CLOSE-01'],
    ['closeMeeting'],
    rewriteBody(['closeMeeting'], () => ({ closed: true })),
  ),
];

/** One MUST each, broken narrowly, so that its checks fail and as few others as possible. */
export const narrow: readonly Fault[] = [
  fault(
    'summary-of-both-environments',
    'getMeetingsSummary adds up the meetings of both environments, whichever environment its API key selects; getMeetingStats keeps to one.',
    ['MSUM-03'],
    ['getMeetingsSummary'],
    rewriteBody(['getMeetingsSummary'], (_body, { app }) =>
      app.reference.behaviour.summariseMeetings(environments.flatMap((environment) => app.reference.store.environments[environment].meetingStats)),
    ),
  ),
  // The summary adds up the same records, so totals and records still agree (MST-13).
  fault(
    'recording-minutes-of-other-meetings',
    "Each meeting statistics record's recordingMinutes adds up the minutes recorded in every other meeting of its environment, not in its own: a meeting without recordings shows minutes.",
    ['MST-15'],
    ['getMeetingStats', 'getMeetingsSummary'],
    afterRoutes((app) => {
      for (const data of app.reference.store.accounts.values()) {
        for (const environment of environments) {
          const records = data[environment].meetingStats;
          const total = records.reduce((sum, record) => sum + record.recordingMinutes, 0);
          for (const record of records) record.recordingMinutes = total - record.recordingMinutes;
        }
      }
    }),
  ),
  fault(
    'only-summary-presence-means-records',
    'getMeetingStats answers records whenever onlySummary is present, whatever its value: onlySummary=true answers the bare array (without it, the summary).',
    ['MST-02'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      if (query['onlySummary'] !== undefined) query['onlySummary'] = 'false';
    }),
  ),
  fault(
    'use-pagination-defaults-true',
    'getMeetingStats paginates records unless usePagination=false is sent: onlySummary=false alone answers the pagination envelope instead of a bare array.',
    ['MST-03'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      query['usePagination'] ??= 'true';
    }),
  ),
  fault(
    'paginated-stats-default-development',
    'With usePagination=true and no environment, getMeetingStats pages the development records (the paginated path misses the production default); the other forms answer production.',
    ['MST-06', 'MST-10'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      if (query['usePagination'] === 'true') query['environment'] ??= 'development';
    }),
  ),
  fault(
    'stats-year-alone-ignored',
    'getMeetingStats applies year only together with month: year alone is ignored (every year is returned).',
    ['MST-08'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      if (query['month'] === undefined) delete query['year'];
    }),
  ),
  fault(
    'stats-range-a-day-late',
    'getMeetingStats reads initialDate and endDate a day late: the range it filters starts and ends 24 hours after the date-times sent.',
    ['MST-09'],
    ['getMeetingStats'],
    rangeReadAs((raw) => Date.parse(raw) + 24 * HOUR_MS),
  ),
  fault(
    'stats-range-as-local-time',
    'getMeetingStats reads initialDate and endDate as local time at UTC-3: the zone designator is dropped, so the range it filters lies 3 hours after the UTC date-times sent.',
    ['MST-09'],
    ['getMeetingStats'],
    rangeReadAs((raw) => Date.parse(raw.replace(ZONE_DESIGNATOR, 'Z')) + 3 * HOUR_MS),
  ),
  fault(
    'stats-month-ignores-year',
    'getMeetingStats applies month without year when both are given: month=01&year=2023 returns the January records of every year.',
    ['MST-07'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      if (query['month'] !== undefined) delete query['year'];
    }),
  ),
  fault(
    'stats-group-filter-first-only',
    'getMeetingStats with groupId and onlySummary=false answers only the first record of the group (a bare array of one).',
    ['MST-12'],
    ['getMeetingStats'],
    rewriteBody(['getMeetingStats'], (body, { request }) => (queryOf(request)['groupId'] !== undefined && Array.isArray(body) ? body.slice(0, 1) : undefined)),
  ),
  fault(
    'stats-environments-swapped',
    'getMeetingStats reads environment the other way round, its default too: without environment and with environment=production it answers the development records, with environment=development the production ones.',
    ['MST-11'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      const asked = query['environment'] ?? 'production';
      if (asked === 'production' || asked === 'development') query['environment'] = asked === 'production' ? 'development' : 'production';
    }),
  ),
  fault(
    'stats-environment-defaults-development',
    'getMeetingStats without environment answers the development data instead of production.',
    ['MST-10'],
    ['getMeetingStats'],
    beforeHandler(['getMeetingStats'], (request) => {
      const query = queryOf(request);
      query['environment'] ??= 'development';
    }),
  ),
];
