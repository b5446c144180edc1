import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyPairKeyObjectResult } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, describe, it } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { OPERATION_IDS, requirements } from '../../fixtures/verdict/requirements.ts';
import { buildApp } from '../../reference/app.ts';
import { parseCli } from '../../reference/cli.ts';
import { FAULTS, findFault, listFaults, type Fault } from '../../reference/faults/index.ts';
import { OPERATION_ROUTES, type OperationId } from '../../reference/faults/tools.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { issueToken } from '../../reference/tokens.ts';
import { seedAccounts, seedKeys } from '../../scripts/lib/seed-generator.ts';

const catalogue = new Map(requirements().map((entry) => [entry.id, entry]));

describe('the fault catalogue', () => {
  it('holds at least 60 faults with unique kebab-case names', () => {
    assert.ok(FAULTS.length >= 60, `${FAULTS.length} faults`);
    const names = FAULTS.map((fault) => fault.name);
    assert.deepEqual(
      names.filter((name, index) => names.indexOf(name) !== index),
      [],
    );
    for (const name of names) assert.match(name, /^[a-z0-9]+(-[a-zA-Z0-9]+)*$/, name);
  });

  // A fault breaks something the interface states (a MUST: a failure) or that we expect although it
  // does not state it (a SHOULD: a warning, such as a 500 on malformed input). Behaviour the
  // interface leaves open (UNSPECIFIED) is an allowed choice, never a fault.
  it('declares, for every fault, requirements of spec/requirements.yaml including a MUST or a SHOULD', () => {
    for (const fault of FAULTS) {
      assert.ok(fault.description.length > 0, fault.name);
      const unknown = fault.requirements.filter((id) => !catalogue.has(id));
      assert.deepEqual(unknown, [], `${fault.name} declares unknown requirements`);
      // Echoing a credential breaks no requirement of the interface, and an outage breaks all of them
      // at once: those faults serve check:canary.
      if (fault.requirements.length === 0 && (fault.name.startsWith('echo-credentials-') || fault.name === 'every-answer-500')) continue;
      assert.ok(
        fault.requirements.some((id) => ['MUST', 'SHOULD'].includes(catalogue.get(id)?.level ?? '')),
        `${fault.name} declares no MUST or SHOULD requirement: nothing it breaks could fail the suite or warn`,
      );
    }
  });

  it('names only operations of docs/architecture.md, and covers all 16', () => {
    const covered = new Set<string>();
    for (const fault of FAULTS) {
      for (const operation of fault.operations ?? []) {
        assert.ok((OPERATION_IDS as readonly string[]).includes(operation), `${fault.name}: unknown operation ${operation}`);
        covered.add(operation);
      }
      for (const id of fault.requirements) for (const operation of catalogue.get(id)?.operations ?? []) covered.add(operation);
    }
    assert.deepEqual(
      OPERATION_IDS.filter((operation) => !covered.has(operation)),
      [],
    );
    assert.deepEqual(Object.keys(OPERATION_ROUTES).sort(), [...OPERATION_IDS].sort());
  });

  it('misses the credential check of every operation that has one in some fault', () => {
    const authenticated = OPERATION_IDS.filter((operation) => operation !== 'login');
    const unchecked = new Set(FAULTS.filter((fault) => /-unchecked-/.test(fault.name)).flatMap((fault) => fault.operations ?? []));
    assert.deepEqual(
      authenticated.filter((operation) => !unchecked.has(operation)),
      [],
    );
  });

  it('is listed as JSON {name, description, requirements} and switched on by --fault', () => {
    assert.deepEqual(listFaults()[0], { name: FAULTS[0]?.name, description: FAULTS[0]?.description, requirements: FAULTS[0]?.requirements });
    assert.deepEqual(parseCli(['--list-faults']), { kind: 'list-faults' });
    assert.deepEqual(parseCli(['--fault', 'skip-ignored', '--port=0']), { kind: 'serve', port: 0, options: { variants: [] }, fault: 'skip-ignored' });
    assert.throws(() => parseCli(['--fault', 'no-such-fault']), /--fault: unknown fault "no-such-fault"/);
    assert.throws(() => parseCli(['--fault', 'skip-ignored', '--fault', 'default-take-20']), /--fault: only one fault at a time/);
    assert.equal(findFault('no-such-fault'), undefined);
  });

  it('leaves the options it is given untouched', () => {
    const options: ReferenceOptions = { recordingDelayMs: 5, variants: ['error-in-401'] };
    const frozen = structuredClone(options);
    for (const fault of FAULTS) fault.apply(options);
    assert.deepEqual(options, frozen);
  });
});

