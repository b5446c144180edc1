/**
 * Behaviour the interface leaves "not shown" (UNS-05..26; the answers to unknown ids, UNS-01..04, are
 * observed in the spec of their area through support/unknown-ids.ts): each test provokes it, records
 * what the target did with observe(), and checks only what the interface does state: an answer is
 * the documented 200 or an error status (a check of the UNS requirement, so that a difference is an
 * observation), and an error body is checked against the requirements that govern it
 * (support/open-answers.ts). Those error-body requirements are checked, not cited: whether an answer
 * is an error is the target's choice.
 */
import { allOf, check, cites, expect, isRecord, notAssessed, test, together } from '../fixtures/index.ts';
import type { ApiClient, Exchange, JsonObject, TargetConfig } from '../fixtures/index.ts';
import { createdOrError, echoesPassphrase, hasStatus } from './conditions/index.ts';
import { checkWhereItApplies } from './support/applicability.ts';
import { checkErrorBody } from './support/error-bodies.ts';
import { connectedOf, describeAnswer, field, itemsOf, rateLimitHeaders, rawGet } from './support/observations.ts';
import { checkOpenAnswer, UNSPECIFIED_ERROR_BODY } from './support/open-answers.ts';
import { callSecurityKey } from './support/security-keys.ts';

const uuidsOf = (exchange: Exchange): string[] => itemsOf(exchange.json).map((item) => String(field(item, 'uuid')));

/** More items than any take=1000 page may hold. */
const LARGE_TAKE = 1000;

test('the answer to take=1000 on paginated lists is observed', cites('UNS-05'), async ({ api, discover, observe }) => {
  const { group } = (await discover.groupWithParticipants()) ?? notAssessed('a group with participants', { enable: 'TARGET_GROUP_ID' });
  const exchanges = await allOf([
    api.call('listGroups', { query: { take: LARGE_TAKE } }),
    api.call('listGroupParticipants', { params: { groupId: group.id }, query: { take: LARGE_TAKE } }),
    api.call('getMeetingStats', { query: { usePagination: true, onlySummary: false, take: LARGE_TAKE } }),
  ]);
  for (const exchange of exchanges) {
    const answer = await checkOpenAnswer('UNS-05', exchange);
    if (exchange.status === 200) {
      await check('UNS-05', `${exchange.operationId}: a page of take=${LARGE_TAKE} holds at most ${LARGE_TAKE} items`, () => {
        expect(itemsOf(exchange.json).length).toBeLessThanOrEqual(LARGE_TAKE);
      });
    }
    const limit = field(field(exchange.json, 'pagination'), 'limit');
    observe(
      'UNS-05',
      exchange.status === 200 ? `HTTP 200, ${itemsOf(exchange.json).length} items, pagination.limit ${String(limit)}` : answer,
      exchange.operationId,
    );
  }
});

test('rate-limit headers on ordinary answers are observed', cites('UNS-06'), async ({ api, target, observe }) => {
  const channel = target.ids.channel ?? notAssessed('a realtime channel', { enable: 'TARGET_CHANNEL' });
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

test('login with only the email or only the password is observed', cites('UNS-08'), async ({ api, target, observe }) => {
  const [onlyEmail, onlyPassword] = await allOf([
    api.call('login', { body: { email: target.email } }),
    api.call('login', { body: { password: target.password } }),
  ]);
  observe('UNS-08', await checkOpenAnswer('UNS-08', onlyEmail, 'login with the email only'), 'email only');
  observe('UNS-08', await checkOpenAnswer('UNS-08', onlyPassword, 'login with the password only'), 'password only');
});

test(
  'participant upserts without id, without participantId, and with participantId alone are observed',
  cites('UNS-09', { tag: ['@writes'] }),
  async ({ api, newParticipantId, observe }) => {
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
      // "201: the participant was created or updated"; the body of the 201 is not shown (UNS-10).
      await check('UNS-09', `upsert ${name}: answers the documented 201 or an error status`, () => createdOrError(exchange));
      if (exchange.status >= 400) await checkErrorBody(exchange, exchange.operationId, UNSPECIFIED_ERROR_BODY);
      observe('UNS-09', describeAnswer(exchange), name);
    });
  },
);

