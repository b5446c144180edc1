import assert from 'node:assert/strict';
import { constants, createPrivateKey, createPublicKey, privateDecrypt, publicEncrypt, sign, verify, type KeyPairKeyObjectResult } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { buildApp, type ReferenceOptions } from '../../reference/app.ts';
import { createKeyPairPool } from '../../reference/key-pool.ts';
import { seedAccounts, seedKeys } from '../../scripts/lib/seed-generator.ts';

const devKey = seedKeys.apiKeys.development;
const prodKey = seedKeys.apiKeys.production;
const devClient = { client_id: seedKeys.clients.development.clientId, secret: seedKeys.clients.development.secret };
const prodClient = { client_id: seedKeys.clients.production.clientId, secret: seedKeys.clients.production.secret };
const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Account = { email: string; password: string };

/** A manual clock, so that expiry, recording readiness and usage windows are tested without waiting. */
function manualClock(start = Date.UTC(2025, 6, 1, 12)): { now: () => number; advance: (ms: number) => void } {
  let current = start;
  return { now: () => current, advance: (ms) => void (current += ms) };
}

async function login(app: FastifyInstance, account: Account = seedAccounts.developer): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/login', payload: { email: account.email, password: account.password } });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as { access_token: string }).access_token;
}

interface Harness {
  app: FastifyInstance;
  bearer: { authorization: string };
  dev: Record<string, string>;
  prod: Record<string, string>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

async function harness(options: ReferenceOptions = {}): Promise<Harness> {
  const app = await buildApp(options);
  const bearer = { authorization: `Bearer ${await login(app)}` };
  const dev = { ...bearer, apikey: devKey };
  return {
    app,
    bearer,
    dev,
    prod: { ...bearer, apikey: prodKey },
    get: (url, headers = dev) => app.inject({ method: 'GET', url, headers }),
  };
}

/** The harness of one describe's tests: built before them with these options, closed after them. */
function describeHarness(options: ReferenceOptions = {}): Harness {
  const h = {} as Harness;
  before(async () => {
    Object.assign(h, await harness(options));
  });
  after(() => h.app.close());
  return h;
}

function assertErrorBody(response: LightMyRequestResponse, status: number, withError = true): void {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), withError ? ['error', 'message', 'statusCode'] : ['message', 'statusCode']);
  assert.equal(body['statusCode'], status);
  assert.equal(typeof body['message'], 'string');
}

describe('login', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildApp({ tokenTtlS: 120, now: () => Date.UTC(2025, 0, 1) });
  });
  after(() => app.close());
  const post = (payload: unknown) => app.inject({ method: 'POST', url: '/login', payload: payload as object });

  it('returns a signed token for the user with the configured lifetime', async () => {
    const response = await post({ email: seedAccounts.developer.email, password: seedAccounts.developer.password });
    assert.equal(response.statusCode, 200);
    const body = response.json() as { access_token: string; name: string };
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'name']);
    assert.equal(body.name, seedAccounts.developer.name);
    const claims = decodeJwt(body.access_token);
    assert.equal(claims.sub, seedAccounts.developer.id);
    assert.equal(claims.iat, Date.UTC(2025, 0, 1) / 1000);
    assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 120);
  });

  it('answers 401 with statusCode and message for a wrong password or unknown e-mail', async () => {
    assertErrorBody(await post({ email: seedAccounts.developer.email, password: 'wrong-password' }), 401, false);
    assertErrorBody(await post({ email: 'nobody@reference.test', password: 'whatever' }), 401, false);
  });

  it('validates lengths: e-mail at most 191, password 6 to 191', async () => {
    const email = seedAccounts.developer.email;
    assertErrorBody(await post({ email, password: '12345' }), 400);
    assertErrorBody(await post({ email, password: 'x'.repeat(192) }), 400);
    assertErrorBody(await post({ email: `${'e'.repeat(180)}@example.test`, password: 'secret1' }), 400);
    assertErrorBody(await post({ email, password: 'x'.repeat(191) }), 401, false);
    assertErrorBody(await post({ email, password: '123456' }), 401, false);
  });

  it('rejects missing and mistyped fields with 400', async () => {
    for (const payload of [{}, { email: seedAccounts.developer.email }, { password: 'secret1' }, { email: 1, password: 'secret1' }, []]) {
      assertErrorBody(await post(payload), 400);
    }
  });
});

