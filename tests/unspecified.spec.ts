/**
 * Behaviour the interface leaves "not shown" (UNS-01..26): each test provokes it, records what the
 * target did with observe(), and checks only what the interface does state - the documented shape of
 * a 200, and of an error body that statusCode equals the status (ERR-04; ERR-06 is a warning).
 */
import { allOf, cites, expect, requireDestructive, test, together } from '../fixtures/index.ts';
import type { ApiClient, CallOptions, Exchange, Needs, TargetConfig, Warn } from '../fixtures/index.ts';
import {
  connectedOf,
  describeAnswer,
  expectErrorBody,
  field,
  isRecord,
  itemsOf,
  rateLimitHeaders,
  rawGet,
} from './support/observations.ts';
import type { JsonObject } from './support/observations.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

/**
 * Checks what the interface states about an answer it leaves open: a 200 matches the operation's
 * documented shape, an error body carries statusCode equal to the status. Returns its description.
 */
function checkStated(exchange: Exchange, warn: Warn): string {
  if (exchange.status === 200) expect(exchange).toMatchOperation(exchange.operationId, { status: 200 });
  if (exchange.status >= 400) expectErrorBody(exchange, warn);
  return describeAnswer(exchange);
}

const uuidsOf = (exchange: Exchange): string[] => itemsOf(exchange.json).map((item) => String(field(item, 'uuid')));

const UNKNOWN = 'cs-no-such-id-0000';

interface UnknownIdCase {
  id: string;
  what: string;
  calls: [string, CallOptions][];
}

const UNKNOWN_ID_CASES: UnknownIdCase[] = [
  {
    id: 'UNS-01',
    what: 'an unknown group',
    calls: [
      ['getGroup', { params: { id: UNKNOWN } }],
      ['listGroupParticipants', { params: { groupId: UNKNOWN } }],
    ],
  },
  { id: 'UNS-02', what: 'reading an unknown participant', calls: [['getParticipant', { params: { id: UNKNOWN } }]] },
  { id: 'UNS-02', what: 'archiving an unknown participant', calls: [['archiveParticipant', { params: { id: UNKNOWN } }]] },
  { id: 'UNS-03', what: 'closing an unknown meeting', calls: [['closeMeeting', { params: { meetingId: UNKNOWN } }]] },
  {
    id: 'UNS-04',
    what: 'an unknown channel or room',
    calls: [
      ['getChannelInfo', { params: { channel: UNKNOWN } }],
      ['listChannelParticipants', { params: { channel_name: UNKNOWN } }],
      ['listRoomChannelParticipants', { params: { room: UNKNOWN, channel: UNKNOWN } }],
    ],
  },
];

for (const c of UNKNOWN_ID_CASES) {
  // The archive and the close of unknown ids are gated like the operations (support/permissions.ts).
  const shares = sharesOf(c.calls, ([operation]) => operation);
  test(`the answer to ${c.what} is observed`, cites(c.id, 'UNS-15', 'ERR-04', { tag: permissionTags(...shares.map((share) => share.permission)) }), async ({ api, target, observe, warn }) => {
    for (const share of shares) requirePermission(target, share.permission, share.operations);
    await together(c.calls, async ([operation, options]) => {
      const exchange = await api.call(operation, options);
      const answer = checkStated(exchange, warn);
      observe(c.id, answer, operation);
      if (exchange.status >= 400) observe('UNS-15', answer, operation);
    });
  });
}

test('the answer to take=1000 on paginated lists is observed', cites('UNS-05', 'ERR-04'), async ({ api, discover, needs, observe, warn }) => {
  const { group } = needs(await discover.groupWithParticipants(), 'TARGET_GROUP_ID', 'a group with participants');
  const exchanges = await allOf([
    api.call('listGroups', { query: { take: 1000 } }),
    api.call('listGroupParticipants', { params: { groupId: group.id }, query: { take: 1000 } }),
    api.call('getMeetingStats', { query: { usePagination: true, onlySummary: false, take: 1000 } }),
  ]);
  for (const exchange of exchanges) {
    const answer = checkStated(exchange, warn);
    const limit = field(field(exchange.json, 'pagination'), 'limit');
    observe('UNS-05', exchange.status === 200 ? `HTTP 200, ${itemsOf(exchange.json).length} items, pagination.limit ${String(limit)}` : answer, exchange.operationId);
  }
});

