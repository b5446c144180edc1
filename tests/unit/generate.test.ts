import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonBodyRequirement, listOperations, validateSchema } from '../../fixtures/contract/index.ts';
import type { Exchange, OperationInfo } from '../../fixtures/contract/index.ts';
import { emailOfLength } from '../../fixtures/generate/arbitraries.ts';
import { withoutBranchMismatches } from '../../fixtures/contract/index.ts';
import { bindPlan, summarisePlan } from '../../fixtures/generate/cases.ts';
import { aggregateChecks, toCallOptions } from '../../fixtures/generate/exercise.ts';
import { negativePlans, negativeTitle, positivePlans, positiveTitle } from '../../fixtures/generate/index.ts';
import { negativePlan } from '../../fixtures/generate/negative.ts';
import { announceOnce, runCaseSet, sendTogether, shrinkFailure } from '../../fixtures/generate/run.ts';
import { DEFAULT_SEED, generatedSettings } from '../../fixtures/generate/settings.ts';
import { UNIQUE_PREFIX } from '../../fixtures/generate/types.ts';
import type { CaseCheck, CaseContext, CaseSet, GeneratedCase, GeneratedRequest } from '../../fixtures/generate/types.ts';
import { requirement } from '../../fixtures/verdict/requirements.ts';
import { assess, assessReadBack } from '../generated/assess.ts';
import { CASE_BINDINGS, JSON_BODY_REQUIREMENT } from '../generated/bindings.ts';

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
/** The operationIds of the document, in its order, but one. */
const everyOperationBut = (left: string): string[] => operations.map((operation) => operation.operationId).filter((id) => id !== left);
/** The operationIds of plans, in their order. */
const plannedOperations = (plans: readonly { operationId: string }[]): string[] => plans.map((plan) => plan.operationId);
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

const negativeCases = casesOf(negativePlans(CASE_BINDINGS));
const positiveCases = casesOf(positivePlans(CASE_BINDINGS));

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
      const body =
        !credentialOmitted && typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
          ? { apiKey: 'k', ...request.body }
          : request.body;
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

  it('reads GENERATED_SEED and GENERATED_RUNS, and carries the run id', () => {
    assert.deepEqual(generatedSettings({ generatedSeed: '-7', generatedRuns: '0' }), { seed: -7, runs: { negative: 0, positive: 0 } });
    assert.deepEqual(generatedSettings({ runId: 'r1' }), { seed: 20261122, runs: { negative: 8, positive: 6 }, runId: 'r1' });
  });

  it('names the variable of a bad value', () => {
    assert.throws(() => generatedSettings({ generatedSeed: 'abc' }), /GENERATED_SEED/);
    assert.throws(() => generatedSettings({ generatedRuns: '1.5' }), /GENERATED_RUNS/);
    assert.throws(() => generatedSettings({ generatedRuns: '100000' }), /GENERATED_RUNS: must be an integer from 0 to 200/);
  });
});