describe('authentication', () => {
  const clock = manualClock();
  const h = describeHarness({ now: clock.now, tokenTtlS: 60 });

  it('accepts the API key header in any case', async () => {
    for (const name of ['apikey', 'apiKey', 'APIKEY']) {
      assert.equal((await h.get('/groups', { ...h.bearer, [name]: devKey })).statusCode, 200, name);
    }
  });

  it('answers 401 without error field for every missing or invalid credential', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/groups', { apikey: devKey }],
      ['/groups', h.bearer],
      ['/groups', { ...h.bearer, apikey: 'not-a-key' }],
      ['/groups', { authorization: 'Bearer not.a.jwt', apikey: devKey }],
      ['/groups', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}`, apikey: devKey }],
      ['/transcript/stats', {}],
      ['/meetings/summary', h.bearer],
      ['/meetingstats', { apikey: devKey }],
      ['/realtime/participants/room-dev-01/dev-busy', h.bearer],
      ['/v2/realtime/dev-busy', { client_id: devClient.client_id, secret: 'wrong' }],
      ['/v2/realtime/participants/dev-busy', { secret: devClient.secret }],
    ];
    for (const [url, headers] of cases) assertErrorBody(await h.get(url, headers), 401, false);
  });

  it('rejects a token once it has expired', async () => {
    const token = await login(h.app);
    const headers = { authorization: `Bearer ${token}`, apikey: devKey };
    assert.equal((await h.get('/groups', headers)).statusCode, 200);
    clock.advance(61_000);
    assertErrorBody(await h.get('/groups', headers), 401, false);
  });

  it('rejects a token signed with another secret', async () => {
    const [header, payload] = (await login(h.app)).split('.');
    assertErrorBody(await h.get('/groups', { authorization: `Bearer ${header}.${payload}.${'A'.repeat(43)}`, apikey: devKey }), 401, false);
  });

  it('adds error: Unauthorized to every 401 body under the error-in-401 variant', async () => {
    const app = await buildApp({ variants: ['error-in-401'] });
    const login401 = await app.inject({ method: 'POST', url: '/login', payload: { email: 'x@y.z', password: 'secret1' } });
    const groups401 = await app.inject({ url: '/groups' });
    for (const response of [login401, groups401]) {
      assertErrorBody(response, 401);
      assert.equal(response.json().error, 'Unauthorized');
    }
    await app.close();
  });
});

describe('groups and pagination', () => {
  const h = describeHarness();
  const page = async (query: string) => (await h.get(`/groups${query}`)).json() as { pagination: Record<string, number>; data: { id: string }[] };

  it('returns 10 groups of page 1 without skip and take', async () => {
    const body = await page('');
    assert.deepEqual(body.pagination, { page: 1, totalPages: 4, limit: 10, total: 32 });
    assert.equal(body.data.length, 10);
    assert.equal(body.data[0]?.id, 'grp-dev-001');
  });

  it('computes page = floor(skip/take)+1, totalPages = ceil(total/take), limit = take at the boundaries', async () => {
    const table: [string, Record<string, number>, number][] = [
      ['?skip=30&take=10', { page: 4, totalPages: 4, limit: 10, total: 32 }, 2],
      ['?skip=31&take=1', { page: 32, totalPages: 32, limit: 1, total: 32 }, 1],
      ['?skip=5&take=10', { page: 1, totalPages: 4, limit: 10, total: 32 }, 10],
      ['?skip=32', { page: 4, totalPages: 4, limit: 10, total: 32 }, 0],
      ['?skip=1000', { page: 101, totalPages: 4, limit: 10, total: 32 }, 0],
      ['?take=100', { page: 1, totalPages: 1, limit: 100, total: 32 }, 32],
      ['?take=32', { page: 1, totalPages: 1, limit: 32, total: 32 }, 32],
      ['?take=31', { page: 1, totalPages: 2, limit: 31, total: 32 }, 31],
    ];
    for (const [query, pagination, length] of table) {
      const body = await page(query);
      assert.deepEqual(body.pagination, pagination, query);
      assert.equal(body.data.length, length, query);
    }
  });

  it('pages through every group exactly once', async () => {
    const ids: string[] = [];
    for (let skip = 0; skip < 32; skip += 7) ids.push(...(await page(`?skip=${skip}&take=7`)).data.map((g) => g.id));
    assert.equal(new Set(ids).size, 32);
  });

  it('rejects invalid skip and take with 400', async () => {
    for (const query of ['?take=0', '?take=101', '?skip=-1', '?take=1.5', '?take=abc', '?skip=1e2', '?skip=1&skip=2', '?take=', '?skip=99999999999999999999']) {
      assertErrorBody(await h.get(`/groups${query}`), 400);
    }
  });

  it('scopes groups to the API key environment', async () => {
    const prod = (await h.get('/groups', h.prod)).json() as { pagination: { total: number }; data: { id: string }[] };
    assert.equal(prod.pagination.total, 28);
    assert.ok(prod.data.every((g) => g.id.startsWith('grp-prod-')));
    assert.equal((await h.get('/groups/grp-prod-001', h.prod)).statusCode, 200);
    assertErrorBody(await h.get('/groups/grp-prod-001'), 404);
  });

  it('returns one group with ISO timestamps and 404 for an unknown id', async () => {
    const group = (await h.get('/groups/grp-dev-002')).json() as Record<string, string>;
    assert.deepEqual(Object.keys(group).sort(), ['createdAt', 'id', 'name']);
    assert.match(group['createdAt'] ?? '', isoMillis);
    assertErrorBody(await h.get('/groups/grp-dev-999'), 404);
  });

  it('lists only active participants of a group, paginated', async () => {
    const body = (await h.get('/groups/participants/grp-dev-001?take=100')).json() as { pagination: Record<string, number>; data: { id: string }[] };
    assert.deepEqual(body.pagination, { page: 1, totalPages: 1, limit: 100, total: 36 });
    for (const archived of ['prt-dev-0006', 'prt-dev-0018', 'prt-dev-0027', 'prt-dev-0039']) {
      assert.ok(!body.data.some((p) => p.id === archived), archived);
    }
    const empty = (await h.get('/groups/participants/grp-dev-003')).json();
    assert.deepEqual(empty, { pagination: { page: 1, totalPages: 0, limit: 10, total: 0 }, data: [] });
    assert.equal((await h.get('/groups/participants/grp-dev-004')).json().pagination.total, 0);
    assertErrorBody(await h.get('/groups/participants/grp-dev-999'), 404);
  });
});

describe('participants', () => {
  const h = describeHarness({ now: () => Date.UTC(2025, 6, 1, 12) });
  const upsert = (payload: object, headers = h.dev) => h.app.inject({ method: 'POST', url: '/participants', headers, payload });
  const archive = (id: string) => h.app.inject({ method: 'PUT', url: `/participants/${id}/archive`, headers: h.dev });

  it('creates with 201 and returns the participant record', async () => {
    const payload = { participantId: 'new-1', id: 'new-1', name: 'New One', email: 'new1@example.test', avatar: 'https://a.test/1.png' };
    const response = await upsert(payload);
    assert.equal(response.statusCode, 201);
    assert.deepEqual(response.json(), {
      id: 'new-1',
      name: 'New One',
      email: 'new1@example.test',
      avatar: 'https://a.test/1.png',
      createdAt: '2025-07-01T12:00:00.000Z',
    });
    assert.deepEqual((await h.get('/participants/new-1')).json(), response.json());
  });

  it('updates an existing participant with 201, keeping createdAt', async () => {
    const before = (await h.get('/participants/prt-dev-0001')).json() as Record<string, string>;
    const response = await upsert({ participantId: 'prt-dev-0001', name: 'Renamed' });
    assert.equal(response.statusCode, 201);
    assert.deepEqual(response.json(), { ...before, name: 'Renamed' });
  });

  it('archives: returns the record, drops it from group lists, keeps it readable by id, and an upsert reactivates it', async () => {
    const listed = async () => ((await h.get('/groups/participants/grp-dev-002?take=100')).json() as { data: { id: string }[] }).data.map((p) => p.id);
    assert.ok((await listed()).includes('prt-dev-0041'));
    const response = await archive('prt-dev-0041');
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().id, 'prt-dev-0041');
    assert.ok(!(await listed()).includes('prt-dev-0041'));
    assert.equal((await h.get('/participants/prt-dev-0041')).statusCode, 200);
    assert.equal((await archive('prt-dev-0041')).statusCode, 200);
    await upsert({ participantId: 'prt-dev-0041' });
    assert.ok((await listed()).includes('prt-dev-0041'));
  });

  it('answers 404 for unknown participants and keeps environments apart', async () => {
    assertErrorBody(await h.get('/participants/nobody'), 404);
    assertErrorBody(await archive('nobody'), 404);
    assertErrorBody(await h.get('/participants/prt-dev-0001', h.prod), 404);
  });

  it('rejects bodies without an id, with mismatched ids or wrong types', async () => {
    const invalid = [
      { name: 'x' },
      { participantId: 'a', id: 'b' },
      { participantId: 5 },
      { participantId: 'a', name: ['x'] },
      { participantId: '' },
      { participantId: 'a', avatar: 'not a url' },
    ];
    for (const payload of invalid) {
      assertErrorBody(await upsert(payload), 400);
    }
  });
});

describe('recordings', () => {
  const clock = manualClock();
  const h = describeHarness({ now: clock.now, recordingDelayMs: 1000 });
  type RecordingBody = { uuid: string; url: string; status: string; roomId: string; meetingId: string; createdAt: string };
  const list = async (query = '', headers = h.dev) => (await h.get(`/recording${query}`, headers)).json() as RecordingBody[];

  it('lists every finished recording of the environment as a bare array, filtered by room and meeting', async () => {
    const all = await list();
    assert.ok(Array.isArray(all) && all.length > 10);
    assert.ok(all.every((r) => isoMillis.test(r.createdAt) && /^[0-9a-f-]{36}$/.test(r.uuid)));
    assert.ok(all.every((r) => r.url === `http://localhost:80/media/recordings/${r.uuid}.mp4`));
    const room = await list('?roomId=room-dev-02');
    assert.deepEqual(
      room,
      all.filter((r) => r.roomId === 'room-dev-02'),
    );
    assert.equal(new Set(room.map((r) => r.meetingId)).size > 1, true);
    assert.equal((await list('?meetingId=mtg-dev-h02')).length, 3);
    assert.deepEqual(await list('?roomId=room-dev-02&meetingId=mtg-dev-h02'), await list('?meetingId=mtg-dev-h02'));
    assert.deepEqual(await list('?roomId=room-dev-01&meetingId=mtg-dev-h02'), []);
    assert.ok((await list('', h.prod)).every((r) => r.meetingId.startsWith('mtg-prod-')));
  });

  it('moves a recording from processing to available once the delay has passed, and serves its url only then', async () => {
    const [processing] = await list('?meetingId=mtg-dev-processing');
    assert.equal(processing?.status, 'processing');
    assert.equal(processing?.createdAt, new Date(clock.now()).toISOString());
    const media = () => h.app.inject({ url: new URL(processing?.url ?? '').pathname });
    assertErrorBody(await media(), 404);
    clock.advance(999);
    assert.equal((await list('?meetingId=mtg-dev-processing'))[0]?.status, 'processing');
    clock.advance(1);
    const [available] = await list('?meetingId=mtg-dev-processing');
    assert.equal(available?.status, 'available');
    const download = await media();
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-type'], 'video/mp4');
  });

  it('lists the recording of a running meeting only once the close ended it, processing for the delay', async () => {
    const recordings = () => list('?meetingId=mtg-dev-live-1');
    clock.advance(60_000);
    assert.deepEqual(await recordings(), []);
    const close = await h.app.inject({ method: 'GET', url: '/meeting/close/mtg-dev-live-1', headers: h.bearer, payload: { apiKey: devKey } });
    assert.equal(close.statusCode, 200);
    const [ended] = await recordings();
    assert.equal(ended?.status, 'processing');
    assert.equal(ended?.createdAt, new Date(clock.now()).toISOString());
    clock.advance(1000);
    assert.equal((await recordings())[0]?.status, 'available');
  });

  it('answers with the pagination envelope under the recordings-envelope variant', async () => {
    const app = await buildApp({ variants: ['recordings-envelope'] });
    const headers = { authorization: `Bearer ${await login(app)}`, apikey: devKey };
    const body = (await app.inject({ url: '/recording?take=5&skip=5', headers })).json();
    assert.equal(body.pagination.limit, 5);
    assert.equal(body.pagination.page, 2);
    assert.equal(body.data.length, 5);
    assert.equal((await app.inject({ url: '/recording?take=0', headers })).statusCode, 400);
    await app.close();
  });
});

