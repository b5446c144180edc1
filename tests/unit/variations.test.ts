import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, buildServers, type ReferenceServers } from '../../reference/app.ts';
import { parseCli } from '../../reference/cli.ts';
import {
  applyVariations,
  checkVariations,
  listVariations,
  OTHER_CHOICES,
  OTHER_CHOICES_ALTERNATES,
  variationIdRenaming,
} from '../../reference/variations/index.ts';
import { listVariants } from '../../reference/variants.ts';
import { seedAccounts, seedKeys } from '../../scripts/lib/seed-generator.ts';

const devKey = seedKeys.apiKeys.development;
const devClient = { client_id: seedKeys.clients.development.clientId, secret: seedKeys.clients.development.secret };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function login(app: FastifyInstance, prefix = ''): Promise<Record<string, string>> {
  const response = await app.inject({ method: 'POST', url: `${prefix}/login`, payload: seedAccounts.developer });
  assert.equal(response.statusCode, 200, response.body);
  return { authorization: `Bearer ${(response.json() as { access_token: string }).access_token}`, apikey: devKey };
}

async function withServers<T>(names: readonly string[], use: (servers: ReferenceServers) => Promise<T>): Promise<T> {
  const servers = await buildServers(applyVariations({ recordingDelayMs: 0 }, names));
  try {
    return await use(servers);
  } finally {
    await Promise.all([servers.main.close(), servers.realtime?.close()]);
  }
}

describe('variation catalogue', () => {
  const variations = listVariations();

  it('names each variation once, with a description and the interface point that allows it', () => {
    assert.equal(new Set(variations.map((variation) => variation.name)).size, variations.length);
    for (const variation of variations) {
      assert.ok(variation.description.length > 20, variation.name);
      assert.ok(variation.basis.length > 20, variation.name);
    }
  });

  it('declares exclusions both ways, and other-choices takes none of an excluded pair', () => {
    const byName = new Map(variations.map((variation) => [variation.name, variation]));
    for (const variation of variations) {
      for (const other of variation.excludes ?? []) assert.ok(byName.get(other)?.excludes?.includes(variation.name), `${variation.name} / ${other}`);
    }
    const members = byName.get(OTHER_CHOICES)?.members ?? [];
    assert.ok(members.length > 30);
    assert.doesNotThrow(() => checkVariations([OTHER_CHOICES]));
    assert.throws(() => checkVariations(['unknown-id-400', 'unknown-id-422']), /different choices/);
    assert.throws(() => checkVariations(['no-such-variation']), /unknown variation/);
  });

  it("between them, the two combinations switch on every uncontested variation and every documented variant's other form", () => {
    // self-verification inside npm test runs only the combinations: what they leave out is certified there by nothing.
    // The variants a combination declares, not those its options end up with: a member variation may
    // switch a variant on only to take part of it away (security-key-participants-path-only turns on
    // security-path-participants and then refuses POST /security), which certifies another form.
    const byName = new Map(variations.map((variation) => [variation.name, variation]));
    const variantsOn = new Set([...(byName.get(OTHER_CHOICES)?.variants ?? []), ...(byName.get(OTHER_CHOICES_ALTERNATES)?.variants ?? [])]);
    assert.deepEqual(
      listVariants()
        .map((variant) => variant.name)
        .filter((name) => !variantsOn.has(name)),
      [],
    );
    // What a combination declares, it applies.
    for (const name of [OTHER_CHOICES, OTHER_CHOICES_ALTERNATES]) {
      const applied = new Set(applyVariations({ recordingDelayMs: 0 }, [name]).variants ?? []);
      for (const variant of byName.get(name)?.variants ?? []) assert.ok(applied.has(variant), `${name} declares ${variant} but does not apply it`);
    }
    const members = new Set([...(byName.get(OTHER_CHOICES)?.members ?? []), ...(byName.get(OTHER_CHOICES_ALTERNATES)?.members ?? [])]);
    const single = variations.filter((variation) => variation.members === undefined).map((variation) => variation.name);
    assert.deepEqual(
      single.filter((name) => !members.has(name)),
      ['pages-from-zero'],
    );
    assert.deepEqual(byName.get(OTHER_CHOICES_ALTERNATES)?.variants, ['security-path-participants']);
  });

  it('every variation, and other-choices, builds a reference that logs in', async () => {
    for (const { name } of variations) {
      await withServers([name], async ({ main }) => {
        const prefix = main.reference.config.layout.basePath;
        await login(main, prefix);
      });
    }
  });
});

