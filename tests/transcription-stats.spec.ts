/**
 * Transcription statistics (getTranscriptionStats): the array of records, the environment filter
 * and its partition, and the refusal of an unknown environment.
 *
 * Every request counts towards the developer account's usage limit (403 past it), which the whole
 * suite shares, so each test makes as few requests as it can. The exhaustion check itself (TRS-05)
 * lives in error-shapes.spec.ts with its own account.
 */
import { STATUS_CODES } from 'node:http';
import { cites, expect, test } from '../fixtures/index.ts';
import type { ApiClient, TranscriptionRecord } from '../fixtures/index.ts';

const ENVIRONMENTS = ['development', 'production'] as const;
type Environment = (typeof ENVIRONMENTS)[number];

/** Groups looked up per environment for the partition check: enough to catch swapped environments. */
const MAX_GROUP_LOOKUPS = 2;

async function readRecords(api: ApiClient, environment: Environment): Promise<TranscriptionRecord[]> {
  const exchange = await api.call('getTranscriptionStats', { query: { environment } });
  expect(exchange).toMatchOperation('getTranscriptionStats', { status: 200 });
  return exchange.json as TranscriptionRecord[];
}

test('transcription statistics answer a JSON array', cites('TRS-01'), async ({ api }) => {
  const exchange = await api.call('getTranscriptionStats');
  expect(exchange).toMatchOperation('getTranscriptionStats', { status: 200 });
  expect(Array.isArray(exchange.json), 'the body is an array').toBe(true);
});

for (const environment of ENVIRONMENTS) {
  test(`every ${environment} transcription record carries the documented fields`, cites('TRS-02'), async ({ api, needs }) => {
    // The matcher validates each record against TranscriptionRecord; an empty list would validate nothing.
    const records = await readRecords(api, environment);
    needs(records[0], `transcription records in ${environment}`, 'no record to check');
  });
}

test('development and production transcription records share no record', cites('TRS-03'), async ({ api, needs }) => {
  const [development, production] = await Promise.all([readRecords(api, 'development'), readRecords(api, 'production')]);
  needs(development[0], 'transcription records in development', 'disjointness needs records on both sides');
  needs(production[0], 'transcription records in production', 'disjointness needs records on both sides');
  const productionUuids = new Set(production.map((record) => record.uuid));
  expect(development.map((record) => record.uuid).filter((uuid) => productionUuids.has(uuid)), 'uuids listed in both environments').toEqual([]);
});

test("the records of the API key's environment refer to groups that key can read", cites('TRS-03'), async ({ api, target, needs }) => {
  // The API key selects the environment of groups; a filter that served the other environment's
  // records (or both) would name groups this key cannot read.
  const records = await readRecords(api, target.environment);
  needs(records[0], `transcription records in ${target.environment}`, 'no record to check');
  const groupIds = [...new Set(records.map((record) => record.groupId))].filter((id): id is string => id !== undefined);
  for (const groupId of groupIds.slice(0, MAX_GROUP_LOOKUPS)) {
    const group = await api.call('getGroup', { params: { id: groupId } });
    expect(group, `group ${groupId} of a ${target.environment} transcription record, read with the ${target.environment} API key`).toMatchOperation('getGroup', { status: 200 });
    expect((group.json as { id: string }).id).toBe(groupId);
  }
});

const INVALID_ENVIRONMENTS = ['staging', 'sandbox'] as const;

for (const environment of INVALID_ENVIRONMENTS) {
  test(`environment=${environment} is refused with a 4xx and the general error body`, cites('TRS-04'), async ({ api }) => {
    const exchange = await api.call('getTranscriptionStats', { query: { environment } });
    expect(exchange).toMatchOperation('getTranscriptionStats');
    expect(exchange.status, 'status').toBeGreaterThanOrEqual(400);
    expect(exchange.status, 'status').toBeLessThan(500);
    expect(exchange.json).toMatchObject({ statusCode: exchange.status, error: STATUS_CODES[exchange.status], message: expect.any(String) });
  });
}