describe('transcription statistics', () => {
  const clock = manualClock();
  const h = describeHarness({ now: clock.now, usageLimit: 3, usageWindowMs: 10_000 });

  it('filters by environment and validates it', async () => {
    const limited = await buildApp();
    const bearer = { authorization: `Bearer ${await login(limited)}` };
    const count = async (query: string) => ((await limited.inject({ url: `/transcript/stats${query}`, headers: bearer })).json() as unknown[]).length;
    assert.deepEqual([await count(''), await count('?environment=development'), await count('?environment=production')], [30, 18, 12]);
    const record = ((await limited.inject({ url: '/transcript/stats', headers: bearer })).json() as Record<string, unknown>[])[0] ?? {};
    assert.deepEqual(Object.keys(record).sort(), ['createdAt', 'finishedAt', 'groupId', 'groupName', 'meetingId', 'minutes', 'startedAt', 'updatedAt', 'uuid']);
    assertErrorBody(await limited.inject({ url: '/transcript/stats?environment=staging', headers: bearer }), 400);
    await limited.close();
  });

  it('answers 403 Forbidden past the usage limit of the account, per account, until the window ends', async () => {
    const other = { authorization: `Bearer ${await login(h.app, seedAccounts.usageLimit)}` };
    for (let i = 0; i < 3; i += 1) assert.equal((await h.get('/transcript/stats', h.bearer)).statusCode, 200);
    const refused = await h.get('/transcript/stats', h.bearer);
    assertErrorBody(refused, 403);
    assert.equal(refused.json().error, 'Forbidden');
    assert.equal(refused.headers['retry-after'], '10');
    assert.equal((await h.get('/transcript/stats', other)).statusCode, 200);
    clock.advance(10_000);
    assert.equal((await h.get('/transcript/stats', h.bearer)).statusCode, 200);
  });
});