describe('addresses', () => {
  it('path-prefix serves the main interface under /api/v9 only, with recording urls under it', async () => {
    await withServers(['path-prefix'], async ({ main }) => {
      const headers = await login(main, '/api/v9');
      assert.equal((await main.inject({ url: '/api/v9/groups', headers })).statusCode, 200);
      assert.equal((await main.inject({ url: '/groups', headers })).statusCode, 404);
      const recordings = (await main.inject({ url: '/api/v9/recording?meetingId=mtg-dev-h02', headers })).json() as { url: string }[];
      const url = new URL(recordings[0]?.url ?? '');
      assert.match(url.pathname, /^\/api\/v9\/media\/recordings\//);
      assert.equal((await main.inject({ url: url.pathname })).statusCode, 200);
      // The faults' and variations' hooks still find their operation under the prefix.
      assert.equal((await main.inject({ url: '/v2/realtime/dev-busy', headers: devClient })).statusCode, 200);
    });
  });

  it('realtime-origin serves the realtime interface on a second instance only, on the shared store', async () => {
    await assert.rejects(buildApp(applyVariations({}, ['realtime-origin'])), /buildServers/);
    await withServers(['realtime-origin'], async ({ main, realtime }) => {
      assert.ok(realtime !== undefined);
      assert.equal((await main.inject({ url: '/v2/realtime/dev-busy', headers: devClient })).statusCode, 404);
      assert.equal((await realtime.inject({ url: '/groups' })).statusCode, 404);
      const before = (await realtime.inject({ url: '/realtime/participants/dev-live-3', headers: devClient })).json() as unknown[];
      assert.equal(before.length, 4);
      const headers = await login(main);
      const close = await main.inject({
        method: 'GET',
        url: '/meeting/close/mtg-dev-live-3',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { apiKey: devKey },
      });
      assert.equal(close.statusCode, 200, close.body);
      assert.deepEqual((await realtime.inject({ url: '/realtime/participants/dev-live-3', headers: devClient })).json(), []);
    });
  });

  it('the CLI takes --variation (repeatable), --list-variations and --realtime-port, and refuses an exclusive pair', () => {
    assert.deepEqual(parseCli(['--list-variations']), { kind: 'list-variations' });
    assert.deepEqual(parseCli(['--port', '0', '--variation', 'path-prefix', '--variation=latency', '--realtime-port', '0']), {
      kind: 'serve',
      port: 0,
      realtimePort: 0,
      options: { variants: [] },
      variations: ['path-prefix', 'latency'],
    });
    assert.throws(() => parseCli(['--variation', 'nope']), /unknown variation "nope"/);
    assert.throws(() => parseCli(['--variation', 'take-clamped', '--variation', 'take-unbounded']), /different choices/);
  });
});

describe('answers', () => {
  it('uuid-ids renames the seed ids the way its renaming tells a profile', async () => {
    const rename = variationIdRenaming(['uuid-ids']);
    assert.ok(rename !== undefined);
    assert.equal(variationIdRenaming(['latency']), undefined);
    await withServers(['uuid-ids'], async ({ main }) => {
      const headers = await login(main);
      const groups = (await main.inject({ url: '/groups?take=100', headers })).json() as { data: { id: string }[] };
      assert.ok(groups.data.every((group) => uuid.test(group.id)));
      assert.equal((await main.inject({ url: `/groups/${rename('grp-dev-001')}`, headers })).statusCode, 200);
      assert.equal((await main.inject({ url: '/groups/grp-dev-001', headers })).statusCode, 404);
    });
  });

  it('extra-fields extends every object, pagination included, and keeps the close answer empty', async () => {
    await withServers(['extra-fields'], async ({ main }) => {
      const headers = await login(main);
      const page = (await main.inject({ url: '/groups?take=5', headers })).json() as { pagination: Record<string, unknown>; data: Record<string, unknown>[] };
      assert.equal(page.pagination['hasNextPage'], true);
      assert.ok(page.data.every((group) => 'vendorNote' in group));
      const close = await main.inject({
        method: 'GET',
        url: '/meeting/close/mtg-dev-live-3',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { apiKey: devKey },
      });
      assert.deepEqual(close.json(), {});
    });
  });

  it('unknown-id-422 answers 422 for an unknown id in a path and in a recordings filter; problem-details reshapes it', async () => {
    await withServers(['unknown-id-422', 'problem-details'], async ({ main }) => {
      const headers = await login(main);
      const group = await main.inject({ url: '/groups/nope', headers });
      assert.equal(group.statusCode, 422);
      assert.match(String(group.headers['content-type']), /^application\/problem\+json/);
      assert.equal((group.json() as { status: number }).status, 422);
      assert.equal((await main.inject({ url: '/recording?meetingId=nope', headers })).statusCode, 422);
      assert.equal((await main.inject({ url: '/recording?meetingId=mtg-dev-h02', headers })).statusCode, 200);
    });
  });

  it('unknown-group-400-participants-empty answers an unknown group 400 at getGroup and an empty page at listGroupParticipants, and leaves other unknown ids to unknown-id-422', async () => {
    await withServers(['unknown-group-400-participants-empty'], async ({ main }) => {
      const headers = await login(main);
      const group = await main.inject({ url: '/groups/nope', headers });
      assert.deepEqual([group.statusCode, (group.json() as { statusCode: number }).statusCode], [400, 400]);
      const participants = await main.inject({ url: '/groups/participants/nope?take=3', headers });
      assert.equal(participants.statusCode, 200);
      assert.deepEqual(participants.json(), { pagination: { page: 1, totalPages: 0, limit: 3, total: 0 }, data: [] });
      assert.equal((await main.inject({ url: '/groups/participants/nope?skip=-1', headers })).statusCode, 400, 'malformed paging is still refused');
      assert.equal((await main.inject({ url: '/groups/participants/nope' })).statusCode, 401, 'credentials first');
      assert.equal((await main.inject({ url: '/groups/grp-dev-001', headers })).statusCode, 200);
      assert.equal((await main.inject({ url: '/participants/nope', headers })).statusCode, 404);
    });
    await withServers(['unknown-group-400-participants-empty', 'unknown-id-422'], async ({ main }) => {
      const headers = await login(main);
      assert.equal((await main.inject({ url: '/groups/nope', headers })).statusCode, 400);
      assert.equal((await main.inject({ url: '/groups/participants/nope', headers })).statusCode, 200);
      assert.equal((await main.inject({ url: '/participants/nope', headers })).statusCode, 422);
    });
  });

  it("recording-created-at-start dates a recording at its start (the meeting's previous recording's end, or the meeting's start), and keeps its status", async () => {
    const at = async (names: string[], meetingId: string): Promise<{ status: string; createdAt: string }[]> =>
      withServers(names, async ({ main }) => (await main.inject({ url: `/recording?meetingId=${meetingId}`, headers: await login(main) })).json());
    const plain = await at([], 'mtg-dev-h02');
    const started = await at(['recording-created-at-start'], 'mtg-dev-h02');
    // mtg-dev-h02 started at 20:00 and its recordings ended at 20:05, 20:16 and 20:27.
    assert.deepEqual(
      plain.map((recording) => recording.createdAt),
      ['2024-03-29T20:05:00.000Z', '2024-03-29T20:16:00.000Z', '2024-03-29T20:27:00.000Z'],
    );
    assert.deepEqual(
      started.map((recording) => recording.createdAt),
      ['2024-03-29T20:00:00.000Z', '2024-03-29T20:05:00.000Z', '2024-03-29T20:16:00.000Z'],
    );
    assert.deepEqual(
      started.map((recording) => recording.status),
      plain.map((recording) => recording.status),
    );
    // The recording that ended when the reference started began with its meeting, 45 minutes before.
    const [processing] = await withServers(['recording-created-at-start'], async ({ main }) => {
      const startedAt = Date.now();
      const list = (await main.inject({ url: '/recording?meetingId=mtg-dev-processing', headers: await login(main) })).json() as {
        status: string;
        createdAt: string;
      }[];
      return list.map((recording) => ({ ...recording, ago: startedAt - Date.parse(recording.createdAt) }));
    });
    assert.equal(processing?.status, 'available', 'the unit servers run with no delay');
    assert.ok((processing?.ago ?? 0) >= 45 * 60_000 - 5_000, `created ${processing?.ago} ms before the start`);
  });

  it('upsert-answers-no-body answers 201 with no body and no content type', async () => {
    await withServers(['upsert-answers-no-body'], async ({ main }) => {
      const headers = await login(main);
      const response = await main.inject({ method: 'POST', url: '/participants', headers, payload: { participantId: 'unit-variation-1', name: 'N' } });
      assert.equal(response.statusCode, 201);
      assert.equal(response.body, '');
      assert.equal(response.headers['content-type'], undefined);
    });
  });

  it('other-choices serves security keys at POST /participants with a passphrase and the bearer token only', async () => {
    await withServers([OTHER_CHOICES], async ({ main }) => {
      const { authorization } = await login(main, '/api/v9');
      assert.equal(
        (await main.inject({ method: 'POST', url: '/api/v9/security', headers: { authorization }, payload: { passphrase: 'Unit-Var03-Key!' } })).statusCode,
        404,
      );
      const key = await main.inject({ method: 'POST', url: '/api/v9/participants', headers: { authorization }, payload: { passphrase: 'Unit-Var03-Key!' } });
      assert.equal(key.statusCode, 200, key.body);
      assert.equal((key.json() as { passphrase: string }).passphrase, 'Unit-Var03-Key!');
    });
  });

  it('security-key-participants-path-400 serves keys at POST /participants only and answers POST /security 400 with the general error body, whatever the credentials', async () => {
    assert.throws(() => checkVariations(['security-key-participants-path-400', 'security-key-participants-path-only']), /different choices/);
    await withServers(['security-key-participants-path-400'], async ({ main }) => {
      const { authorization } = await login(main);
      for (const headers of [{ authorization }, {}]) {
        const refused = await main.inject({ method: 'POST', url: '/security', headers, payload: { passphrase: 'Unit-Var03-Key!' } });
        assert.equal(refused.statusCode, 400, refused.body);
        assert.deepEqual(Object.keys(refused.json() as object).sort(), ['error', 'message', 'statusCode']);
        assert.deepEqual({ ...(refused.json() as object), message: '' }, { statusCode: 400, error: 'Bad Request', message: '' });
      }
      const key = await main.inject({ method: 'POST', url: '/participants', headers: { authorization }, payload: { passphrase: 'Unit-Var03-Key!' } });
      assert.equal(key.statusCode, 200, key.body);
      assert.equal((key.json() as { passphrase: string }).passphrase, 'Unit-Var03-Key!');
      assert.equal((await main.inject({ method: 'POST', url: '/participants', payload: { passphrase: 'Unit-Var03-Key!' } })).statusCode, 401);
    });
  });

  it('chunked and gzip change only the framing and coding on the wire', async () => {
    await withServers(['gzip', 'chunked'], async ({ main }) => {
      await main.listen({ host: '127.0.0.1', port: 0 });
      const address = main.server.address();
      assert.ok(address !== null && typeof address === 'object');
      const response = await fetch(`http://127.0.0.1:${address.port}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        body: JSON.stringify(seedAccounts.developer),
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-encoding'), 'gzip');
      assert.equal(response.headers.get('transfer-encoding'), 'chunked');
      assert.equal(response.headers.get('content-length'), null);
      assert.equal(typeof ((await response.json()) as { access_token: unknown }).access_token, 'string');
    });
  });
  it('invalid-uri-plain-400 refuses a path that is not a valid URI with a plain-text 400 before any plugin, and leaves the rest to the reference', async () => {
    for (const names of [[], ['invalid-uri-plain-400']]) {
      await withServers(names, async ({ main }) => {
        await main.listen({ host: '127.0.0.1', port: 0 });
        const address = main.server.address();
        assert.ok(address !== null && typeof address === 'object');
        const base = `http://127.0.0.1:${address.port}`;
        for (const path of ['/groups/%zz', '/groups/%E0%A4%A', '/v2/realtime/%zz']) {
          const response = await fetch(`${base}${path}`, { headers: { apikey: devKey } });
          assert.equal(response.status, 400, path);
          const text = await response.text();
          if (names.length === 0) assert.equal((JSON.parse(text) as { statusCode: unknown }).statusCode, 400, path);
          else assert.deepEqual([response.headers.get('content-type'), text], ['text/plain', 'Bad Request'], path);
        }
        // A valid path reaches the application: its 401 without a token is the general error body.
        const valid = await fetch(`${base}/groups/grp-dev-001`, { headers: { apikey: devKey } });
        assert.equal(valid.status, 401);
        assert.equal((JSON.parse(await valid.text()) as { statusCode: unknown }).statusCode, 401);
      });
    }
  });
});