test('rate-limit headers on ordinary answers are observed', cites('UNS-06'), async ({ api, target, needs, observe }) => {
  const channel = needs(target.ids.channel, 'TARGET_CHANNEL', 'a realtime channel');
  for (const exchange of await allOf([api.call('listGroups'), api.call('getMeetingsSummary'), api.call('getChannelInfo', { params: { channel } })])) {
    expect(exchange).toMatchOperation(exchange.operationId, { status: 200 });
    observe('UNS-06', rateLimitHeaders(exchange), exchange.operationId);
  }
  const retries = test.info().annotations.filter((annotation) => annotation.type === 'retry');
  observe('UNS-06', retries.length === 0 ? 'no 429 or 503 seen' : `${retries.length} retries after 429/503`);
});

test('the lifetime of the access token is observed', cites('UNS-07'), async ({ api, target, observe }) => {
  const exchange = await api.login(target.email, target.password);
  expect(exchange).toMatchOperation('login', { status: 200 });
  const payload = String(field(exchange.json, 'access_token')).split('.')[1] ?? '';
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    claims = undefined;
  }
  const iat = field(claims, 'iat');
  const exp = field(claims, 'exp');
  observe('UNS-07', typeof iat === 'number' && typeof exp === 'number' ? `exp - iat = ${exp - iat} s` : `claims iat ${typeof iat}, exp ${typeof exp}`);
});

test('login with only the email or only the password is observed', cites('UNS-08', 'ERR-04'), async ({ api, target, observe, warn }) => {
  const [onlyEmail, onlyPassword] = await allOf([api.call('login', { body: { email: target.email } }), api.call('login', { body: { password: target.password } })]);
  observe('UNS-08', checkStated(onlyEmail, warn), 'email only');
  observe('UNS-08', checkStated(onlyPassword, warn), 'password only');
});

test('participant upserts without id, without participantId, and with participantId alone are observed', cites('UNS-09', 'ERR-04', { tag: ['@writes'] }), async ({ api, newParticipantId, observe, warn }) => {
  // Recorded before the upserts and archived at teardown, whichever of them the target stores.
  const [withoutId, withoutParticipantId, alone] = [newParticipantId(), newParticipantId(), newParticipantId()];
  const details = (id: string): JsonObject => ({ name: `${id} conformance`, email: `${id}@example.com`, avatar: `https://example.com/avatars/${id}.png` });
  const cases: [string, JsonObject][] = [
    ['without id', { participantId: withoutId, ...details(withoutId) }],
    ['without participantId', { id: withoutParticipantId, ...details(withoutParticipantId) }],
    ['participantId alone', { participantId: alone }],
  ];
  await together(cases, async ([name, body]) => {
    const exchange = await api.call('upsertParticipant', { body });
    if (exchange.status >= 400) expectErrorBody(exchange, warn);
    observe('UNS-09', describeAnswer(exchange), name);
  });
});

test('the body of a 201 from upsertParticipant is observed', cites('UNS-10', { tag: ['@writes'] }), async ({ createParticipant, observe }) => {
  const { exchange, id } = await createParticipant();
  expect(exchange).toMatchOperation('upsertParticipant', { status: 201 });
  const body = exchange.json;
  const form = exchange.text.trim() === '' ? 'empty' : isRecord(body) && body['id'] === id ? 'the participant record' : 'another body';
  observe('UNS-10', form, describeAnswer(exchange));
});

