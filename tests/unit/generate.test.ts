import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { listOperations, validateSchema } from '../../fixtures/contract.ts';
import type { Exchange, OperationInfo } from '../../fixtures/contract.ts';
import { emailOfLength } from '../../fixtures/generate/arbitraries.ts';
import { assess, assessReadBack, isStatusName } from '../../fixtures/generate/assess.ts';
import { bindPlan, summarisePlan } from '../../fixtures/generate/cases.ts';
import { toCallOptions } from '../../fixtures/generate/exercise.ts';
import { negativePlans, negativeTitle, positivePlans, positiveTitle } from '../../fixtures/generate/index.ts';
import { negativePlan } from '../../fixtures/generate/negative.ts';
import { announceOnce, runCaseSet } from '../../fixtures/generate/run.ts';
import { DEFAULT_SEED, generatedSettings } from '../../fixtures/generate/settings.ts';
import { UNIQUE_PREFIX } from '../../fixtures/generate/types.ts';
import type { CaseContext, CaseSet, GeneratedCase, GeneratedRequest } from '../../fixtures/generate/types.ts';
import { requirement } from '../../fixtures/requirements.ts';

const SEED = DEFAULT_SEED;
const SAMPLES = 60;

/** Target data for every parameter any plan asks for. */
const CONTEXT: CaseContext = {
  [UNIQUE_PREFIX]: ['gen-unit'],
  id: ['id-1', 'id-2'],
  groupId: ['grp-1', 'grp-2'],
  roomId: ['room-1'],
  meetingId: ['mtg-1'],
  channel: ['chan-1'],
  channel_name: ['chan-1'],
  room: ['room-1'],
};

const operations = listOperations();
const operationById = new Map(operations.map((operation) => [operation.operationId, operation]));

function operationOf(operationId: string): OperationInfo {
  const operation = operationById.get(operationId);
  assert.ok(operation, operationId);
  return operation;
}

function casesOf(plans: ReturnType<typeof negativePlans>): GeneratedCase[] {
  return plans.flatMap((plan) => {
    const set = bindPlan(plan, CONTEXT, SAMPLES);
    return [...set.examples, ...(set.arbitrary === undefined ? [] : fc.sample(set.arbitrary, { seed: SEED, numRuns: SAMPLES }))];
  });
}

const negativeCases = casesOf(negativePlans());
const positiveCases = casesOf(positivePlans());

// ------------------------------------------------------------ an independent reading of the document

const escape = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function bodyPointer(operation: OperationInfo): string {
  return `/paths/${escape(operation.path)}/${operation.method.toLowerCase()}/requestBody/content/application~1json/schema`;
}

type Schema = { type?: string; enum?: unknown[]; format?: string; minimum?: number; maximum?: number };

/** Whether a query text is a valid value of the parameter's schema (the wire form of JSON Schema). */
function queryValueValid(schema: Schema, text: string): boolean {
  if (schema.type === 'integer') {
    if (!/^-?\d+$/.test(text)) return false;
    const value = Number(text);
    return (schema.minimum === undefined || value >= schema.minimum) && (schema.maximum === undefined || value <= schema.maximum);
  }
  if (schema.type === 'boolean') return text === 'true' || text === 'false';
  if (Array.isArray(schema.enum)) return schema.enum.includes(text);
  if (schema.format === 'date-time') {
    const match = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.exec(text);
    if (match === null) return false;
    const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
    return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day && month <= 12;
  }
  return true;
}

