/**
 * Participant lifecycle: create (201), read back, update (201), archive (200 with the record), and
 * what an archived participant looks like afterwards. Every test writes: each one makes its own
 * participants with the createParticipant fixture, which archives them after the test, except the
 * one destructive PART-10 test, which archives and restores a seeded group member.
 *
 * The steps a check relies on but does not judge (an update before the read that is checked, an
 * archive before the list that is searched) take any 2xx; when a step fails, the check is not
 * assessable and names the requirement of the step, whose own test judges it.
 */
import { check, cites, expect, notAssessed, test, together } from '../fixtures/index.ts';
import type { ApiClient, CreatedParticipant, Exchange, Group, Participant } from '../fixtures/index.ts';
import { checkWhereItApplies } from './support/applicability.ts';
import { checkErrorBody } from './support/error-bodies.ts';
import { describeAnswer } from './support/observations.ts';
import { checkOpenAnswer, UNSPECIFIED_ERROR_BODY } from './support/open-answers.ts';
import { MAX_WALK_PAGES } from './support/paging.ts';
import type { ListRequest } from './support/paging.ts';
import { discovered, isAbsoluteUrl, keysOf, readPage, walkKeys } from './support/reads.ts';
import { observeUnknownId, UNKNOWN } from './support/unknown-ids.ts';
import type { UnknownIdCase } from './support/unknown-ids.ts';
import { createdOrError, holdsTheFieldsAskedFor, notListed } from './conditions/index.ts';

const WRITES = { tag: ['@writes'] };

/** The fields an upsert sets; the id is compared with the participantId sent (the body's `id` is the sample's only). */
const editableFields = (participant: Partial<Participant>): Partial<Participant> => ({
  name: participant.name,
  email: participant.email,
  avatar: participant.avatar,
});

/** The body of an update of `created`: same participantId, new name, email and avatar. */
function changed(created: CreatedParticipant): CreatedParticipant['input'] {
  const { input } = created;
  return { ...input, name: `${input.name} renamed`, email: `renamed.${input.email}`, avatar: input.avatar.replace(/\.png$/, '-v2.png') };
}

const isSuccess = (exchange: Exchange): boolean => exchange.status >= 200 && exchange.status <= 299;

/** The JSON object of a 2xx answer, or undefined. */
function recordOf(exchange: Exchange): Participant | undefined {
  const body: unknown = exchange.json;
  return isSuccess(exchange) && typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Participant) : undefined;
}

/** getParticipant judged by the running check: 200 and a record (its shape is PART-01's, recorded by the matcher). */
async function read(api: ApiClient, id: string): Promise<Exchange> {
  const exchange = await api.call('getParticipant', { params: { id } });
  expect(exchange).toMatchOperation('getParticipant', { status: 200 });
  return exchange;
}

/** A read the check relies on but does not judge: any 2xx with a record, else not assessable. */
async function readForCheck(api: ApiClient, id: string, why: string): Promise<Participant> {
  const exchange = await api.call('getParticipant', { params: { id } });
  const record = recordOf(exchange);
  if (record === undefined) notAssessed.check(`getParticipant ${why} answered HTTP ${exchange.status} without a record (PART-05)`);
  return record;
}

/** An update as a step of a later check: any 2xx; its exact status is PART-06's. */
async function update(api: ApiClient, body: CreatedParticipant['input']): Promise<void> {
  const exchange = await api.call('upsertParticipant', { body });
  if (!isSuccess(exchange)) notAssessed.check(`the update answered HTTP ${exchange.status} (PART-06)`);
}

/** An archive as a step of a later check: any 2xx; its status and record are PART-09's. */
async function archive(api: ApiClient, id: string): Promise<Exchange> {
  const exchange = await api.call('archiveParticipant', { params: { id } });
  if (!isSuccess(exchange)) notAssessed.check(`archiveParticipant ${id} answered HTTP ${exchange.status} (PART-09)`);
  return exchange;
}