/** Meeting statistics records of the target's environment, checked against the document. */
async function meetingRecords(api: ApiClient, target: TargetConfig, needs: Needs): Promise<JsonObject[]> {
  const exchange = await api.call('getMeetingStats', { query: { onlySummary: false, environment: target.environment } });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  const records = itemsOf(exchange.json) as JsonObject[];
  return needs(records.length > 0 ? records : undefined, 'records on the target', 'meeting statistics records');
}

test('the values of price in meeting statistics are observed', cites('UNS-11'), async ({ api, target, needs, observe }) => {
  const prices = (await meetingRecords(api, target, needs)).map((record) => record['price'] as number);
  const decimals = Math.max(...prices.map((price) => (String(price).split('.')[1] ?? '').length));
  const integers = prices.filter((price) => Number.isInteger(price)).length;
  observe('UNS-11', `${prices.length} prices, ${integers} integers, from ${Math.min(...prices)} to ${Math.max(...prices)}, at most ${decimals} decimals`);
});

test('the permission values of meeting statistics participants are observed', cites('UNS-12'), async ({ api, target, needs, observe }) => {
  const permissions = (await meetingRecords(api, target, needs)).flatMap((record) => itemsOf(record['participants']).map((entry) => String(field(entry, 'permission'))));
  observe('UNS-12', `distinct values: ${[...new Set(permissions)].sort().join(', ') || 'none (no participants)'}`);
});

test('event names and data keys of a channel are observed', cites('UNS-13'), async ({ api, target, needs, observe }) => {
  const channel = needs(target.ids.channel, 'TARGET_CHANNEL', 'a realtime channel with events');
  const exchange = await api.call('getChannelInfo', { params: { channel } });
  expect(exchange).toMatchOperation('getChannelInfo', { status: 200 });
  const events = itemsOf(field(exchange.json, 'events'));
  const names = [...new Set(events.map((event) => String(field(event, 'name'))))];
  const keys = [...new Set(events.map((event) => Object.keys(field(event, 'data') ?? {}).sort().join('+')))];
  observe('UNS-13', `names: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`, `data keys: ${keys.slice(0, 10).join(', ')}`);
});

test('the answer to an API key of the other environment is observed', cites('UNS-14', 'ERR-04'), async ({ api, target, needs, observe, warn }) => {
  const otherKey = needs(target.otherApiKey, 'TARGET_OTHER_API_KEY', 'an API key of the other environment');
  observe('UNS-14', checkStated(await api.call('listGroups', { auth: { apiKey: otherKey } }), warn), 'listGroups: bearer of the developer account, other environment key');
  observe('UNS-14', checkStated(await api.call('getMeetingsSummary', { auth: { apiKey: otherKey } }), warn), 'getMeetingsSummary: other environment key alone');
});

test('listing recordings with neither roomId nor meetingId is observed', cites('UNS-16', 'ERR-04'), async ({ api, observe, warn }) => {
  const exchange = await api.call('listRecordings');
  observe('UNS-16', checkStated(exchange, warn), exchange.status === 200 ? `${itemsOf(exchange.json).length} recordings` : undefined);
});

test('the end time of a channel with its connected participants and newest event is observed', cites('UNS-17'), async ({ api, target, needs, observe }) => {
  const channel = needs(target.ids.channel, 'TARGET_CHANNEL', 'a realtime channel');
  const exchange = await api.call('getChannelInfo', { params: { channel } });
  expect(exchange).toMatchOperation('getChannelInfo', { status: 200 });
  const endTime = field(field(exchange.json, 'channel'), 'endTime');
  const times = itemsOf(field(exchange.json, 'events')).map((event) => field(event, 'timestamp') as number);
  const newest = times.length === 0 ? 'no events' : `newest event ${new Date(Math.max(...times)).toISOString()}`;
  observe('UNS-17', `endTime ${endTime === null ? 'null' : new Date(endTime as number).toISOString()}, ${connectedOf(exchange.json).length} connected, ${newest}`);
});