describe('security key', () => {
  const h = describeHarness({ variants: ['security-path-participants'] });
  const create = (payload: unknown, url = '/security', headers: Record<string, string> = h.bearer) =>
    h.app.inject({ method: 'POST', url, headers, payload: payload as object });

  it('returns a working key pair encrypted with the passphrase and 128 words of the BIP39 list', async () => {
    const response = await create({ passphrase: 'Correct-Horse-9!' });
    assert.equal(response.statusCode, 200);
    const body = response.json() as Record<string, string>;
    assert.deepEqual(Object.keys(body).sort(), ['passphrase', 'privateKey', 'publicKey', 'secretKey']);
    assert.equal(body['passphrase'], 'Correct-Horse-9!');
    assert.match(body['privateKey'] ?? '', /^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    assert.throws(() => createPrivateKey(body['privateKey'] ?? ''));
    assert.throws(() => createPrivateKey({ key: body['privateKey'] ?? '', passphrase: 'wrong' }));
    const privateKey = createPrivateKey({ key: body['privateKey'] ?? '', passphrase: 'Correct-Horse-9!' });
    const publicKey = createPublicKey(body['publicKey'] ?? '');
    const message = Buffer.from('transcript data');
    assert.ok(verify('sha256', message, publicKey, sign('sha256', message, privateKey)));
    const sealed = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, message);
    assert.deepEqual(privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, sealed), message);
    const words = (body['secretKey'] ?? '').split(' ');
    assert.equal(words.length, 128);
    assert.ok(words.every((word) => wordlist.includes(word)));
    const again = (await create({ passphrase: 'Correct-Horse-9!' })).json() as Record<string, string>;
    assert.notEqual(again['publicKey'], body['publicKey']);
    assert.notEqual(again['secretKey'], body['secretKey']);
  });

  it('hands each pre-generated key pair out once, generating ahead only after the first request and until closed', async () => {
    let generated = 0;
    const generate = async () => {
      generated += 1;
      return { publicKey: generated, privateKey: generated } as unknown as KeyPairKeyObjectResult;
    };
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const pool = createKeyPairPool(2, generate);
    await settle();
    assert.equal(generated, 0);
    const handedOut = [await pool.take()];
    await settle();
    assert.equal(generated, 3);
    handedOut.push(await pool.take(), await pool.take());
    assert.deepEqual(
      handedOut.map((pair) => pair.publicKey),
      [1, 2, 3],
    );
    await settle();
    pool.close();
    const beforeClose = generated;
    await pool.take();
    await settle();
    assert.equal(generated, beforeClose + 1);
  });

  it('generates the pairs asked for at start one after another, hands them out oldest first, and replaces one whose generation failed', async () => {
    // Each generation ends only when the test lets it, so that nothing depends on timing.
    const running: { number: number; finish: () => void }[] = [];
    let generated = 0;
    let mostAtOnce = 0;
    const generate = () =>
      new Promise<KeyPairKeyObjectResult>((resolve, reject) => {
        generated += 1;
        const number = generated;
        running.push({
          number,
          finish: () =>
            number === 2 ? reject(new Error('generation failed')) : resolve({ publicKey: number, privateKey: number } as unknown as KeyPairKeyObjectResult),
        });
        mostAtOnce = Math.max(mostAtOnce, running.length);
      });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const finishOldest = async () => {
      running.shift()?.finish();
      await settle();
    };
    const pool = createKeyPairPool(1, generate, 3);
    await settle();
    assert.equal(generated, 1, 'the first started before any request, the others wait for it');
    await finishOldest();
    assert.equal(generated, 2, 'the second starts when the first is done');
    await finishOldest();
    assert.equal(generated, 3, 'the third starts when the second failed');
    await finishOldest();
    assert.equal(mostAtOnce, 1, 'one at a time');
    const first = await pool.take();
    const second = pool.take();
    await settle();
    // The failed second pair is replaced by a fresh generation, the fourth.
    assert.equal(generated, 4);
    await finishOldest();
    const third = await pool.take();
    assert.deepEqual(
      [first, await second, third].map((pair) => pair.publicKey),
      [1, 4, 3],
    );
    pool.close();
  });

  it('stops generating the start-up pairs once closed', async () => {
    const finishers: (() => void)[] = [];
    let generated = 0;
    const generate = () =>
      new Promise<KeyPairKeyObjectResult>((resolve) => {
        generated += 1;
        finishers.push(() => resolve({ publicKey: generated, privateKey: generated } as unknown as KeyPairKeyObjectResult));
      });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const pool = createKeyPairPool(1, generate, 3);
    await settle();
    pool.close();
    finishers.shift()?.();
    await settle();
    await settle();
    assert.equal(generated, 1, 'the pairs after the one under way are not generated');
  });

  it('rejects a missing, empty or non-string passphrase with 400 and a missing token with 401', async () => {
    for (const payload of [{}, { passphrase: '' }, { passphrase: 12345678 }, { passphrase: null }, ['passphrase']]) {
      assertErrorBody(await create(payload), 400);
    }
    assertErrorBody(await create({ passphrase: 'Correct-Horse-9!' }, '/security', {}), 401, false);
  });

  it('also serves the key on POST /participants under the variant, while upserts keep working', async () => {
    const key = await create({ passphrase: 'Another-Pass-1' }, '/participants');
    assert.equal(key.statusCode, 200);
    assert.equal(key.json().passphrase, 'Another-Pass-1');
    const upsert = await create({ participantId: 'p-variant', name: 'V' }, '/participants', h.dev);
    assert.equal(upsert.statusCode, 201);
    assert.equal(upsert.json().id, 'p-variant');
  });
});

