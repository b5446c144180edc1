import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeJwt, jwtVerify } from 'jose';
import { buildApp } from '../../reference/app.ts';
import { numericOptionRules } from '../../reference/options.ts';
import { environments } from '../../reference/seed-types.ts';
import { loadSeed } from '../../reference/store.ts';
import { generateSeed, seedPath, serialiseSeed } from '../../scripts/lib/seed-generator.ts';

const profile = Object.fromEntries(
  readFileSync(new URL('../../fixtures/targets/reference.env', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
) as Record<string, string>;

const value = (key: string): string => {
  const found = profile[key];
  assert.ok(found !== undefined && found !== '', `${key} missing from reference.env`);
  return found;
};

describe('seed', () => {
  it('is exactly what scripts/maintainer/generate-seed.ts generates', () => {
    assert.equal(readFileSync(seedPath, 'utf8'), serialiseSeed(generateSeed()));
  });

  it('stores password hashes, never the passwords of the profile', () => {
    const text = readFileSync(seedPath, 'utf8');
    for (const key of ['TARGET_PASSWORD', 'TARGET_NON_DEVELOPER_PASSWORD', 'TARGET_USAGE_LIMIT_PASSWORD']) assert.ok(!text.includes(value(key)), key);
    assert.ok(loadSeed().users.every((user) => user.passwordHash.startsWith('scrypt$')));
  });

  it('holds the data the suite needs in both environments', () => {
    const seed = loadSeed();
    for (const name of environments) {
      const env = seed.environments[name];
      const members = (groupId: string) => env.participants.filter((p) => p.groupIds.includes(groupId));
      assert.ok(env.groups.length > 25, `${name}: groups`);
      assert.ok(
        env.groups.some((g) => members(g.id).filter((p) => !p.archived).length > 25),
        `${name}: large group`,
      );
      assert.ok(
        env.participants.some((p) => p.archived),
        `${name}: archived participants`,
      );
      assert.ok(new Set(env.recordings.map((r) => r.roomId)).size > 2 && new Set(env.recordings.map((r) => r.meetingId)).size > 3, `${name}: recordings`);
      assert.ok(
        env.recordings.some((r) => r.endedAt === null) && env.recordings.some((r) => typeof r.endedAt === 'object' && r.endedAt !== null),
        `${name}: live recordings`,
      );
      assert.ok(
        env.recordings.every((r) => r.endedAt !== null || env.meetings.some((m) => m.id === r.meetingId && m.status === 'running')),
        `${name}: only running meetings record`,
      );
      const years = new Set(env.meetingStats.map((s) => s.startedAt.slice(0, 4)));
      const months = new Set(env.meetingStats.map((s) => s.startedAt.slice(5, 7)));
      assert.ok(years.size >= 3 && months.size >= 6 && new Set(env.meetingStats.map((s) => s.groupId)).size > 3, `${name}: statistics spread`);
      assert.ok(env.transcriptions.length > 5, `${name}: transcriptions`);
      assert.ok(env.channels.some((c) => c.events.length > 250) && env.channels.some((c) => c.events.length < 250), `${name}: channels`);
      const running = env.meetings.filter((m) => m.status === 'running');
      assert.ok(running.length >= 2 && env.meetings.some((m) => m.status === 'ended'), `${name}: meetings`);
      assert.ok(
        running.every((m) => env.connections.some((c) => c.meetingId === m.id)),
        `${name}: running meetings have connections`,
      );
    }
  });
});

describe('fixtures/targets/reference.env', () => {
  it('logs in with every account it names', async () => {
    const app = await buildApp();
    const accounts: [string, string][] = [
      ['TARGET_EMAIL', 'TARGET_PASSWORD'],
      ['TARGET_NON_DEVELOPER_EMAIL', 'TARGET_NON_DEVELOPER_PASSWORD'],
      ['TARGET_USAGE_LIMIT_EMAIL', 'TARGET_USAGE_LIMIT_PASSWORD'],
    ];
    for (const [email, password] of accounts) {
      const response = await app.inject({ method: 'POST', url: '/login', payload: { email: value(email), password: value(password) } });
      assert.equal(response.statusCode, 200, email);
    }
    await app.close();
  });

  it('names keys and clients of the seed, for the environments it states', () => {
    const seed = loadSeed();
    const keyEnvironment = (key: string) => seed.apiKeys.find((k) => k.key === key)?.environment;
    assert.equal(keyEnvironment(value('TARGET_API_KEY')), value('TARGET_ENVIRONMENT'));
    assert.ok(![undefined, value('TARGET_ENVIRONMENT')].includes(keyEnvironment(value('TARGET_OTHER_API_KEY'))));
    // The key of another account: it names an account of its own, which has a user and data of its own.
    const foreign = seed.apiKeys.find((k) => k.key === value('TARGET_FOREIGN_API_KEY'));
    assert.ok(foreign?.account !== undefined, 'TARGET_FOREIGN_API_KEY is a key of another account');
    assert.ok(seed.users.some((user) => user.account === foreign?.account) && seed.accounts?.some((account) => account.id === foreign?.account));
    const client = seed.clients.find((c) => c.clientId === value('TARGET_CLIENT_ID'));
    assert.equal(client?.secret, value('TARGET_SECRET'));
    assert.equal(client?.apiKey, value('TARGET_API_KEY'));
    assert.equal(Number(value('TARGET_USAGE_LIMIT_REQUESTS')), numericOptionRules.usageLimit.default + 1);
  });

  it('carries an expired token that the seed secret really signed', async () => {
    const token = value('TARGET_EXPIRED_TOKEN');
    const key = new TextEncoder().encode(loadSeed().jwtSecret);
    await assert.rejects(jwtVerify(token, key), { code: 'ERR_JWT_EXPIRED' });
    const { exp = 0 } = decodeJwt(token);
    await jwtVerify(token, key, { currentDate: new Date(exp * 1000 - 1000) });
  });

  it('names ids that exist in the environment of its API key', () => {
    const env = loadSeed().environments[value('TARGET_ENVIRONMENT') as 'development' | 'production'];
    assert.ok(env.groups.some((g) => g.id === value('TARGET_GROUP_ID')));
    assert.ok(env.recordings.filter((r) => r.roomId === value('TARGET_ROOM_ID')).length > 1);
    assert.ok(env.recordings.some((r) => r.meetingId === value('TARGET_MEETING_ID')));
    const running = env.meetings.find((m) => m.id === value('TARGET_RUNNING_MEETING_ID'));
    assert.equal(running?.status, 'running');
    assert.equal(running?.roomId, value('TARGET_RUNNING_MEETING_ROOM_ID'));
    const channel = env.channels.find((c) => c.name === value('TARGET_RUNNING_MEETING_CHANNEL'));
    assert.equal(channel?.roomId, value('TARGET_RUNNING_MEETING_ROOM_ID'));
    assert.ok(env.connections.some((c) => c.meetingId === running?.id && c.channelName === channel?.name));
    assert.equal(env.meetings.find((m) => m.id === value('TARGET_ENDED_MEETING_ID'))?.status, 'ended');
    const busy = env.channels.find((c) => c.name === value('TARGET_CHANNEL'));
    assert.ok((busy?.events.length ?? 0) > 250);
    assert.ok(env.connections.some((c) => c.channelName === busy?.name && c.meetingId === null));
    assert.deepEqual(
      env.recordings.filter((r) => r.meetingId === value('TARGET_PROCESSING_MEETING_ID')).map((r) => r.endedAt),
      [{ offsetMs: 0 }],
    );
  });
});
