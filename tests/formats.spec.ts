/**
 * Formats across operations: every field a resource table lists is present (null only where the
 * interface says so), string timestamps are ISO 8601 UTC with milliseconds, numeric timestamps are
 * integer epoch milliseconds (FMT-01..03); every body is declared and written as JSON (FMT-04); and
 * records do not end before they start (FMT-05).
 */
import { cites, expect, test } from '../fixtures/index.ts';
import type { ApiClient, CreateParticipant, Discovery, Exchange, Needs, TargetConfig } from '../fixtures/index.ts';
import { connectedOf, field, isDateTimeMs, isEpochMillis, isRecord, itemsOf, roomOfChannel } from './support/observations.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

interface Context {
  api: ApiClient;
  discover: Discovery;
  target: TargetConfig;
  needs: Needs;
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

const channelName = (context: Context): string => context.needs(context.target.ids.channel, 'TARGET_CHANNEL', 'a realtime channel with events and connected participants');

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
    fetch: async ({ api, discover, needs }) => api.call('getGroup', { params: { id: needs(await discover.group(), 'TARGET_GROUP_ID', 'a group').id } }),
    records: [{ resource: 'group', select: self, ...GROUP }],
  },
  {
    operation: 'listGroupParticipants',
    ids: ['FMT-01', 'FMT-03'],
    fetch: async ({ api, discover, needs }) => {
      const { group } = needs(await discover.groupWithParticipants(), 'TARGET_GROUP_ID', 'a group with participants');
      return api.call('listGroupParticipants', { params: { groupId: group.id } });
    },
    records: [{ resource: 'participant', select: itemsOf, ...PARTICIPANT }],
  },
  {
    operation: 'getParticipant',
    ids: ['FMT-01', 'FMT-03'],
    fetch: async ({ api, discover, needs }) => api.call('getParticipant', { params: { id: needs(await discover.participant(), 'TARGET_GROUP_ID', 'a group with participants').id } }),
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
    fetch: async ({ api, discover, needs }) => api.call('listRecordings', { query: { meetingId: needs(await discover.meetingId(), 'TARGET_MEETING_ID', 'a meeting with recordings') } }),
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
        fields: ['uuid', 'id', 'meetingId', 'groupId', 'groupName', 'userId', 'meetingMinutes', 'recordingMinutes', 'price', 'startedAt', 'endedAt', 'createdAt', 'participants'],
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
      const room = context.needs(await roomOfChannel(context.api, context.target, channel), 'TARGET_ROOM_ID', `the room of channel ${channel}`);
      return context.api.call('listRoomChannelParticipants', { params: { room, channel } });
    },
    records: [{ resource: 'connected participant', select: itemsOf, ...CONNECTED, fields: [...CONNECTED.fields, 'roomId'] }],
  },
];

/** Every way a record breaks its rule, as `<resource>[i].<field>: <problem>`. */
function problemsOf(rule: RecordRule, records: unknown[]): string[] {
  const problems: string[] = [];
  records.forEach((record, index) => {
    const at = `${rule.resource}[${index}]`;
    if (!isRecord(record)) {
      problems.push(`${at}: not an object`);
      return;
    }
    for (const name of rule.fields) {
      if (!(name in record)) problems.push(`${at}.${name}: missing`);
      else if (record[name] === null && !(rule.nullable ?? []).includes(name)) problems.push(`${at}.${name}: null`);
    }
    for (const name of rule.dateTimes ?? []) {
      const value = record[name];
      if (value !== undefined && value !== null && !isDateTimeMs(value)) problems.push(`${at}.${name}: ${JSON.stringify(value)} is not YYYY-MM-DDTHH:MM:SS.sssZ naming a real instant`);
    }
    for (const name of rule.epochMillis ?? []) {
      const value = record[name];
      if (value !== undefined && value !== null && !isEpochMillis(value)) problems.push(`${at}.${name}: ${JSON.stringify(value)} is not an integer of epoch milliseconds (>= 10^12)`);
    }
  });
  return problems;
}

