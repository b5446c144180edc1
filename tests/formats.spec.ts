/**
 * Formats across operations: every field a resource table lists is present (null only where the
 * interface says so), string timestamps are ISO 8601 UTC with milliseconds, numeric timestamps are
 * integer epoch milliseconds (FMT-01..03); every body is declared and written as JSON (FMT-04); and
 * records do not end before they start (FMT-05). One check per requirement and resource; an answer
 * that is not a 200 (or is the documented 403 of the transcription usage limit) leaves the checks
 * that read it not assessed, as its status is judged by the operation's own requirements.
 */

import { check, cites, expect, isRecord, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient, CreateParticipant, Discovery, Exchange, JsonObject, TargetConfig } from '../fixtures/index.ts';
import { declaresJson, parsesAsJson } from './conditions/index.ts';
import { connectedOf, field, isDateTimeMs, isEpochMillis, itemsOf, roomOfChannel } from './support/observations.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

interface Context {
  api: ApiClient;
  discover: Discovery;
  target: TargetConfig;
  createParticipant: CreateParticipant;
}

/** The records of one resource in a body, and what the interface states about their fields. */
interface RecordRule {
  resource: string;
  select: (body: unknown) => unknown[];
  /** Fields of the resource table: present, and not null unless listed in `nullable`. */
  fields: string[];
  nullable?: string[];
  /** String timestamps (FMT-01); a nullable one is checked when not null. */
  dateTimes?: string[];
  /** Numeric timestamps (FMT-02); a nullable one is checked when not null. */
  epochMillis?: string[];
}

interface FormatRow {
  operation: string;
  ids: string[];
  tag?: string[];
  fetch: (context: Context) => Promise<Exchange>;
  records: RecordRule[];
}

const GROUP = { fields: ['id', 'name', 'createdAt'], dateTimes: ['createdAt'] };
const PARTICIPANT = { fields: ['id', 'name', 'email', 'avatar', 'createdAt'], dateTimes: ['createdAt'] };
const CONNECTED = { fields: ['id', 'name', 'connectionId', 'timestamp'], nullable: ['connectionId'], epochMillis: ['timestamp'] };
const self = (body: unknown): unknown[] => [body];

const channelName = (context: Context): string =>
  context.target.ids.channel ?? notAssessed('a realtime channel with events and connected participants', { enable: 'TARGET_CHANNEL' });