// ---------------------------------------------------------------- every fault changes what the service answers

/**
 * A battery of characteristic requests per operation (valid ones, each credential missing or
 * wrong, the documented filters, paging, and the state changes), run in order on a fresh instance
 * with a fixed clock. A fault must change the observed answers of at least one request of the
 * operations it declares; the plain reference must answer the battery identically twice.
 */

const NOW = Date.UTC(2026, 0, 15, 12);
const PASSPHRASE = 'Unit-Passphrase-1!';
const dev = seedKeys.apiKeys.development;
const prod = seedKeys.apiKeys.production;
const client = seedKeys.clients.development;
const developerToken = await issueToken(seedKeys.jwtSecret, seedAccounts.developer.id, NOW, 3600);
const viewerToken = await issueToken(seedKeys.jwtSecret, seedAccounts.nonDeveloper.id, NOW, 3600);
const limitsToken = await issueToken(seedKeys.jwtSecret, seedAccounts.usageLimit.id, NOW, 3600);
const expiredToken = await issueToken(seedKeys.jwtSecret, seedAccounts.developer.id, NOW - 7_200_000, 3600);
const forgedToken = await issueToken('not-the-service-secret', seedAccounts.developer.id, NOW, 3600);

/** Key generation is slow: a few pairs made once and handed out in turn, still a new pair per key. */
const pairs: KeyPairKeyObjectResult[] = Array.from({ length: 3 }, () => generateKeyPairSync('rsa', { modulusLength: 2048 }));
function cyclingPairs(): () => Promise<KeyPairKeyObjectResult> {
  let next = 0;
  return async () => pairs[next++ % pairs.length] as KeyPairKeyObjectResult;
}

const baseOptions = (): ReferenceOptions => ({
  now: () => NOW,
  recordingDelayMs: 0,
  usageLimit: 5,
  behaviour: { generateSecurityKeyPair: cyclingPairs() },
});

type Headers = Record<string, string>;

interface Credentials {
  bearer?: string | null;
  apikey?: string | null;
  clientId?: string | null;
  secret?: string | null;
}

/** One request; `wire` requests go over a real socket, where header names keep their case. */
interface Probe {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Headers;
  body?: unknown;
  raw?: { text: string; type: string };
  wire?: boolean;
}

interface Answer {
  status: number;
  type: string;
  json: unknown;
  text: string;
  /** Names of the x- headers of the answer, sorted. */
  extensionHeaders: string[];
}

type Send = (probe: Probe) => Promise<Answer>;
type Step = (send: Send) => Promise<unknown>;

function headersOf(credentials: Credentials): Headers {
  const headers: Headers = {};
  if (credentials.bearer != null) headers['authorization'] = `Bearer ${credentials.bearer}`;
  if (credentials.apikey != null) headers['apikey'] = credentials.apikey;
  if (credentials.clientId != null) headers['client_id'] = credentials.clientId;
  if (credentials.secret != null) headers['secret'] = credentials.secret;
  return headers;
}

/** Security-key answers, reduced to what the interface states about them (keys differ per run). */
function keyFeatures(body: Record<string, unknown>, previousPublicKey: string | undefined): unknown {
  const text = (name: string): string => (typeof body[name] === 'string' ? (body[name] as string) : '');
  const loads = (make: () => unknown): boolean => {
    try {
      make();
      return true;
    } catch {
      return false;
    }
  };
  const privateKey = loads(() => createPrivateKey({ key: text('privateKey'), passphrase: PASSPHRASE }))
    ? createPrivateKey({ key: text('privateKey'), passphrase: PASSPHRASE })
    : undefined;
  const publicKey = loads(() => createPublicKey(text('publicKey'))) ? createPublicKey(text('publicKey')) : undefined;
  const data = Buffer.from('fault battery');
  return {
    fields: Object.keys(body).sort(),
    passphrase: text('passphrase') === PASSPHRASE,
    words: text('secretKey')
      .split(/\s+/)
      .filter((word) => word !== '').length,
    lettersOnly: text('secretKey')
      .split(/\s+/)
      .every((word) => /^\p{L}*$/u.test(word)),
    publicKeyParses: publicKey !== undefined,
    decryptsWithPassphrase: privateKey !== undefined,
    loadsWithoutPassphrase: loads(() => createPrivateKey(text('privateKey'))),
    pairMatches: privateKey !== undefined && publicKey !== undefined && verify('sha256', data, publicKey, sign('sha256', data, privateKey)),
    samePublicKeyAsBefore: previousPublicKey !== undefined && previousPublicKey === text('publicKey'),
    publicKeyPemLabel: /^-----BEGIN ([A-Z0-9 ]+)-----/.exec(text('publicKey'))?.[1],
  };
}

