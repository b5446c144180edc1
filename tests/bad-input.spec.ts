/**
 * Bad input (INP-01..09): malformed, missing, mistyped and oversized bodies, bodies in another media
 * type, bad query values and unusual path parameters, one check per case. Refusals are 4xx, never
 * 5xx; the error body of a refusal is judged by the error requirements that concern its operation
 * (ERR-04, ERR-05, ERR-06). Requests that a wrong target would take for a write are gated like the
 * write itself: participant upserts on TARGET_ALLOW_WRITES, security keys on TARGET_ALLOW_DESTRUCTIVE
 * (sent to the path the target serves them at, VAR-03).
 */
import { check, cites, expect, notAssessed, test, together } from '../fixtures/index.ts';
import type { ApiClient, CallOptions, Discovery, Exchange, TargetConfig } from '../fixtures/index.ts';
import { acceptedOrRefused, noServerError, okOrRefused, refusedAsInvalidUri, refusedWith4xx } from './conditions/index.ts';
import { checkErrorBody, concerning } from './support/error-bodies.ts';
import type { ErrorRequirement } from './support/error-bodies.ts';
import { callSecurityKey } from './support/security-keys.ts';

const ERROR_BODY: readonly ErrorRequirement[] = ['ERR-04', 'ERR-05', 'ERR-06'];

/** The error requirements a test over these operations cites: those that concern one of them. */
const errorCites = (...operations: string[]): ErrorRequirement[] => concerning(ERROR_BODY, operations);

const is4xx = (status: number): boolean => status >= 400 && status < 500;

/** The statuses a requirement allows: the condition that judges them, and the label's words. */
interface Allowed {
  holds: (exchange: Exchange) => void;
  says: string;
}

/**
 * One case: a check of `id` that the answer's status is allowed, then, for a 4xx, the error-body
 * checks of the operation. `allowed` judges the status the requirement accepts.
 * Tests whose cases a conforming target must refuse cite the error requirements; the others (where
 * a target may answer every case with a success) run the error-body checks on whatever refusals
 * come without citing them, so that a target without refusals does not leave them partly assessed.
 */
async function judgeAnswer(id: string, what: string, exchange: Exchange, allowed: Allowed): Promise<void> {
  await check(id, `${what}: ${allowed.says}`, () => allowed.holds(exchange));
  if (exchange.status >= 400) await checkErrorBody(exchange, what, ERROR_BODY);
}

const ONLY_4XX: Allowed = { holds: refusedWith4xx, says: 'refused with a 4xx' };

type BodyOperation = 'login' | 'upsertParticipant' | 'createSecurityKey';