test('the body of a 201 from upsertParticipant is observed', cites('UNS-10', { tag: ['@writes'] }), async ({ createParticipant, observe }) => {
  const { exchange, id } = await createParticipant();
  expect(exchange).toMatchOperation('upsertParticipant', { status: 201 });
  const body = exchange.json;
  const form = exchange.text.trim() === '' ? 'empty' : isRecord(body) && body['id'] === id ? 'the participant record' : 'another body';
  observe('UNS-10', form, describeAnswer(exchange));
});

/** Meeting statistics records of the target's environment, checked against the document. */
async function meetingRecords(api: ApiClient, target: TargetConfig): Promise<JsonObject[]> {
  const exchange = await api.call('getMeetingStats', { query: { onlySummary: false, environment: target.environment } });
  expect(exchange).toMatchOperation('getMeetingStats', { status: 200 });
  const records = itemsOf(exchange.json) as JsonObject[];
  return records.length > 0 ? records : notAssessed('meeting statistics records', { lacking: 'records on the target' });
}

test('the values of price in meeting statistics are observed', cites('UNS-11'), async ({ api, target, observe }) => {
  const prices = (await meetingRecords(api, target)).map((record) => record['price'] as number);
  const decimals = Math.max(...prices.map((price) => (String(price).split('.')[1] ?? '').length));
  const integers = prices.filter((price) => Number.isInteger(price)).length;
  // The form is what kind of number a price is; how many and their range are the detail.
  observe(
    'UNS-11',
    `${integers === prices.length ? 'integers only' : integers === 0 ? 'fractions only' : 'integers and fractions'}, at most ${decimals} decimals`,
    `${prices.length} prices, ${integers} integers, from ${Math.min(...prices)} to ${Math.max(...prices)}`,
  );
});

test('the permission values of meeting statistics participants are observed', cites('UNS-12'), async ({ api, target, observe }) => {
  const permissions = (await meetingRecords(api, target)).flatMap((record) =>
    itemsOf(record['participants']).map((entry) => String(field(entry, 'permission'))),
  );
  observe('UNS-12', `distinct values: ${[...new Set(permissions)].sort().join(', ') || 'none (no participants)'}`);
});

test('event names and data keys of a channel are observed', cites('UNS-13'), async ({ api, target, observe }) => {
  const channel = target.ids.channel ?? notAssessed('a realtime channel with events', { enable: 'TARGET_CHANNEL' });
  const exchange = await api.call('getChannelInfo', { params: { channel } });
  expect(exchange).toMatchOperation('getChannelInfo', { status: 200 });
  const events = itemsOf(field(exchange.json, 'events'));
  const names = [...new Set(events.map((event) => String(field(event, 'name'))))];
  const keys = [
    ...new Set(
      events.map((event) =>
        Object.keys(field(event, 'data') ?? {})
          .sort()
          .join('+'),
      ),
    ),
  ];
  observe(
    'UNS-13',
    `names: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`,
    `data keys: ${keys.slice(0, 10).join(', ')}`,
  );
});

test('the answer to an API key of the other environment is observed', cites('UNS-14'), async ({ api, target, observe }) => {
  const otherKey = target.otherApiKey ?? notAssessed('an API key of the other environment', { enable: 'TARGET_OTHER_API_KEY' });
  const groups = await api.call('listGroups', { auth: { apiKey: otherKey } });
  observe('UNS-14', await checkOpenAnswer('UNS-14', groups), 'listGroups: bearer of the developer account, other environment key');
  const summary = await api.call('getMeetingsSummary', { auth: { apiKey: otherKey } });
  observe('UNS-14', await checkOpenAnswer('UNS-14', summary), 'getMeetingsSummary: other environment key alone');
});

