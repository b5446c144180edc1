/**
 * Groups and the read side of participants: list and get groups, a group's participants, and
 * getParticipant of a listed participant. Read-only; the data comes from discovery.
 *
 * Each test checks its requirements one by one: the list or record of one read against the
 * envelope (GRP-01, GRP-04), the records against their shape (GRP-02, PART-01), and what one read
 * says about another (GRP-03, PART-03), one check per group or participant.
 */
import { check, cites, expect, notAssessed, test, together } from '../fixtures/index.ts';
import type { CallOptions, Exchange, Group, Participant } from '../fixtures/index.ts';
import { discovered, isAbsoluteUrl, readPage } from './support/reads.ts';
import { observeUnknownId, UNKNOWN } from './support/unknown-ids.ts';
import { noItemTwice, sameRecord } from './conditions/index.ts';

/** The fields a get answers as the list gave them. */
const GROUP_FIELDS = ['id', 'name', 'createdAt'] as const satisfies readonly (keyof Group)[];
const PARTICIPANT_FIELDS = ['id', 'name', 'email', 'avatar', 'createdAt'] as const satisfies readonly (keyof Participant)[];

/** The JSON object a 200 answered with; a check that compares its fields is not assessable without one (its shape is another check's). */
function recordOf(exchange: Exchange, requirementId: string): Record<string, unknown> {
  const body: unknown = exchange.json;
  if (exchange.status !== 200) notAssessed.check(`${exchange.operationId} answered HTTP ${exchange.status} (${requirementId})`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) notAssessed.check(`${exchange.operationId} answered no JSON object (${requirementId})`);
  return body as Record<string, unknown>;
}

/** The items of a 200 envelope; the checks of their shape and ids are not assessable without them. */
function listedItems(exchange: Exchange, requirementId: string): Record<string, unknown>[] {
  const data = recordOf(exchange, requirementId)['data'];
  if (!Array.isArray(data)) notAssessed.check(`${exchange.operationId} answered no data array (${requirementId})`);
  return data as Record<string, unknown>[];
}

/** The ids listed more than once. */
test('listing groups returns a pagination envelope of groups with distinct ids', cites('GRP-01', 'GRP-02', 'PAG-10'), async ({ api }) => {
  const exchange = await api.call('listGroups');
  await check('GRP-01', 'listGroups answers 200 with a pagination envelope whose data is an array of groups', () => {
    expect(exchange).toMatchOperation('listGroups', { status: 200 });
  });
  await check('GRP-02', 'every group listGroups lists carries id, name and createdAt', () => {
    listedItems(exchange, 'GRP-01');
    expect(exchange).toMatchOperation('listGroups', { status: 200 });
  });
  await check('PAG-10', 'the first page of listGroups lists no group twice', () => {
    noItemTwice(
      listedItems(exchange, 'GRP-01').map((item) => item['id']),
      exchange,
    );
  });
});

test('every group of the first page is returned by getGroup with the same id, name and createdAt', cites('GRP-03', 'GRP-02'), async ({ api, discover }) => {
  const groups = (await discover.groups()) ?? notAssessed('listGroups listed no group', { enable: 'TARGET_GROUP_ID' });
  // The reads do not depend on each other: they go out together, each with its checks.
  await together(groups, async (listed) => {
    const exchange = await api.call('getGroup', { params: { id: listed.id } });
    await check('GRP-03', `getGroup ${listed.id} answers 200 with the listed id, name and createdAt`, () => {
      // The status is this check's; a Group that lacks a field fails GRP-02, which the matcher records.
      expect(exchange).toMatchOperation('getGroup', { status: 200 });
      sameRecord(recordOf(exchange, 'GRP-02'), listed, GROUP_FIELDS, `getGroup ${listed.id}, beside the group listGroups listed`, exchange);
    });
    await check('GRP-02', `getGroup ${listed.id} answers a Group with id, name and createdAt`, () => {
      recordOf(exchange, 'GRP-03');
      expect(exchange).toMatchOperation('getGroup', { status: 200 });
    });
  });
});

