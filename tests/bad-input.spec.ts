/**
 * Bad input (INP-01..09): malformed, missing, mistyped and oversized bodies, bodies in another media
 * type, bad query values and unusual path parameters. Refusals are 4xx with statusCode equal to the
 * status (ERR-04), never 5xx. Requests that a wrong target would take for a write are gated like the
 * write itself: participant upserts on TARGET_ALLOW_WRITES, security keys on TARGET_ALLOW_DESTRUCTIVE.
 */
import { cites, expect, requireDestructive, requireWrites, test, together } from '../fixtures/index.ts';
import type { CallOptions, Discovery, Needs, TargetConfig } from '../fixtures/index.ts';
import { expectRefused, refusalProblem } from './support/observations.ts';

type BodyOperation = 'login' | 'upsertParticipant' | 'createSecurityKey';

interface BodyTarget {
  operation: BodyOperation;
  tag: string[];
  /** Skips the test when the target does not allow what a wrong acceptance would do. */
  gate: (target: TargetConfig) => void;
  /** A well-formed body of the operation; `fresh` names a new participant, archived at teardown. */
  valid: (target: TargetConfig, fresh: () => string) => Record<string, unknown>;
  /** Documented string fields of the body, for mistyped values. */
  stringField: string;
}

const BODY_TARGETS: BodyTarget[] = [
  {
    operation: 'login',
    tag: [],
    gate: () => undefined,
    // The real credentials: a target that wrongly accepts the body then answers 200, not a 401 that would pass.
    valid: (target) => ({ email: target.email, password: target.password }),
    stringField: 'email',
  },
  {
    operation: 'upsertParticipant',
    tag: ['@writes'],
    gate: (target) => requireWrites(target, 'a target that wrongly accepts the body creates a participant'),
    valid: (_target, fresh) => {
      const id = fresh();
      return { participantId: id, id, name: `${id} conformance`, email: `${id}@example.com`, avatar: `https://example.com/avatars/${id}.png` };
    },
    stringField: 'name',
  },
  {
    operation: 'createSecurityKey',
    tag: ['@destructive'],
    gate: (target) => requireDestructive(target, 'a target that wrongly accepts the body creates a security key'),
    valid: () => ({ passphrase: 'Conformance-Input-Key!' }),
    stringField: 'passphrase',
  },
];

/** One bad body of a requirement: raw text with a media type, no body at all, or a mistyped field. */
interface BadBody {
  id: string;
  name: string;
  options: (valid: Record<string, unknown>, stringField: string) => CallOptions;
}

const raw = (text: string, contentType: string): CallOptions => ({ rawBody: text, contentType });
const typed = (value: unknown) => (valid: Record<string, unknown>, stringField: string): CallOptions => ({ body: { ...valid, [stringField]: value } });

const BAD_BODIES: BadBody[] = [
  { id: 'INP-01', name: 'truncated JSON', options: (valid) => raw(JSON.stringify(valid).slice(0, -2), 'application/json') },
  { id: 'INP-01', name: 'single-quoted JSON', options: (valid) => raw(JSON.stringify(valid).replaceAll('"', "'"), 'application/json') },
  { id: 'INP-02', name: 'no body and no content type', options: () => ({}) },
  { id: 'INP-02', name: 'an empty application/json body', options: () => raw('', 'application/json') },
  { id: 'INP-03', name: 'an array holding the valid body', options: (valid) => raw(JSON.stringify([valid]), 'application/json') },
  { id: 'INP-03', name: 'a JSON string', options: (valid) => raw(JSON.stringify(JSON.stringify(valid)), 'application/json') },
  { id: 'INP-03', name: 'a JSON number', options: () => raw('42', 'application/json') },
  { id: 'INP-03', name: 'JSON null', options: () => raw('null', 'application/json') },
  { id: 'INP-04', name: 'a string field holding a number', options: typed(12345678) },
  { id: 'INP-04', name: 'a string field holding a boolean', options: typed(true) },
  { id: 'INP-04', name: 'a string field holding an object', options: typed({ value: 'text' }) },
  { id: 'INP-04', name: 'a string field holding an array', options: typed(['text']) },
  { id: 'INP-05', name: 'the JSON text as text/plain', options: (valid) => raw(JSON.stringify(valid), 'text/plain') },
  { id: 'INP-05', name: 'the JSON text as application/x-www-form-urlencoded', options: (valid) => raw(JSON.stringify(valid), 'application/x-www-form-urlencoded') },
];