// That such a key is refused, with some 4xx, is AUTH-29 (tests/auth-accounts.spec.ts); which status, observed here.
test('the answer to an API key of another account is observed', cites('UNS-14'), async ({ api, target, observe }) => {
  const foreignKey = target.foreignApiKey ?? notAssessed('an API key of another account', { enable: 'TARGET_FOREIGN_API_KEY' });
  const groups = await api.call('listGroups', { auth: { apiKey: foreignKey } });
  observe('UNS-14', await checkOpenAnswer('UNS-14', groups), "listGroups: bearer of the developer account, another account's key");
});

test('listing recordings with neither roomId nor meetingId is observed', cites('UNS-16'), async ({ api, observe }) => {
  const exchange = await api.call('listRecordings');
  observe('UNS-16', await checkOpenAnswer('UNS-16', exchange), exchange.status === 200 ? `${itemsOf(exchange.json).length} recordings` : undefined);
});

test('the end time of a channel with its connected participants and newest event is observed', cites('UNS-17'), async ({ api, target, observe }) => {
  const channel = target.ids.channel ?? notAssessed('a realtime channel', { enable: 'TARGET_CHANNEL' });
  const exchange = await api.call('getChannelInfo', { params: { channel } });
  expect(exchange).toMatchOperation('getChannelInfo', { status: 200 });
  const endTime = field(field(exchange.json, 'channel'), 'endTime');
  const times = itemsOf(field(exchange.json, 'events')).map((event) => field(event, 'timestamp') as number);
  const newest = times.length === 0 ? 'no events' : `newest event ${new Date(Math.max(...times)).toISOString()}`;
  observe(
    'UNS-17',
    `endTime ${endTime === null ? 'null' : 'a time'}`,
    `endTime ${endTime === null ? 'null' : new Date(endTime as number).toISOString()}, ${connectedOf(exchange.json).length} connected, ${newest}`,
  );
});

