/**
 * Groups and the read side of participants: list and get groups, a group's participants, and
 * getParticipant of a listed participant. Read-only; the data comes from discovery.
 */
import { cites, expect, test, together } from '../fixtures/index.ts';
import type { Group, Participant } from '../fixtures/index.ts';
import { envelopeOf, fetchPage } from './support/paging.ts';

const groupFields = (group: Partial<Group>): Partial<Group> => ({ id: group.id, name: group.name, createdAt: group.createdAt });

const participantFields = (participant: Partial<Participant>): Partial<Participant> => ({
  id: participant.id,
  name: participant.name,
  email: participant.email,
  avatar: participant.avatar,
  createdAt: participant.createdAt,
});

/** WHATWG URL parsing without a base: throws for a relative reference. */
function isAbsoluteUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

test('listing groups returns a pagination envelope of groups with distinct ids', cites('GRP-01', 'GRP-02'), async ({ api }) => {
  const exchange = await api.call('listGroups');
  expect(exchange).toMatchOperation('listGroups', { status: 200 });
  const ids = envelopeOf(exchange).data.map((group) => group['id']);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index), 'group ids listed twice').toEqual([]);
});

test('every group of the first page is returned by getGroup with the same id, name and createdAt', cites('GRP-03', 'GRP-02'), async ({ api, discover, needs }) => {
  const groups = needs(await discover.groups(), 'TARGET_GROUP_ID', 'listGroups listed no group');
  await together(groups, async (listed) => {
    const exchange = await api.call('getGroup', { params: { id: listed.id } });
    expect(exchange).toMatchOperation('getGroup', { status: 200 });
    expect(groupFields(exchange.json as Group), `getGroup ${listed.id}`).toEqual(groupFields(listed));
  });
});

test('a group beyond the first page is returned by getGroup with the same id, name and createdAt', cites('GRP-03'), async ({ api }) => {
  // The first page alone would not catch a getGroup that only finds the groups of the first page.
  const secondPage = await fetchPage(api, { operationId: 'listGroups', key: 'id' }, { skip: 10, take: 10 });
  const listed = secondPage.data.at(-1) as unknown as Group | undefined;
  test.skip(listed === undefined, 'not assessed: listGroups lists no more than 10 groups');
  const exchange = await api.call('getGroup', { params: { id: (listed as Group).id } });
  expect(exchange).toMatchOperation('getGroup', { status: 200 });
  expect(groupFields(exchange.json as Group)).toEqual(groupFields(listed as Group));
});

test("listing a group's participants returns a pagination envelope of participants", cites('GRP-04', 'PART-01'), async ({ api, discover, needs }) => {
  // A group with participants, so that the Participant schema is applied to at least one item.
  const { group } = needs(await discover.groupWithParticipants(), 'TARGET_GROUP_ID', 'no group on the first page of listGroups has participants');
  const exchange = await api.call('listGroupParticipants', { params: { groupId: group.id } });
  expect(exchange).toMatchOperation('listGroupParticipants', { status: 200 });
  const ids = envelopeOf(exchange).data.map((participant) => participant['id']);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index), 'participant ids listed twice').toEqual([]);
});

test("every participant of a group's first page is returned by getParticipant with equal fields", cites('PART-03', 'PART-01'), async ({ api, discover, needs }) => {
  const { participants } = needs(await discover.groupWithParticipants(), 'TARGET_GROUP_ID', 'no group on the first page of listGroups has participants');
  await together(participants, async (listed) => {
    const exchange = await api.call('getParticipant', { params: { id: listed.id } });
    expect(exchange).toMatchOperation('getParticipant', { status: 200 });
    expect(participantFields(exchange.json as Participant), `getParticipant ${listed.id}`).toEqual(participantFields(listed));
  });
});

test('participant avatars are absolute URLs, in the group list and from getParticipant', cites('PART-02'), async ({ api, discover, needs }) => {
  const { participants } = needs(await discover.groupWithParticipants(), 'TARGET_GROUP_ID', 'no group on the first page of listGroups has participants');
  const first = participants[0] as Participant;
  const exchange = await api.call('getParticipant', { params: { id: first.id } });
  expect(exchange).toMatchOperation('getParticipant', { status: 200 });
  const avatars = [...participants, exchange.json as Participant].map((participant) => ({ id: participant.id, avatar: participant.avatar ?? '' }));
  test.skip(avatars.every(({ avatar }) => avatar === ''), 'not assessed: every avatar read is empty');
  expect(avatars.filter(({ avatar }) => avatar !== '' && !isAbsoluteUrl(avatar)), 'avatars that are not absolute URLs').toEqual([]);
});
