import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../reference/app.ts';
import { issueToken } from '../../reference/tokens.ts';
import { seedAccounts, seedKeys } from '../../scripts/lib/seed-generator.ts';

/**
 * A sweep of malformed requests over all 16 operations: each must get the expected 4xx with the
 * error body shape (statusCode, error named after the status, message; error may be absent on 401),
 * never a 5xx, and the server must keep answering normal requests afterwards.
 */

const devKey = seedKeys.apiKeys.development;
const client = { client_id: seedKeys.clients.development.clientId, secret: seedKeys.clients.development.secret };
const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const overLimit = 'x'.repeat(1024 * 1024 + 1);

interface Case {
  name: string;
  request: InjectOptions;
  /** exact status, or any 4xx where the rejecting layer (URL parser, router) decides */
  expect: number | '4xx';
}

type Scheme = 'bearer' | 'apikey' | 'bearer+apikey' | 'client';

interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PUT';
  /** a valid path; `:id` marks the identifier that path cases replace */
  path: string;
  scheme: Scheme;
}

const operations: Operation[] = [
  { id: 'login', method: 'POST', path: '/login', scheme: 'bearer' },
  { id: 'listGroups', method: 'GET', path: '/groups', scheme: 'bearer+apikey' },
  { id: 'getGroup', method: 'GET', path: '/groups/:id', scheme: 'bearer+apikey' },
  { id: 'listGroupParticipants', method: 'GET', path: '/groups/participants/:id', scheme: 'bearer+apikey' },
  { id: 'upsertParticipant', method: 'POST', path: '/participants', scheme: 'bearer+apikey' },
  { id: 'getParticipant', method: 'GET', path: '/participants/:id', scheme: 'bearer+apikey' },
  { id: 'archiveParticipant', method: 'PUT', path: '/participants/:id/archive', scheme: 'bearer+apikey' },
  { id: 'listRecordings', method: 'GET', path: '/recording', scheme: 'bearer+apikey' },
  { id: 'getTranscriptionStats', method: 'GET', path: '/transcript/stats', scheme: 'bearer' },
  { id: 'createSecurityKey', method: 'POST', path: '/security', scheme: 'bearer' },
  { id: 'getMeetingsSummary', method: 'GET', path: '/meetings/summary', scheme: 'apikey' },
  { id: 'getMeetingStats', method: 'GET', path: '/meetingstats', scheme: 'bearer' },
  { id: 'closeMeeting', method: 'GET', path: '/meeting/close/:id', scheme: 'bearer' },
  { id: 'getChannelInfo', method: 'GET', path: '/v2/realtime/:id', scheme: 'client' },
  { id: 'listChannelParticipants', method: 'GET', path: '/v2/realtime/participants/:id', scheme: 'client' },
  { id: 'listRoomChannelParticipants', method: 'GET', path: '/realtime/participants/room-dev-01/:id', scheme: 'apikey' },
];

const knownIds: Record<string, string> = {
  getGroup: 'grp-dev-001',
  listGroupParticipants: 'grp-dev-001',
  getParticipant: 'prt-dev-0001',
  archiveParticipant: 'prt-dev-0001',
  closeMeeting: 'mtg-dev-h01',
  getChannelInfo: 'dev-busy',
  listChannelParticipants: 'dev-busy',
  listRoomChannelParticipants: 'dev-busy',
};

async function badTokens(): Promise<string[]> {
  const future = Math.floor(Date.now() / 1000) + 3600;
  return [
    '',
    'Bearer',
    'Bearer ',
    'Bearer not-a-jwt',
    'Bearer a.b.c',
    'Token abc',
    `Basic ${Buffer.from('developer@reference.test:Dev-Passw0rd!').toString('base64')}`,
    `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: seedAccounts.developer.id, exp: future })}.`,
    `Bearer ${await issueToken('another-secret', seedAccounts.developer.id, Date.now(), 3600)}`,
    `Bearer ${await issueToken(seedKeys.jwtSecret, seedAccounts.developer.id, Date.UTC(2024, 0, 1), 60)}`,
    `Bearer ${await issueToken(seedKeys.jwtSecret, 'usr-unknown', Date.now(), 3600)}`,
    `Bearer ${'a'.repeat(8000)}`,
  ];
}