/** Every way the request departs from the document, one entry each. */
function violations(generated: GeneratedCase): string[] {
  const operation = operationOf(generated.operationId);
  const { request } = generated;
  const found: string[] = [];
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    const value = request.query?.[parameter.name];
    if (value !== undefined && !queryValueValid(parameter.schema as Schema, value)) found.push(`query ${parameter.name}`);
  }
  for (const name of Object.keys(request.query ?? {})) {
    if (!operation.parameters.some((p) => p.in === 'query' && p.name === name)) found.push(`undocumented query ${name}`);
  }
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    const value = request.params?.[parameter.name];
    if (value === undefined) found.push(`path ${parameter.name} missing`);
    else if (!(CONTEXT[parameter.name] ?? []).includes(value)) found.push(`path ${parameter.name} unusual`);
  }
  if (operation.requestBody !== undefined) {
    const credentialOmitted = request.auth?.bodyApiKey === null;
    if (request.rawBody !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(request.rawBody);
      } catch {
        found.push('body not JSON');
      }
      if (request.contentType !== 'application/json') found.push('body content type');
      if (parsed !== undefined) found.push(...validateSchema(bodyPointer(operation), parsed).errors.map((error) => `body ${error}`));
    } else if (!('body' in request) || request.body === undefined) {
      found.push('body missing');
    } else {
      // The client adds the documented body credential unless told not to.
      const body = !credentialOmitted && typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? { apiKey: 'k', ...request.body } : request.body;
      found.push(...validateSchema(bodyPointer(operation), body).errors.map((error) => `body ${error}`));
    }
  }
  return found;
}

// ------------------------------------------------------------ tests

describe('generated settings', () => {
  it('defaults to a fixed seed and 8 invalid + 6 valid random runs', () => {
    assert.deepEqual(generatedSettings({}), { seed: 20261122, runs: { negative: 8, positive: 6 } });
  });

  it('reads GENERATED_SEED and GENERATED_RUNS', () => {
    assert.deepEqual(generatedSettings({ GENERATED_SEED: '-7', GENERATED_RUNS: '0' }), { seed: -7, runs: { negative: 0, positive: 0 } });
  });

  it('names the variable of a bad value', () => {
    assert.throws(() => generatedSettings({ GENERATED_SEED: 'abc' }), /GENERATED_SEED/);
    assert.throws(() => generatedSettings({ GENERATED_RUNS: '1.5' }), /GENERATED_RUNS/);
    assert.throws(() => generatedSettings({ GENERATED_RUNS: '100000' }), /GENERATED_RUNS: must be an integer from 0 to 200/);
  });
});