test('the realtime paths on the unversioned main address are observed', cites('UNS-18'), async ({ api, request, target, needs, observe }) => {
  const channel = needs(target.ids.channel, 'TARGET_CHANNEL', 'a realtime channel');
  const versioned = await api.call('getChannelInfo', { params: { channel } });
  expect(versioned).toMatchOperation('getChannelInfo', { status: 200 });
  const versionHeaders = Object.entries(versioned.headers).filter(([name]) => /version|deprecat|sunset/i.test(name));
  observe('UNS-18', versionHeaders.length === 0 ? 'no version headers' : versionHeaders.map(([name, value]) => `${name}=${value}`).join(', '), 'getChannelInfo');
  if (target.realtimeUrl === target.baseUrl) {
    observe('UNS-18', 'the realtime address is the main address');
    return;
  }
  const credentials = { client_id: target.clientId, secret: target.secret };
  const encoded = encodeURIComponent(channel);
  for (const path of [`/realtime/${encoded}`, `/realtime/participants/${encoded}`]) {
    const answer = await rawGet(request, target, `${target.baseUrl}${path}`, credentials);
    observe('UNS-18', `HTTP ${answer.status}`, `main address ${path.replace(encoded, '{channel}')}`);
  }
});

test('meeting statistics with usePagination=true and onlySummary left out are observed', cites('UNS-19'), async ({ api, observe }) => {
  const exchange = await api.call('getMeetingStats', { query: { usePagination: true } });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  const body = exchange.json;
  const summary = isRecord(body) && 'totalMeetings' in body;
  const envelope = isRecord(body) && 'pagination' in body;
  observe('UNS-19', summary && envelope ? 'summary and envelope together' : summary ? 'the summary' : envelope ? 'an envelope of records' : Array.isArray(body) ? 'an array of records' : 'another form');
});

test('getting an archived participant is observed', cites('UNS-20', 'ERR-04', { tag: ['@writes'] }), async ({ api, createParticipant, observe, warn }) => {
  const { id } = await createParticipant();
  expect(await api.call('archiveParticipant', { params: { id } })).toMatchOperation('archiveParticipant', { status: 200 });
  observe('UNS-20', checkStated(await api.call('getParticipant', { params: { id } }), warn));
});

test('upserting an archived participant is observed', cites('UNS-21', 'ERR-04', { tag: ['@writes'] }), async ({ api, createParticipant, observe, warn }) => {
  const { id, input } = await createParticipant();
  expect(await api.call('archiveParticipant', { params: { id } })).toMatchOperation('archiveParticipant', { status: 200 });
  const upsert = await api.call('upsertParticipant', { body: input });
  if (upsert.status >= 400) expectErrorBody(upsert, warn);
  const after = await api.call('getParticipant', { params: { id } });
  observe('UNS-21', `upsert ${describeAnswer(upsert)}; then getParticipant ${checkStated(after, warn)}`);
});

test('transcription statistics without environment are observed', cites('UNS-22'), async ({ api, needs, observe }) => {
  const [all, development, production] = await allOf([
    api.call('getTranscriptionStats'),
    api.call('getTranscriptionStats', { query: { environment: 'development' } }),
    api.call('getTranscriptionStats', { query: { environment: 'production' } }),
  ]);
  for (const exchange of [all, development, production]) expect(exchange).toMatchOperation('getTranscriptionStats', { status: 200 });
  const sorted = (uuids: string[]): string => JSON.stringify([...uuids].sort());
  const [none, dev, prod] = [uuidsOf(all), uuidsOf(development), uuidsOf(production)];
  needs(dev.length + prod.length > 0 ? dev : undefined, 'records on the target', 'transcription records in some environment');
  const relation =
    sorted(none) === sorted([...dev, ...prod]) ? 'both environments' : sorted(none) === sorted(dev) ? 'development only' : sorted(none) === sorted(prod) ? 'production only' : 'another set';
  observe('UNS-22', relation, `${none.length} without environment, ${dev.length} development, ${prod.length} production`);
});