describe('meetings summary and statistics', () => {
  const h = describeHarness();
  type StatsRecord = { groupId: string; startedAt: string; meetingMinutes: number; recordingMinutes: number; participants: Record<string, unknown>[] };
  const records = async (query: string) => (await h.get(`/meetingstats?onlySummary=false${query}`, h.bearer)).json() as StatsRecord[];
  const totals = (list: StatsRecord[]) => ({
    totalMeetingMinutes: list.reduce((s, r) => s + r.meetingMinutes, 0),
    totalRecordingMinutes: list.reduce((s, r) => s + r.recordingMinutes, 0),
    totalMeetings: list.length,
  });

  it('summarises the API key environment with the API key alone', async () => {
    const summary = await h.get('/meetings/summary', { apikey: devKey });
    assert.equal(summary.statusCode, 200);
    assert.deepEqual(summary.json(), totals(await records('&environment=development')));
    assert.deepEqual((await h.get('/meetings/summary', { apikey: prodKey })).json(), totals(await records('')));
  });

  it('answers the production summary by default and records with onlySummary=false', async () => {
    const all = await records('');
    assert.equal(all.length, 52);
    assert.deepEqual((await h.get('/meetingstats', h.bearer)).json(), totals(all));
    assert.equal((await records('&environment=development')).length, 64);
    assert.deepEqual(Object.keys(all[0] ?? {}).sort(), [
      'createdAt',
      'endedAt',
      'groupId',
      'groupName',
      'id',
      'meetingId',
      'meetingMinutes',
      'participants',
      'price',
      'recordingMinutes',
      'startedAt',
      'userId',
      'uuid',
    ]);
    assert.deepEqual(Object.keys(all[0]?.participants[0] ?? {}).sort(), ['createdAt', 'deletedAt', 'id', 'name', 'permission', 'updatedAt', 'userId', 'uuid']);
  });

  it('applies month, year, date range and group filters together', async () => {
    const march2024 = await records('&month=03&year=2024');
    assert.ok(march2024.length > 0);
    assert.ok(march2024.every((r) => r.startedAt.startsWith('2024-03')));
    assert.deepEqual(await records('&month=3&year=2024'), march2024);
    const range = await records('&initialDate=2024-01-01T00:00:00.000Z&endDate=2024-06-30T23:59:59.999Z');
    assert.ok(range.length > 0 && range.every((r) => r.startedAt >= '2024-01-01' && r.startedAt < '2024-07-01'));
    const group = (await records(''))[0]?.groupId ?? '';
    const byGroup = await records(`&groupId=${group}`);
    assert.ok(byGroup.length > 0 && byGroup.every((r) => r.groupId === group));
    assert.deepEqual((await h.get(`/meetingstats?groupId=${group}`, h.bearer)).json(), totals(byGroup));
  });

  it('paginates records with usePagination=true and onlySummary=false', async () => {
    const body = (await h.get('/meetingstats?usePagination=true&onlySummary=false&skip=10&take=5', h.bearer)).json();
    assert.deepEqual(Object.keys(body), ['data', 'pagination']);
    assert.deepEqual(body.pagination, { page: 3, totalPages: 11, limit: 5, total: 52 });
    assert.equal(body.data.length, 5);
  });

  it('answers the summary or paginated records for usePagination=true alone, by variant', async () => {
    assert.deepEqual((await h.get('/meetingstats?usePagination=true', h.bearer)).json(), totals(await records('')));
    const app = await buildApp({ variants: ['meetingstats-paginated-records'] });
    const body = (await app.inject({ url: '/meetingstats?usePagination=true', headers: { authorization: `Bearer ${await login(app)}` } })).json();
    assert.deepEqual(body.pagination, { page: 1, totalPages: 6, limit: 10, total: 52 });
    await app.close();
  });

  it('answers 401 with error Unauthorized for a non-developer account', async () => {
    const viewer = { authorization: `Bearer ${await login(h.app, seedAccounts.nonDeveloper)}` };
    const response = await h.get('/meetingstats', viewer);
    assertErrorBody(response, 401);
    assert.equal(response.json().error, 'Unauthorized');
  });

  it('rejects invalid filter values with 400', async () => {
    const bad = [
      'month=13',
      'month=0',
      'month=march',
      'year=24',
      'year=20x4',
      'environment=staging',
      'usePagination=yes',
      'onlySummary=1',
      'initialDate=yesterday',
      'endDate=2024-02-30',
      'initialDate=2024-05-01&endDate=2024-04-01',
      'usePagination=true&onlySummary=false&take=0',
    ];
    for (const query of bad) assertErrorBody(await h.get(`/meetingstats?${query}`, h.bearer), 400);
  });
});