describe('negative generation', () => {
  it('plans every operation that documents a constraint, getMeetingsSummary (no parameter, no body) excepted', () => {
    assert.deepEqual(plannedOperations(negativePlans(CASE_BINDINGS)), everyOperationBut('getMeetingsSummary'));
  });

  it('leaves out only the constraints that no requirement covers', () => {
    const unmapped = operations.flatMap((operation) => negativePlan(operation, CASE_BINDINGS).unmapped.map((label) => `${operation.operationId} ${label}`));
    assert.deepEqual(unmapped, [
      'closeMeeting meetingId: 1000 characters',
      'closeMeeting meetingId: non-ASCII',
      'closeMeeting meetingId: a slash (sent as %2F)',
      'closeMeeting body: a valid JSON object sent with a Content-Type that is not JSON',
    ]);
  });

  it('derives the documented constraints of login: types, the three length limits and the body', () => {
    const set = bindPlan(negativePlan(operationOf('login'), CASE_BINDINGS), CONTEXT, 0);
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
    // The limits are stated (no login past them), the status of the refusal is not.
    const limits = set.examples.filter((generated) => /length/i.test(generated.description));
    assert.ok(limits.length === 3 && limits.every((generated) => generated.outcome === 'not-accepted'));
    assert.ok(set.examples.every((generated) => (limits.includes(generated) || generated.outcome === 'refused') && !generated.mutates));
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
    assert.ok(meetingStats.every((generated) => generated.outcome === 'tolerated' && generated.requirementId === 'INP-08'));
  });

  it('holds the stated limits to "not accepted", and a 5xx there to a robustness requirement', () => {
    const limits = negativeCases.filter((generated) => generated.outcome === 'not-accepted');
    assert.deepEqual([...new Set(limits.map((generated) => generated.requirementId))].sort(), ['LOGIN-05', 'LOGIN-06', 'LOGIN-07', 'SEC-10']);
    const secretKey = limits.find((generated) => generated.requirementId === 'SEC-10');
    assert.equal(secretKey?.serverErrorRequirement, 'INP-02');
  });

  it('generates no constraint of a field only a sample request carries (the upsert id)', () => {
    const upserts = negativeCases.filter((generated) => generated.operationId === 'upsertParticipant');
    assert.ok(upserts.length > 0);
    assert.ok(
      upserts.every((generated) => !generated.description.startsWith('id:')),
      upserts.map((generated) => generated.description).join('; '),
    );
  });

  it('sends skip and take of meeting statistics only with usePagination=true and onlySummary=false', () => {
    const paging = negativeCases.filter((generated) => generated.operationId === 'getMeetingStats' && /^(skip|take):/.test(generated.description));
    assert.ok(paging.length > 0);
    for (const generated of paging)
      assert.deepEqual(
        { ...generated.request.query, skip: undefined, take: undefined },
        { usePagination: 'true', onlySummary: 'false', skip: undefined, take: undefined },
      );
  });

  it('names a fresh participant in every participant write, for the read-back, and marks writes as mutating', () => {
    const upserts = negativeCases.filter((generated) => generated.operationId === 'upsertParticipant');
    const named = upserts.filter((generated) => generated.readBack !== undefined);
    assert.ok(named.length >= 7, `${named.length} of ${upserts.length} name a participant`);
    assert.ok(named.every((generated) => generated.readBack?.participantId.startsWith('gen-unit-')));
    assert.ok(upserts.every((generated) => generated.mutates));
    assert.ok(negativeCases.filter((generated) => generated.operationId === 'listGroups').every((generated) => !generated.mutates));
  });

  it('names a participant of its own in each refused upsert, so that the upserts may go out together', () => {
    const named = negativeCases.filter((generated) => generated.operationId === 'upsertParticipant' && generated.readBack !== undefined);
    const ids = named.map((generated) => generated.readBack?.participantId);
    assert.equal(new Set(ids).size, ids.length, `participants named twice: ${ids.join(', ')}`);
    const owning = named.filter((generated) => generated.ownResource !== undefined);
    assert.ok(owning.length >= 5, `${owning.length} of ${named.length} go out together`);
    for (const generated of owning) assert.equal(generated.ownResource, `participant ${generated.readBack?.participantId ?? ''}`);
    // A participantId the target could coerce into another case's id (42 as "42") waits its turn.
    const odd = named.filter((generated) => {
      const body = generated.request.body as Record<string, unknown> | undefined;
      return body !== undefined && 'participantId' in body && body['participantId'] !== generated.readBack?.participantId;
    });
    assert.ok(odd.length > 0);
    assert.ok(
      odd.every((generated) => generated.ownResource === undefined),
      odd.map((generated) => generated.description).join('; '),
    );
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
    assert.deepEqual(plannedOperations(positivePlans(CASE_BINDINGS)), everyOperationBut('closeMeeting'));
  });

  it('generates only requests the document allows', () => {
    for (const generated of positiveCases) assert.deepEqual(violations(generated), [], `${generated.operationId} ${generated.description}`);
  });

  it('crosses every usePagination × onlySummary combination with each meeting statistics filter', () => {
    const set = bindPlan(positivePlans(CASE_BINDINGS).find((plan) => plan.operationId === 'getMeetingStats') as never, CONTEXT, 0);
    const combinations = new Set(set.examples.map(({ request }) => `${request.query?.['usePagination']}/${request.query?.['onlySummary']}`));
    assert.equal(combinations.size, 9);
    const filters = ['month', 'year', 'initialDate', 'environment', 'groupId'];
    for (const combination of combinations) {
      for (const filter of filters) {
        assert.ok(
          set.examples.some(
            ({ request }) => `${request.query?.['usePagination']}/${request.query?.['onlySummary']}` === combination && request.query?.[filter] !== undefined,
          ),
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
    const login = bindPlan(positivePlans(CASE_BINDINGS).find((plan) => plan.operationId === 'login') as never, CONTEXT, 0).examples;
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
    const reasons = new Set(tolerated.map((generated) => generated.requirementId));
    assert.deepEqual([...reasons].sort(), ['UNS-09', 'UNS-16', 'UNS-19', 'UNS-22', 'UNS-25']);
  });

  it('leaves the form of usePagination=true with onlySummary at its default open, sent or not', () => {
    const stats = positiveCases.filter((generated) => generated.operationId === 'getMeetingStats' && generated.request.query?.['usePagination'] === 'true');
    for (const generated of stats) {
      const open = generated.request.query?.['onlySummary'] !== 'false';
      assert.equal(generated.requirementId === 'UNS-19', open, generated.description);
    }
  });

  it('gives each valid case the one requirement of its answer', () => {
    const byOperation = new Map<string, Set<string>>();
    for (const generated of positiveCases.filter((candidate) => candidate.outcome === 'accepted')) {
      byOperation.set(generated.operationId, new Set([...(byOperation.get(generated.operationId) ?? []), generated.requirementId]));
    }
    assert.deepEqual([...(byOperation.get('listGroups') ?? [])], ['GRP-01']);
    assert.deepEqual([...(byOperation.get('getMeetingStats') ?? [])].sort(), ['MST-01', 'MST-02', 'MST-03', 'MST-06']);
  });

  it('needs no random run where the canonical cases enumerate every valid request', () => {
    const exhaustive = positivePlans(CASE_BINDINGS)
      .filter((plan) => plan.exhaustive)
      .map((plan) => plan.operationId);
    assert.deepEqual(exhaustive, [
      'getGroup',
      'getParticipant',
      'archiveParticipant',
      'getTranscriptionStats',
      'getMeetingsSummary',
      'getChannelInfo',
      'listChannelParticipants',
      'listRoomChannelParticipants',
    ]);
  });
});

describe('cases and citations', () => {
  it('cite only catalogued requirements that list the case operation', () => {
    for (const generated of [...negativeCases, ...positiveCases]) {
      const id = generated.requirementId;
      assert.ok(requirement(id).operations.includes(generated.operationId), `${id} does not list ${generated.operationId} (${generated.description})`);
    }
  });

  it('cite at test level every requirement a random case checks', () => {
    for (const plan of [...negativePlans(CASE_BINDINGS), ...positivePlans(CASE_BINDINGS)]) {
      const cited = new Set(summarisePlan(plan).requirementIds);
      const set = bindPlan(plan, CONTEXT, SAMPLES);
      const sampled = set.arbitrary === undefined ? [] : fc.sample(set.arbitrary, { seed: SEED, numRuns: SAMPLES });
      for (const generated of [...set.examples, ...sampled]) {
        assert.ok(cited.has(generated.requirementId), `${plan.operationId} (${plan.layer}) does not cite ${generated.requirementId}`);
      }
    }
  });

  it('are reproducible from the seed', () => {
    const plan = negativePlans(CASE_BINDINGS).find((candidate) => candidate.operationId === 'getMeetingStats');
    assert.ok(plan);
    const draw = (): GeneratedCase[] => fc.sample(bindPlan(plan, CONTEXT, 12).arbitrary as fc.Arbitrary<GeneratedCase>, { seed: SEED, numRuns: 12 });
    assert.deepEqual(draw(), draw());
  });

  it('skip templates whose data the target lacks and report them', () => {
    const plan = positivePlans(CASE_BINDINGS).find((candidate) => candidate.operationId === 'listRecordings');
    assert.ok(plan);
    const set = bindPlan(plan, { [UNIQUE_PREFIX]: ['p'] }, 8);
    assert.deepEqual(set.missing, [{ label: 'each filter', needs: ['roomId', 'meetingId'] }]);
    assert.ok(set.examples.every(({ request }) => request.query?.['roomId'] === undefined && request.query?.['meetingId'] === undefined));
    const bare = bindPlan(positivePlans(CASE_BINDINGS).find((candidate) => candidate.operationId === 'getGroup') as never, {}, 8);
    assert.equal(bare.examples.length, 0);
    assert.equal(bare.arbitrary, undefined);
  });

  it('give titles that state the expected answer', () => {
    const titles = [...negativePlans(CASE_BINDINGS).map(negativeTitle), ...positivePlans(CASE_BINDINGS).map(positiveTitle)];
    assert.ok(titles.includes('generated invalid inputs to login are not accepted (a 4xx with the error shape where the interface requires one)'));
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
      assert.ok(
        domain.split('.').every((label) => label.length >= 1 && label.length <= 63),
        email,
      );
    }
  });
});

// ------------------------------------------------------------ judging answers

const CURL = "curl -sS -X GET 'http://127.0.0.1:4010/x'";

function exchange(operationId: string, status: number, body: unknown, contentType = 'application/json; charset=utf-8'): Exchange {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const json = typeof body === 'string' ? undefined : body;
  return {
    operationId,
    request: { method: 'GET', url: 'http://127.0.0.1:4010/x', headers: {} },
    status,
    headers: { 'content-type': contentType },
    text,
    json,
    curl: CURL,
  };
}

function caseOf(
  operationId: string,
  outcome: GeneratedCase['outcome'],
  requirementId: string,
  request: GeneratedRequest = {},
  extra: Partial<GeneratedCase> = {},
): GeneratedCase {
  return { operationId, description: 'unit', request, requirementId, outcome, mutates: false, ...extra };
}

const group = { id: 'g-1', name: 'Customer Success', createdAt: '2024-02-12T09:30:15.482Z' };
const recording = (roomId: string) => ({
  uuid: `r-${roomId}`,
  url: 'https://rec.example.com/r.mp4',
  roomId,
  status: 'available',
  meetingId: 'm-1',
  createdAt: '2024-06-10T12:03:00.000Z',
});
const badRequest = { statusCode: 400, error: 'Bad Request', message: 'take must be at least 1' };

/** The checks of an assessment by requirement: 'passed', 'not assessed' or the failure. */
function verdicts(checks: readonly CaseCheck[]): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const check of checks) {
    const verdict = check.notAssessable !== undefined ? 'not assessed' : check.notApplicable !== undefined ? 'not applicable' : (check.failure ?? 'passed');
    result[check.requirementId] = [...(result[check.requirementId] ?? []), verdict];
  }
  return result;
}