const participantsOf = (groupId: string): ListRequest => ({ operationId: 'listGroupParticipants', params: { groupId }, key: 'id' });

test('creating a participant with a new participantId answers 201', cites('PART-04', WRITES), async ({ createParticipant }) => {
  const created = await createParticipant();
  expect(created.exchange).toMatchOperation('upsertParticipant', { status: 201 });
});

test('a created participant reads back with the id, name, email and avatar sent', cites('PART-05', 'PART-01', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const exchange = await api.call('getParticipant', { params: { id: created.id } });
  await check('PART-05', 'getParticipant of the created participant answers 200 with its participantId and the name, email and avatar sent', () => {
    // The status is this check's; a record that lacks a field fails PART-01, which the matcher records.
    expect(exchange).toMatchOperation('getParticipant', { status: 200 });
    holdsTheFieldsAskedFor(exchange, { id: created.id, ...editableFields(created.input) });
  });
  await check('PART-01', 'the created participant reads back as a Participant with id, name, email, avatar and createdAt', () => {
    if (exchange.status !== 200) notAssessed.check(`getParticipant answered HTTP ${exchange.status} (PART-05)`);
    expect(exchange).toMatchOperation('getParticipant', { status: 200 });
  });
});

test('updating a participant with a changed name, email and avatar answers 201', cites('PART-06', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const update = await api.call('upsertParticipant', { body: changed(created) });
  expect(update).toMatchOperation('upsertParticipant', { status: 201 });
});

test('an updated participant reads back with the same id and the new name, email and avatar', cites('PART-07', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const body = changed(created);
  await check('PART-07', 'getParticipant after the update answers 200 with the same id and the new name, email and avatar', async () => {
    await update(api, body);
    holdsTheFieldsAskedFor(await read(api, created.id), { id: created.id, ...editableFields(body) });
  });
});

test('updating a participant keeps its createdAt', cites('PART-08', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  await check('PART-08', 'createdAt is the same before and after an update', async () => {
    // Read before the update: a GET round trip separates the two writes, so a createdAt reset to
    // the time of the update differs from the original at millisecond precision.
    const before = await readForCheck(api, created.id, 'before the update');
    await update(api, changed(created));
    const after = await readForCheck(api, created.id, 'after the update');
    expect(after.createdAt, 'createdAt after the update').toBe(before.createdAt);
  });
});

