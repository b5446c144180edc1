/**
 * An API key of another account than the bearer token's (TARGET_FOREIGN_API_KEY): the interface
 * says such a key is rejected ("How a wrong environment or mismatched API key is rejected: not
 * shown"), and a credential that does not hold gives 401. How it is rejected is open (UNS-14
 * observes the status), so any 4xx passes; a 2xx (the other account's data, or the caller's), a
 * redirect or a 5xx does not. Only reads are sent: an upsert, an archive or a close accepted with
 * that key would change the other account's data.
 */
import { check, cites, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient, Exchange } from '../fixtures/index.ts';
import { refusedWith4xx } from './conditions/index.ts';

interface ForeignRead {
  label: string;
  send: (api: ApiClient, apiKey: string) => Promise<Exchange | undefined>;
}

/** The reads of the operations that take both credentials; an id the caller's data lacks leaves a read out. */
function reads(ids: { groupId?: string; participantId?: string; meetingId?: string; roomId?: string }): ForeignRead[] {
  const { groupId, participantId, meetingId, roomId } = ids;
  const filter = meetingId !== undefined ? { meetingId } : roomId !== undefined ? { roomId } : undefined;
  return [
    { label: 'listGroups', send: (api, apiKey) => api.call('listGroups', { auth: { apiKey } }) },
    {
      label: `getGroup ${groupId ?? ''}`,
      send: async (api, apiKey) => (groupId === undefined ? undefined : api.call('getGroup', { params: { id: groupId }, auth: { apiKey } })),
    },
    {
      label: `listGroupParticipants ${groupId ?? ''}`,
      send: async (api, apiKey) => (groupId === undefined ? undefined : api.call('listGroupParticipants', { params: { groupId }, auth: { apiKey } })),
    },
    {
      label: `getParticipant ${participantId ?? ''}`,
      send: async (api, apiKey) => (participantId === undefined ? undefined : api.call('getParticipant', { params: { id: participantId }, auth: { apiKey } })),
    },
    {
      label: `listRecordings ${JSON.stringify(filter ?? {})}`,
      send: (api, apiKey) => api.call('listRecordings', { ...(filter === undefined ? {} : { query: filter }), auth: { apiKey } }),
    },
  ];
}

test("an API key of another account is refused with the caller's bearer token", cites('AUTH-29'), async ({ api, discover, target }) => {
  const foreignKey = target.foreignApiKey ?? notAssessed('an API key of another account', { enable: 'TARGET_FOREIGN_API_KEY' });
  const found = await discover.groupWithParticipants();
  const ids = {
    ...(found === undefined ? {} : { groupId: found.group.id }),
    ...(found?.participants[0] === undefined ? {} : { participantId: found.participants[0].id }),
    ...(target.ids.meetingId === undefined ? {} : { meetingId: target.ids.meetingId }),
    ...(target.ids.roomId === undefined ? {} : { roomId: target.ids.roomId }),
  };
  for (const read of reads(ids)) {
    await check('AUTH-29', `${read.label} with the developer's bearer token and the other account's API key is refused with a 4xx`, async () => {
      const exchange = (await read.send(api, foreignKey)) ?? notAssessed.check('no id of this account to read it with', { enable: 'TARGET_GROUP_ID' });
      refusedWith4xx(exchange);
    });
  }
});
