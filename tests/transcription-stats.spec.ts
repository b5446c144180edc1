/**
 * Transcription statistics (getTranscriptionStats): the array of records, the environment filter
 * and its partition, and the refusal of an unknown environment.
 *
 * Every request counts towards the developer account's usage limit, which the whole suite shares, so
 * each test makes as few requests as it can; the documented 403 of a reached limit may answer any
 * read, and leaves the check that needed the read not assessed. The exhaustion check itself (TRS-05)
 * lives in error-shapes.spec.ts with its own account. The interface does not say that environment
 * may be left out (UNS-22 observes that), so every read here sends it.
 */
import { check, cites, expect, notAssessed, test } from '../fixtures/index.ts';
import type { ApiClient, Exchange, TranscriptionRecord } from '../fixtures/index.ts';
import { bodyIsArray, hasStatus, isGeneralErrorBody, isTheRecordAskedFor, refusedWith4xx, shareNoRecord } from './conditions/index.ts';
import { relyOn, unlessUsageLimited } from './support/reliance.ts';

const ENVIRONMENTS = ['development', 'production'] as const;
type Environment = (typeof ENVIRONMENTS)[number];

/** Groups looked up per environment for the partition check: enough to catch swapped environments. */
const MAX_GROUP_LOOKUPS = 2;

/** The read of one environment, unless the usage limit answers it. */
async function read(api: ApiClient, environment: Environment): Promise<Exchange> {
  return unlessUsageLimited(await api.call('getTranscriptionStats', { query: { environment } }));
}

/**
 * The records of one environment: a 200 (TRS-03 states it for both environments) with an array
 * (TRS-01), its records judged by the matcher against TranscriptionRecord (TRS-02).
 */
async function readRecords(api: ApiClient, environment: Environment): Promise<TranscriptionRecord[]> {
  const exchange = await read(api, environment);
  await relyOn('TRS-03', `getTranscriptionStats with environment=${environment} answers 200`, () => {
    hasStatus(exchange, 200);
  });
  await relyOn('TRS-01', `getTranscriptionStats with environment=${environment} answers an array`, () => {
    bodyIsArray(exchange);
  });
  expect(exchange).toMatchOperation('getTranscriptionStats', { status: 200 });
  return exchange.json as TranscriptionRecord[];
}

test('transcription statistics answer a JSON array', cites('TRS-01'), async ({ api, target }) => {
  await check('TRS-01', `getTranscriptionStats with environment=${target.environment} answers 200 with an array`, async () => {
    const exchange = await read(api, target.environment);
    expect(exchange).toMatchOperation('getTranscriptionStats', { status: 200 });
    bodyIsArray(exchange);
  });
});

for (const environment of ENVIRONMENTS) {
  test(`every ${environment} transcription record carries the documented fields`, cites('TRS-02'), async ({ api }) => {
    // The matcher validates each record against TranscriptionRecord; an empty list would validate nothing.
    await check('TRS-02', `every ${environment} record carries the documented fields`, async () => {
      if ((await readRecords(api, environment)).length === 0) notAssessed('no record to check', { lacking: `transcription records in ${environment}` });
    });
  });
}

test('development and production transcription records share no record', cites('TRS-03'), async ({ api }) => {
  await check('TRS-03', 'no uuid is listed in both environments', async () => {
    const [development, production] = await Promise.all([readRecords(api, 'development'), readRecords(api, 'production')]);
    if (development.length === 0) notAssessed('disjointness needs records on both sides', { lacking: 'transcription records in development' });
    if (production.length === 0) notAssessed('disjointness needs records on both sides', { lacking: 'transcription records in production' });
    shareNoRecord(
      development.map((record) => record.uuid),
      production.map((record) => record.uuid),
    );
  });
});

test("the records of the API key's environment refer to groups that key can read", cites('TRS-03'), async ({ api, target }) => {
  // The API key selects the environment of groups; a filter that served the other environment's
  // records (or both) would name groups this key cannot read.
  await check('TRS-03', `the groups of ${target.environment} records are readable with the ${target.environment} API key`, async () => {
    const records = await readRecords(api, target.environment);
    if (records.length === 0) notAssessed('no record to check', { lacking: `transcription records in ${target.environment}` });
    const groupIds = [...new Set(records.map((record) => record.groupId))].filter((id): id is string => id !== undefined);
    for (const groupId of groupIds.slice(0, MAX_GROUP_LOOKUPS)) {
      const group = await api.call('getGroup', { params: { id: groupId } });
      expect(group, `group ${groupId} of a ${target.environment} transcription record, read with the ${target.environment} API key`).toMatchOperation(
        'getGroup',
        { status: 200 },
      );
      isTheRecordAskedFor(group.json, ['id'], groupId);
    }
  });
});

const INVALID_ENVIRONMENTS = ['staging', 'sandbox'] as const;

for (const environment of INVALID_ENVIRONMENTS) {
  test(`environment=${environment} is refused with a 4xx and the general error body`, cites('TRS-04'), async ({ api }) => {
    // A 403 of the usage limit is a 4xx with the same documented body, so it is judged like any refusal.
    const exchange = await api.call('getTranscriptionStats', { query: { environment } });
    expect(exchange).toMatchOperation('getTranscriptionStats');
    refusedWith4xx(exchange);
    // The general error body, as the condition states it for every caller (status names in any letter case, RFC 9110's and 2616's too).
    isGeneralErrorBody(exchange);
  });
}