test('archiving a participant answers 200 with its record', cites('PART-09', 'PART-02', WRITES), async ({ api, createParticipant }) => {
  const created = await createParticipant();
  const exchange = await api.call('archiveParticipant', { params: { id: created.id } });
  await check('PART-09', 'archiveParticipant answers 200 with the record of the path id, its name and email as before', () => {
    expect(exchange).toMatchOperation('archiveParticipant', { status: 200 });
    holdsTheFieldsAskedFor(exchange, { id: created.id, name: created.input.name, email: created.input.email });
  });
  await check('PART-02', 'the avatar of the archived record is an absolute URL', () => {
    const avatar = recordOf(exchange)?.avatar;
    if (typeof avatar !== 'string' || avatar === '')
      notAssessed.check(`the archive answered HTTP ${exchange.status} without a non-empty avatar (PART-09, PART-01)`);
    expect(isAbsoluteUrl(avatar), `avatar ${avatar} is an absolute URL`).toBe(true);
  });
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
test(
  'an archived participant the suite created is absent from every group participant list that listed it',
  cites('PART-10', WRITES),
  async ({ api, createParticipant, discover }) => {
    const created = await createParticipant();
    const groups = (await discover.groups()) ?? notAssessed('listGroups listed no group', { enable: 'TARGET_GROUP_ID' });
    const listing: string[] = [];
    // The groups' searches do not depend on each other: they go out together.
    await together(groups, async (group) => {
      const first = await discovered(readPage(api, participantsOf(group.id)));
      const lastSkip = (Math.ceil(first.pagination.total / 10) - 1) * 10;
      const last = lastSkip > 0 ? await discovered(readPage(api, participantsOf(group.id), { skip: lastSkip, take: 10 })) : first;
      if ([...keysOf(first, 'id'), ...keysOf(last, 'id')].includes(created.id)) listing.push(group.id);
    });
    if (listing.length === 0)
      notAssessed('no group of the first page lists the created participant (the interface cannot place it in one)', {
        lacking: 'a group of the first page of listGroups that lists the participants the suite creates',
      });
    await check('PART-10', `after archiving, ${created.id} is on no page of the ${listing.length} group(s) that listed it`, async () => {
      await archive(api, created.id);
      // After the archive, the walks of the groups go out together.
      await together(listing, async (groupId) => {
        const after = await walkKeys(api, participantsOf(groupId), 10);
        notListed(after.keys, created.id, `group ${groupId} after archiving ${created.id}`);
      });
    });
  },
);

/**
 * PART-10 on a seeded member, as the interface gives no way to make one. Destructive, so gated;
 * parallel-safe by choice of data: the group is taken from the second page of listGroups (discovery,
 * which the other specs read, uses TARGET_GROUP_ID and the first page) and holds at most
 * MAX_WALK_PAGES pages, and the member is not listed by the discovery group, whose counts the
 * pagination spec checks. No other test archives seeded data. An upsert with the member's own
 * values restores it afterwards (the reference reactivates it; UNS-21 records what a target does).
 */
test(
  'an archived group member is absent from every page of its group participant list',
  cites('PART-10', { tag: ['@writes', '@destructive'] }),
  async ({ api, target, discover }, testInfo) => {
    if (!target.allowWrites) notAssessed('archives a seeded group member', { enable: 'TARGET_ALLOW_WRITES' });
    if (!target.allowDestructive) notAssessed('archives a seeded group member, restored by an upsert afterwards', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    const shared = await discover.groupWithParticipants();
    const sharedWalk = shared === undefined ? undefined : await discovered(walkKeys(api, participantsOf(shared.group.id), 10));
    if (sharedWalk?.complete === false)
      notAssessed(`the discovery group holds more than ${MAX_WALK_PAGES * 10} participants, so a member outside it cannot be told apart`, {
        lacking: `a discovery group (TARGET_GROUP_ID) of at most ${MAX_WALK_PAGES * 10} participants`,
      });
    const avoided = new Set(sharedWalk?.keys ?? []);
    const firstPage = new Set(((await discover.groups()) ?? []).map((group) => group.id));
    const laterGroups = (await discovered(readPage(api, { operationId: 'listGroups', key: 'id' }, { skip: 10, take: 10 }))).data as unknown as Group[];
    let chosen: { groupId: string; member: Participant } | undefined;
    for (const group of laterGroups.filter(
      (candidate) => typeof candidate.id === 'string' && !firstPage.has(candidate.id) && candidate.id !== shared?.group.id,
    )) {
      const page = await discovered(readPage(api, participantsOf(group.id)));
      if (page.pagination.total > MAX_WALK_PAGES * 10) continue;
      const member = (page.data as unknown as Participant[]).find((participant) => typeof participant.id === 'string' && !avoided.has(participant.id));
      if (member !== undefined) {
        chosen = { groupId: group.id, member };
        break;
      }
    }
    if (chosen === undefined)
      notAssessed('no group on the second page of listGroups has a member outside the discovery group', {
        lacking: 'more than 10 groups, one of the 11th to 20th with a participant outside the discovery group',
      });
    const { groupId, member } = chosen as { groupId: string; member: Participant };
    try {
      await check('PART-10', `after archiving the seeded member ${member.id}, it is on no page of group ${groupId}`, async () => {
        await archive(api, member.id);
        const after = await walkKeys(api, participantsOf(groupId), 10);
        if (!after.complete)
          notAssessed.check(`the walk of group ${groupId} stopped at ${MAX_WALK_PAGES} pages before its end`, {
            lacking: `a group of at most ${MAX_WALK_PAGES * 10} participants on the second page of listGroups`,
          });
        notListed(after.keys, member.id, `group ${groupId} after archiving ${member.id}`);
      });
    } finally {
      const restore = await api.call('upsertParticipant', {
        body: { participantId: member.id, id: member.id, name: member.name, email: member.email, avatar: member.avatar },
      });
      if (!isSuccess(restore))
        testInfo.annotations.push({ type: 'cleanup', description: `seeded participant ${member.id} not restored: HTTP ${restore.status}` });
    }
  },
);

test(
  'reading an archived participant answers with its record or an error status (recorded)',
  cites('UNS-20', 'PART-11', WRITES),
  async ({ api, createParticipant, observe }) => {
    const created = await createParticipant();
    await afterArchive(api, created, 'UNS-20', 'getParticipant of an archived participant answers its record or an error status', async (answers) => {
      const exchange = await api.call('getParticipant', { params: { id: created.id } });
      answers.push(exchange);
      if (exchange.status === 200) {
        expect(exchange).toMatchOperation('getParticipant', { status: 200 });
        observe('UNS-20', 'HTTP 200 with the record');
      } else {
        observe('UNS-20', `HTTP ${exchange.status}`, exchange.text.slice(0, 200));
        // The error bodies of getParticipant are not shown: only what the catalogue states for its operation is checked.
        if (exchange.status >= 400)
          await checkErrorBody(exchange, 'getParticipant of an archived participant', ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], observe);
      }
    });
  },
);

test(
  'upserting an archived participant reactivates it or is refused (recorded)',
  cites('UNS-21', 'PART-11', WRITES),
  async ({ api, createParticipant, observe }) => {
    const created = await createParticipant();
    const label = 'an upsert of an archived participant is answered, and getParticipant afterwards answers its record or an error status';
    await afterArchive(api, created, 'UNS-21', label, async (answers) => {
      const upsert = await api.call('upsertParticipant', { body: created.input });
      if (upsert.status === 201) expect(upsert).toMatchOperation('upsertParticipant', { status: 201 });
      else if (upsert.status >= 400)
        await checkErrorBody(upsert, 'upsertParticipant of an archived participant', ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], observe);
      const readBack = await api.call('getParticipant', { params: { id: created.id } });
      answers.push(readBack);
      if (readBack.status === 200) expect(readBack).toMatchOperation('getParticipant', { status: 200 });
      else if (readBack.status >= 400)
        await checkErrorBody(readBack, 'getParticipant after an upsert of an archived participant', ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], observe);
      observe('UNS-21', `upsert answered HTTP ${upsert.status}; getParticipant afterwards HTTP ${readBack.status}`);
    });
  },
);