const failed = (checks: readonly CaseCheck[], id: string): string =>
  checks
    .filter((check) => check.requirementId === id && check.failure !== undefined)
    .map((check) => check.failure)
    .join('\n');

const passedOnly = (checks: readonly CaseCheck[]): boolean =>
  checks.every((check) => check.failure === undefined && check.notAssessable === undefined && check.notApplicable === undefined);

describe('assess', () => {
  it('fails a 5xx on the case requirement, or on the robustness requirement where the case states a limit', () => {
    for (const outcome of ['refused', 'tolerated', 'accepted'] as const) {
      assert.match(failed(assess(caseOf('listGroups', outcome, 'INP-08'), exchange('listGroups', 500, badRequest)), 'INP-08'), /5xx is never/);
    }
    const limit = assess(
      caseOf('createSecurityKey', 'not-accepted', 'SEC-10', {}, { serverErrorRequirement: 'INP-02' }),
      exchange('createSecurityKey', 500, badRequest),
    );
    assert.deepEqual(verdicts(limit)['SEC-10'], ['passed']);
    assert.match(failed(limit, 'INP-02'), /5xx is never/);
  });

  it('fails a 2xx where the interface requires a refusal, and a granted token where it states a limit', () => {
    assert.match(
      failed(assess(caseOf('getTranscriptionStats', 'refused', 'TRS-04'), exchange('getTranscriptionStats', 200, [])), 'TRS-04'),
      /answered HTTP 200: the request must be refused/,
    );
    assert.match(
      failed(assess(caseOf('login', 'not-accepted', 'LOGIN-05'), exchange('login', 200, { access_token: 'a.b.c', name: 'n' })), 'LOGIN-05'),
      /must not succeed/,
    );
    assert.match(failed(assess(caseOf('login', 'not-accepted', 'LOGIN-05'), exchange('login', 302, { access_token: 'a.b.c' })), 'LOGIN-05'), /access_token/);
  });

  it('passes a 4xx with the general error body, and fails ERR-04 on a statusCode that is not the status', () => {
    const passed = assess(caseOf('login', 'not-accepted', 'LOGIN-05'), exchange('login', 400, badRequest));
    assert.ok(passedOnly(passed), JSON.stringify(passed));
    assert.deepEqual(Object.keys(verdicts(passed)).sort(), ['ERR-04', 'ERR-05', 'FMT-04', 'LOGIN-05']);
    const wrong = assess(caseOf('login', 'not-accepted', 'LOGIN-05'), exchange('login', 400, { ...badRequest, statusCode: 422 }));
    assert.match(failed(wrong, 'ERR-04'), /statusCode 422 in the body of an HTTP 400/);
    assert.deepEqual(verdicts(wrong)['LOGIN-05'], ['passed']);
  });

  it('checks ERR-04 and ERR-05 only where the catalogue lists the operation', () => {
    const listed = (id: string, operationId: string): boolean => requirement(id).operations.includes(operationId);
    const checks = assess(caseOf('listGroups', 'tolerated', 'INP-08'), exchange('listGroups', 400, { ...badRequest, statusCode: 422, error: 'Oops' }));
    assert.equal(verdicts(checks)['ERR-04'] !== undefined, listed('ERR-04', 'listGroups'));
    assert.equal(verdicts(checks)['ERR-05'] !== undefined, listed('ERR-05', 'listGroups'));
  });

  it('fails an error name that is not the status name where ERR-05 applies, accepting the RFC 9110 names', () => {
    assert.match(
      failed(assess(caseOf('login', 'not-accepted', 'LOGIN-05'), exchange('login', 400, { ...badRequest, error: 'Oops' })), 'ERR-05'),
      /"Oops" is not the name of HTTP 400/,
    );
    const rfc9110 = assess(
      caseOf('login', 'not-accepted', 'LOGIN-05'),
      exchange('login', 422, { ...badRequest, statusCode: 422, error: 'Unprocessable Content' }),
    );
    assert.deepEqual(verdicts(rfc9110)['ERR-05'], ['passed']);
  });

  it('holds a shown error body to its schema: the transcription statistics error needs error', () => {
    const checks = assess(
      caseOf('getTranscriptionStats', 'refused', 'TRS-04'),
      exchange('getTranscriptionStats', 400, { statusCode: 400, message: 'bad environment' }),
    );
    assert.match(failed(checks, 'TRS-04'), /check "body" failed/);
  });

  it('does not validate the body of an error the interface does not show (login 400)', () => {
    const checks = assess(caseOf('login', 'not-accepted', 'LOGIN-05'), exchange('login', 400, { statusCode: 400, message: 'too long' }));
    assert.ok(passedOnly(checks), JSON.stringify(checks));
  });

  it('fails FMT-04 on a 4xx body that is not JSON, and records the general error body as ERR-06', () => {
    const checks = assess(caseOf('listGroups', 'tolerated', 'INP-08'), exchange('listGroups', 400, 'Bad Request', 'text/plain'));
    assert.match(failed(checks, 'FMT-04'), /declared as text\/plain/);
    assert.match(failed(checks, 'ERR-06'), /not the general error body|not a JSON object/);
    assert.deepEqual(verdicts(checks)['INP-08'], ['passed']);
    assert.ok(checks.filter((check) => check.requirementId !== 'INP-08').every((check) => check.aggregate !== undefined));
  });

  it('checks a tolerated 2xx against the operation, on the operation shape requirement', () => {
    const envelope = { pagination: { page: 1, totalPages: 1, limit: 10, total: 1 }, data: [group] };
    assert.ok(passedOnly(assess(caseOf('listGroups', 'tolerated', 'INP-08'), exchange('listGroups', 200, envelope))));
    const broken = assess(
      caseOf('listGroups', 'tolerated', 'INP-08'),
      exchange('listGroups', 200, { pagination: { page: 1, totalPages: 1, limit: 10, total: 1 }, data: 'g-1' }),
    );
    assert.match(failed(broken, 'GRP-01'), /check "body" failed/);
    assert.deepEqual(verdicts(broken)['INP-08'], ['passed']);
    // The pagination object missing is the envelope's requirement (its schema declares PAG-12), not the case's.
    const unpaged = assess(caseOf('listGroups', 'tolerated', 'INP-08'), exchange('listGroups', 200, { data: [group] }));
    assert.match(failed(unpaged, 'PAG-12'), /pagination/);
    assert.deepEqual(verdicts(unpaged)['INP-08'], ['passed']);
  });

  it('attributes an issue inside a part to the requirement its schema declares', () => {
    const envelope = { pagination: { page: 1, totalPages: 1, limit: 10, total: 1 }, data: [{ ...group, name: 7 }] };
    const checks = assess(caseOf('listGroups', 'accepted', 'GRP-01'), exchange('listGroups', 200, envelope));
    assert.deepEqual(verdicts(checks)['GRP-01'], ['passed']);
    assert.match(failed(checks, 'GRP-02'), /name/);
  });

  it('expects the stated status of an accepted case', () => {
    const login = caseOf('login', 'accepted', 'LOGIN-04', {}, { status: 401 });
    assert.ok(passedOnly(assess(login, exchange('login', 401, { statusCode: 401, message: 'Invalid email or password' }))));
    assert.match(failed(assess(login, exchange('login', 400, badRequest)), 'LOGIN-04'), /Expected status 401, received 400/);
    assert.match(
      failed(assess(caseOf('getGroup', 'accepted', 'GRP-02'), exchange('getGroup', 404, { statusCode: 404, message: 'no' })), 'GRP-02'),
      /requires this valid request to be accepted/,
    );
  });

  it('leaves a case unassessed when transcription statistics answer the usage-limit 403', () => {
    const checks = assess(
      caseOf('getTranscriptionStats', 'accepted', 'TRS-01', { query: { environment: 'development' } }),
      exchange('getTranscriptionStats', 403, { statusCode: 403, error: 'Forbidden', message: 'limit' }),
    );
    assert.deepEqual(verdicts(checks)['TRS-01'], ['not assessed']);
    assert.deepEqual(verdicts(checks)['ERR-02'], ['passed']);
  });

  it('checks paging: limit, item count and the page number from 0 or from 1, each on its own requirement', () => {
    const paged = caseOf('listGroups', 'accepted', 'GRP-01', { query: { skip: '2', take: '2' } }, { paging: true });
    const page = (pagination: object, data: unknown[]) => exchange('listGroups', 200, { pagination, data });
    assert.ok(passedOnly(assess(paged, page({ page: 2, totalPages: 3, limit: 2, total: 5 }, [group, group]))));
    assert.ok(passedOnly(assess(paged, page({ page: 1, totalPages: 3, limit: 2, total: 5 }, [group, group]))), 'pages numbered from 0');
    assert.match(failed(assess(paged, page({ page: 2, totalPages: 3, limit: 10, total: 5 }, [group, group])), 'PAG-03'), /limit is 10/);
    assert.match(failed(assess(paged, page({ page: 2, totalPages: 3, limit: 2, total: 5 }, [group])), 'PAG-07'), /1 items/);
    assert.match(failed(assess(paged, page({ page: 3, totalPages: 3, limit: 2, total: 5 }, [group, group])), 'PAG-06'), /page is 3/);
    assert.match(failed(assess(paged, page({ page: 2, totalPages: 2, limit: 2, total: 1 }, [group])), 'PAG-14'), /returned 1 items/);
    const unpaged = caseOf('listGroups', 'accepted', 'GRP-01', { query: { skip: '2', take: '2' } });
    assert.deepEqual(Object.keys(verdicts(assess(unpaged, page({ page: 9, totalPages: 3, limit: 2, total: 5 }, [group, group])))).sort(), ['FMT-04', 'GRP-01']);
  });

  it('holds a refused page past the end to PAG-09; the shape of the operation does not apply to that answer', () => {
    // Applicability shape of the generated layer: the case's own requirement states what the accepted
    // answer holds, and a refusal past the end is PAG-09's open choice, so it is not applicable to
    // that case (not "not assessed": nothing stood in the way of judging it).
    const paged = caseOf('listGroups', 'accepted', 'GRP-01', { query: { skip: '900', take: '2' } }, { paging: true });
    const refused = exchange('listGroups', 400, badRequest);
    const past = assess(paged, refused, { total: 25 });
    assert.deepEqual(verdicts(past)['GRP-01'], ['not applicable']);
    assert.match(past.find((check) => check.requirementId === 'GRP-01')?.notApplicable ?? '', /skip 900 is at or past the total 25.*PAG-09's open choice/);
    assert.match(failed(past, 'PAG-09'), /skip 900 is at or past the total 25/);
    assert.match(failed(assess(paged, refused, { total: 1000 }), 'GRP-01'), /requires this valid request to be accepted/);
  });

  it('finds nothing of REC-10 in a refused page past the end of recordings in the envelope, which page as every list does', () => {
    const paged = caseOf('listRecordings', 'accepted', 'VAR-01', { query: { roomId: 'room-1', skip: '40', take: '10' } }, { paging: true });
    const past = assess(paged, exchange('listRecordings', 400, badRequest), { total: 12 });
    assert.deepEqual(verdicts(past)['VAR-01'], ['not applicable']);
    assert.equal(verdicts(past)['REC-10'], undefined, 'a refusal past the end is no finding of REC-10');
    assert.equal(failed(past, 'PAG-09'), '', 'PAG-09 does not list listRecordings');
  });

  it('checks equality filters on the returned items, except where both filters leave the result open', () => {
    const byRoom = caseOf('listRecordings', 'accepted', 'VAR-01', { query: { roomId: 'room-1' } });
    assert.ok(passedOnly(assess(byRoom, exchange('listRecordings', 200, [recording('room-1')]))));
    assert.match(
      failed(assess(byRoom, exchange('listRecordings', 200, [recording('room-1'), recording('room-2')])), 'REC-03'),
      /1 of 2 items lack roomId equal to "room-1"/,
    );
    const both = caseOf('listRecordings', 'tolerated', 'UNS-25', { query: { roomId: 'room-1', meetingId: 'm-9' } });
    assert.ok(passedOnly(assess(both, exchange('listRecordings', 200, [recording('room-2')]))));
  });

  it('holds meeting statistics to the one form its flags select', () => {
    const summary = { totalMeetingMinutes: 1, totalRecordingMinutes: 0, totalMeetings: 1 };
    const records = caseOf('getMeetingStats', 'accepted', 'MST-03', { query: { onlySummary: 'false' } });
    assert.ok(passedOnly(assess(records, exchange('getMeetingStats', 200, []))));
    assert.match(failed(assess(records, exchange('getMeetingStats', 200, summary)), 'MST-03'), /the body is not the MeetingStatsRecordList/);
    const invalidFlag = caseOf('getMeetingStats', 'tolerated', 'INP-08', { query: { onlySummary: 'yes' } });
    assert.ok(passedOnly(assess(invalidFlag, exchange('getMeetingStats', 200, []))));
  });

  const record = (startedAt: string) => ({
    uuid: 's',
    id: 1,
    meetingId: 'm',
    groupId: 'g',
    groupName: 'G',
    userId: 'u',
    meetingMinutes: 1,
    recordingMinutes: 0,
    price: 0,
    startedAt,
    endedAt: startedAt,
    createdAt: startedAt,
    participants: [],
  });

  it('holds a body of another form to the form, even where a part of it declares another requirement', () => {
    const page = caseOf('getMeetingStats', 'accepted', 'MST-06', { query: { usePagination: 'true', onlySummary: 'false' } });
    assert.match(failed(assess(page, exchange('getMeetingStats', 200, [])), 'MST-06'), /the body is not the MeetingStatsPage/);
  });

  it('attributes a field of a record to MST-04, not to the form', () => {
    const records = caseOf('getMeetingStats', 'accepted', 'MST-03', { query: { onlySummary: 'false' } });
    const checks = assess(records, exchange('getMeetingStats', 200, [{ ...record('2024-06-30T12:00:00.000Z'), price: '1.00' }]));
    assert.deepEqual(verdicts(checks)['MST-03'], ['passed']);
    assert.match(failed(checks, 'MST-04'), /price/);
  });

  it('checks the meeting statistics date windows on records only, in any timezone', () => {
    const june = caseOf('getMeetingStats', 'accepted', 'MST-03', { query: { onlySummary: 'false', month: '06', year: '2024' } });
    assert.ok(passedOnly(assess(june, exchange('getMeetingStats', 200, [record('2024-06-30T23:59:59.999Z')]))));
    assert.ok(passedOnly(assess(june, exchange('getMeetingStats', 200, [record('2024-07-01T09:00:00.000Z')]))), 'June in UTC-12');
    assert.match(failed(assess(june, exchange('getMeetingStats', 200, [record('2024-07-02T00:00:00.000Z')])), 'MST-07'), /month 06\/2024/);
  });

  it('fails a read-back that finds the participant a refused write named', () => {
    const upsert = caseOf('upsertParticipant', 'refused', 'INP-04');
    const found = exchange('getParticipant', 200, { id: 'gen-1', name: 'n', email: 'e', avatar: 'a', createdAt: '2024-02-12T09:41:02.117Z' });
    assert.match(assessReadBack(upsert, 'gen-1', found).failure ?? '', /getParticipant "gen-1" now returns the participant/);
    assert.equal(assessReadBack(upsert, 'gen-1', found).requirementId, 'INP-07');
    assert.equal(assessReadBack(upsert, 'gen-1', exchange('getParticipant', 404, { statusCode: 404, message: 'no' })).failure, undefined);
  });
});

describe('bindings', () => {
  it('hold a JSON body to the requirement the document names for it, as the contract matcher does', () => {
    assert.equal(jsonBodyRequirement(), JSON_BODY_REQUIREMENT);
  });
});

describe('aggregateChecks', () => {
  it('records one check per key, failing with the count and the first failure', () => {
    const checks: CaseCheck[] = [
      { requirementId: 'INP-08', label: 'case 1' },
      { requirementId: 'ERR-04', label: 'statusCode in 400 bodies', aggregate: 'ERR-04 400' },
      { requirementId: 'ERR-04', label: 'statusCode in 400 bodies', aggregate: 'ERR-04 400', failure: 'statusCode 422' },
      { requirementId: 'FMT-04', label: 'JSON', aggregate: 'FMT-04 400' },
    ];
    assert.deepEqual(aggregateChecks(checks), [
      { requirementId: 'ERR-04', label: 'statusCode in 400 bodies (2 answers)', failure: '1 of 2 answers fail; the first: statusCode 422' },
      { requirementId: 'FMT-04', label: 'JSON (1 answer)' },
    ]);
  });
});

describe('runCaseSet', () => {
  const plan = negativePlans(CASE_BINDINGS).find((candidate) => candidate.operationId === 'listGroups');
  assert.ok(plan);

  it('sends the canonical cases then the random runs, each once, whatever fails', async () => {
    const set = bindPlan(plan, CONTEXT, 5);
    const runs = await runCaseSet(set, { seed: SEED }, async (generated) => generated.description);
    assert.equal(runs.length, set.examples.length + 5);
    assert.deepEqual(
      runs.slice(0, set.examples.length).map(({ result }) => result),
      set.examples.map((generated) => generated.description),
    );
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
    const runs = await runCaseSet(set, { seed: SEED }, async (generated) => {
      sent.push(JSON.stringify(generated.request));
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
    });
    assert.equal(runs.length, sequential.length);
    assert.deepEqual(
      runs.map(({ generated }) => JSON.stringify(generated.request)),
      sequential,
    );
    assert.deepEqual(sent, sequential);
    assert.equal(mostInFlight, sequential.length);
  });

  it('sends cases that may change data one after another, in their order', async () => {
    const set = bindPlan(plan, CONTEXT, 5);
    const mutating: CaseSet = {
      ...set,
      examples: set.examples.map((example) => ({ ...example, mutates: true })),
      arbitrary: set.arbitrary?.map((generated) => ({ ...generated, mutates: true })),
    };
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
    assert.deepEqual(
      events.filter((event) => event.startsWith('start ')).slice(0, set.examples.length),
      set.examples.map((example) => `start ${example.description}`),
    );
  });

  it('sends writes to resources of their own together, and the other writes one after another after them', async () => {
    const write = (description: string, ownResource?: string): GeneratedCase =>
      caseOf('upsertParticipant', 'refused', 'INP-07', {}, { description, mutates: true, ...(ownResource === undefined ? {} : { ownResource }) });
    // Two cases claim participant p2: neither is on its own, so both wait their turn.
    const cases = [
      write('own 1', 'participant p1'),
      write('shared 1'),
      write('own 2', 'participant p3'),
      write('claims p2', 'participant p2'),
      write('claims p2 too', 'participant p2'),
    ];
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    await sendTogether(cases, async (generated) => {
      inFlight.add(generated.description);
      await new Promise((resolve) => setTimeout(resolve, 5));
      overlaps.push([...inFlight].sort().join(' + '));
      inFlight.delete(generated.description);
    });
    assert.ok(
      overlaps.some((overlap) => overlap.includes('own 1') && overlap.includes('own 2')),
      overlaps.join('; '),
    );
    const sequential = ['shared 1', 'claims p2', 'claims p2 too'];
    for (const overlap of overlaps) assert.ok(sequential.filter((description) => overlap.split(' + ').includes(description)).length <= 1, overlap);
  });

  it('shrinks a failure of the run it replays to the smallest case and reports it with the reason and the replay', async () => {
    const set = bindPlan(plan, CONTEXT, 30);
    const failing = (generated: GeneratedCase): boolean =>
      generated.description.startsWith('take: below the minimum') && Number(generated.request.query?.['take']) < -3;
    const runs = await runCaseSet(set, { seed: SEED }, async (generated) => failing(generated));
    const index = runs.findIndex(({ result }) => result);
    assert.ok(index >= set.examples.length, 'a random run fails');
    const report = await shrinkFailure(set, { seed: SEED }, index, 'INP-08', async (generated) => (failing(generated) ? `bad take\n${CURL}` : undefined));
    assert.match(report ?? '', /Smallest failing case of listGroups for INP-08 \(shrunk \d+ times\): take: below the minimum 1: -4\n/);
    assert.match(report ?? '', /Case requirement: INP-08; expected: tolerated/);
    assert.match(report ?? '', /Counterexample request: {"query":{"take":"-4"}}/);
    assert.match(report ?? '', /bad take\ncurl -sS/);
    assert.match(report ?? '', new RegExp(`Replay: GENERATED_SEED=${SEED} GENERATED_RUNS=30`));
    assert.equal(await shrinkFailure(set, { seed: SEED }, index, 'INP-08', async () => undefined), undefined);
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
    assert.deepEqual(
      printed.mock.calls.map((call) => call.arguments[0]),
      ['seed 1', 'seed 2'],
    );
    assert.deepEqual(readdirSync(directory), ['announced-run-2']);
  });
});

describe('withoutBranchMismatches', () => {
  const issue = (instancePath: string, keyword: string, requirementId?: string) => ({ instancePath, keyword, requirementId });

  it('drops a failed choice and the mismatches of the other forms where the value shows its own issue', () => {
    const deletedAt = '/0/participants/0/deletedAt';
    const issues = [issue(deletedAt, 'pattern', 'FMT-01'), issue(deletedAt, 'type', 'MST-05'), issue(deletedAt, 'oneOf', 'MST-05')];
    assert.deepEqual(withoutBranchMismatches(issues), [issues[0]]);
    const root = [issue('', 'required', 'MSUM-01'), issue('', 'type', 'PAG-12'), issue('', 'anyOf'), issue('/0/price', 'type', 'MST-04')];
    assert.deepEqual(withoutBranchMismatches(root), [root[3]]);
  });

  it('keeps everything when the choice failed on the type alone', () => {
    const issues = [issue('/deletedAt', 'type', 'FMT-01'), issue('/deletedAt', 'type', 'MST-05'), issue('/deletedAt', 'oneOf', 'MST-05')];
    assert.deepEqual(withoutBranchMismatches(issues), issues);
  });
});