const badApiKeys = ['', 'wrong-key', ` ${devKey}`, devKey.toUpperCase(), 'k'.repeat(5000), seedKeys.clients.development.secret];

const badClients: Record<string, string>[] = [
  {},
  { client_id: client.client_id },
  { secret: client.secret },
  { ...client, secret: 'wrong' },
  { client_id: 'unknown', secret: client.secret },
  { client_id: client.secret, secret: client.client_id },
  { ...client, secret: `${client.secret}x` },
];

const badPathIds: [string, number | '4xx'][] = [
  ['unknown-id', 404],
  ['%2F..%2Fgroups', 404],
  ['%00', 404],
  ['%E2%9C%93', 404],
  ['x'.repeat(191), 404],
  ['x'.repeat(1001), 414],
  ['%E0%A4%A', '4xx'],
  ["'%20OR%201=1", 404],
];

const badPaging = [
  'take=0',
  'take=101',
  'take=-5',
  'skip=-1',
  'take=1.5',
  'skip=abc',
  'take=1e1',
  'skip=1&skip=2',
  'take=',
  'skip=99999999999999999999',
  'take=%20',
  'take=0x10',
];

const badStatsQueries = [
  'month=13',
  'month=0',
  'month=-1',
  'month=march',
  'month=1&month=2',
  'year=24',
  'year=20x4',
  'year=10000',
  'environment=staging',
  'environment=',
  'environment=Production',
  'usePagination=yes',
  'onlySummary=1',
  'initialDate=yesterday',
  'initialDate=2024-13-01',
  'endDate=2024-02-30',
  'endDate=2024-01-01T25:00:00Z',
  'initialDate=2024-05-01&endDate=2024-04-01',
  `groupId=${'g'.repeat(300)}`,
  'usePagination=true&onlySummary=false&take=0',
];

const malformedJson = ['{', '{"email":', "{'email':'a'}", '[1,2', 'nul', '{"a":1}}', '\u0000', '{"email":"a","password":"secret1",}'];

const wrongTypedLogins: unknown[] = [
  [],
  null,
  42,
  'text',
  true,
  {},
  { email: 'a@b.c' },
  { password: 'secret1' },
  { email: 1, password: 'secret1' },
  { email: 'a@b.c', password: 123456 },
  { email: ['a'], password: 'secret1' },
  { email: 'a@b.c', password: { value: 'secret1' } },
  { email: null, password: 'secret1' },
  { email: 'a@b.c', password: null },
  { email: 'a@b.c', password: '12345' },
  { email: 'a@b.c', password: '' },
  { email: 'a@b.c', password: 'p'.repeat(192) },
  { email: `${'e'.repeat(192)}`, password: 'secret1' },
  { email: 'e'.repeat(10000), password: 'secret1' },
];

const wrongTypedParticipants: unknown[] = [
  [],
  null,
  42,
  'text',
  {},
  { name: 'No Id' },
  { participantId: '' },
  { participantId: 7 },
  { id: false },
  { participantId: 'a', id: 'b' },
  { participantId: 'p1', name: 5 },
  { participantId: 'p1', email: ['x'] },
  { participantId: 'p1', avatar: {} },
  { participantId: 'p1', name: 'n'.repeat(192) },
  { participantId: 'i'.repeat(192) },
  { participantId: 'p1', avatar: 'a'.repeat(2049) },
  { participantId: null },
  { participantId: 'p1', email: null },
  { participantId: 'p1', avatar: 'relative/path.png' },
];

const wrongTypedPassphrases: unknown[] = [
  [],
  null,
  42,
  {},
  { passphrase: '' },
  { passphrase: 12345678 },
  { passphrase: null },
  { passphrase: ['a'] },
  { passphrase: { secret: 'x' } },
  { passphrase: true },
  { passphrase: 'p'.repeat(1025) },
  { pass: 'Correct-Horse-9!' },
];

