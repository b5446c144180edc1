/**
 * Participant lifecycle: create (201), read back, update (201), archive (200 with the record), and
 * what an archived participant looks like afterwards. Every test writes: each one makes its own
 * participants with the createParticipant fixture, which archives them after the test, except the
 * one destructive PART-10 test, which archives and restores a seeded group member.
 */
import { cites, expect, requireDestructive, requireWrites, test, together } from '../fixtures/index.ts';
import type { ApiClient, CreatedParticipant, Exchange, Group, Participant } from '../fixtures/index.ts';
import { MAX_WALK_PAGES, fetchPage, keysOf, walk } from './support/paging.ts';
import type { ListRequest } from './support/paging.ts';

const WRITES = { tag: ['@writes'] };

const editableFields = (participant: Partial<Participant>): Partial<Participant> => ({
  id: participant.id,
  name: participant.name,
  email: participant.email,
  avatar: participant.avatar,
});

/** The body of an update of `created`: same participantId, new name, email and avatar. */
function changed(created: CreatedParticipant): CreatedParticipant['input'] {
  const { input } = created;
  return { ...input, name: `${input.name} renamed`, email: `renamed.${input.email}`, avatar: input.avatar.replace(/\.png$/, '-v2.png') };
}

async function read(api: ApiClient, id: string): Promise<Participant> {
  const exchange = await api.call('getParticipant', { params: { id } });
  expect(exchange).toMatchOperation('getParticipant', { status: 200 });
  return exchange.json as Participant;
}

/** Sends an update as a step of a later check: only acceptance (2xx) is required here; its exact status is PART-06. */
async function update(api: ApiClient, body: CreatedParticipant['input']): Promise<void> {
  const exchange = await api.call('upsertParticipant', { body });
  expect(exchange.status >= 200 && exchange.status < 300, `update accepted, got HTTP ${exchange.status}\n${exchange.curl}`).toBe(true);
}

async function archive(api: ApiClient, id: string): Promise<Exchange> {
  const exchange = await api.call('archiveParticipant', { params: { id } });
  expect(exchange).toMatchOperation('archiveParticipant', { status: 200 });
  return exchange;
}

const participantsOf = (groupId: string): ListRequest => ({ operationId: 'listGroupParticipants', params: { groupId }, key: 'id' });

/** Where the interface leaves the status open, the one thing it states: an error body's statusCode is the HTTP status. */
function expectStatusCodeMatches(exchange: Exchange): void {
  const body = exchange.json;
  if (typeof body === 'object' && body !== null && 'statusCode' in body) {
    expect(body.statusCode, `statusCode of the HTTP ${exchange.status} body`).toBe(exchange.status);
  }
}

test('creating a participant with a new participantId answers 201', cites('PART-04', WRITES), async ({ createParticipant }) => {
  const created = await createParticipant();
  expect(created.exchange).toMatchOperation('upsertParticipant', { status: 201 });
});

test('a created participant reads back with the id, name, email and avatar sent', cites('PART-05', 'PART-01', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  expect(editableFields(await read(api, created.id))).toEqual(editableFields(created.input));
});

test('updating a participant with a changed name, email and avatar answers 201', cites('PART-06', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const update = await api.call('upsertParticipant', { body: changed(created) });
  expect(update).toMatchOperation('upsertParticipant', { status: 201 });
});

test('an updated participant reads back with the same id and the new name, email and avatar', cites('PART-07', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const body = changed(created);
  await update(api, body);
  expect(editableFields(await read(api, created.id))).toEqual(editableFields(body));
});

test('updating a participant keeps its createdAt', cites('PART-08', WRITES), async ({ api, createParticipant, warn }) => {
  const created = await createParticipant();
  // Read before the update: a GET round trip separates the two writes, so a createdAt reset to
  // the time of the update differs from the original at millisecond precision.
  const before = await read(api, created.id);
  await update(api, changed(created));
  const after = await read(api, created.id);
  if (after.createdAt !== before.createdAt) warn('PART-08', `createdAt changed on update from ${String(before.createdAt)} to ${String(after.createdAt)}`);
});

test('archiving a participant answers 200 with its record', cites('PART-09', 'PART-02', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const archived = (await archive(api, created.id)).json as Participant;
  expect({ id: archived.id, name: archived.name, email: archived.email }).toEqual({ id: created.id, name: created.input.name, email: created.input.email });
  expect(() => new URL(archived.avatar ?? ''), `avatar ${String(archived.avatar)} is an absolute URL`).not.toThrow();
});

/**
 * PART-10 with the suite's own data. The participant body carries no group, and the interface has
 * no operation that puts a participant into a group, so a created participant is listed by a group
 * only if the target places it there by itself. The test looks for it where the interface searches
 * participants, within a bound: the groups of the first page of listGroups, the first and the last
 * page of each (where a new member would be appended or prepended), at most 20 requests. It
 * archives it and checks every page of each group that listed it. When no group lists it (the
 * reference places created participants in none), the check is not assessed here; the
 * destructive test below assesses PART-10 on a seeded member instead.
 */
