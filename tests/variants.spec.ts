/**
 * Documented variants: where the interface contradicts itself, every documented form passes and the
 * test records which form the target showed (VAR-01..07).
 */
import { check, cites, expect, notAssessed, test, together } from '../fixtures/index.ts';
import type { ApiClient, CallOptions, Discovery, Exchange, Need, TargetConfig } from '../fixtures/index.ts';
import { channelIdIsStringOrAbsent, echoesPassphrase, keyServedAtOneOf, listsConnected, stringWhenPresent } from './conditions/index.ts';
import { connectedOf, describeAnswer, field, itemsOf } from './support/observations.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

test('recordings are listed as a bare array or in the pagination envelope', cites('VAR-01'), async ({ api, discover, observe }) => {
  const meetingId = (await discover.meetingId()) ?? notAssessed('a meeting with recordings', { enable: 'TARGET_MEETING_ID' });
  const exchange = await api.call('listRecordings', { query: { meetingId } });
  expect(exchange).toMatchOperation('listRecordings', { status: 200 });
  // The form seen, and apart from it the part of the interface that shows it.
  if (Array.isArray(exchange.json)) observe('VAR-01', 'bare array', 'the sample');
  else observe('VAR-01', 'pagination envelope', 'the description');
});

test('channel info lists connected participants as participants or as presences', cites('VAR-02'), async ({ api, target, observe }) => {
  const channel = target.ids.channel ?? notAssessed('a realtime channel', { enable: 'TARGET_CHANNEL' });
  const exchange = await api.call('getChannelInfo', { params: { channel } });
  expect(exchange).toMatchOperation('getChannelInfo', { status: 200 });
  listsConnected(exchange.json);
  observe('VAR-02', ['participants', 'presences'].filter((name) => Array.isArray(field(exchange.json, name))).join(' and '));
});