const wrongCloseBodies: [unknown, number][] = [
  [[], 400],
  [42, 400],
  ['text', 400],
  [null, 400],
  [{}, 401],
  [{ apiKey: '' }, 401],
  [{ apiKey: 5 }, 401],
  [{ apiKey: ['x'] }, 401],
  [{ apikey: devKey }, 401],
  [{ apiKey: 'wrong' }, 401],
  [{ apiKey: 'k'.repeat(5000) }, 401],
];

function jsonRequest(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body: unknown): InjectOptions {
  return { method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) };
}

function buildCases(bearer: string, tokens: string[]): Case[] {
  const valid: Record<Scheme, Record<string, string>> = {
    bearer: { authorization: bearer },
    apikey: { apikey: devKey },
    'bearer+apikey': { authorization: bearer, apikey: devKey },
    client,
  };
  const pathOf = (op: Operation, id = knownIds[op.id] ?? ''): string => op.path.replace(':id', id);
  const cases: Case[] = [];
  const add = (name: string, request: InjectOptions, expect: number | '4xx'): void => void cases.push({ name, request, expect });

  for (const op of operations.filter((o) => o.id !== 'login')) {
    const base = { method: op.method, url: pathOf(op) };
    const closeBody = op.id === 'closeMeeting' ? { payload: { apiKey: devKey } } : {};
    if (op.scheme.startsWith('bearer')) {
      for (const [i, token] of tokens.entries()) {
        const headers = { ...valid[op.scheme], authorization: token };
        if (token === '') delete (headers as Record<string, string>)['authorization'];
        add(`${op.id}: bad bearer #${i}`, { ...base, ...closeBody, headers }, 401);
      }
    }
    if (op.scheme.endsWith('apikey')) {
      for (const [i, key] of badApiKeys.entries()) add(`${op.id}: bad apikey #${i}`, { ...base, headers: { ...valid[op.scheme], apikey: key } }, 401);
    }
    if (op.scheme === 'client') {
      for (const [i, headers] of badClients.entries()) add(`${op.id}: bad client #${i}`, { ...base, headers }, 401);
    }
    if (op.path.includes(':id')) {
      for (const [id, expect] of badPathIds) {
        add(`${op.id}: path id ${id.slice(0, 20)}`, { method: op.method, url: pathOf(op, id), headers: valid[op.scheme], ...closeBody }, expect);
      }
    }
    for (const method of ['DELETE', 'PATCH'] as const) add(`${op.id}: ${method}`, { method, url: pathOf(op), headers: valid[op.scheme] }, 404);
  }

  for (const path of ['/groups', '/groups/participants/grp-dev-001']) {
    for (const query of badPaging) add(`paging ${path}?${query}`, { method: 'GET', url: `${path}?${query}`, headers: valid['bearer+apikey'] }, 400);
  }
  for (const query of badStatsQueries) add(`meetingstats ?${query.slice(0, 40)}`, { method: 'GET', url: `/meetingstats?${query}`, headers: valid.bearer }, 400);
  for (const query of ['roomId=a&roomId=b', `meetingId=${'m'.repeat(300)}`, 'meetingId=x&meetingId=y']) {
    add(`recordings ?${query.slice(0, 30)}`, { method: 'GET', url: `/recording?${query}`, headers: valid['bearer+apikey'] }, 400);
  }
  for (const query of ['environment=staging', 'environment=', 'environment=DEVELOPMENT', 'environment=development&environment=production']) {
    add(`transcript ?${query}`, { method: 'GET', url: `/transcript/stats?${query}`, headers: valid.bearer }, 400);
  }

  const bodies: [string, 'POST' | 'GET', Record<string, string>, unknown[]][] = [
    ['/login', 'POST', {}, wrongTypedLogins],
    ['/participants', 'POST', valid['bearer+apikey'], wrongTypedParticipants],
    ['/security', 'POST', valid.bearer, wrongTypedPassphrases],
  ];
  for (const [url, method, headers, wrong] of bodies) {
    for (const [i, body] of wrong.entries()) add(`${url}: wrong body #${i}`, jsonRequest(method, url, headers, body), 400);
    for (const [i, text] of malformedJson.entries()) {
      add(`${url}: malformed JSON #${i}`, { method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: text }, 400);
    }
    add(`${url}: xml`, { method, url, headers: { ...headers, 'content-type': 'application/xml' }, payload: '<a/>' }, 415);
    add(`${url}: form`, { method, url, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=b' }, 415);
    add(`${url}: text`, { method, url, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'hello' }, 400);
    add(`${url}: over the body limit`, jsonRequest(method, url, headers, { email: overLimit, participantId: overLimit, passphrase: overLimit }), 413);
  }

  const close = '/meeting/close/mtg-dev-live-1';
  for (const [i, [body, expect]] of wrongCloseBodies.entries()) add(`close: wrong body #${i}`, jsonRequest('GET', close, valid.bearer, body), expect);
  for (const [i, text] of malformedJson.entries()) {
    add(`close: malformed JSON #${i}`, { method: 'GET', url: close, headers: { ...valid.bearer, 'content-type': 'application/json' }, payload: text }, 400);
  }
  add('close: xml', { method: 'GET', url: close, headers: { ...valid.bearer, 'content-type': 'application/xml' }, payload: '<a/>' }, 415);
  add('close: over the body limit', jsonRequest('GET', close, valid.bearer, { apiKey: overLimit }), 413);
  add('close: unknown meeting', jsonRequest('GET', '/meeting/close/nope', valid.bearer, { apiKey: devKey }), 404);
  return cases;
}

describe('bad input sweep', () => {
  let app: FastifyInstance;
  let cases: Case[];
  before(async () => {
    app = await buildApp();
    const login = await app.inject({
      method: 'POST',
      url: '/login',
      payload: { email: seedAccounts.developer.email, password: seedAccounts.developer.password },
    });
    cases = buildCases(`Bearer ${(login.json() as { access_token: string }).access_token}`, await badTokens());
  });
  after(() => app.close());

  it('covers all 16 operations with at least 200 malformed requests', () => {
    assert.ok(cases.length >= 200, `only ${cases.length} cases`);
    for (const op of operations)
      assert.ok(
        cases.some((c) => c.name.startsWith(op.id) || c.request.url === op.path),
        op.id,
      );
  });

  it('answers each with the expected 4xx and the error body shape, never a 5xx', async () => {
    const failures: string[] = [];
    for (const { name, request, expect } of cases) {
      const response = await app.inject(request);
      const status = response.statusCode;
      const body = String(response.headers['content-type']).startsWith('application/json') ? (response.json() as Record<string, unknown>) : {};
      const problems = [
        expect === '4xx'
          ? status >= 400 && status < 500
            ? ''
            : `status ${status}, expected a 4xx`
          : status === expect
            ? ''
            : `status ${status}, expected ${expect}`,
        body['statusCode'] === status ? '' : 'statusCode differs from the status',
        typeof body['message'] === 'string' ? '' : 'message missing',
        Object.keys(body).every((key) => ['statusCode', 'error', 'message'].includes(key)) ? '' : `fields ${Object.keys(body).join(',')}`,
        body['error'] === STATUS_CODES[status] || (status === 401 && body['error'] === undefined) ? '' : `error ${String(body['error'])}`,
      ].filter((problem) => problem !== '');
      if (problems.length > 0) failures.push(`${name}: ${problems.join('; ')} (${response.body.slice(0, 120)})`);
    }
    assert.deepEqual(failures, []);
  });

  it('still answers normal requests afterwards, with nothing closed or changed by the sweep', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/login',
      payload: { email: seedAccounts.developer.email, password: seedAccounts.developer.password },
    });
    assert.equal(login.statusCode, 200);
    const headers = { authorization: `Bearer ${(login.json() as { access_token: string }).access_token}`, apikey: devKey };
    assert.equal((await app.inject({ url: '/groups', headers })).json().pagination.total, 32);
    assert.equal((await app.inject({ url: '/groups/participants/grp-dev-001', headers })).json().pagination.total, 36);
    assert.equal((await app.inject({ url: '/v2/realtime/participants/dev-live-1', headers: client })).json().length, 2);
    const close = await app.inject({ method: 'GET', url: '/meeting/close/mtg-dev-live-1', headers, payload: { apiKey: devKey } });
    assert.equal(close.statusCode, 200);
  });
});