const ROWS: FormatRow[] = [
  {
    operation: 'listGroups',
    ids: ['FMT-01', 'FMT-03'],
    fetch: ({ api }) => api.call('listGroups'),
    records: [{ resource: 'group', select: itemsOf, ...GROUP }],
  },
  {
    operation: 'getGroup',
    ids: ['FMT-01', 'FMT-03'],
    fetch: async ({ api, discover }) =>
      api.call('getGroup', { params: { id: ((await discover.group()) ?? notAssessed('a group', { enable: 'TARGET_GROUP_ID' })).id } }),
    records: [{ resource: 'group', select: self, ...GROUP }],
  },
  {
    operation: 'listGroupParticipants',
    ids: ['FMT-01', 'FMT-03'],
    fetch: async ({ api, discover }) => {
      const { group } = (await discover.groupWithParticipants()) ?? notAssessed('a group with participants', { enable: 'TARGET_GROUP_ID' });
      return api.call('listGroupParticipants', { params: { groupId: group.id } });
    },
    records: [{ resource: 'participant', select: itemsOf, ...PARTICIPANT }],
  },
  {
    operation: 'getParticipant',
    ids: ['FMT-01', 'FMT-03'],
    fetch: async ({ api, discover }) =>
      api.call('getParticipant', {
        params: { id: ((await discover.participant()) ?? notAssessed('a group with participants', { enable: 'TARGET_GROUP_ID' })).id },
      }),
    records: [{ resource: 'participant', select: self, ...PARTICIPANT }],
  },
  {
    operation: 'archiveParticipant',
    ids: ['FMT-01', 'FMT-03'],
    tag: ['@writes'],
    fetch: async ({ api, createParticipant }) => api.call('archiveParticipant', { params: { id: (await createParticipant()).id } }),
    records: [{ resource: 'participant', select: self, ...PARTICIPANT }],
  },
  {
    operation: 'listRecordings',
    ids: ['FMT-01', 'FMT-03'],
    fetch: async ({ api, discover }) =>
      api.call('listRecordings', {
        query: { meetingId: (await discover.meetingId()) ?? notAssessed('a meeting with recordings', { enable: 'TARGET_MEETING_ID' }) },
      }),
    records: [{ resource: 'recording', select: itemsOf, fields: ['uuid', 'url', 'roomId', 'status', 'meetingId', 'createdAt'], dateTimes: ['createdAt'] }],
  },
  {
    operation: 'getTranscriptionStats',
    ids: ['FMT-01', 'FMT-03'],
    fetch: ({ api, target }) => api.call('getTranscriptionStats', { query: { environment: target.environment } }),
    records: [
      {
        resource: 'transcription record',
        select: itemsOf,
        fields: ['uuid', 'meetingId', 'minutes', 'startedAt', 'finishedAt', 'groupId', 'groupName', 'createdAt', 'updatedAt'],
        dateTimes: ['startedAt', 'finishedAt', 'createdAt', 'updatedAt'],
      },
    ],
  },
  {
    operation: 'getMeetingStats',
    ids: ['FMT-01', 'FMT-03'],
    fetch: ({ api, target }) => api.call('getMeetingStats', { query: { onlySummary: false, environment: target.environment } }),
    records: [
      {
        resource: 'meeting statistics record',
        select: itemsOf,
        fields: [
          'uuid',
          'id',
          'meetingId',
          'groupId',
          'groupName',
          'userId',
          'meetingMinutes',
          'recordingMinutes',
          'price',
          'startedAt',
          'endedAt',
          'createdAt',
          'participants',
        ],
        dateTimes: ['startedAt', 'endedAt', 'createdAt'],
      },
      {
        resource: 'meeting statistics participant',
        select: (body) => itemsOf(body).flatMap((record) => itemsOf(field(record, 'participants'))),
        fields: ['uuid', 'id', 'userId', 'permission', 'name', 'createdAt', 'updatedAt', 'deletedAt'],
        nullable: ['deletedAt'],
        dateTimes: ['createdAt', 'updatedAt', 'deletedAt'],
      },
    ],
  },
  {
    operation: 'getMeetingsSummary',
    ids: ['FMT-03'],
    fetch: ({ api }) => api.call('getMeetingsSummary'),
    records: [{ resource: 'meeting statistics summary', select: self, fields: ['totalMeetingMinutes', 'totalRecordingMinutes', 'totalMeetings'] }],
  },
  {
    operation: 'getChannelInfo',
    ids: ['FMT-02', 'FMT-03'],
    fetch: (context) => context.api.call('getChannelInfo', { params: { channel: channelName(context) } }),
    records: [
      {
        resource: 'realtime channel',
        select: (body) => [field(body, 'channel')],
        fields: ['name', 'participantId', 'apiKey', 'startTime', 'endTime'],
        nullable: ['endTime'],
        epochMillis: ['startTime', 'endTime'],
      },
      {
        resource: 'realtime event',
        select: (body) => itemsOf(field(body, 'events')),
        fields: ['name', 'timestamp', 'participantId', 'connectionId', 'data'],
        nullable: ['connectionId'],
        epochMillis: ['timestamp'],
      },
      { resource: 'connected participant', select: connectedOf, ...CONNECTED, fields: [...CONNECTED.fields, 'channel'] },
    ],
  },
  {
    operation: 'listChannelParticipants',
    ids: ['FMT-02', 'FMT-03'],
    fetch: (context) => context.api.call('listChannelParticipants', { params: { channel_name: channelName(context) } }),
    records: [{ resource: 'connected participant', select: itemsOf, ...CONNECTED, fields: [...CONNECTED.fields, 'channel'] }],
  },
  {
    operation: 'listRoomChannelParticipants',
    ids: ['FMT-02', 'FMT-03'],
    fetch: async (context) => {
      const channel = channelName(context);
      const room = (await roomOfChannel(context.api, context.target, channel)) ?? notAssessed(`the room of channel ${channel}`, { enable: 'TARGET_ROOM_ID' });
      return context.api.call('listRoomChannelParticipants', { params: { room, channel } });
    },
    records: [{ resource: 'connected participant', select: itemsOf, ...CONNECTED, fields: [...CONNECTED.fields, 'roomId'] }],
  },
];

type FormatRequirement = 'FMT-01' | 'FMT-02' | 'FMT-03';

