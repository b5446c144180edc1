/**
 * The API key selects the environment (development or production): data read or written with the
 * key of one environment is not returned with the key of the other (TARGET_OTHER_API_KEY).
 *
 * How the other environment answers is not shown (UNS-14), so an error status passes and a 2xx
 * body is not held to the operation's schema; what must not happen is a 2xx body that carries the
 * other environment's data. One check per read with the other key.
 */
import { check, cites, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient, CallOptions, Observe, TargetConfig } from '../fixtures/index.ts';
import { mentionsNoneOf } from './conditions/index.ts';
import { checkErrorBody } from './support/error-bodies.ts';

/** One read with the other environment's key: the operation and its request parts but the key. */
type Read = readonly [operationId: string, options: CallOptions];

/**
 * Reads with the other environment's API key (without it, the test is not assessed), each one check
 * of `requirementId`: a 2xx returns none of `ids` (as a JSON string value anywhere in its body); an
 * error answer returns nothing, and its body goes through the error-body checks instead. `before`
 * runs first inside the check.
 */
function withOtherKey(api: ApiClient, target: TargetConfig, observe: Observe) {
  const apiKey = target.otherApiKey ?? notAssessed('an API key of the other environment', { enable: 'TARGET_OTHER_API_KEY' });
  return async (requirementId: string, label: string, [operationId, options]: Read, ids: readonly string[], before?: () => Promise<void>): Promise<void> => {
    await check(requirementId, label, async () => {
      await before?.();
      const exchange = await api.call(operationId, { ...options, auth: { apiKey } });
      if (exchange.status >= 200 && exchange.status <= 299) mentionsNoneOf(exchange, ids);
      else await checkErrorBody(exchange, `${operationId} with the other environment's API key`, ['ERR-04', 'ERR-05', 'ERR-06', 'VAR-05'], observe);
    });
  };
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
  async ({ api, target, createParticipant, observe }) => {
    const noneReturned = withOtherKey(api, target, observe);
    const created = await createParticipant();
    const label = "getParticipant with the other environment's key does not return a participant created with this one";
    await noneReturned('AUTH-26', label, ['getParticipant', { params: { id: created.id } }], [created.id], () => readableHere(api, created.id));
  },
);

test(
  "the participants of a group are neither listed nor returned with the other environment's API key",
  cites('AUTH-26'),
  async ({ api, discover, target, observe }) => {
    const noneReturned = withOtherKey(api, target, observe);
    const { group, participants } = (await discover.groupWithParticipants()) ?? notAssessed('a group with participants', { enable: 'TARGET_GROUP_ID' });
    const ids = participants.map((participant) => participant.id);
    const listed = `listGroupParticipants ${group.id} with the other environment's key lists none of its participants`;
    await noneReturned('AUTH-26', listed, ['listGroupParticipants', { params: { groupId: group.id } }], ids);
    const first = ids[0] ?? notAssessed('a group with participants', { enable: 'TARGET_GROUP_ID' });
    await noneReturned(
      'AUTH-26',
      `getParticipant ${first} with the other environment's key does not return it`,
      ['getParticipant', { params: { id: first } }],
      [first],
    );
  },
);

test("a group of one environment is not returned with the other environment's API key", cites('AUTH-27'), async ({ api, discover, target, observe }) => {
  const noneReturned = withOtherKey(api, target, observe);
  const group = (await discover.group()) ?? notAssessed('a group of this environment', { enable: 'TARGET_GROUP_ID' });
  await noneReturned(
    'AUTH-27',
    `getGroup ${group.id} with the other environment's key does not return it`,
    ['getGroup', { params: { id: group.id } }],
    [group.id],
  );
});

test(
  "the groups listed with one environment's API key are not listed with the other environment's key",
  cites('AUTH-27'),
  async ({ api, discover, target, observe }) => {
    const noneReturned = withOtherKey(api, target, observe);
    const groups = (await discover.groups()) ?? notAssessed('groups of this environment', { enable: 'TARGET_GROUP_ID' });
    const label = `listGroups with the other environment's key lists none of the ${groups.length} groups of this one`;
    await noneReturned(
      'AUTH-27',
      label,
      ['listGroups', {}],
      groups.map((group) => group.id),
    );
  },
);