describe('negative generation', () => {
  it('plans every operation that documents a constraint, getMeetingsSummary (no parameter, no body) excepted', () => {
    assert.deepEqual(
      negativePlans().map((plan) => plan.operationId),
      operations.map((operation) => operation.operationId).filter((id) => id !== 'getMeetingsSummary'),
    );
  });

  it('leaves out only the constraints that no requirement covers', () => {
    const unmapped = operations.flatMap((operation) => negativePlan(operation).unmapped.map((label) => `${operation.operationId} ${label}`));
    assert.deepEqual(unmapped, [
      'closeMeeting meetingId: 1000 characters',
      'closeMeeting meetingId: non-ASCII',
      'closeMeeting meetingId: a slash (sent as %2F)',
      'closeMeeting body: a valid JSON object sent with a Content-Type that is not JSON',
    ]);
  });

  it('derives the documented constraints of login: types, the three length limits and the body', () => {
    const set = bindPlan(negativePlan(operationOf('login')), CONTEXT, 0);
    assert.deepEqual(
      set.examples.map((generated) => generated.description),
      [
        'email: not a string: 42',
        'email: one past maxLength 191: "ggeneratedge"… (192 characters)',
        'password: not a string: 42',
        'password: one short of minLength 6: "Pw0-P"',
        'password: one past maxLength 191: "Pw0-Pw0-Pw0-"… (192 characters)',
        'body: none (the body is required)',
        'body: not JSON (sent as application/json): "{"',
        'body: JSON that is not an object: []',
        'body: a valid JSON object sent with a Content-Type that is not JSON: "text/plain"',
      ],
    );
    assert.ok(set.examples.every((generated) => generated.outcome === 'refused' && !generated.mutates));
  });

  it('breaks exactly one documented constraint in every canonical and sampled case', () => {
    for (const generated of negativeCases) {
      const found = violations(generated);
      // An unparseable body or a wrong content type is one defect, however the validator counts it.
      const distinct = new Set(found.map((entry) => entry.replace(/^body .*/, 'body')));
      assert.equal(distinct.size, 1, `${generated.operationId} ${generated.description}: ${JSON.stringify(found)}`);
    }
  });

  it('requires a refusal only where the interface states one', () => {
    const refused = new Set(negativeCases.filter((generated) => generated.outcome === 'refused').map((generated) => generated.operationId));
    assert.deepEqual([...refused].sort(), ['closeMeeting', 'createSecurityKey', 'getTranscriptionStats', 'login', 'upsertParticipant']);
    const meetingStats = negativeCases.filter((generated) => generated.operationId === 'getMeetingStats');
    assert.ok(meetingStats.every((generated) => generated.outcome === 'tolerated' && generated.requirementIds.join() === 'INP-08'));
  });

  it('sends skip and take of meeting statistics only with usePagination=true and onlySummary=false', () => {
    const paging = negativeCases.filter((generated) => generated.operationId === 'getMeetingStats' && /^(skip|take):/.test(generated.description));
    assert.ok(paging.length > 0);
    for (const generated of paging) assert.deepEqual({ ...generated.request.query, skip: undefined, take: undefined }, { usePagination: 'true', onlySummary: 'false', skip: undefined, take: undefined });
  });

  it('names a fresh participant in every participant write, for the read-back, and marks writes as mutating', () => {
    const upserts = negativeCases.filter((generated) => generated.operationId === 'upsertParticipant');
    const named = upserts.filter((generated) => generated.readBack !== undefined);
    assert.ok(named.length >= 7, `${named.length} of ${upserts.length} name a participant`);
    assert.ok(named.every((generated) => generated.readBack?.participantId.startsWith('gen-unit-')));
    assert.ok(upserts.every((generated) => generated.mutates));
    assert.ok(negativeCases.filter((generated) => generated.operationId === 'listGroups').every((generated) => !generated.mutates));
  });

  it('leaves the body credential of closeMeeting to the client, except where a case takes it away', () => {
    const close = negativeCases.filter((generated) => generated.operationId === 'closeMeeting');
    for (const generated of close) {
      const body = generated.request.body as Record<string, unknown> | undefined;
      const credentialSent = generated.request.auth === undefined && generated.request.rawBody === undefined;
      assert.ok(!credentialSent || (body !== undefined && typeof body['apiKey'] !== 'string'), generated.description);
    }
  });
});