/** What one record breaks of the rule's statements for `id`, as `<field>: <problem>`. */
function recordProblems(id: FormatRequirement, rule: RecordRule, record: JsonObject): string[] {
  const problems: string[] = [];
  if (id === 'FMT-03') {
    for (const name of rule.fields) {
      if (!(name in record)) problems.push(`${name}: missing`);
      else if (record[name] === null && !(rule.nullable ?? []).includes(name)) problems.push(`${name}: null`);
    }
  }
  if (id === 'FMT-01') {
    for (const name of rule.dateTimes ?? []) {
      const value = record[name];
      if (value !== undefined && value !== null && !isDateTimeMs(value))
        problems.push(`${name}: ${JSON.stringify(value)} is not YYYY-MM-DDTHH:MM:SS.sssZ naming a real instant`);
    }
  }
  if (id === 'FMT-02') {
    for (const name of rule.epochMillis ?? []) {
      const value = record[name];
      if (value !== undefined && value !== null && !isEpochMillis(value))
        problems.push(`${name}: ${JSON.stringify(value)} is not an integer of epoch milliseconds (>= 10^12)`);
    }
  }
  return problems;
}

/** The statements of `id` that the rule holds: FMT-03 always, FMT-01 and FMT-02 for its timestamps. */
function concernsRule(id: FormatRequirement, rule: RecordRule): boolean {
  return id === 'FMT-03' || (id === 'FMT-01' ? (rule.dateTimes ?? []).length > 0 : (rule.epochMillis ?? []).length > 0);
}

const FORMAT_LABELS: Readonly<Record<FormatRequirement, string>> = {
  'FMT-01': 'writes its string timestamps as ISO 8601 UTC with milliseconds',
  'FMT-02': 'writes its numeric timestamps as integer epoch milliseconds',
  'FMT-03': 'carries every listed field, null only where stated',
};

/** Why an answer cannot be judged for formats: its own requirements judge a status, a usage limit or a body that is not JSON. */
function unusable(exchange: Exchange): string | undefined {
  if (exchange.operationId === 'getTranscriptionStats' && exchange.status === 403)
    return 'getTranscriptionStats answered the documented 403 of a reached usage limit';
  if (exchange.status !== 200) return `${exchange.operationId} answered HTTP ${exchange.status}, which its own requirements judge`;
  if (exchange.json === undefined) return `${exchange.operationId} answered a body that is not JSON (FMT-04)`;
  return undefined;
}

for (const row of ROWS) {
  test(
    `${row.operation}: every listed field is present, null only where stated, and timestamps have the documented format`,
    cites(...row.ids, { tag: row.tag ?? [] }),
    async ({ api, discover, target, createParticipant }) => {
      const exchange = await row.fetch({ api, discover, target, createParticipant });
      const why = unusable(exchange);
      const checked = row.records.map((rule) => ({ rule, records: why === undefined ? rule.select(exchange.json) : [] }));
      if (why === undefined && checked.every(({ records }) => records.length === 0))
        notAssessed(`${row.operation} returned no records to check`, { lacking: 'records on the target' });
      for (const id of row.ids as FormatRequirement[]) {
        for (const { rule, records } of checked.filter((entry) => concernsRule(id, entry.rule))) {
          const label = `${row.operation}: every ${rule.resource} ${FORMAT_LABELS[id]}`;
          if (why !== undefined) notAssessed.record(id, label, why);
          else if (records.length === 0)
            test.info().annotations.push({ type: 'note', description: `${id}: ${row.operation} answered no ${rule.resource} to check` });
          else {
            await check(id, label, () => {
              const problems = records.flatMap((record, index) =>
                (isRecord(record) ? recordProblems(id, rule, record) : ['not an object']).map((problem) => `${rule.resource}[${index}].${problem}`),
              );
              expect(problems).toEqual([]);
            });
          }
        }
      }
    },
  );
}

interface BodyCase {
  name: string;
  /** The operation provoked: state-changing ones are checked in a test gated on their permission. */
  operation: string;
  provoke: (context: Context) => Promise<Exchange>;
}

/**
 * Bodies the document does not describe, which the contract matcher cannot check: the 201 of an
 * upsert, and errors of operations whose error bodies are not shown (unknown ids, bad query values).
 */