describe('meeting close and realtime', () => {
  const h = describeHarness();
  const close = (meetingId: string, payload?: object, headers: Record<string, string> = h.bearer) =>
    h.app.inject({ method: 'GET', url: `/meeting/close/${meetingId}`, headers, ...(payload === undefined ? {} : { payload }) });
  type Connected = { id: string; name: string; connectionId: string | null; timestamp: number; channel?: string; roomId?: string };

  it('closes a running meeting once: 200 {}, participants gone, then 500 on the second close', async () => {
    const before = (await h.get('/realtime/participants/room-dev-03/dev-live-3', { apikey: devKey })).json() as Connected[];
    assert.equal(before.length, 4);
    assert.ok(before.every((p) => p.roomId === 'room-dev-03' && Number.isInteger(p.timestamp)));
    const first = await close('mtg-dev-live-3', { apiKey: devKey });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json(), {});
    assert.deepEqual((await h.get('/realtime/participants/room-dev-03/dev-live-3', { apikey: devKey })).json(), []);
    assert.deepEqual((await h.get('/v2/realtime/participants/dev-live-3', devClient)).json(), []);
    const second = await close('mtg-dev-live-3', { apiKey: devKey });
    assertErrorBody(second, 500);
    assert.equal(second.json().error, 'Internal Server Error');
    assertErrorBody(await close('mtg-dev-h01', { apiKey: devKey }), 500);
  });

  it('needs the bearer token and the API key in the body; unknown meetings are 404', async () => {
    assertErrorBody(await close('mtg-dev-live-2', { apiKey: devKey }, {}), 401, false);
    assertErrorBody(await close('mtg-dev-live-2'), 401, false);
    assertErrorBody(await close('mtg-dev-live-2', { apiKey: 'wrong' }), 401, false);
    assertErrorBody(await close('mtg-dev-live-2', { apiKey: prodKey }), 404);
    assertErrorBody(await close('no-such-meeting', { apiKey: devKey }), 404);
    assert.equal((await h.app.inject({ method: 'HEAD', url: '/meeting/close/mtg-dev-live-2', headers: h.bearer })).statusCode, 404);
    assert.equal((await h.get('/v2/realtime/participants/dev-live-2', devClient)).json().length, 3);
  });

  it('returns a channel with its last 250 events, newest last, and its presences', async () => {
    const body = (await h.get('/v2/realtime/dev-busy', devClient)).json();
    assert.deepEqual(Object.keys(body), ['channel', 'events', 'presences']);
    assert.deepEqual(Object.keys(body.channel).sort(), ['apiKey', 'endTime', 'id', 'name', 'participantId', 'startTime']);
    assert.equal(body.channel.apiKey, devKey);
    assert.equal(body.channel.endTime, null);
    const events = body.events as { timestamp: number; name: string; connectionId: string | null }[];
    assert.equal(events.length, 250);
    assert.ok(events.every((e, i) => i === 0 || e.timestamp >= (events[i - 1]?.timestamp ?? 0)));
    assert.ok(events.every((e) => e.name === 'message:dev-busy' && Number.isInteger(e.timestamp)));
    assert.ok(events.some((e) => e.connectionId === null));
    const channel = h.app.store.environments.development.channels.get('dev-busy');
    assert.equal(events.at(-1)?.timestamp, channel?.events.at(-1)?.timestamp);
    assert.equal(body.presences.length, 4);
    assert.ok((body.presences as Connected[]).every((p) => p.channel === 'dev-busy'));
  });

  it('returns all events of a quiet channel and keeps environments apart', async () => {
    assert.equal((await h.get('/v2/realtime/dev-quiet', devClient)).json().events.length, 12);
    assertErrorBody(await h.get('/v2/realtime/dev-quiet', prodClient), 404);
    const devLobby = (await h.get('/v2/realtime/lobby', devClient)).json();
    const prodLobby = (await h.get('/v2/realtime/lobby', prodClient)).json();
    assert.notEqual(devLobby.channel.id, prodLobby.channel.id);
    assert.equal(prodLobby.channel.apiKey, prodKey);
    assert.equal(typeof devLobby.channel.endTime, 'number');
    assertErrorBody(await h.get('/v2/realtime/participants/nope', devClient), 404);
    assertErrorBody(await h.get('/realtime/participants/room-dev-02/dev-busy', { apikey: devKey }), 404);
  });

  it('switches field names and values under the realtime variants', async () => {
    const app = await buildApp({ variants: ['channel-participants', 'channel-without-id', 'participant-channel-room-id'] });
    const body = (await app.inject({ url: '/v2/realtime/dev-busy', headers: devClient })).json();
    assert.deepEqual(Object.keys(body), ['channel', 'events', 'participants']);
    assert.ok(!('id' in body.channel));
    assert.ok((body.participants as Connected[]).every((p) => p.channel === 'room-dev-01'));
    await app.close();
  });
});

