/**
 * The API key selects the environment (development or production): data read or written with the
 * key of one environment is not returned with the key of the other (TARGET_OTHER_API_KEY).
 *
 * How the other environment answers is not shown (UNS-14), so an error status passes; what must
 * not happen is a 2xx body that carries the other environment's data.
 */
import { cites, expect, test } from '../fixtures/index.ts';
import type { Exchange, Observe, Warn } from '../fixtures/index.ts';
import { checkErrorBody } from './support/auth.ts';

/**
 * The ids that a 2xx answer carries as a JSON string value anywhere in its body; an error answer
 * carries none, and its body is checked instead.
 */
function idsReturned(exchange: Exchange, ids: readonly string[], report: { warn: Warn; observe: Observe }): string[] {
  if (exchange.status < 200 || exchange.status > 299) {
    checkErrorBody(exchange, report, "with the other environment's API key");
    return [];
  }
  expect(exchange).toMatchOperation(exchange.operationId, { status: exchange.status });
  return ids.filter((id) => exchange.text.includes(JSON.stringify(id)));
}

test(
  "a participant created with one environment's API key is not returned with the other environment's key",
  cites('AUTH-26', { tag: ['@writes'] }),
  async ({ api, target, needs, createParticipant, warn, observe }) => {
    const otherApiKey = needs(target.otherApiKey, 'TARGET_OTHER_API_KEY', "an API key of the other environment");
    const created = await createParticipant();
    const own = await api.call('getParticipant', { params: { id: created.id } });
    expect(own, 'the participant is readable in its own environment').toMatchOperation('getParticipant', { status: 200 });
    const other = await api.call('getParticipant', { params: { id: created.id }, auth: { apiKey: otherApiKey } });
    expect(idsReturned(other, [created.id], { warn, observe }), `getParticipant with the other key returned the participant\n${other.curl}`).toEqual([]);
  },
);

test(
  "the participants of a group are neither listed nor returned with the other environment's API key",
  cites('AUTH-26'),
  async ({ api, discover, target, needs, warn, observe }) => {
    const otherApiKey = needs(target.otherApiKey, 'TARGET_OTHER_API_KEY', 'an API key of the other environment');
    const { group, participants } = needs(await discover.groupWithParticipants(), 'TARGET_GROUP_ID', 'a group with participants');
    const listed = await api.call('listGroupParticipants', { params: { groupId: group.id }, auth: { apiKey: otherApiKey } });
    const ids = participants.map((participant) => participant.id);
    expect(idsReturned(listed, ids, { warn, observe }), `listGroupParticipants with the other key listed participants of this environment\n${listed.curl}`).toEqual([]);
    const first = needs(ids[0], 'TARGET_GROUP_ID', 'a group with participants');
    const read = await api.call('getParticipant', { params: { id: first }, auth: { apiKey: otherApiKey } });
    expect(idsReturned(read, [first], { warn, observe }), `getParticipant with the other key returned the participant\n${read.curl}`).toEqual([]);
  },
);

test("a group of one environment is not returned with the other environment's API key", cites('AUTH-27'), async ({ api, discover, target, needs, warn, observe }) => {
  const otherApiKey = needs(target.otherApiKey, 'TARGET_OTHER_API_KEY', 'an API key of the other environment');
  const group = needs(await discover.group(), 'TARGET_GROUP_ID', 'a group of this environment');
  const other = await api.call('getGroup', { params: { id: group.id }, auth: { apiKey: otherApiKey } });
  if (idsReturned(other, [group.id], { warn, observe }).length > 0) warn('AUTH-27', `getGroup with the other environment's key returned group ${group.id}`);
});

test("the groups listed with one environment's API key are not listed with the other environment's key", cites('AUTH-27'), async ({ api, discover, target, needs, warn, observe }) => {
  const otherApiKey = needs(target.otherApiKey, 'TARGET_OTHER_API_KEY', 'an API key of the other environment');
  const groups = needs(await discover.groups(), 'TARGET_GROUP_ID', 'groups of this environment');
  const other = await api.call('listGroups', { auth: { apiKey: otherApiKey } });
  const shared = idsReturned(
    other,
    groups.map((group) => group.id),
    { warn, observe },
  );
  if (shared.length > 0) warn('AUTH-27', `listGroups with the other environment's key listed ${shared.length} group(s) of this one: ${shared.join(', ')}`);
});