const isKeyResult = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && ['publicKey', 'privateKey', 'secretKey'].some((field) => field in body);

const observe = (answer: Answer): unknown => ({
  status: answer.status,
  type: answer.type,
  extensionHeaders: answer.extensionHeaders,
  body: isKeyResult(answer.json) ? keyFeatures(answer.json, undefined) : (answer.json ?? answer.text),
});

interface OperationProbes {
  /** The valid request, with the credentials it documents. */
  request: (credentials: Credentials) => Probe;
  schemes: readonly ('bearer' | 'apikey' | 'client')[];
  /** Requests beyond the credential variations: filters, paging, bad input, state changes. */
  steps?: readonly Step[];
}

const developerCredentials: Credentials = { bearer: developerToken, apikey: dev, clientId: client.clientId, secret: client.secret };

/** The valid request and its credential variations: each credential missing, forged, expired, misspelled or of another scheme. */
function credentialSteps(probes: OperationProbes): Step[] {
  const using =
    (overrides: Credentials, extra: Partial<Probe> = {}): Step =>
    async (send) =>
      observe(await send({ ...probes.request({ ...developerCredentials, ...overrides }), ...extra }));
  const wireHeader =
    (from: string, to: string): Step =>
    async (send) => {
      const probe = probes.request(developerCredentials);
      const headers = Object.fromEntries(Object.entries(probe.headers ?? {}).map(([name, value]) => [name === from ? to : name, value]));
      return observe(await send({ ...probe, headers, wire: true }));
    };
  const steps: Step[] = [using({})];
  if (probes.schemes.includes('bearer')) {
    steps.push(
      using({ bearer: null }),
      using({ bearer: forgedToken }),
      using({ bearer: expiredToken }),
      using({ bearer: dev }),
      using({ bearer: null }, { headers: { ...headersOf({ ...developerCredentials, bearer: null }), authorization: `Basic ${developerToken}` } }),
      wireHeader('authorization', 'AUTHORIZATION'),
    );
  }
  if (probes.schemes.includes('apikey')) {
    steps.push(
      using({ apikey: null }),
      using({ apikey: 'never-issued-key' }),
      using({ apikey: prod }),
      using({ apikey: seedKeys.foreignApiKey }),
      wireHeader('apikey', 'apiKey'),
    );
  }
  if (probes.schemes.includes('client')) {
    steps.push(
      using({ secret: null }),
      using({ secret: 'wrong-secret' }),
      using({ clientId: null }),
      using({ clientId: 'never-issued-client' }),
      async (send) => {
        const probe = probes.request(developerCredentials);
        return observe(await send({ ...probe, headers: { CLIENT_ID: client.clientId, SECRET: client.secret }, wire: true }));
      },
    );
  }
  return steps;
}

const get =
  (url: string, schemes: readonly ('bearer' | 'apikey' | 'client')[]) =>
  (credentials: Credentials): Probe => ({
    method: 'GET',
    url,
    headers: headersOf({
      ...(schemes.includes('bearer') ? { bearer: credentials.bearer } : {}),
      ...(schemes.includes('apikey') ? { apikey: credentials.apikey } : {}),
      ...(schemes.includes('client') ? { clientId: credentials.clientId, secret: credentials.secret } : {}),
    }),
  });

const both = ['bearer', 'apikey'] as const;
const devHeaders = headersOf({ bearer: developerToken, apikey: dev });
const read =
  (url: string, headers: Headers = devHeaders): Step =>
  async (send) =>
    observe(await send({ method: 'GET', url, headers }));