describe('positive generation', () => {
  it('plans every operation but closeMeeting', () => {
    assert.deepEqual(
      positivePlans().map((plan) => plan.operationId),
      operations.map((operation) => operation.operationId).filter((id) => id !== 'closeMeeting'),
    );
  });

  it('generates only requests the document allows', () => {
    for (const generated of positiveCases) assert.deepEqual(violations(generated), [], `${generated.operationId} ${generated.description}`);
  });

  it('crosses every usePagination × onlySummary combination with each meeting statistics filter', () => {
    const set = bindPlan(positivePlans().find((plan) => plan.operationId === 'getMeetingStats') as never, CONTEXT, 0);
    const combinations = new Set(set.examples.map(({ request }) => `${request.query?.['usePagination']}/${request.query?.['onlySummary']}`));
    assert.equal(combinations.size, 9);
    const filters = ['month', 'year', 'initialDate', 'environment', 'groupId'];
    for (const combination of combinations) {
      for (const filter of filters) {
        assert.ok(
          set.examples.some(({ request }) => `${request.query?.['usePagination']}/${request.query?.['onlySummary']}` === combination && request.query?.[filter] !== undefined),
          `${combination} × ${filter}`,
        );
      }
    }
  });

  it('keeps the documented pairs together and in order: month with year, initialDate before endDate', () => {
    for (const { request } of positiveCases.filter((generated) => generated.operationId === 'getMeetingStats')) {
      const query = request.query ?? {};
      if (query['month'] !== undefined) assert.match(`${query['month']}/${query['year']}`, /^\d{2}\/\d{4}$/);
      assert.equal(query['initialDate'] === undefined, query['endDate'] === undefined);
      if (query['initialDate'] !== undefined) assert.ok(Date.parse(query['initialDate']) <= Date.parse(query['endDate'] ?? ''));
      if (query['skip'] !== undefined || query['take'] !== undefined) assert.equal(`${query['usePagination']}/${query['onlySummary']}`, 'true/false');
    }
  });

  it('probes login at the documented lengths with unknown accounts, expecting the documented 401', () => {
    const login = bindPlan(positivePlans().find((plan) => plan.operationId === 'login') as never, CONTEXT, 0).examples;
    const lengths = login.map(({ request }) => {
      const body = request.body as { email: string; password: string };
      return [body.email.length, body.password.length];
    });
    assert.ok(lengths.some(([email]) => email === 191));
    assert.ok(lengths.some(([, password]) => password === 6));
    assert.ok(lengths.some(([, password]) => password === 191));
    assert.ok(login.every((generated) => generated.outcome === 'accepted' && generated.status === 401));
  });

  it('tolerates a refusal only where the interface leaves the answer open', () => {
    const tolerated = positiveCases.filter((generated) => generated.outcome === 'tolerated');
    const reasons = new Set(tolerated.flatMap((generated) => generated.requirementIds.filter((id) => id.startsWith('UNS-'))));
    assert.deepEqual([...reasons].sort(), ['UNS-09', 'UNS-16', 'UNS-19', 'UNS-25']);
    assert.ok(tolerated.every((generated) => generated.requirementIds.some((id) => id.startsWith('UNS-'))));
  });

  it('needs no random run where the canonical cases enumerate every valid request', () => {
    const exhaustive = positivePlans()
      .filter((plan) => plan.exhaustive)
      .map((plan) => plan.operationId);
    assert.deepEqual(exhaustive, ['getGroup', 'getParticipant', 'archiveParticipant', 'getTranscriptionStats', 'getMeetingsSummary', 'getChannelInfo', 'listChannelParticipants', 'listRoomChannelParticipants']);
  });
});