test(
  'a security key is served at POST /security or at POST /participants with only a passphrase',
  cites('VAR-03', { tag: ['@destructive', '@writes'] }),
  async ({ api, target, observe }) => {
    if (!target.allowDestructive) notAssessed('creates account security keys', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    // A target that takes the body for a participant upsert still needs the apikey header, which is left out.
    if (!target.allowWrites) notAssessed('POST /participants is also the participant upsert', { enable: 'TARGET_ALLOW_WRITES' });
    const passphrase = 'Conformance-Var03-Key!';
    const paths: [string, Exchange][] = [
      ['/security', await api.call('createSecurityKey', { body: { passphrase } })],
      ['/participants', await api.call('upsertParticipant', { body: { passphrase }, auth: { apiKey: null } })],
    ];
    const serving: string[] = [];
    for (const [path, exchange] of paths) {
      if (exchange.status !== 200) continue;
      expect(exchange).toMatchOperation('createSecurityKey', { status: 200 });
      echoesPassphrase(field(exchange.json, 'passphrase'), passphrase);
      serving.push(path);
    }
    keyServedAtOneOf(paths);
    observe('VAR-03', `served at ${serving.join(' and ')}`, paths.map(([path, exchange]) => `${path}: HTTP ${exchange.status}`).join(', '));
  },
);

interface HeaderCase {
  operation: string;
  /** The call options of a read that answers 200, from discovery, or what is missing and the variable that would supply it. */
  options: (discover: Discovery) => Promise<CallOptions | { missing: string; need: Need }>;
  /**
   * What of the body must be the same with either spelling: the identities of a list (its items'
   * order is another requirement's; a recording's url is temporary), the fields of a record, and
   * nothing of live totals (they may move between two reads).
   */
  view: (body: unknown) => unknown;
}

const sortedKeys =
  (key: string) =>
  (body: unknown): string[] =>
    itemsOf(body)
      .map((item) => String(field(item, key)))
      .sort();

const HEADER_CASES: HeaderCase[] = [
  { operation: 'listGroups', options: async () => ({}), view: sortedKeys('id') },
  {
    operation: 'getGroup',
    options: async (discover) => {
      const group = await discover.group();
      return group === undefined ? { missing: 'a group', need: { enable: 'TARGET_GROUP_ID' } } : { params: { id: group.id } };
    },
    view: (body) => ({ id: field(body, 'id'), name: field(body, 'name'), createdAt: field(body, 'createdAt') }),
  },
  {
    operation: 'listRecordings',
    options: async (discover) => {
      const meetingId = await discover.meetingId();
      return meetingId === undefined ? { missing: 'a meeting with recordings', need: { enable: 'TARGET_MEETING_ID' } } : { query: { meetingId } };
    },
    view: sortedKeys('uuid'),
  },
  { operation: 'getMeetingsSummary', options: async () => ({}), view: () => 'live totals: the shape only' },
];

test('reads answer the same with the API-key header spelled apikey or apiKey', cites('VAR-04'), async ({ api, discover, observe }) => {
  // The operations do not depend on each other: they go out together. Within one, apiKey is sent
  // only once apikey has answered 200 (a failure there is the operation's, not the spelling's).
  const outcomes = await together(HEADER_CASES, async (c) => {
    const label = `${c.operation}: the same status and body with the header spelled apikey or apiKey`;
    const options = await c.options(discover);
    if ('missing' in options) {
      notAssessed.record('VAR-04', label, options.missing, options.need);
      return false;
    }
    return check('VAR-04', label, async () => {
      const lower = await api.call(c.operation, { ...options, auth: { apiKeyHeader: 'apikey' } });
      // The spelling the catalogue's other checks use: a failure there is the operation's, not the spelling's.
      if (lower.status !== 200) notAssessed.check(`${c.operation} with the header spelled apikey answered ${describeAnswer(lower)}`);
      const camel = await api.call(c.operation, { ...options, auth: { apiKeyHeader: 'apiKey' } });
      expect(camel, `${c.operation} with the header spelled apiKey`).toMatchOperation(c.operation, { status: 200 });
      expect(c.view(camel.json), `${c.operation}: the same body with either spelling`).toEqual(c.view(lower.json));
    });
  });
  const accepted = HEADER_CASES.filter((_, index) => outcomes[index]).map((c) => c.operation);
  observe('VAR-04', 'apikey and apiKey both accepted', accepted.join(', '));
});

interface UnauthorizedCase {
  cause: string;
  needsNonDeveloper?: boolean;
  operation: string;
  provoke: (api: ApiClient, target: TargetConfig) => Promise<Exchange>;
}

/** Used when the profile names no ended meeting: a 401 case of closeMeeting must not be able to close a running one. */
const NO_MEETING = 'cs-no-such-meeting-0000';

const UNAUTHORIZED_CASES: UnauthorizedCase[] = [
  { cause: 'login with unknown credentials', operation: 'login', provoke: (api) => api.login('cs-nobody@example.invalid', 'Not-The-Passw0rd!') },
  {
    cause: 'meeting statistics without a bearer token',
    operation: 'getMeetingStats',
    provoke: (api) => api.call('getMeetingStats', { auth: { bearer: null } }),
  },
  {
    cause: 'meeting statistics of a non-developer account',
    needsNonDeveloper: true,
    operation: 'getMeetingStats',
    provoke: async (api, target) => {
      const account = target.nonDeveloper ?? notAssessed('an account that is not a developer', { enable: 'TARGET_NON_DEVELOPER_EMAIL' });
      const login = await api.login(account.email, account.password);
      const token = field(login.json, 'access_token');
      // Login is certified by its own requirements: without a token the 401 cannot be provoked.
      if (login.status < 200 || login.status > 299 || typeof token !== 'string')
        notAssessed.check(`login of TARGET_NON_DEVELOPER_EMAIL answered ${describeAnswer(login)}`);
      return api.call('getMeetingStats', { auth: { bearer: token } });
    },
  },
  {
    cause: 'meeting close without a bearer token',
    operation: 'closeMeeting',
    provoke: (api, target) => api.call('closeMeeting', { params: { meetingId: target.ids.endedMeetingId ?? NO_MEETING }, auth: { bearer: null } }),
  },
];

// The meeting close case is a test of its own, gated like any close (support/permissions.ts).
for (const share of sharesOf(UNAUTHORIZED_CASES, (c) => c.operation)) {
  test(
    `a 401 body carries error as a string or omits it${share.label}`,
    cites('VAR-05', { tag: permissionTags(share.permission) }),
    async ({ api, target, observe }) => {
      requirePermission(target, share.permission, share.operations);
      for (const c of share.items) {
        const label = `${c.cause}: the 401 body carries error as a string or omits it`;
        if (c.needsNonDeveloper === true && target.nonDeveloper === undefined) {
          notAssessed.record('VAR-05', label, 'needs TARGET_NON_DEVELOPER_EMAIL');
          continue;
        }
        await check('VAR-05', label, async () => {
          const exchange = await c.provoke(api, target);
          // That the cause is refused with 401 is the requirement of the cause (login, MST-14, AUTH-*), not of the body's form.
          if (exchange.status !== 401) notAssessed.check(`${c.cause} answered ${describeAnswer(exchange)}, not 401`);
          expect(exchange, c.cause).toMatchOperation(c.operation, { status: 401 });
          stringWhenPresent(exchange.json, 'error', exchange);
          observe('VAR-05', field(exchange.json, 'error') === undefined ? 'without error' : 'with error', c.cause);
        });
      }
    },
  );
}

test('the channel object carries an id string or no id', cites('VAR-06'), async ({ api, target, observe }) => {
  const channel = target.ids.channel ?? notAssessed('a realtime channel', { enable: 'TARGET_CHANNEL' });
  const exchange = await api.call('getChannelInfo', { params: { channel } });
  expect(exchange).toMatchOperation('getChannelInfo', { status: 200 });
  const object = field(exchange.json, 'channel');
  channelIdIsStringOrAbsent(object);
  const id = field(object, 'id');
  if (id === undefined) observe('VAR-06', 'without id', 'the field table');
  else observe('VAR-06', 'with id', 'the example body');
});

test("a versioned participant's channel field holds the channel name or the participant's room", cites('VAR-07'), async ({ api, target, observe }) => {
  const channel = target.ids.channel ?? notAssessed('a realtime channel with connected participants', { enable: 'TARGET_CHANNEL' });
  const info = await api.call('getChannelInfo', { params: { channel } });
  expect(info).toMatchOperation('getChannelInfo', { status: 200 });
  const list = await api.call('listChannelParticipants', { params: { channel_name: channel } });
  expect(list).toMatchOperation('listChannelParticipants', { status: 200 });
  const participants = [...connectedOf(info.json), ...(list.json as unknown[])];
  if (participants.length === 0) notAssessed('a channel with connected participants', { enable: 'TARGET_CHANNEL' });
  // A participant without a string channel breaks RT-07, and shows neither form.
  const unplaced = participants.filter((participant) => typeof field(participant, 'channel') !== 'string').length;
  if (unplaced > 0)
    notAssessed.record(
      'VAR-07',
      'every connected participant carries channel',
      `${unplaced} of ${participants.length} participants carry no string channel (RT-07)`,
    );
  const values = [...new Set(participants.map((participant) => field(participant, 'channel')).filter((value): value is string => typeof value === 'string'))];
  const forms: string[] = [];
  for (const value of values) {
    if (value === channel) {
      forms.push('channel name');
      continue;
    }
    // Not the channel name: it must be the room, where the main interface lists the same participants.
    const isRoom = await check('VAR-07', `channel field "${value}" names a room whose list holds the participants that carry it`, async () => {
      const room = await api.call('listRoomChannelParticipants', { params: { room: value, channel } });
      expect(room, `channel field "${value}" is neither the channel name nor a room that holds the channel`).toMatchOperation('listRoomChannelParticipants', {
        status: 200,
      });
      const inRoom = new Set((room.json as unknown[]).map((participant) => field(participant, 'id')));
      const claimed = participants.filter((participant) => field(participant, 'channel') === value).map((participant) => field(participant, 'id'));
      expect(
        claimed.filter((id) => !inRoom.has(id)),
        `participants said to be in room ${value} but not listed there`,
      ).toEqual([]);
    });
    if (isRoom) forms.push('room ID');
  }
  observe('VAR-07', [...new Set(forms)].join(' and ') || 'neither');
});