test('month without year and a one-digit month are observed', cites('UNS-23', 'ERR-04'), async ({ api, observe, warn }) => {
  observe('UNS-23', checkStated(await api.call('getMeetingStats', { query: { month: '03' } }), warn), 'month=03 without year');
  observe('UNS-23', checkStated(await api.call('getMeetingStats', { query: { month: '3', year: 2024 } }), warn), 'month=3 with year=2024');
});

/** Each accepted passphrase costs the target a key pair: one case breaks the length, one the mix of characters. */
const PASSPHRASES: [string, string][] = [
  ['7 characters', 'Ab1!xyz'],
  ['lower-case letters only', 'onlylowercaseletters'],
];

test('passphrases outside the recommendation are observed', cites('UNS-24', 'ERR-04', { tag: ['@destructive'] }), async ({ api, target, observe, warn }) => {
  requireDestructive(target, 'creates account security keys');
  await together(PASSPHRASES, async ([name, passphrase]) => {
    const exchange = await api.call('createSecurityKey', { body: { passphrase } });
    if (exchange.status === 200) expect(field(exchange.json, 'passphrase'), 'the key is encrypted with the passphrase sent').toBe(passphrase);
    observe('UNS-24', checkStated(exchange, warn), name);
  });
});

test('recordings filtered by both roomId and meetingId are observed', cites('UNS-25'), async ({ api, discover, needs, observe }) => {
  const meetingId = needs(await discover.meetingId(), 'TARGET_MEETING_ID', 'a meeting with recordings');
  const byMeeting = await api.call('listRecordings', { query: { meetingId } });
  expect(byMeeting).toMatchOperation('listRecordings', { status: 200 });
  const meetingRooms = new Set(itemsOf(byMeeting.json).map((recording) => field(recording, 'roomId')));
  // A room the meeting was not held in tells intersection, union and either filter alone apart.
  const unfiltered = await api.call('listRecordings');
  const otherRoom = itemsOf(unfiltered.status === 200 ? unfiltered.json : []).map((recording) => field(recording, 'roomId')).find((room) => !meetingRooms.has(room));
  const roomId = needs((otherRoom as string | undefined) ?? (await discover.roomId()), 'TARGET_ROOM_ID', 'a room with recordings');
  const [byRoom, both] = await allOf([api.call('listRecordings', { query: { roomId } }), api.call('listRecordings', { query: { roomId, meetingId } })]);
  for (const exchange of [byRoom, both]) expect(exchange).toMatchOperation('listRecordings', { status: 200 });
  const [meetingSet, roomSet, bothSet] = [uuidsOf(byMeeting), uuidsOf(byRoom), uuidsOf(both)];
  const same = (uuids: string[]): boolean => JSON.stringify([...new Set(uuids)].sort()) === JSON.stringify([...new Set(bothSet)].sort());
  const forms = [
    ['the intersection', meetingSet.filter((uuid) => roomSet.includes(uuid))],
    ['the union', [...meetingSet, ...roomSet]],
    ['the meetingId filter alone', meetingSet],
    ['the roomId filter alone', roomSet],
  ] as const;
  const matching = forms.filter(([, uuids]) => same([...uuids])).map(([name]) => name);
  observe('UNS-25', matching.length === 0 ? 'another set' : matching.join(' = '), `${bothSet.length} with both, ${meetingSet.length} by meeting, ${roomSet.length} by room`);
});

test('rate-limit headers of transcription statistics are observed', cites('UNS-26'), async ({ api, target, observe }) => {
  // The usage-limit account belongs to the one test that exhausts it; this reads the developer account's headers only.
  const exchange = await api.call('getTranscriptionStats', { query: { environment: target.environment } });
  expect([200, 403], describeAnswer(exchange)).toContain(exchange.status);
  expect(exchange).toMatchOperation('getTranscriptionStats', { status: exchange.status });
  observe('UNS-26', rateLimitHeaders(exchange), `developer account, HTTP ${exchange.status}`);
});