describe('app options and robustness', () => {
  it('answers unknown routes and oversized bodies with the error shape', async () => {
    const app = await buildApp({ bodyLimit: 2048 });
    assertErrorBody(await app.inject({ url: '/nowhere' }), 404);
    assertErrorBody(await app.inject({ method: 'POST', url: '/login', payload: { email: 'x'.repeat(4096), password: 'secret1' } }), 413);
    assertErrorBody(await app.inject({ method: 'POST', url: '/login', payload: '<xml/>', headers: { 'content-type': 'application/xml' } }), 415);
    await app.close();
  });

  it('starts every instance from a fresh copy of the seed', async () => {
    const first = await harness();
    await first.app.inject({ method: 'PUT', url: '/participants/prt-dev-0001/archive', headers: first.dev });
    const second = await harness();
    const total = async (x: Harness) => (await x.get('/groups/participants/grp-dev-001')).json().pagination.total;
    assert.deepEqual([await total(first), await total(second)], [35, 36]);
    await Promise.all([first.app.close(), second.app.close()]);
  });

  it('multiplies the data with seedScale', async () => {
    const h = await harness({ seedScale: 3 });
    assert.equal((await h.get('/groups')).json().pagination.total, 96);
    assert.equal((await h.get('/groups/participants/grp-dev-001~2?take=100')).json().pagination.total, 36);
    assert.equal(h.app.store.environments.development.channels.get('dev-busy')?.events.length, 900);
    await h.app.close();
  });

  it('lets outside code replace behaviour and add hooks without touching the normal path', async () => {
    const h = await harness({
      behaviour: { totalPages: () => 99 },
      beforeRoutes: [(app) => void app.addHook('onSend', async (_request, reply) => void reply.header('x-extension', 'yes'))],
    });
    const response = await h.get('/groups');
    assert.equal(response.json().pagination.totalPages, 99);
    assert.equal(response.headers['x-extension'], 'yes');
    await h.app.close();
  });

  it('rejects invalid options by name', async () => {
    await assert.rejects(buildApp({ seedScale: 0 }), /seedScale/);
    await assert.rejects(buildApp({ variants: ['nope'] }), /variants/);
  });
});