for (const bodyTarget of BODY_TARGETS) {
  test(
    `${bodyTarget.operation} refuses malformed, missing, non-object, mistyped and non-JSON bodies with a 4xx`,
    cites('INP-01', 'INP-02', 'INP-03', 'INP-04', 'INP-05', 'ERR-04', { tag: bodyTarget.tag }),
    async ({ api, target, newParticipantId, warn }) => {
      bodyTarget.gate(target);
      const problems: string[] = [];
      await together(BAD_BODIES, async (bad) => {
        // Each participant a wrongly accepting target may store is recorded first and archived at teardown.
        const exchange = await api.call(bodyTarget.operation, bad.options(bodyTarget.valid(target, newParticipantId), bodyTarget.stringField));
        const problem = refusalProblem(exchange, warn, `${bad.id} ${bad.name}`);
        if (problem !== undefined) problems.push(problem);
      });
      expect(problems, 'bad bodies that were not refused with a 4xx, or whose error body misstates the status').toEqual([]);
    },
  );
}

const LONG_TEXT = 'x'.repeat(100_000);
const isSuccess = (status: number): boolean => status >= 200 && status < 300;

test('upsertParticipant answers a name of 100 000 characters with 2xx or 4xx', cites('INP-06', 'ERR-04', { tag: ['@writes'] }), async ({ api, newParticipantId, warn }) => {
  const id = newParticipantId();
  const exchange = await api.call('upsertParticipant', { body: { participantId: id, id, name: LONG_TEXT, email: `${id}@example.com`, avatar: `https://example.com/avatars/${id}.png` } });
  expect(refusalProblem(exchange, warn, 'a name of 100 000 characters', isSuccess)).toBeUndefined();
});

test('createSecurityKey answers a passphrase of 100 000 characters with 2xx or 4xx', cites('INP-06', 'ERR-04', { tag: ['@destructive'] }), async ({ api, target, warn }) => {
  requireDestructive(target, 'may create a security key');
  const exchange = await api.call('createSecurityKey', { body: { passphrase: LONG_TEXT } });
  expect(refusalProblem(exchange, warn, 'a passphrase of 100 000 characters', isSuccess)).toBeUndefined();
  if (exchange.status === 200) expect(exchange).toMatchOperation('createSecurityKey', { status: 200 });
});

const REFUSED_UPDATES: [string, Record<string, unknown>][] = [
  ['a new name with an e-mail that is a number', { name: 'cs changed name', email: 42 }],
  ['a new e-mail with an avatar that is an object', { email: 'cs-changed@example.com', avatar: { url: 'https://example.com/a.png' } }],
];

for (const [name, change] of REFUSED_UPDATES) {
  test(`a refused upsert (${name}) leaves the participant unchanged`, cites('INP-07', 'INP-04', { tag: ['@writes'] }), async ({ api, createParticipant, warn }) => {
    const { id, input } = await createParticipant();
    const before = await api.call('getParticipant', { params: { id } });
    expect(before).toMatchOperation('getParticipant', { status: 200 });
    expectRefused(await api.call('upsertParticipant', { body: { ...input, ...change } }), warn, `an upsert with ${name}`);
    const after = await api.call('getParticipant', { params: { id } });
    expect(after).toMatchOperation('getParticipant', { status: 200 });
    expect(after.json, 'the participant after the refused upsert').toEqual(before.json);
  });
}

interface QueryCase {
  operation: string;
  /** Path parameters from discovery, when the operation has any. */
  params?: (discover: Discovery, needs: Needs) => Promise<Record<string, string>>;
  /** Documented filters that keep the answer small; each bad value is added to them. */
  base?: (discover: Discovery, needs: Needs) => Promise<Record<string, string | boolean>>;
  values: Record<string, string>[];
}

