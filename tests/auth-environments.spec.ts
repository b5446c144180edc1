/**
 * The API key selects the environment (development or production): data read or written with the
 * key of one environment is not returned with the key of the other (TARGET_OTHER_API_KEY).
 *
 * How the other environment answers is not shown (UNS-14), so an error status passes and a 2xx
 * body is not held to the operation's schema; what must not happen is a 2xx body that carries the
 * other environment's data. One check per read with the other key.
 */
import { check, cites, expect, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient, Exchange } from '../fixtures/index.ts';
import type { ErrorReport } from './support/auth.ts';
import { checkErrorBody } from './support/error-bodies.ts';

/**
 * The ids that a 2xx answer carries as a JSON string value anywhere in its body; an error answer
 * carries none, and its body goes through the error-body checks instead.
 */
async function idsReturned(exchange: Exchange, ids: readonly string[], report: ErrorReport): Promise<string[]> {
  if (exchange.status < 200 || exchange.status > 299) {
    await checkErrorBody(exchange, `${exchange.operationId} with the other environment's API key`, ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], report.observe);
    return [];
  }
  return ids.filter((id) => exchange.text.includes(JSON.stringify(id)));
}

/** A read with the other environment's key that returns none of `ids`, as one check of `requirementId`. */
async function expectNoneReturned(
  requirementId: string,
  label: string,
  send: () => Promise<Exchange>,
  ids: readonly string[],
  report: ErrorReport,
): Promise<void> {
  await check(requirementId, label, async () => {
    const exchange = await send();
    expect(
      await idsReturned(exchange, ids, report),
      `${exchange.operationId} with the other environment's key returned this environment's data\n${exchange.curl}`,
    ).toEqual([]);
  });
}

/** A read of the participant in its own environment: without it, the partition cannot be told from a participant that was never created. */
async function readableHere(api: ApiClient, id: string): Promise<void> {
  const own = await api.call('getParticipant', { params: { id } });
  if (own.status !== 200 || !own.text.includes(JSON.stringify(id)))
    notAssessed.check(`getParticipant ${id} with its own environment's key answered HTTP ${own.status} without it (PART-05)`);
}

test(
  "a participant created with one environment's API key is not returned with the other environment's key",
  cites('AUTH-26', { tag: ['@writes'] }),
  async ({ api, target, createParticipant, warn, observe }) => {
    const otherApiKey = target.otherApiKey ?? notAssessed('an API key of the other environment', { enable: 'TARGET_OTHER_API_KEY' });
    const created = await createParticipant();
    await expectNoneReturned(
      'AUTH-26',
      "getParticipant with the other environment's key does not return a participant created with this one",
      async () => {
        await readableHere(api, created.id);
        return api.call('getParticipant', { params: { id: created.id }, auth: { apiKey: otherApiKey } });
      },
      [created.id],
      { warn, observe },
    );
  },
);

test(
  "the participants of a group are neither listed nor returned with the other environment's API key",
  cites('AUTH-26'),
  async ({ api, discover, target, warn, observe }) => {
    const otherApiKey = target.otherApiKey ?? notAssessed('an API key of the other environment', { enable: 'TARGET_OTHER_API_KEY' });
    const { group, participants } = (await discover.groupWithParticipants()) ?? notAssessed('a group with participants', { enable: 'TARGET_GROUP_ID' });
    const ids = participants.map((participant) => participant.id);
    await expectNoneReturned(
      'AUTH-26',
      `listGroupParticipants ${group.id} with the other environment's key lists none of its participants`,
      () => api.call('listGroupParticipants', { params: { groupId: group.id }, auth: { apiKey: otherApiKey } }),
      ids,
      { warn, observe },
    );
    const first = ids[0] ?? notAssessed('a group with participants', { enable: 'TARGET_GROUP_ID' });
    await expectNoneReturned(
      'AUTH-26',
      `getParticipant ${first} with the other environment's key does not return it`,
      () => api.call('getParticipant', { params: { id: first }, auth: { apiKey: otherApiKey } }),
      [first],
      { warn, observe },
    );
  },
);

test("a group of one environment is not returned with the other environment's API key", cites('AUTH-27'), async ({ api, discover, target, warn, observe }) => {
  const otherApiKey = target.otherApiKey ?? notAssessed('an API key of the other environment', { enable: 'TARGET_OTHER_API_KEY' });
  const group = (await discover.group()) ?? notAssessed('a group of this environment', { enable: 'TARGET_GROUP_ID' });
  await expectNoneReturned(
    'AUTH-27',
    `getGroup ${group.id} with the other environment's key does not return it`,
    () => api.call('getGroup', { params: { id: group.id }, auth: { apiKey: otherApiKey } }),
    [group.id],
    { warn, observe },
  );
});

test(
  "the groups listed with one environment's API key are not listed with the other environment's key",
  cites('AUTH-27'),
  async ({ api, discover, target, warn, observe }) => {
    const otherApiKey = target.otherApiKey ?? notAssessed('an API key of the other environment', { enable: 'TARGET_OTHER_API_KEY' });
    const groups = (await discover.groups()) ?? notAssessed('groups of this environment', { enable: 'TARGET_GROUP_ID' });
    await expectNoneReturned(
      'AUTH-27',
      `listGroups with the other environment's key lists none of the ${groups.length} groups of this one`,
      () => api.call('listGroups', { auth: { apiKey: otherApiKey } }),
      groups.map((group) => group.id),
      { warn, observe },
    );
  },
);