test('the realtime paths on the unversioned main address are observed', cites('UNS-18'), async ({ api, request, target, observe }) => {
  const channel = target.ids.channel ?? notAssessed('a realtime channel', { enable: 'TARGET_CHANNEL' });
  const versioned = await api.call('getChannelInfo', { params: { channel } });
  expect(versioned).toMatchOperation('getChannelInfo', { status: 200 });
  const versionHeaders = Object.entries(versioned.headers).filter(([name]) => /version|deprecat|sunset/i.test(name));
  observe(
    'UNS-18',
    versionHeaders.length === 0 ? 'no version headers' : versionHeaders.map(([name, value]) => `${name}=${value}`).join(', '),
    'getChannelInfo',
  );
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

/** The documented form a meeting-statistics body has, by its members (the interface shows three). */
function formOf(body: unknown): string {
  const summary = isRecord(body) && ['totalMeetingMinutes', 'totalRecordingMinutes', 'totalMeetings'].every((name) => typeof body[name] === 'number');
  const envelope = isRecord(body) && isRecord(body['pagination']) && Array.isArray(body['data']);
  if (summary && envelope) return 'summary and envelope together';
  if (summary) return 'the summary';
  if (envelope) return 'an envelope of records';
  return Array.isArray(body) ? 'an array of records' : 'another form';
}

test('meeting statistics with usePagination=true and onlySummary left out are observed', cites('UNS-19'), async ({ api, observe }) => {
  // Neither the status nor the form is shown: the answer is observed, and compared with the documented forms.
  const exchange = await api.call('getMeetingStats', { query: { usePagination: true } });
  const form = exchange.status === 200 ? formOf(exchange.json) : describeAnswer(exchange);
  observe('UNS-19', form);
  expect(form, 'one of the documented forms of meeting statistics').not.toBe('another form');
});

/** Reads of transcription statistics may meet the documented usage-limit 403: such a read assesses nothing. */
function unlessUsageLimit(exchange: Exchange): Exchange {
  if (exchange.status === 403) notAssessed.check(`getTranscriptionStats answered the usage-limit 403 (${describeAnswer(exchange)})`);
  return exchange;
}

test('transcription statistics without environment are observed', cites('UNS-22', 'TRS-06'), async ({ api, observe }) => {
  // environment is listed with its allowed values, not stated optional: a refusal of the read without it is an answer too.
  // The read without environment goes first: a record made between the reads is then in neither or
  // only in the later ones, never only in the first (TRS-06 compares it with the other two).
  const all = await api.call('getTranscriptionStats');
  const [developmentAnswer, productionAnswer] = await allOf([
    api.call('getTranscriptionStats', { query: { environment: 'development' } }),
    api.call('getTranscriptionStats', { query: { environment: 'production' } }),
  ]);
  await check('UNS-22', 'transcription statistics without environment relate to the development and production results', async () => {
    const development = unlessUsageLimit(developmentAnswer);
    const production = unlessUsageLimit(productionAnswer);
    for (const exchange of [development, production]) expect(exchange).toMatchOperation('getTranscriptionStats', { status: 200 });
    unlessUsageLimit(all);
    if (all.status >= 400) {
      observe('UNS-22', `refused: ${describeAnswer(all)}`);
      return;
    }
    expect(all).toMatchOperation('getTranscriptionStats', { status: 200 });
    const sorted = (uuids: string[]): string => JSON.stringify([...uuids].sort());
    const [none, dev, prod] = [uuidsOf(all), uuidsOf(development), uuidsOf(production)];
    if (dev.length + prod.length === 0) notAssessed('transcription records in some environment', { lacking: 'records on the target' });
    const relation =
      sorted(none) === sorted([...dev, ...prod])
        ? 'both environments'
        : sorted(none) === sorted(dev)
          ? 'development only'
          : sorted(none) === sorted(prod)
            ? 'production only'
            : 'another set';
    observe('UNS-22', relation, `${none.length} without environment, ${dev.length} development, ${prod.length} production`);
  });
  // What a 200 without environment holds is TRS-06's, decided from that read alone (the reads by
  // environment answer 200 on any target that serves the operation). The usage-limit 403 leaves it
  // unassessed, as it does the other reads; any other refusal is the target's choice.
  const label = 'without environment: every record listed is listed by environment=development or environment=production';
  if (all.status === 403) notAssessed.record('TRS-06', `getTranscriptionStats ${label}`, `the read answered the usage-limit 403 (${describeAnswer(all)})`);
  else
    await checkWhereItApplies(
      'TRS-06',
      label,
      [all, developmentAnswer, productionAnswer],
      (exchange) => {
        const listed = new Set([...uuidsOf(unlessUsageLimit(developmentAnswer)), ...uuidsOf(unlessUsageLimit(productionAnswer))]);
        for (const read of [developmentAnswer, productionAnswer]) expect(read).toMatchOperation('getTranscriptionStats', { status: 200 });
        expect(
          uuidsOf(exchange).filter((uuid) => !listed.has(uuid)),
          `records without environment that neither environment lists\n${exchange.curl}`,
        ).toEqual([]);
      },
      { named: (exchange) => exchange === all },
    );
});

test('month without year and a one-digit month are observed', cites('UNS-23'), async ({ api, observe }) => {
  observe(
    'UNS-23',
    await checkOpenAnswer('UNS-23', await api.call('getMeetingStats', { query: { month: '03' } }), 'month=03 without year'),
    'month=03 without year',
  );
  observe(
    'UNS-23',
    await checkOpenAnswer('UNS-23', await api.call('getMeetingStats', { query: { month: '3', year: 2024 } }), 'month=3 with year=2024'),
    'month=3 with year=2024',
  );
});

/** Each accepted passphrase costs the target a key pair: one case breaks the length, one the mix of characters. */
const PASSPHRASES: [string, string][] = [
  ['7 characters', 'Ab1!xyz'],
  ['lower-case letters only', 'onlylowercaseletters'],
];

test('passphrases outside the recommendation are observed', cites('UNS-24', { tag: ['@destructive'] }), async ({ api, discover, target, observe }) => {
  if (!target.allowDestructive) notAssessed('creates account security keys', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
  await together(PASSPHRASES, async ([name, passphrase]) => {
    // At the path the worker's discovery found keys served (VAR-03): another path's answer says nothing of passphrases.
    const exchange = await callSecurityKey(api, discover, { body: { passphrase } });
    const answer = await checkOpenAnswer('UNS-24', exchange, `a passphrase of ${name}`);
    if (exchange.status === 200) {
      await check('SEC-02', `a key made with a passphrase of ${name} carries the passphrase sent`, () =>
        echoesPassphrase(field(exchange.json, 'passphrase'), passphrase),
      );
    }
    observe('UNS-24', answer, name);
  });
});

test('recordings filtered by both roomId and meetingId are observed', cites('UNS-25', 'REC-11'), async ({ api, discover, observe }) => {
  const meetingId = (await discover.meetingId()) ?? notAssessed('a meeting with recordings', { enable: 'TARGET_MEETING_ID' });
  const byMeeting = await api.call('listRecordings', { query: { meetingId } });
  expect(byMeeting).toMatchOperation('listRecordings', { status: 200 });
  const meetingRooms = new Set(itemsOf(byMeeting.json).map((recording) => field(recording, 'roomId')));
  // A room the meeting was not held in tells intersection, union and either filter alone apart.
  const unfiltered = await api.call('listRecordings');
  const otherRoom = itemsOf(unfiltered.status === 200 ? unfiltered.json : [])
    .map((recording) => field(recording, 'roomId'))
    .find((room) => !meetingRooms.has(room));
  const roomId = (otherRoom as string | undefined) ?? (await discover.roomId()) ?? notAssessed('a room with recordings', { enable: 'TARGET_ROOM_ID' });
  const [byRoom, both] = await allOf([api.call('listRecordings', { query: { roomId } }), api.call('listRecordings', { query: { roomId, meetingId } })]);
  expect(byRoom).toMatchOperation('listRecordings', { status: 200 });
  await check('UNS-25', 'listRecordings answers 200 to roomId and meetingId together', () => expect(both).toMatchOperation('listRecordings', { status: 200 }));
  // Whichever set a 200 holds, each recording matches at least one of the two filters (REC-11): decided
  // from the call with both filters alone, whatever the reads with one filter answered.
  await checkWhereItApplies(
    'REC-11',
    `with roomId=${roomId} and meetingId=${meetingId}: each recording is of the room or of the meeting`,
    [byMeeting, byRoom, both],
    (exchange) => {
      const strays = itemsOf(exchange.json).filter((recording) => field(recording, 'roomId') !== roomId && field(recording, 'meetingId') !== meetingId);
      expect(
        strays.map((recording) => field(recording, 'uuid')),
        `recordings of neither the room nor the meeting\n${exchange.curl}`,
      ).toEqual([]);
    },
    { named: (exchange) => exchange === both },
  );
  if (both.status !== 200) return;
  const [meetingSet, roomSet, bothSet] = [uuidsOf(byMeeting), uuidsOf(byRoom), uuidsOf(both)];
  const same = (uuids: string[]): boolean => JSON.stringify([...new Set(uuids)].sort()) === JSON.stringify([...new Set(bothSet)].sort());
  const forms = [
    ['the intersection', meetingSet.filter((uuid) => roomSet.includes(uuid))],
    ['the union', [...meetingSet, ...roomSet]],
    ['the meetingId filter alone', meetingSet],
    ['the roomId filter alone', roomSet],
  ] as const;
  const matching = forms.filter(([, uuids]) => same([...uuids])).map(([name]) => name);
  observe(
    'UNS-25',
    matching.length === 0 ? 'another set' : matching.join(' = '),
    `${bothSet.length} with both, ${meetingSet.length} by meeting, ${roomSet.length} by room`,
  );
});

test('rate-limit headers of transcription statistics are observed', cites('UNS-26'), async ({ api, target, observe }) => {
  // The usage-limit account belongs to the one test that exhausts it; this reads the developer account's headers only.
  const exchange = await api.call('getTranscriptionStats', { query: { environment: target.environment } });
  hasStatus(exchange, [200, 403]);
  expect(exchange).toMatchOperation('getTranscriptionStats', { status: exchange.status });
  observe('UNS-26', rateLimitHeaders(exchange), `developer account, HTTP ${exchange.status}`);
});