const BODY_CASES: BodyCase[] = [
  { name: 'the 201 of upsertParticipant', operation: 'upsertParticipant', provoke: async ({ createParticipant }) => (await createParticipant()).exchange },
  { name: 'getGroup of an unknown group', operation: 'getGroup', provoke: ({ api }) => api.call('getGroup', { params: { id: 'cs-no-such-group-0000' } }) },
  {
    name: 'closeMeeting of an unknown meeting',
    operation: 'closeMeeting',
    provoke: ({ api }) => api.call('closeMeeting', { params: { meetingId: 'cs-no-such-meeting-0000' } }),
  },
  {
    name: 'listRoomChannelParticipants of an unknown room',
    operation: 'listRoomChannelParticipants',
    provoke: ({ api }) => api.call('listRoomChannelParticipants', { params: { room: 'cs-no-such-room-0000', channel: 'cs-no-such-channel-0000' } }),
  },
  {
    name: 'getChannelInfo of an unknown channel',
    operation: 'getChannelInfo',
    provoke: ({ api }) => api.call('getChannelInfo', { params: { channel: 'cs-no-such-channel-0000' } }),
  },
  { name: 'listGroups with take=abc', operation: 'listGroups', provoke: ({ api }) => api.call('listGroups', { query: { take: 'abc' } }) },
];

for (const share of sharesOf(BODY_CASES, (c) => c.operation)) {
  test(
    `bodies the document does not describe are declared and written as JSON${share.label}`,
    cites('FMT-04', { tag: permissionTags(share.permission) }),
    async ({ api, discover, target, createParticipant }) => {
      requirePermission(target, share.permission, share.operations);
      for (const c of share.items) {
        const exchange = await c.provoke({ api, discover, target, createParticipant });
        if (exchange.text.trim() === '') {
          test.info().annotations.push({ type: 'note', description: `FMT-04: ${c.name} answered HTTP ${exchange.status} with no body` });
          continue;
        }
        // "All bodies are JSON": application/json or a structured +json type (RFC 6839), as the contract matcher reads it.
        await check('FMT-04', `${c.name}: the body is declared as application/json`, () => declaresJson(exchange));
        await check('FMT-04', `${c.name}: the body parses as JSON`, () => parsesAsJson(exchange));
      }
    },
  );
}

interface OrderCase {
  operation: string;
  fetch: (context: Context) => Promise<Exchange>;
  /** [earlier, later] field pairs, per resource selected from the body. */
  pairs: { select: (body: unknown) => unknown[]; earlier: string; later: string }[];
}

const ORDER_CASES: OrderCase[] = [
  {
    operation: 'getTranscriptionStats',
    fetch: ({ api, target }) => api.call('getTranscriptionStats', { query: { environment: target.environment } }),
    pairs: [
      { select: itemsOf, earlier: 'createdAt', later: 'updatedAt' },
      { select: itemsOf, earlier: 'startedAt', later: 'finishedAt' },
    ],
  },
  {
    operation: 'getMeetingStats',
    fetch: ({ api, target }) => api.call('getMeetingStats', { query: { onlySummary: false, environment: target.environment } }),
    pairs: [
      { select: itemsOf, earlier: 'startedAt', later: 'endedAt' },
      { select: (body) => itemsOf(body).flatMap((record) => itemsOf(field(record, 'participants'))), earlier: 'createdAt', later: 'updatedAt' },
    ],
  },
];

for (const c of ORDER_CASES) {
  test(`${c.operation}: no record ends or is updated before it starts or is created`, cites('FMT-05'), async ({ api, discover, target, createParticipant }) => {
    const exchange = await c.fetch({ api, discover, target, createParticipant });
    const why = unusable(exchange);
    const pairs = c.pairs.map((pair) => ({ ...pair, records: why === undefined ? pair.select(exchange.json) : [] }));
    if (why === undefined && pairs.every(({ records }) => records.length === 0))
      notAssessed(`${c.operation} returned no records to compare`, { lacking: 'records on the target' });
    for (const { earlier, later, records } of pairs) {
      const label = `${c.operation}: no ${later} is earlier than its ${earlier}`;
      if (why !== undefined) {
        notAssessed.record('FMT-05', label, why);
        continue;
      }
      // A SHOULD: a failure is recorded as a warning.
      await check('FMT-05', label, () => {
        const reversed = records.filter((record) => Date.parse(String(field(record, later))) < Date.parse(String(field(record, earlier))));
        expect(
          reversed.map((record) => `${later} ${String(field(record, later))} < ${earlier} ${String(field(record, earlier))}`),
          `${reversed.length} of ${records.length} records reversed`,
        ).toEqual([]);
      });
    }
  });
}
