import type { FastifyPluginAsync } from 'fastify';
import type { Behaviour } from '../behaviour.ts';
import { readGetBody } from '../body.ts';
import { HttpError, badRequest, notFound } from '../errors.ts';
import { paginate, parsePageRequest } from '../pagination.ts';
import { environments, type Environment } from '../seed-types.ts';
import type { MeetingStatsRecord } from '../store.ts';
import { asQuery, booleanQuery, objectBody, queryValue, type Query } from '../validation.ts';

const dayMs = 86_400_000;
const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTime = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 8601 date-time (Z or offset) or a plain date; a plain end date covers its whole day. */
function parseDate(raw: string | undefined, name: string, endOfDay: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const parts = dateOnly.exec(raw) ?? dateTime.exec(raw);
  const time = Date.parse(raw);
  const [year, month, day] = (parts ?? []).slice(1, 4).map(Number);
  const calendarDay = year !== undefined && month !== undefined && day !== undefined && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
  if (parts === null || Number.isNaN(time) || !calendarDay) throw badRequest(`${name} must be an ISO 8601 date-time`);
  return dateOnly.test(raw) && endOfDay ? time + dayMs - 1 : time;
}

function integerInRange(raw: string | undefined, name: string, pattern: RegExp, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = pattern.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) throw badRequest(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

interface StatsQuery {
  month?: number;
  year?: number;
  from?: number;
  to?: number;
  environment: Environment;
  groupId?: string;
  usePagination?: boolean;
  onlySummary?: boolean;
}

function parseStatsQuery(query: Query): StatsQuery {
  const rawEnvironment = queryValue(query, 'environment') ?? 'production';
  const environment = environments.find((candidate) => candidate === rawEnvironment);
  if (environment === undefined) throw badRequest('environment must be development or production');
  const from = parseDate(queryValue(query, 'initialDate'), 'initialDate', false);
  const to = parseDate(queryValue(query, 'endDate'), 'endDate', true);
  if (from !== undefined && to !== undefined && from > to) throw badRequest('initialDate must not be after endDate');
  return {
    month: integerInRange(queryValue(query, 'month'), 'month', /^\d{1,2}$/, 1, 12),
    year: integerInRange(queryValue(query, 'year'), 'year', /^\d{4}$/, 1970, 9999),
    from,
    to,
    environment,
    groupId: queryValue(query, 'groupId'),
    usePagination: booleanQuery(query, 'usePagination'),
    onlySummary: booleanQuery(query, 'onlySummary'),
  };
}

function matches(record: MeetingStatsRecord, query: StatsQuery, behaviour: Behaviour): boolean {
  const time = behaviour.meetingStatsFilterTime(record);
  const { year, month } = behaviour.calendarMonth(time);
  return (
    (query.month === undefined || month === query.month) &&
    (query.year === undefined || year === query.year) &&
    (query.from === undefined || time >= query.from) &&
    (query.to === undefined || time <= query.to) &&
    (query.groupId === undefined || record.groupId === query.groupId)
  );
}

/** Operations 11-13: meeting totals, meeting statistics (developer accounts only) and remote close. */
export const meetingsPlugin: FastifyPluginAsync = async (app) => {
  const { behaviour, config, now } = app.reference;
  const time = behaviour.formatTimestamp;

  const recordView = (record: MeetingStatsRecord): Record<string, unknown> => ({
    uuid: record.uuid,
    id: record.id,
    meetingId: record.meetingId,
    groupId: record.groupId,
    groupName: record.groupName,
    userId: record.userId,
    meetingMinutes: record.meetingMinutes,
    recordingMinutes: record.recordingMinutes,
    price: record.price,
    startedAt: time(record.startedAt),
    endedAt: time(record.endedAt),
    createdAt: time(record.createdAt),
    participants: record.participants.map((entry) => ({
      uuid: entry.uuid,
      id: entry.id,
      userId: entry.userId,
      permission: entry.permission,
      name: entry.name,
      createdAt: time(entry.createdAt),
      updatedAt: time(entry.updatedAt),
      deletedAt: entry.deletedAt === null ? null : time(entry.deletedAt),
    })),
  });

  app.get('/meetings/summary', async (request) => {
    const environment = app.auth.apiKey(request);
    return behaviour.summariseMeetings(app.auth.data(request, environment).meetingStats);
  });

  app.get('/meetingstats', async (request) => {
    const user = await app.auth.bearer(request);
    if (!user.developer) throw new HttpError(401, 'Only developer accounts can read meeting statistics', true);
    const query = asQuery(request.query);
    const stats = parseStatsQuery(query);
    const records = app.auth.data(request, stats.environment).meetingStats.filter((record) => matches(record, stats, behaviour));
    const paginatedByDefault = stats.usePagination === true && config.variants.paginatedStatsDefault === 'records';
    if (stats.onlySummary ?? !paginatedByDefault) return behaviour.summariseMeetings(records);
    if (stats.usePagination !== true) return records.map(recordView);
    const page = paginate(records, parsePageRequest(query, behaviour), behaviour);
    return { data: page.data.map(recordView), pagination: page.pagination };
  });

  app.get<{ Params: { meetingId: string } }>('/meeting/close/:meetingId', { exposeHeadRoute: false }, async (request) => {
    const user = await app.auth.bearer(request);
    const body = await readGetBody(request, config.bodyLimit);
    const environment = app.auth.apiKeyValue(body === undefined ? undefined : objectBody(body).apiKey, user);
    const data = app.auth.data(request, environment);
    const meeting = data.meetings.get(request.params.meetingId);
    if (meeting === undefined) throw notFound(`Meeting ${request.params.meetingId} not found`);
    if (meeting.status === 'ended') throw new HttpError(500, 'The meeting has already ended', true);
    const endedAt = now();
    meeting.status = 'ended';
    meeting.endedAt = endedAt;
    data.connections = data.connections.filter((connection) => connection.meetingId !== meeting.id);
    for (const recording of data.recordings) {
      if (recording.meetingId === meeting.id && recording.endedAt === null) recording.endedAt = endedAt;
    }
    return {};
  });
};