describe('cases and citations', () => {
  it('cite only catalogued requirements that list the case operation', () => {
    for (const generated of [...negativeCases, ...positiveCases]) {
      for (const id of generated.requirementIds) {
        assert.ok(requirement(id).operations.includes(generated.operationId), `${id} does not list ${generated.operationId} (${generated.description})`);
      }
    }
  });

  it('cite at test level every requirement a random case can cite', () => {
    for (const plan of [...negativePlans(), ...positivePlans()]) {
      const cited = new Set(summarisePlan(plan).requirementIds);
      const set = bindPlan(plan, CONTEXT, SAMPLES);
      const sampled = set.arbitrary === undefined ? [] : fc.sample(set.arbitrary, { seed: SEED, numRuns: SAMPLES });
      for (const generated of [...set.examples, ...sampled]) {
        for (const id of generated.requirementIds) assert.ok(cited.has(id), `${plan.operationId} (${plan.layer}) does not cite ${id}`);
      }
    }
  });

  it('are reproducible from the seed', () => {
    const plan = negativePlans().find((candidate) => candidate.operationId === 'getMeetingStats');
    assert.ok(plan);
    const draw = (): GeneratedCase[] => fc.sample(bindPlan(plan, CONTEXT, 12).arbitrary as fc.Arbitrary<GeneratedCase>, { seed: SEED, numRuns: 12 });
    assert.deepEqual(draw(), draw());
  });

  it('skip templates whose data the target lacks and report them', () => {
    const plan = positivePlans().find((candidate) => candidate.operationId === 'listRecordings');
    assert.ok(plan);
    const set = bindPlan(plan, { [UNIQUE_PREFIX]: ['p'] }, 8);
    assert.deepEqual(set.missing, [{ label: 'each filter', needs: ['roomId', 'meetingId'] }]);
    assert.ok(set.examples.every(({ request }) => request.query?.['roomId'] === undefined && request.query?.['meetingId'] === undefined));
    const bare = bindPlan(positivePlans().find((candidate) => candidate.operationId === 'getGroup') as never, {}, 8);
    assert.equal(bare.examples.length, 0);
    assert.equal(bare.arbitrary, undefined);
  });

  it('give titles that state the expected answer', () => {
    const titles = [...negativePlans().map(negativeTitle), ...positivePlans().map(positiveTitle)];
    assert.ok(titles.includes('generated invalid inputs to login get a 4xx with the error shape'));
    assert.ok(titles.includes('generated invalid inputs to listGroups get a valid 2xx or a 4xx with the error shape, never a 5xx'));
    assert.ok(titles.includes('generated valid inputs to login get the documented 401 with a body that matches the operation'));
    assert.equal(new Set(titles).size, titles.length);
  });

  it('map onto the client options one to one', () => {
    const request: GeneratedRequest = { params: { id: 'x' }, query: { take: '1' }, body: null, auth: { bodyApiKey: null } };
    assert.deepEqual(toCallOptions(request), { params: { id: 'x' }, query: { take: '1' }, body: null, auth: { bodyApiKey: null } });
    assert.deepEqual(toCallOptions({ rawBody: '{', contentType: 'application/json' }), { rawBody: '{', contentType: 'application/json' });
    assert.deepEqual(toCallOptions({}), {});
  });
});

describe('well-formed addresses of a given length', () => {
  it('have exactly the length, a local part of at most 64 and labels of at most 63', () => {
    for (let length = 13; length <= 300; length += 1) {
      const email = emailOfLength(length, 'abc');
      assert.equal(email.length, length);
      const [local = '', domain = ''] = email.split('@');
      assert.ok(local.length >= 1 && local.length <= 64, email);
      assert.ok(domain.split('.').every((label) => label.length >= 1 && label.length <= 63), email);
    }
  });
});

// ------------------------------------------------------------ judging answers

const CURL = "curl -sS -X GET 'http://127.0.0.1:4010/x'";

function exchange(operationId: string, status: number, body: unknown, contentType = 'application/json; charset=utf-8'): Exchange {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const json = typeof body === 'string' ? undefined : body;
  return { operationId, request: { method: 'GET', url: 'http://127.0.0.1:4010/x', headers: {} }, status, headers: { 'content-type': contentType }, text, json, curl: CURL };
}

function caseOf(operationId: string, outcome: GeneratedCase['outcome'], requirementIds: string[], request: GeneratedRequest = {}, status?: number): GeneratedCase {
  const generated: GeneratedCase = { operationId, description: 'unit', request, requirementIds, outcome, mutates: false };
  return status === undefined ? generated : { ...generated, status };
}

const group = { id: 'g-1', name: 'Customer Success', createdAt: '2024-02-12T09:30:15.482Z' };
const recording = (roomId: string) => ({ uuid: `r-${roomId}`, url: 'https://rec.example.com/r.mp4', roomId, status: 'available', meetingId: 'm-1', createdAt: '2024-06-10T12:03:00.000Z' });
const badRequest = { statusCode: 400, error: 'Bad Request', message: 'take must be at least 1' };