interface BodyTarget {
  operation: BodyOperation;
  /** Sends the request (security keys go to the path the target serves them at). */
  send: (api: ApiClient, discover: Discovery, options: CallOptions) => Promise<Exchange>;
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
    send: (api, _discover, options) => api.call('login', options),
    tag: [],
    gate: () => undefined,
    // The real credentials: a target that wrongly accepts the body then answers 200, not a 401 that would pass.
    valid: (target) => ({ email: target.email, password: target.password }),
    stringField: 'email',
  },
  {
    operation: 'upsertParticipant',
    send: (api, _discover, options) => api.call('upsertParticipant', options),
    tag: ['@writes'],
    gate: (target) => {
      if (!target.allowWrites) notAssessed('a target that wrongly accepts the body creates a participant', { enable: 'TARGET_ALLOW_WRITES' });
    },
    valid: (_target, fresh) => {
      const id = fresh();
      return { participantId: id, id, name: `${id} conformance`, email: `${id}@example.com`, avatar: `https://example.com/avatars/${id}.png` };
    },
    stringField: 'name',
  },
  {
    operation: 'createSecurityKey',
    send: callSecurityKey,
    tag: ['@destructive'],
    gate: (target) => {
      if (!target.allowDestructive) notAssessed('a target that wrongly accepts the body creates a security key', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    },
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
const typed =
  (value: unknown) =>
  (valid: Record<string, unknown>, stringField: string): CallOptions => ({ body: { ...valid, [stringField]: value } });

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
  {
    id: 'INP-05',
    name: 'the JSON text as application/x-www-form-urlencoded',
    options: (valid) => raw(JSON.stringify(valid), 'application/x-www-form-urlencoded'),
  },
];

for (const bodyTarget of BODY_TARGETS) {
  test(
    `${bodyTarget.operation} refuses malformed, missing, non-object, mistyped and non-JSON bodies with a 4xx`,
    cites('INP-01', 'INP-02', 'INP-03', 'INP-04', 'INP-05', ...errorCites(bodyTarget.operation), { tag: bodyTarget.tag }),
    async ({ api, discover, target, newParticipantId }) => {
      bodyTarget.gate(target);
      // The bad bodies do not depend on each other: they go out together, one check each.
      await together(BAD_BODIES, async (bad) => {
        // Each participant a wrongly accepting target may store is recorded first and archived at teardown.
        const exchange = await bodyTarget.send(api, discover, bad.options(bodyTarget.valid(target, newParticipantId), bodyTarget.stringField));
        await judgeAnswer(bad.id, `${bodyTarget.operation} with ${bad.name}`, exchange, ONLY_4XX);
      });
    },
  );
}

const LONG_TEXT = 'x'.repeat(100_000);
const SUCCESS_OR_4XX: Allowed = { holds: acceptedOrRefused, says: 'answered with a 2xx or a 4xx' };

test('upsertParticipant answers a name of 100 000 characters with 2xx or 4xx', cites('INP-06', { tag: ['@writes'] }), async ({ api, newParticipantId }) => {
  const id = newParticipantId();
  const exchange = await api.call('upsertParticipant', {
    body: { participantId: id, id, name: LONG_TEXT, email: `${id}@example.com`, avatar: `https://example.com/avatars/${id}.png` },
  });
  await judgeAnswer('INP-06', 'upsertParticipant with a name of 100 000 characters', exchange, SUCCESS_OR_4XX);
});

test(
  'createSecurityKey answers a passphrase of 100 000 characters with 2xx or 4xx',
  cites('INP-06', { tag: ['@destructive'] }),
  async ({ api, discover, target }) => {
    if (!target.allowDestructive) notAssessed('may create a security key', { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
    const exchange = await callSecurityKey(api, discover, { body: { passphrase: LONG_TEXT } });
    await judgeAnswer('INP-06', 'createSecurityKey with a passphrase of 100 000 characters', exchange, SUCCESS_OR_4XX);
  },
);

const REFUSED_UPDATES: [string, Record<string, unknown>][] = [
  ['a new name with an e-mail that is a number', { name: 'cs changed name', email: 42 }],
  ['a new e-mail with an avatar that is an object', { email: 'cs-changed@example.com', avatar: { url: 'https://example.com/a.png' } }],
];

/** The fields of a participant the interface lists; others are not closed and may change on their own. */
const PARTICIPANT_FIELDS = ['id', 'name', 'email', 'avatar', 'createdAt'] as const;

/** The listed fields of a participant read, or why the read cannot serve (getParticipant's own requirements judge it). */
async function listedFields(api: ApiClient, id: string, when: string): Promise<Record<string, unknown>> {
  const exchange = await api.call('getParticipant', { params: { id } });
  const body = exchange.json;
  if (exchange.status !== 200 || typeof body !== 'object' || body === null) notAssessed.check(`getParticipant ${when} answered HTTP ${exchange.status}`);
  return Object.fromEntries(PARTICIPANT_FIELDS.map((name) => [name, (body as Record<string, unknown>)[name]]));
}

for (const [name, change] of REFUSED_UPDATES) {
  test(
    `a refused upsert (${name}) leaves the participant unchanged`,
    cites('INP-07', 'INP-04', ...errorCites('upsertParticipant'), { tag: ['@writes'] }),
    async ({ api, createParticipant }) => {
      const { id, input } = await createParticipant();
      const before = await listedFields(api, id, 'before the upsert').catch((error: unknown) => {
        if (notAssessed.is(error)) return error;
        throw error;
      });
      const exchange = await api.call('upsertParticipant', { body: { ...input, ...change } });
      await judgeAnswer('INP-04', `an upsert with ${name}`, exchange, ONLY_4XX);
      await check('INP-07', `after the refused upsert with ${name}, the participant's listed fields are unchanged`, async () => {
        if (!is4xx(exchange.status)) notAssessed.check(`the upsert answered HTTP ${exchange.status}, not a refusal (INP-04 judges that)`);
        if (notAssessed.is(before)) throw before;
        expect(await listedFields(api, id, 'after the upsert'), 'the participant after the refused upsert').toEqual(before);
      });
    },
  );
}

interface QueryCase {
  operation: string;
  /** Path parameters from discovery, when the operation has any. */
  params?: (discover: Discovery) => Promise<Record<string, string>>;
  /** Documented filters that keep the answer small; each bad value is added to them. */
  base?: (discover: Discovery) => Promise<Record<string, string | boolean>>;
  values: Record<string, string>[];
}

const QUERY_CASES: QueryCase[] = [
  { operation: 'listGroups', values: [{ skip: '-1' }, { take: 'abc' }, { take: '0' }, { skip: '1.5' }] },
  {
    operation: 'listGroupParticipants',
    params: async (discover) => ({ groupId: ((await discover.group()) ?? notAssessed('a group', { enable: 'TARGET_GROUP_ID' })).id }),
    values: [{ skip: '-1' }, { take: 'abc' }, { take: '0' }],
  },
  {
    operation: 'listRecordings',
    base: async (discover) => ({ meetingId: (await discover.meetingId()) ?? notAssessed('a meeting with recordings', { enable: 'TARGET_MEETING_ID' }) }),
    values: [{ skip: '-1' }, { take: 'abc' }],
  },
  { operation: 'getTranscriptionStats', values: [{ environment: 'staging' }] },
  {
    operation: 'getMeetingStats',
    values: [
      { month: '13' },
      { month: 'June' },
      { year: 'abcd' },
      { initialDate: 'yesterday' },
      { endDate: '2024-02-30T00:00:00.000Z' },
      { usePagination: 'maybe' },
      { onlySummary: 'maybe' },
      { environment: 'staging' },
    ],
  },
];

const OK_OR_4XX: Allowed = { holds: okOrRefused, says: 'answered with 200 or a 4xx' };

for (const c of QUERY_CASES) {
  test(`${c.operation} answers malformed query values with 200 or a 4xx`, cites('INP-08'), async ({ api, discover }) => {
    const params = c.params === undefined ? undefined : await c.params(discover);
    const base = c.base === undefined ? {} : await c.base(discover);
    await together(c.values, async (value) => {
      const exchange = await api.call(c.operation, { ...(params === undefined ? {} : { params }), query: { ...base, ...value } });
      await judgeAnswer('INP-08', `${c.operation} with ${new URLSearchParams(value).toString()}`, exchange, OK_OR_4XX);
    });
  });
}

const UNUSUAL_VALUES: [string, string][] = [
  ['1 000 characters long', 'p'.repeat(1000)],
  ['non-ASCII', 'grüße-✓-会議-😀'],
  // The client percent-encodes path parameters, so the slashes travel as %2F.
  ['holding percent-encoded slashes', '../../groups'],
];

/**
 * Sent as they are (the client would encode the percent sign): percent-encodings that do not decode.
 * Such a path is not a valid URI (RFC 3986), and the HTTP server or proxy in front of an application
 * refuses it before any application code runs, with a body of its own or by closing the connection:
 * it is judged only on being refused (refusedAsInvalidUri), never on its error body.
 */
const UNDECODABLE_VALUES: [string, string][] = [
  ['whose percent-encoding stops inside a UTF-8 sequence', '%E0%A4%A'],
  ['holding a percent sign before two letters that are not hex', '%zz'],
];

/** The call's parameters as sent on the wire: the undecodable value as it is, every other value encoded. */
const sentAsIs = (params: Record<string, string>, value: string): Record<string, string> =>
  Object.fromEntries(Object.entries(params).map(([name, given]) => [name, given === value ? value : encodeURIComponent(given)]));

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

const NOT_5XX: Allowed = { holds: noServerError, says: 'answered without a 5xx' };

for (const c of PATH_CASES) {
  test(`${c.name} answer unusual path parameters without a 5xx`, cites('INP-09', { tag: c.tag ?? [] }), async ({ api, target }) => {
    if (c.tag?.includes('@writes') && !target.allowWrites) notAssessed('archiving is a participant write', { enable: 'TARGET_ALLOW_WRITES' });
    await together(UNUSUAL_VALUES, async ([name, value]) => {
      await together(c.calls(value, target), async ([operation, params]) => {
        await judgeAnswer('INP-09', `${operation} with a path parameter ${name}`, await api.call(operation, { params }), NOT_5XX);
      });
    });
    await together(UNDECODABLE_VALUES, async ([name, value]) => {
      await together(c.calls(value, target), async ([operation, params]) => {
        const answer = await api.callRefusable(operation, { encodedParams: sentAsIs(params, value) });
        await check('INP-09', `${operation} with a path parameter ${name}: refused (any 4xx, or the connection closed), no success, no 5xx`, () =>
          refusedAsInvalidUri(answer),
        );
      });
    });
  });
}