for (const row of ROWS) {
  test(
    `${row.operation}: every listed field is present, null only where stated, and timestamps have the documented format`,
    cites(...row.ids, { tag: row.tag ?? [] }),
    async ({ api, discover, target, needs, createParticipant }) => {
      const exchange = await row.fetch({ api, discover, target, needs, createParticipant });
      expect(exchange).toMatchOperation(row.operation, { status: 200 });
      const checked = row.records.map((rule) => ({ rule, records: rule.select(exchange.json) }));
      needs(checked.some(({ records }) => records.length > 0) ? checked : undefined, 'records on the target', `${row.operation} returned no records to check`);
      expect(checked.flatMap(({ rule, records }) => problemsOf(rule, records))).toEqual([]);
    },
  );
}

interface BodyCase {
  name: string;
  /** The operation provoked: state-changing ones are checked in a test gated on their permission. */
  operation: string;
  provoke: (context: Context) => Promise<Exchange>;
}

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Bodies the document does not describe, which the contract matcher cannot check: the 201 of an
 * upsert, and errors of operations whose error bodies are not shown (unknown ids, bad query values).
 */
const BODY_CASES: BodyCase[] = [
  { name: 'the 201 of upsertParticipant', operation: 'upsertParticipant', provoke: async ({ createParticipant }) => (await createParticipant()).exchange },
  { name: 'getGroup of an unknown group', operation: 'getGroup', provoke: ({ api }) => api.call('getGroup', { params: { id: 'cs-no-such-group-0000' } }) },
  { name: 'closeMeeting of an unknown meeting', operation: 'closeMeeting', provoke: ({ api }) => api.call('closeMeeting', { params: { meetingId: 'cs-no-such-meeting-0000' } }) },
  {
    name: 'listRoomChannelParticipants of an unknown room',
    operation: 'listRoomChannelParticipants',
    provoke: ({ api }) => api.call('listRoomChannelParticipants', { params: { room: 'cs-no-such-room-0000', channel: 'cs-no-such-channel-0000' } }),
  },
  { name: 'getChannelInfo of an unknown channel', operation: 'getChannelInfo', provoke: ({ api }) => api.call('getChannelInfo', { params: { channel: 'cs-no-such-channel-0000' } }) },
  { name: 'listGroups with take=abc', operation: 'listGroups', provoke: ({ api }) => api.call('listGroups', { query: { take: 'abc' } }) },
];

for (const share of sharesOf(BODY_CASES, (c) => c.operation)) {
  test(
    `bodies the document does not describe are declared and written as JSON${share.label}`,
    cites('FMT-04', { tag: permissionTags(share.permission) }),
    async ({ api, discover, target, needs, createParticipant }) => {
      requirePermission(target, share.permission, share.operations);
      const problems: string[] = [];
      for (const c of share.items) {
        const exchange = await c.provoke({ api, discover, target, needs, createParticipant });
        if (exchange.text.trim() === '') continue;
        const contentType = exchange.headers['content-type'];
        if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) problems.push(`${c.name}: HTTP ${exchange.status} with Content-Type ${contentType ?? '(none)'}`);
        if (exchange.json === undefined) problems.push(`${c.name}: HTTP ${exchange.status} with a body that is not JSON: ${exchange.text.slice(0, 120)}`);
      }
      expect(problems, 'bodies not declared as application/json or not parsing as JSON').toEqual([]);
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
  test(`${c.operation}: no record ends or is updated before it starts or is created`, cites('FMT-05'), async ({ api, discover, target, needs, createParticipant, warn }) => {
    const exchange = await c.fetch({ api, discover, target, needs, createParticipant });
    expect(exchange).toMatchOperation(c.operation, { status: 200 });
    const reversed: string[] = [];
    let compared = 0;
    for (const { select, earlier, later } of c.pairs) {
      for (const record of select(exchange.json)) {
        const start = Date.parse(String(field(record, earlier)));
        const end = Date.parse(String(field(record, later)));
        compared += 1;
        if (end < start) reversed.push(`${later} ${String(field(record, later))} < ${earlier} ${String(field(record, earlier))}`);
      }
    }
    needs(compared > 0 ? compared : undefined, 'records on the target', `${c.operation} returned no records to compare`);
    if (reversed.length > 0) warn('FMT-05', `${reversed.length} of ${compared} pairs reversed, e.g. ${reversed[0] ?? ''}`);
  });
}