describe('assess', () => {
  it('fails a 5xx whatever the outcome', () => {
    for (const outcome of ['refused', 'tolerated', 'accepted'] as const) {
      assert.match(assess(caseOf('listGroups', outcome, ['INP-08']), exchange('listGroups', 500, badRequest)).failures.join(), /5xx is never/);
    }
  });

  it('fails a 2xx where the interface requires a refusal', () => {
    const { failures } = assess(caseOf('login', 'refused', ['LOGIN-05']), exchange('login', 200, { access_token: 'a.b.c', name: 'n' }));
    assert.match(failures.join(), /\[LOGIN-05\] answered 200: the interface requires this request to be refused/);
  });

  it('passes a 4xx with the general error body, and fails a statusCode that is not the status', () => {
    assert.deepEqual(assess(caseOf('login', 'refused', ['LOGIN-05']), exchange('login', 400, badRequest)), { failures: [], warnings: [] });
    const { failures } = assess(caseOf('login', 'refused', ['LOGIN-05']), exchange('login', 400, { ...badRequest, statusCode: 422 }));
    assert.match(failures.join(), /\[ERR-04\] statusCode 422 differs from the HTTP status 400/);
  });

  it('fails an error name that is not the status name where ERR-05 applies, accepting the RFC 9110 names', () => {
    const { failures } = assess(caseOf('login', 'refused', ['LOGIN-05']), exchange('login', 400, { ...badRequest, error: 'Oops' }));
    assert.match(failures.join(), /\[ERR-05\]/);
    assert.ok(isStatusName(422, 'Unprocessable Content') && isStatusName(422, 'unprocessable entity') && !isStatusName(400, 'Not Found'));
  });

  it('holds a documented 4xx to its schema: the transcription statistics error needs error', () => {
    const { failures } = assess(caseOf('getTranscriptionStats', 'refused', ['TRS-04']), exchange('getTranscriptionStats', 400, { statusCode: 400, message: 'bad environment' }));
    assert.match(failures.join(), /\[TRS-04\] the documented 400 body does not match/);
  });

  it('fails a 4xx body that is not JSON, and warns where the general error body is only a SHOULD', () => {
    const { failures, warnings } = assess(caseOf('listGroups', 'tolerated', ['INP-08']), exchange('listGroups', 400, 'Bad Request', 'text/plain'));
    assert.match(failures.join(), /\[FMT-04\]/);
    assert.deepEqual(warnings.map((warning) => warning.id), ['ERR-06']);
  });

  it('checks a tolerated 2xx against the operation', () => {
    const envelope = { pagination: { page: 1, totalPages: 1, limit: 10, total: 1 }, data: [group] };
    assert.deepEqual(assess(caseOf('listGroups', 'tolerated', ['INP-08']), exchange('listGroups', 200, envelope)).failures, []);
    assert.match(assess(caseOf('listGroups', 'tolerated', ['INP-08']), exchange('listGroups', 200, { data: [group] })).failures.join(), /check "body" failed/);
  });

  it('expects the stated status of an accepted case', () => {
    const login = caseOf('login', 'accepted', ['LOGIN-04'], {}, 401);
    assert.deepEqual(assess(login, exchange('login', 401, { statusCode: 401, message: 'Invalid email or password' })).failures, []);
    assert.match(assess(login, exchange('login', 400, badRequest)).failures.join(), /Expected status 401, received 400/);
    assert.match(assess(caseOf('getGroup', 'accepted', ['GRP-02']), exchange('getGroup', 404, { statusCode: 404, message: 'no' })).failures.join(), /must be accepted|requires this valid request to be accepted/);
  });

  it('checks paging: limit, item count and page number', () => {
    const paged = caseOf('listGroups', 'accepted', ['GRP-01', 'PAG-03', 'PAG-05', 'PAG-06', 'PAG-07', 'PAG-08', 'PAG-09'], { query: { skip: '2', take: '2' } });
    const page = (pagination: object, data: unknown[]) => exchange('listGroups', 200, { pagination, data });
    assert.deepEqual(assess(paged, page({ page: 2, totalPages: 3, limit: 2, total: 5 }, [group, group])).failures, []);
    assert.match(assess(paged, page({ page: 2, totalPages: 3, limit: 10, total: 5 }, [group, group])).failures.join(), /\[PAG-03\]/);
    assert.match(assess(paged, page({ page: 2, totalPages: 3, limit: 2, total: 5 }, [group])).failures.join(), /\[PAG-07\]/);
    assert.match(assess(paged, page({ page: 1, totalPages: 3, limit: 2, total: 5 }, [group, group])).failures.join(), /\[PAG-06\]/);
    assert.match(assess(paged, page({ page: 2, totalPages: 2, limit: 2, total: 1 }, [group])).failures.join(), /\[PAG-09\]/);
  });

  it('checks equality filters on the returned items, except where both filters leave the result open', () => {
    const byRoom = caseOf('listRecordings', 'accepted', ['REC-01', 'REC-03'], { query: { roomId: 'room-1' } });
    assert.deepEqual(assess(byRoom, exchange('listRecordings', 200, [recording('room-1')])).failures, []);
    assert.match(assess(byRoom, exchange('listRecordings', 200, [recording('room-1'), recording('room-2')])).failures.join(), /\[REC-03\] 1 of 2 items lack roomId equal to "room-1"/);
    const both = caseOf('listRecordings', 'tolerated', ['UNS-25'], { query: { roomId: 'room-1', meetingId: 'm-9' } });
    assert.deepEqual(assess(both, exchange('listRecordings', 200, [recording('room-2')])).failures, []);
  });

  it('holds meeting statistics to the one form its flags select', () => {
    const summary = { totalMeetingMinutes: 1, totalRecordingMinutes: 0, totalMeetings: 1 };
    const records = caseOf('getMeetingStats', 'accepted', ['MST-03'], { query: { onlySummary: 'false' } });
    assert.deepEqual(assess(records, exchange('getMeetingStats', 200, [])).failures, []);
    assert.match(assess(records, exchange('getMeetingStats', 200, summary)).failures.join(), /\[MST-03\] the body is not the MeetingStatsRecordList/);
    const invalidFlag = caseOf('getMeetingStats', 'tolerated', ['INP-08'], { query: { onlySummary: 'yes' } });
    assert.deepEqual(assess(invalidFlag, exchange('getMeetingStats', 200, [])).failures, []);
  });

  it('checks the meeting statistics date windows on records only', () => {
    const record = (startedAt: string) => ({
      uuid: 's', id: 1, meetingId: 'm', groupId: 'g', groupName: 'G', userId: 'u', meetingMinutes: 1, recordingMinutes: 0, price: 0,
      startedAt, endedAt: startedAt, createdAt: startedAt, participants: [],
    });
    const june = caseOf('getMeetingStats', 'accepted', ['MST-03', 'MST-07'], { query: { onlySummary: 'false', month: '06', year: '2024' } });
    assert.deepEqual(assess(june, exchange('getMeetingStats', 200, [record('2024-06-30T23:59:59.999Z')])).failures, []);
    assert.match(assess(june, exchange('getMeetingStats', 200, [record('2024-07-01T00:00:00.000Z')])).failures.join(), /\[MST-07\].*month 06\/2024/);
  });

  it('fails a read-back that finds the participant a refused write named', () => {
    const found = exchange('getParticipant', 200, { id: 'gen-1', name: 'n', email: 'e', avatar: 'a', createdAt: '2024-02-12T09:41:02.117Z' });
    assert.match(assessReadBack('gen-1', found).failures.join(), /\[INP-07\]/);
    assert.deepEqual(assessReadBack('gen-1', exchange('getParticipant', 404, { statusCode: 404, message: 'no' })).failures, []);
  });
});