const QUERY_CASES: QueryCase[] = [
  { operation: 'listGroups', values: [{ skip: '-1' }, { take: 'abc' }, { take: '0' }, { skip: '1.5' }] },
  {
    operation: 'listGroupParticipants',
    params: async (discover, needs) => ({ groupId: needs(await discover.group(), 'TARGET_GROUP_ID', 'a group').id }),
    values: [{ skip: '-1' }, { take: 'abc' }, { take: '0' }],
  },
  {
    operation: 'listRecordings',
    base: async (discover, needs) => ({ meetingId: needs(await discover.meetingId(), 'TARGET_MEETING_ID', 'a meeting with recordings') }),
    values: [{ skip: '-1' }, { take: 'abc' }],
  },
  { operation: 'getTranscriptionStats', values: [{ environment: 'staging' }] },
  {
    operation: 'getMeetingStats',
    values: [{ month: '13' }, { month: 'June' }, { year: 'abcd' }, { initialDate: 'yesterday' }, { endDate: '2024-02-30T00:00:00.000Z' }, { usePagination: 'maybe' }, { onlySummary: 'maybe' }, { environment: 'staging' }],
  },
];

for (const c of QUERY_CASES) {
  test(`${c.operation} answers malformed query values with 200 or a 4xx`, cites('INP-08', 'ERR-04'), async ({ api, discover, needs, warn }) => {
    const params = c.params === undefined ? undefined : await c.params(discover, needs);
    const base = c.base === undefined ? {} : await c.base(discover, needs);
    const problems: string[] = [];
    await together(c.values, async (value) => {
      const exchange = await api.call(c.operation, { ...(params === undefined ? {} : { params }), query: { ...base, ...value } });
      const problem = refusalProblem(exchange, warn, new URLSearchParams(value).toString(), (status) => status === 200);
      if (problem !== undefined) problems.push(problem);
      if (exchange.status === 200) expect.soft(exchange).toMatchOperation(c.operation, { status: 200 });
    });
    expect(problems, 'query values answered with neither 200 nor a 4xx, or with an error body that misstates the status').toEqual([]);
  });
}

const UNUSUAL_VALUES: [string, string][] = [
  ['1 000 characters long', 'p'.repeat(1000)],
  ['non-ASCII', 'grüße-✓-会議-😀'],
  // The client percent-encodes path parameters, so the slashes travel as %2F.
  ['holding percent-encoded slashes', '../../groups'],
];

interface PathCase {
  name: string;
  tag?: string[];
  /** The operations and their path parameters carrying an unusual value. */
  calls: (value: string, target: TargetConfig) => [string, Record<string, string>][];
}

const PATH_CASES: PathCase[] = [
  {
    name: 'group and participant reads',
    calls: (value) => [
      ['getGroup', { id: value }],
      ['listGroupParticipants', { groupId: value }],
      ['getParticipant', { id: value }],
    ],
  },
  { name: 'participant archive', tag: ['@writes'], calls: (value) => [['archiveParticipant', { id: value }]] },
  {
    name: 'realtime reads',
    calls: (value, target) => [
      ['getChannelInfo', { channel: value }],
      ['listChannelParticipants', { channel_name: value }],
      ['listRoomChannelParticipants', { room: value, channel: target.ids.channel ?? value }],
    ],
  },
];

for (const c of PATH_CASES) {
  test(`${c.name} answer unusual path parameters without a 5xx`, cites('INP-09', 'ERR-04', { tag: c.tag ?? [] }), async ({ api, target, warn }) => {
    if (c.tag?.includes('@writes')) requireWrites(target, 'archiving is a participant write');
    const problems: string[] = [];
    await together(UNUSUAL_VALUES, async ([name, value]) => {
      await together(c.calls(value, target), async ([operation, params]) => {
        const problem = refusalProblem(await api.call(operation, { params }), warn, `${operation} with a path parameter ${name}`, (status) => status < 400);
        if (problem !== undefined) problems.push(problem);
      });
    });
    expect(problems, 'unusual path parameters answered with a 5xx, or with an error body that misstates the status').toEqual([]);
  });
}