test('an archived participant the suite created is absent from every group participant list that listed it', cites('PART-10', WRITES), async ({ api, createParticipant, discover, needs }) => {
  const created = await createParticipant();
  const groups = needs(await discover.groups(), 'TARGET_GROUP_ID', 'listGroups listed no group');
  const listing: string[] = [];
  await together(groups, async (group) => {
    const first = await fetchPage(api, participantsOf(group.id));
    const lastSkip = (first.pagination.totalPages - 1) * 10;
    const last = lastSkip > 0 ? await fetchPage(api, participantsOf(group.id), { skip: lastSkip, take: 10 }) : first;
    if ([...keysOf(first, 'id'), ...keysOf(last, 'id')].includes(created.id)) listing.push(group.id);
  });
  test.skip(listing.length === 0, `not assessed: no group of the first page lists the created participant (the interface cannot place it in one)`);
  await archive(api, created.id);
  await together(listing, async (groupId) => {
    const after = await walk(api, participantsOf(groupId), 10);
    expect(after.keys, `participants of group ${groupId} after archiving ${created.id}`).not.toContain(created.id);
  });
});

/**
 * PART-10 on a seeded member, as the interface gives no way to make one. Destructive, so gated;
 * parallel-safe by choice of data: the group is taken from the second page of listGroups (discovery,
 * which the other specs read, uses TARGET_GROUP_ID and the first page) and holds at most
 * MAX_WALK_PAGES pages, and the member is not listed by the discovery group, whose counts the
 * pagination spec checks. No other test archives seeded data. An upsert with the member's own
 * values restores it afterwards (the reference reactivates it; UNS-21 records what a target does).
 */
test('an archived group member is absent from every page of its group participant list', cites('PART-10', { tag: ['@writes', '@destructive'] }), async ({ api, target, discover }, testInfo) => {
  requireWrites(target, 'archives a seeded group member');
  requireDestructive(target, 'archives a seeded group member, restored by an upsert afterwards');
  const shared = await discover.groupWithParticipants();
  const sharedWalk = shared === undefined ? undefined : await walk(api, participantsOf(shared.group.id), 10);
  test.skip(sharedWalk?.complete === false, `not assessed: the discovery group holds more than ${MAX_WALK_PAGES * 10} participants, so a member outside it cannot be told apart`);
  const avoided = new Set(sharedWalk?.keys ?? []);
  const firstPage = new Set(((await discover.groups()) ?? []).map((group) => group.id));
  const laterGroups = (await fetchPage(api, { operationId: 'listGroups', key: 'id' }, { skip: 10, take: 10 })).data as unknown as Group[];
  let chosen: { groupId: string; member: Participant } | undefined;
  for (const group of laterGroups.filter((candidate) => !firstPage.has(candidate.id) && candidate.id !== shared?.group.id)) {
    const page = await fetchPage(api, participantsOf(group.id));
    if (page.pagination.total > MAX_WALK_PAGES * 10) continue;
    const member = (page.data as unknown as Participant[]).find((participant) => !avoided.has(participant.id));
    if (member !== undefined) {
      chosen = { groupId: group.id, member };
      break;
    }
  }
  test.skip(chosen === undefined, 'not assessed: no group on the second page of listGroups has a member outside the discovery group');
  const { groupId, member } = chosen as { groupId: string; member: Participant };
  try {
    await archive(api, member.id);
    const after = await walk(api, participantsOf(groupId), 10);
    expect(after.complete, `walk of group ${groupId} reached its end`).toBe(true);
    expect(after.keys, `participants of group ${groupId} after archiving ${member.id}`).not.toContain(member.id);
  } finally {
    const restore = await api.call('upsertParticipant', {
      body: { participantId: member.id, id: member.id, name: member.name, email: member.email, avatar: member.avatar },
    });
    if (restore.status !== 201) testInfo.annotations.push({ type: 'cleanup', description: `seeded participant ${member.id} not restored: HTTP ${restore.status}` });
  }
});

test('reading an archived participant answers with its record or an error status (recorded)', cites('UNS-20', 'ERR-04', WRITES), async ({ api, createParticipant, observe }) => {
  const created = await createParticipant();
  await archive(api, created.id);
  const exchange = await api.call('getParticipant', { params: { id: created.id } });
  if (exchange.status === 200) {
    expect(exchange).toMatchOperation('getParticipant', { status: 200 });
    expect((exchange.json as Participant).id).toBe(created.id);
    observe('UNS-20', 'HTTP 200 with the record');
  } else {
    expectStatusCodeMatches(exchange);
    observe('UNS-20', `HTTP ${exchange.status}`, exchange.text.slice(0, 200));
  }
});

test('upserting an archived participant reactivates it or is refused (recorded)', cites('UNS-21', 'ERR-04', WRITES), async ({ api, createParticipant, observe }) => {
  const created = await createParticipant();
  await archive(api, created.id);
  const upsert = await api.call('upsertParticipant', { body: created.input });
  if (upsert.status === 201) expect(upsert).toMatchOperation('upsertParticipant', { status: 201 });
  else expectStatusCodeMatches(upsert);
  const readBack = await api.call('getParticipant', { params: { id: created.id } });
  if (readBack.status === 200) {
    expect(readBack).toMatchOperation('getParticipant', { status: 200 });
    expect((readBack.json as Participant).id).toBe(created.id);
  } else {
    expectStatusCodeMatches(readBack);
  }
  observe('UNS-21', `upsert answered HTTP ${upsert.status}; getParticipant afterwards HTTP ${readBack.status}`);
});