test('a group beyond the first page is returned by getGroup with the same id, name and createdAt', cites('GRP-03'), async ({ api }) => {
  // The first page alone would not catch a getGroup that only finds the groups of the first page.
  const secondPage = await discovered(readPage(api, { operationId: 'listGroups', key: 'id' }, { skip: 10, take: 10 }));
  const listed = secondPage.data.filter((item): item is Record<string, unknown> & Group => typeof item['id'] === 'string').at(-1);
  if (listed === undefined) notAssessed('listGroups lists no more than 10 groups');
  const group = listed as Group;
  await check('GRP-03', `getGroup ${group.id} (listed at skip=10) answers 200 with the listed id, name and createdAt`, async () => {
    const exchange = await api.call('getGroup', { params: { id: group.id } });
    expect(exchange).toMatchOperation('getGroup', { status: 200 });
    sameRecord(recordOf(exchange, 'GRP-02'), group, GROUP_FIELDS, `getGroup ${group.id}, beside the group listGroups listed at skip=10`, exchange);
  });
});

test("listing a group's participants returns a pagination envelope of participants", cites('GRP-04', 'PART-01', 'PAG-10'), async ({ api, discover }) => {
  // A group with participants, so that the Participant schema is applied to at least one item.
  const { group } =
    (await discover.groupWithParticipants()) ?? notAssessed('no group on the first page of listGroups has participants', { enable: 'TARGET_GROUP_ID' });
  const exchange = await api.call('listGroupParticipants', { params: { groupId: group.id } });
  await check('GRP-04', `listGroupParticipants ${group.id} answers 200 with a pagination envelope whose data is an array of participants`, () => {
    expect(exchange).toMatchOperation('listGroupParticipants', { status: 200 });
  });
  await check('PART-01', `every participant of group ${group.id} carries id, name, email, avatar and createdAt`, () => {
    listedItems(exchange, 'GRP-04');
    expect(exchange).toMatchOperation('listGroupParticipants', { status: 200 });
  });
  await check('PAG-10', `the first page of group ${group.id} lists no participant twice`, () => {
    noItemTwice(
      listedItems(exchange, 'GRP-04').map((item) => item['id']),
      exchange,
    );
  });
});

test("every participant of a group's first page is returned by getParticipant with equal fields", cites('PART-03', 'PART-01'), async ({ api, discover }) => {
  const { participants } =
    (await discover.groupWithParticipants()) ?? notAssessed('no group on the first page of listGroups has participants', { enable: 'TARGET_GROUP_ID' });
  // The reads do not depend on each other: they go out together, each with its checks.
  await together(participants, async (listed) => {
    const exchange = await api.call('getParticipant', { params: { id: listed.id } });
    await check('PART-03', `getParticipant ${listed.id} answers 200 with the fields of the list entry`, () => {
      // The status is this check's; a record that lacks a field fails PART-01, which the matcher records.
      expect(exchange).toMatchOperation('getParticipant', { status: 200 });
      sameRecord(recordOf(exchange, 'PART-01'), listed, PARTICIPANT_FIELDS, `getParticipant ${listed.id}, beside the entry of the group list`, exchange);
    });
    await check('PART-01', `getParticipant ${listed.id} answers a Participant with id, name, email, avatar and createdAt`, () => {
      recordOf(exchange, 'PART-03');
      expect(exchange).toMatchOperation('getParticipant', { status: 200 });
    });
  });
});

test('participant avatars are absolute URLs, in the group list and from getParticipant', cites('PART-02'), async ({ api, discover }) => {
  const { participants } =
    (await discover.groupWithParticipants()) ?? notAssessed('no group on the first page of listGroups has participants', { enable: 'TARGET_GROUP_ID' });
  const first = participants[0] as Participant;
  // A read this check takes what it can from: its status and shape are PART-03's and PART-01's.
  const exchange = await api.call('getParticipant', { params: { id: first.id } });
  const read = exchange.status === 200 && typeof exchange.json === 'object' && exchange.json !== null ? [exchange.json as Participant] : [];
  const avatars = [...participants, ...read].flatMap((participant) =>
    typeof participant.avatar === 'string' && participant.avatar !== '' ? [{ id: participant.id, avatar: participant.avatar }] : [],
  );
  if (avatars.length === 0) notAssessed('every avatar read is empty');
  await check('PART-02', `the ${avatars.length} non-empty avatars read are absolute URLs`, () => {
    expect(
      avatars.filter(({ avatar }) => !isAbsoluteUrl(avatar)),
      'avatars that are not absolute URLs',
    ).toEqual([]);
  });
});

// What an unknown group gets is not shown (UNS-01); a 200 of getGroup is still the group asked for (GRP-05).
const GROUP_CALLS: [string, CallOptions][] = [
  ['getGroup', { params: { id: UNKNOWN } }],
  ['listGroupParticipants', { params: { groupId: UNKNOWN } }],
];
observeUnknownId({ id: 'UNS-01', what: 'an unknown group', calls: GROUP_CALLS });