describe('runCaseSet', () => {
  const plan = negativePlans().find((candidate) => candidate.operationId === 'listGroups');
  assert.ok(plan);

  it('sends the canonical cases then the random runs, each once', async () => {
    const set = bindPlan(plan, CONTEXT, 5);
    const sent: string[] = [];
    const ran = await runCaseSet(set, { seed: SEED }, async (generated) => {
      sent.push(generated.description);
    });
    assert.equal(ran, set.examples.length + 5);
    assert.deepEqual(sent.slice(0, set.examples.length), set.examples.map((generated) => generated.description));
  });

  it('sends the cases fast-check runs, all of them at once when they only read', async () => {
    const set = bindPlan(plan, CONTEXT, 20);
    const sequential: string[] = [];
    await fc.assert(
      fc.asyncProperty(set.arbitrary as fc.Arbitrary<GeneratedCase>, async (generated) => {
        sequential.push(JSON.stringify(generated.request));
      }),
      { seed: SEED, numRuns: set.examples.length + 20, examples: set.examples.map((example): [GeneratedCase] => [example]) },
    );
    const sent: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const ran = await runCaseSet(set, { seed: SEED }, async (generated) => {
      sent.push(JSON.stringify(generated.request));
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
    });
    assert.equal(ran, sequential.length);
    assert.deepEqual(sent, sequential);
    assert.equal(mostInFlight, sequential.length);
  });

  it('sends cases that may change data one after another, in their order', async () => {
    const set = bindPlan(plan, CONTEXT, 5);
    const mutating: CaseSet = { ...set, examples: set.examples.map((example) => ({ ...example, mutates: true })), arbitrary: set.arbitrary?.map((generated) => ({ ...generated, mutates: true })) };
    const events: string[] = [];
    await runCaseSet(mutating, { seed: SEED }, async (generated) => {
      events.push(`start ${generated.description}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
      events.push(`end ${generated.description}`);
    });
    for (let index = 0; index < events.length; index += 2) {
      assert.match(events[index] ?? '', /^start /);
      assert.equal(events[index + 1], (events[index] ?? '').replace(/^start/, 'end'));
    }
    assert.deepEqual(events.filter((event) => event.startsWith('start ')).slice(0, set.examples.length), set.examples.map((example) => `start ${example.description}`));
  });

  it('shrinks a failure to the smallest case and reports it with the reason and the replay', async () => {
    const set = bindPlan(plan, CONTEXT, 30);
    const failing = (generated: GeneratedCase): boolean => generated.description.startsWith('take: below the minimum') && Number(generated.request.query?.['take']) < -3;
    await assert.rejects(
      runCaseSet(set, { seed: SEED }, async (generated) => {
        if (failing(generated)) throw new Error(`bad take\n${CURL}`);
      }),
      (error: Error) => {
        assert.equal(error.name, 'GeneratedCaseFailure');
        assert.match(error.message, /failed: take: below the minimum 1: -4\n/);
        assert.match(error.message, /Requirements: INP-08; expected: tolerated/);
        assert.match(error.message, /Counterexample request: {"query":{"take":"-4"}}/);
        assert.match(error.message, /bad take\ncurl -sS/);
        assert.match(error.message, new RegExp(`Replay: GENERATED_SEED=${SEED} GENERATED_RUNS=30`));
        return true;
      },
    );
  });
});

describe('announceOnce', () => {
  const directory = mkdtempSync(join(tmpdir(), 'generated-announce-'));
  after(() => rmSync(directory, { recursive: true, force: true }));

  it('prints once per run id and forgets earlier runs', (t) => {
    const printed = t.mock.method(console, 'log', () => undefined);
    announceOnce('run-1', 'seed 1', directory);
    announceOnce('run-1', 'seed 1', directory);
    announceOnce('run-2', 'seed 2', directory);
    assert.deepEqual(printed.mock.calls.map((call) => call.arguments[0]), ['seed 1', 'seed 2']);
    assert.deepEqual(readdirSync(directory), ['announced-run-2']);
  });
});
