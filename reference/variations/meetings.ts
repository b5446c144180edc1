/**
 * Allowed variations of the meetings: the date filters of the statistics, how soon a close shows.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import type { FastifyRequest } from 'fastify';
import { defaultBehaviour } from '../behaviour.ts';
import { environments } from '../seed-types.ts';
import type { Connection, EnvironmentData } from '../store.ts';
import { beforeHandler, compose, withBehaviour, type OptionsTransform } from '../faults/tools.ts';
import { everyAnswer, type Variation } from './tools.ts';

/** Connections of a closed meeting stay listed for `delayMs`, then leave (the interface gives no delay). */
function closedMeetingLingers(delayMs: number): OptionsTransform {
  return (options) => {
    const before = new WeakMap<FastifyRequest, Map<EnvironmentData, Connection[]>>();
    return compose(
      beforeHandler(['closeMeeting'], (request, _reply, app) => {
        before.set(request, new Map(environments.map((name) => [app.reference.store.environments[name], app.reference.store.environments[name].connections])));
      }),
      everyAnswer((payload, { request, reply }) => {
        const saved = before.get(request);
        if (saved === undefined || reply.statusCode !== 200) return payload;
        for (const [data, connections] of saved) {
          const left = connections.filter((connection) => !data.connections.includes(connection));
          if (left.length === 0) continue;
          data.connections = [...data.connections, ...left];
          setTimeout(() => {
            data.connections = data.connections.filter((connection) => !left.includes(connection));
          }, delayMs).unref();
        }
        return payload;
      }),
    )(options);
  };
}

export const variations: readonly Variation[] = [
  {
    name: 'meetingstats-dates-on-end',
    description: 'The date filters of GET /meetingstats (month, year, initialDate, endDate) apply to endedAt instead of startedAt.',
    basis: 'Endpoint 12: month, year, initialDate and endDate are filters; the field they apply to: not shown.',
    apply: withBehaviour({ meetingStatsFilterTime: (record) => record.endedAt }),
  },
  {
    name: 'meetingstats-month-in-utc-plus-14',
    description: 'The month and year filters of GET /meetingstats read the calendar at UTC+14 instead of UTC.',
    basis: 'Endpoint 12: "month (filter month)", "year (filter year)"; the timezone of the calendar: not shown.',
    apply: withBehaviour({ calendarMonth: (epochMs) => defaultBehaviour.calendarMonth(epochMs + 14 * 3_600_000) }),
  },
  {
    name: 'closed-meeting-lingers',
    description: "After GET /meeting/close the meeting's participants stay in the realtime lists for 2 s, then leave.",
    basis: 'Endpoint 13: "Effect: the running meeting ends and all participants inside are removed." How soon the lists show it: not shown.',
    apply: closedMeetingLingers(2000),
  },
];