/** What PART-11 says of each call after an archive, for its labels. */
const AFTER_ARCHIVE: Readonly<Record<string, string>> = {
  'UNS-20': 'in reading an archived participant',
  'UNS-21': 'in upserting an archived participant and reading it back',
};

/**
 * One check of `requirementId` (UNS-20, UNS-21): the participant is archived inside it, then `calls`
 * are made, their answers kept; PART-11 judges those answers afterwards (theParticipantIfRead).
 */
async function afterArchive(
  api: ApiClient,
  created: CreatedParticipant,
  requirementId: 'UNS-20' | 'UNS-21',
  label: string,
  calls: (answers: Exchange[]) => Promise<void>,
): Promise<void> {
  const answers: Exchange[] = [];
  await check(requirementId, label, async () => {
    answers.push(await archive(api, created.id));
    await calls(answers);
  });
  await theParticipantIfRead(answers, created, AFTER_ARCHIVE[requirementId] ?? requirementId);
}

/**
 * PART-11: whatever the status of a read of an archived participant (UNS-20, UNS-21), a 200 answers
 * with that participant, with the name and email it holds (the upsert sent the same ones); so does
 * the 200 of the archive itself. It is decided from those two calls, the ones PART-11 concerns: it
 * does not apply when neither answered 200, and it is not assessed when the archive was refused
 * (the read was not made).
 */