const post =
  (url: string, body: unknown, headers: Headers = devHeaders): Step =>
  async (send) =>
    observe(await send({ method: 'POST', url, headers, body }));
const rawPost =
  (url: string, text: string, type: string, headers: Headers = devHeaders): Step =>
  async (send) =>
    observe(await send({ method: 'POST', url, headers, raw: { text, type } }));
const closeWith =
  (meetingId: string, body: unknown, headers: Headers = headersOf({ bearer: developerToken })): Step =>
  async (send) =>
    observe(await send({ method: 'GET', url: `/meeting/close/${meetingId}`, headers, ...(body === undefined ? {} : { body }) }));

const participant = (id: string, name: string): Record<string, string> => ({
  participantId: id,
  id,
  name,
  email: `${id}@example.com`,
  avatar: `https://example.com/avatars/${id}.png`,
});

const BATTERY: Readonly<Record<OperationId, OperationProbes>> = {
  login: {
    request: () => ({ method: 'POST', url: '/login', body: { email: seedAccounts.developer.email, password: seedAccounts.developer.password } }),
    schemes: [],
    steps: [
      post('/login', { email: seedAccounts.developer.email, password: 'Wrong-Passw0rd!' }, {}),
      post('/login', { email: 'nobody@example.com', password: 'Wrong-Passw0rd!' }, {}),
      post('/login', { email: `${'a'.repeat(180)}@example.com`, password: seedAccounts.developer.password }, {}),
      post('/login', { email: seedAccounts.developer.email, password: 'Ab1!x' }, {}),
      post('/login', { email: seedAccounts.developer.email, password: 'x'.repeat(192) }, {}),
    ],
  },
  listGroups: {
    request: get('/groups', both),
    schemes: both,
    steps: ['?take=3', '?skip=3&take=7', '?skip=30&take=10', '?skip=40&take=10', '?skip=8&take=4', '?skip=5&take=1', '?skip=29&take=3', '?take=abc'].map(
      (query) => read(`/groups${query}`),
    ),
  },
  getGroup: {
    request: get('/groups/grp-dev-001', both),
    schemes: both,
    steps: [
      read('/groups/grp-dev-015'),
      read(`/groups/${encodeURIComponent('grüße')}`),
      // Over the wire: a path the router cannot decode never reaches an injected request's handler.
      async (send) => observe(await send({ method: 'GET', url: '/groups/%E0%A4%A', headers: devHeaders, wire: true })),
    ],
  },
  listGroupParticipants: {
    request: get('/groups/participants/grp-dev-001', both),
    schemes: both,
    steps: ['?take=3', '?skip=16&take=8', '?skip=30&take=7', '?take=100', '?skip=-1'].map((query) => read(`/groups/participants/grp-dev-001${query}`)),
  },
  upsertParticipant: {
    request: (credentials) => ({
      method: 'POST',
      url: '/participants',
      headers: headersOf({ bearer: credentials.bearer, apikey: credentials.apikey }),
      body: participant('unit-p1', 'Unit One'),
    }),
    schemes: both,
    steps: [
      post('/participants', participant('unit-p2', 'Unit Two')),
      read('/participants/unit-p2'),
      post('/participants', participant('prt-dev-0002', 'Renamed Two')),
      read('/participants/prt-dev-0002'),
      post('/participants', { ...participant('prt-dev-0003', 'Half Applied'), email: 42 }),
      read('/participants/prt-dev-0003'),
      post('/participants', { ...participant('unit-p3', 'x'.repeat(20_000)) }),
      rawPost('/participants', '{"participantId": "unit-p4"', 'application/json'),
      rawPost('/participants', '[1]', 'application/json'),
      rawPost('/participants', JSON.stringify(participant('unit-p5', 'Plain Text')), 'text/plain'),
    ],
  },
  getParticipant: {
    request: get('/participants/prt-dev-0001', both),
    schemes: both,
    steps: [
      read('/groups/participants/grp-dev-001?take=3'),
      // An archived participant read by its id.
      async (send) => {
        await send({ method: 'PUT', url: '/participants/prt-dev-0042/archive', headers: devHeaders });
        return observe(await send({ method: 'GET', url: '/participants/prt-dev-0042', headers: devHeaders }));
      },
    ],
  },
  archiveParticipant: {
    request: (credentials) => ({
      method: 'PUT',
      url: '/participants/prt-dev-0041/archive',
      headers: headersOf({ bearer: credentials.bearer, apikey: credentials.apikey }),
    }),
    schemes: both,
    steps: [read('/groups/participants/grp-dev-002?take=100'), read('/participants/prt-dev-0041')],
  },
  listRecordings: {
    request: get('/recording', both),
    schemes: both,
    steps: [
      read('/recording?roomId=room-dev-02'),
      read('/recording?meetingId=mtg-dev-h02'),
      read('/recording?meetingId=mtg-dev-h02&skip=1&take=1'),
      read('/recording?roomId=room-dev-02&meetingId=mtg-dev-h02'),
      async (send) => {
        const list = (await send({ method: 'GET', url: '/recording?meetingId=mtg-dev-h02', headers: devHeaders })).json;
        const items = Array.isArray(list) ? list : ((list as { data?: unknown[] }).data ?? []);
        const url = String((items[0] as { url?: unknown } | undefined)?.url ?? '');
        return observe(await send({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') || '/' }));
      },
    ],
  },
  getTranscriptionStats: {
    request: get('/transcript/stats?environment=development', ['bearer']),
    schemes: ['bearer'],
    steps: [
      read('/transcript/stats?environment=production'),
      read('/transcript/stats?environment=staging'),
      async (send) => {
        const statuses = [];
        for (let i = 0; i < 7; i += 1)
          statuses.push(observe(await send({ method: 'GET', url: '/transcript/stats', headers: headersOf({ bearer: limitsToken }) })));
        return statuses;
      },
    ],
  },
  createSecurityKey: {
    request: (credentials) => ({ method: 'POST', url: '/security', headers: headersOf({ bearer: credentials.bearer }), body: { passphrase: PASSPHRASE } }),
    schemes: ['bearer'],
    steps: [
      async (send) => {
        const headers = headersOf({ bearer: developerToken });
        const first = (await send({ method: 'POST', url: '/security', headers, body: { passphrase: PASSPHRASE } })).json as Record<string, unknown>;
        const second = (await send({ method: 'POST', url: '/security', headers, body: { passphrase: PASSPHRASE } })).json as Record<string, unknown>;
        return [keyFeatures(first, undefined), keyFeatures(second, String(first['publicKey'])), first['secretKey'] === second['secretKey']];
      },
      post('/security', {}, headersOf({ bearer: developerToken })),
      post('/security', { passphrase: 42 }, headersOf({ bearer: developerToken })),
    ],
  },
  getMeetingsSummary: { request: get('/meetings/summary', ['apikey']), schemes: ['apikey'] },
  getMeetingStats: {
    request: get('/meetingstats', ['bearer']),
    schemes: ['bearer'],
    steps: [
      ...[
        '?onlySummary=false',
        '?onlySummary=true',
        '?usePagination=true&onlySummary=false',
        '?usePagination=true&onlySummary=false&take=3',
        '?usePagination=true&onlySummary=false&skip=30&take=7',
        '?month=01&year=2023&onlySummary=false&environment=development',
        '?year=2023&onlySummary=false&environment=development',
        '?initialDate=2023-01-03T17:00:00.000Z&endDate=2023-06-30T23:59:59.999Z&onlySummary=false&environment=development',
        '?initialDate=2024-06-03T09:59:00.000Z&endDate=2024-06-03T13:12:00.000Z&onlySummary=false',
        '?groupId=grp-dev-004&onlySummary=false&environment=development',
        '?environment=development&onlySummary=false',
        '?environment=production',
      ].map((query) => read(`/meetingstats${query}`, headersOf({ bearer: developerToken }))),
      read('/meetingstats', headersOf({ bearer: viewerToken })),
    ],
  },
  closeMeeting: {
    request: (credentials) => ({ method: 'GET', url: '/meeting/close/mtg-dev-h01', headers: headersOf({ bearer: credentials.bearer }), body: { apiKey: dev } }),
    schemes: ['bearer'],
    steps: [
      closeWith('mtg-dev-h01', {}),
      closeWith('mtg-dev-h01', { apiKey: 'never-issued-key' }),
      closeWith('mtg-dev-live-3', { apiKey: dev }),
      read('/realtime/participants/room-dev-03/dev-live-3', { apikey: dev }),
      closeWith('mtg-dev-live-3', { apiKey: dev }),
    ],
  },
  getChannelInfo: { request: get('/v2/realtime/dev-busy', ['client']), schemes: ['client'] },
  listChannelParticipants: {
    request: get('/v2/realtime/participants/dev-busy', ['client']),
    schemes: ['client'],
    steps: [read(`/v2/realtime/participants/${encodeURIComponent('kanal-ü')}`, headersOf({ clientId: client.clientId, secret: client.secret }))],
  },
  listRoomChannelParticipants: { request: get('/realtime/participants/room-dev-01/dev-busy', ['apikey']), schemes: ['apikey'] },
};

async function answerOf(app: FastifyInstance, port: number, probe: Probe): Promise<Answer> {
  const payload = probe.raw?.text ?? (probe.body === undefined ? undefined : JSON.stringify(probe.body));
  const type = probe.raw?.type ?? (probe.body === undefined ? undefined : 'application/json');
  const headers: Headers = { ...probe.headers, ...(type === undefined ? {} : { 'content-type': type }) };
  const answered = probe.wire === true ? await overTheWire(port, probe, headers, payload) : await injected(app, probe, headers, payload);
  const { status, contentType, extensionHeaders } = answered;
  // Absolute urls name the host the request was sent to: the same for both ways of sending.
  const text = answered.text.replaceAll(`//127.0.0.1:${port}/`, '//localhost:80/');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, type: contentType.split(';')[0] ?? '', json, text, extensionHeaders };
}

type Answered = { status: number; contentType: string; text: string; extensionHeaders: string[] };

const extensionHeadersOf = (headers: Record<string, unknown>): string[] =>
  Object.keys(headers)
    .filter((name) => name.toLowerCase().startsWith('x-'))
    .sort();

async function injected(app: FastifyInstance, probe: Probe, headers: Headers, payload: string | undefined): Promise<Answered> {
  const options: InjectOptions = { method: probe.method, url: probe.url, headers, ...(payload === undefined ? {} : { payload }) };
  const response = await app.inject(options);
  return {
    status: response.statusCode,
    contentType: String(response.headers['content-type'] ?? ''),
    text: response.body,
    extensionHeaders: extensionHeadersOf(response.headers),
  };
}

/** node:http keeps header names as written, which inject does not. */
function overTheWire(port: number, probe: Probe, headers: Headers, payload: string | undefined): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: probe.method, path: probe.url, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => void (text += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers['content-type'] ?? ''),
          text,
          extensionHeaders: extensionHeadersOf(response.headers),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** The observed answers of the operations' steps, in order, on a fresh instance built with `options`. */
async function battery(options: ReferenceOptions, operations: readonly OperationId[]): Promise<unknown[]> {
  const app = await buildApp(options);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const send: Send = (probe) => answerOf(app, port, probe);
  try {
    const observed: unknown[] = [];
    for (const operation of operations) {
      const probes = BATTERY[operation];
      for (const step of [...credentialSteps(probes), ...(probes.steps ?? [])]) observed.push(await step(send));
    }
    return observed;
  } finally {
    await app.close();
  }
}

const operationsOf = (fault: Fault): readonly OperationId[] => fault.operations ?? OPERATION_IDS;

describe('every fault changes what the reference answers', () => {
  const plainAnswers = new Map<string, Promise<unknown[]>>();
  const plain = (operations: readonly OperationId[]): Promise<unknown[]> => {
    const key = operations.join(',');
    let answers = plainAnswers.get(key);
    if (answers === undefined) {
      answers = battery(baseOptions(), operations);
      plainAnswers.set(key, answers);
    }
    return answers;
  };
  after(() => plainAnswers.clear());

  it('answers the battery identically on two plain instances', async () => {
    assert.deepEqual(await battery(baseOptions(), OPERATION_IDS), await plain(OPERATION_IDS));
  });

  for (const fault of FAULTS) {
    it(fault.name, async () => {
      const operations = operationsOf(fault);
      const [expected, actual] = await Promise.all([plain(operations), battery(fault.apply(baseOptions()), operations)]);
      assert.notDeepEqual(actual, expected, `${fault.name} answers the battery of ${operations.join(', ')} exactly as the plain reference`);
    });
  }
});