async function theParticipantIfRead(answers: readonly Exchange[], created: CreatedParticipant, what: string): Promise<void> {
  const label = `${what}: a 200 is the participant asked for, with its name and email`;
  if (!answers.some((answer) => answer.operationId === 'getParticipant')) {
    notAssessed.record(
      'PART-11',
      label,
      `the archive was refused (${answers.map((answer) => `HTTP ${answer.status}`).join(', ') || 'no answer'}), so the participant was not read`,
    );
    return;
  }
  await checkWhereItApplies('PART-11', label, answers, (exchange) => {
    holdsTheFieldsAskedFor(exchange, { id: created.id, name: created.input.name, email: created.input.email });
  });
}

// What an unknown participant gets is not shown (UNS-02); a 200 is still the participant asked for (PART-11).
const UNKNOWN_PARTICIPANT: UnknownIdCase[] = [
  { id: 'UNS-02', what: 'reading an unknown participant', calls: [['getParticipant', { params: { id: UNKNOWN } }]] },
  { id: 'UNS-02', what: 'archiving an unknown participant', calls: [['archiveParticipant', { params: { id: UNKNOWN } }]] },
];
for (const c of UNKNOWN_PARTICIPANT) observeUnknownId(c);

/**
 * Archives a participant the test created. The archive is PART-09's to certify: when it is refused,
 * the observation cannot be made, and the checks of the test's requirements say so.
 */
async function archived(api: ApiClient, id: string, requirementIds: readonly string[], label: string): Promise<Exchange | undefined> {
  const exchange = await api.call('archiveParticipant', { params: { id } });
  if (exchange.status === 200) return exchange;
  for (const requirementId of requirementIds) notAssessed.record(requirementId, label, `archiveParticipant answered ${describeAnswer(exchange)} (PART-09)`);
  return undefined;
}

/**
 * PART-11 on the answers of the calls it concerns, the archive and the read: each 200 is the
 * participant asked for, with the name and email it holds; it does not apply when neither is a 200.
 */
async function isTheParticipant(answers: readonly Exchange[], input: { participantId: string; name: string; email: string }, what: string): Promise<void> {
  await checkWhereItApplies('PART-11', `${what}: a 200 is the participant asked for`, answers, (exchange) => {
    holdsTheFieldsAskedFor(exchange, { id: input.participantId, name: input.name, email: input.email });
  });
}

test('getting an archived participant is observed', cites('UNS-20', 'PART-11', { tag: ['@writes'] }), async ({ api, createParticipant, observe }) => {
  const { id, input } = await createParticipant();
  const what = 'getParticipant of an archived participant';
  const archive = await archived(api, id, ['UNS-20', 'PART-11'], what);
  if (archive === undefined) return;
  const read = await api.call('getParticipant', { params: { id } });
  observe('UNS-20', await checkOpenAnswer('UNS-20', read, what));
  await isTheParticipant([archive, read], input, 'in reading an archived participant');
});

test('upserting an archived participant is observed', cites('UNS-21', 'PART-11', { tag: ['@writes'] }), async ({ api, createParticipant, observe }) => {
  const { id, input } = await createParticipant();
  const what = 'upsertParticipant of an archived participant';
  const archive = await archived(api, id, ['UNS-21', 'PART-11'], what);
  if (archive === undefined) return;
  const upsert = await api.call('upsertParticipant', { body: input });
  await check('UNS-21', `${what}: answers the documented 201 or an error status`, () => createdOrError(upsert));
  if (upsert.status >= 400) await checkErrorBody(upsert, upsert.operationId, UNSPECIFIED_ERROR_BODY);
  const read = await api.call('getParticipant', { params: { id } });
  const after = await checkOpenAnswer('UNS-21', read, 'getParticipant after the upsert');
  observe('UNS-21', `upsert ${describeAnswer(upsert)}; then getParticipant ${after}`);
  await isTheParticipant([archive, read], input, 'in upserting an archived participant and reading it back');
});
