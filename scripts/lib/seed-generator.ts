/**
 * Generates reference/seed/seed.json, the reference's seed. Deterministic: a fixed-seed PRNG, fixed
 * password salts and name-based UUIDs, so that running it again reproduces the committed file
 * (tests/unit/reference-seed.test.ts checks that). Plain-text passwords live only here and in
 * fixtures/targets/reference.env; the seed holds scrypt hashes.
 *
 * scripts/maintainer/generate-seed.ts writes it; the seed's accounts and keys serve the tests and the
 * benchmarks too.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { deterministicUuid } from '../../reference/ids.ts';
import { hashPasswordSync } from '../../reference/passwords.ts';
import { seededRandom } from './seeded-random.ts';
import type {
  Environment,
  SeedChannel,
  SeedConnection,
  SeedEnvironment,
  SeedEvent,
  SeedFile,
  SeedGroup,
  SeedMeeting,
  SeedMeetingStats,
  SeedParticipant,
  SeedRecording,
  SeedTranscription,
} from '../../reference/seed-types.ts';

export const seedPath = fileURLToPath(new URL('../../reference/seed/seed.json', import.meta.url));

/** Accounts of the seed; the same values are in fixtures/targets/reference.env. */
export const seedAccounts = {
  developer: { id: 'usr-0001', name: 'Ada Developer', email: 'developer@reference.test', password: 'Dev-Passw0rd!', developer: true },
  nonDeveloper: { id: 'usr-0002', name: 'Victor Viewer', email: 'viewer@reference.test', password: 'View-Passw0rd!', developer: false },
  usageLimit: { id: 'usr-0003', name: 'Lina Limits', email: 'limits@reference.test', password: 'Limit-Passw0rd!', developer: true },
} as const;

/**
 * A developer of another account, with its own API key and its own data (`accounts` of the seed):
 * its key is the profile's TARGET_FOREIGN_API_KEY, refused with a bearer token of the main account.
 */
export const foreignAccount = {
  account: 'acc-foreign',
  user: { id: 'usr-0101', name: 'Otto Outsider', email: 'outsider@foreign.reference.test', password: 'Out-Passw0rd!', developer: true },
} as const;

const token = (label: string, length = 32): string => createHash('sha256').update(`reference-seed:${label}`).digest('hex').slice(0, length);

export const seedKeys = {
  jwtSecret: `reference-hs256-${token('jwt', 48)}`,
  apiKeys: { development: `rk_dev_${token('apikey-dev')}`, production: `rk_prod_${token('apikey-prod')}` },
  foreignApiKey: `rk_dev_${token('apikey-foreign-dev')}`,
  clients: {
    development: { clientId: `rc_dev_${token('client-dev', 24)}`, secret: `rs_dev_${token('secret-dev')}` },
    production: { clientId: `rc_prod_${token('client-prod', 24)}`, secret: `rs_prod_${token('secret-prod')}` },
  },
} as const;

const prng = seededRandom;

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const iso = (ms: number): string => new Date(ms).toISOString();
const pad = (n: number, width = 3): string => String(n).padStart(width, '0');

const topics = ['Design Review', 'Sales Sync', 'Support Desk', 'Onboarding', 'Engineering', 'Marketing', 'Town Hall', 'Customer Success'];
const firstNames = [
  'Alice',
  'Bruno',
  'Carla',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Keiko',
  'Luis',
  'Maya',
  'Nikolai',
  'Olga',
  'Pedro',
];
const lastNames = ['Almeida', 'Becker', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Lima'];

interface EnvironmentPlan {
  tag: string;
  random: () => number;
  groupCount: number;
  participantCount: number;
  roomCount: number;
  historicalMeetings: number;
  statsCount: number;
  statsSpacingDays: number;
  transcriptionCount: number;
  liveMeetings: number;
  busyEvents: number;
  quietEvents: number;
  /** The user that owns the meeting statistics (the main account's developer when absent). */
  ownerId?: string;
  /** A UTC day holding a few short meetings hours apart, so that a date range can be read close to its records (statsNearBounds). */
  statsBoundaryDay?: number;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function intBetween(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function makeGroups(plan: EnvironmentPlan): SeedGroup[] {
  const base = Date.UTC(2023, 0, 5, 9);
  return Array.from({ length: plan.groupCount }, (_, i) => ({
    id: `grp-${plan.tag}-${pad(i + 1)}`,
    name: `${topics[i % topics.length] ?? ''} ${Math.floor(i / topics.length) + 1}`,
    createdAt: iso(base + i * 3 * day + intBetween(plan.random, 0, 8) * hour),
  }));
}

/**
 * Group 1 has 40 members (4 archived), group 2 has 12 (2 archived), group 3 none, group 4 only
 * archived members; the rest of the pool spreads over the other groups.
 */
function makeParticipants(plan: EnvironmentPlan, groups: SeedGroup[]): SeedParticipant[] {
  const archived = new Set([5, 17, 26, 38, 42, 47, 52, 53, 54, plan.participantCount - 1]);
  const base = Date.UTC(2023, 2, 1, 8);
  const groupId = (n: number): string => groups[n - 1]?.id ?? '';
  return Array.from({ length: plan.participantCount }, (_, i) => {
    const first = firstNames[i % firstNames.length] ?? '';
    const last = lastNames[Math.floor(i / firstNames.length) % lastNames.length] ?? '';
    const id = `prt-${plan.tag}-${pad(i + 1, 4)}`;
    let groupIds: string[];
    if (i < 40) groupIds = i % 7 === 0 ? [groupId(1), groupId(5)] : [groupId(1)];
    else if (i < 52) groupIds = [groupId(2)];
    else if (i < 55) groupIds = [groupId(4)];
    else groupIds = [groupId(intBetween(plan.random, 5, plan.groupCount))];
    return {
      id,
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}.${last.toLowerCase()}.${i + 1}@${plan.tag}.example.test`,
      avatar: `https://avatars.reference.invalid/${id}.png`,
      createdAt: iso(base + i * 2 * day + intBetween(plan.random, 0, 20) * hour),
      archived: archived.has(i),
      groupIds,
    };
  });
}

const roomId = (plan: EnvironmentPlan, n: number): string => `room-${plan.tag}-${pad(n, 2)}`;

interface MeetingsAndRecordings {
  meetings: SeedMeeting[];
  recordings: SeedRecording[];
}

/**
 * Historical meetings are ended with available recordings; one meeting ended when the server
 * started (its recording is processing for the ready delay); running meetings are still being
 * recorded (not listed until closed), except the last one, which nobody switched recording on for.
 */
function makeMeetingsAndRecordings(plan: EnvironmentPlan): MeetingsAndRecordings {
  const meetings: SeedMeeting[] = [];
  const recordings: SeedRecording[] = [];
  const recording = (meetingId: string, room: string, endedAt: SeedRecording['endedAt']): void => {
    recordings.push({ uuid: deterministicUuid(`recording:${plan.tag}:${recordings.length}`), roomId: room, meetingId, endedAt });
  };
  const base = Date.UTC(2024, 1, 12, 14);
  for (let i = 1; i <= plan.historicalMeetings; i += 1) {
    const id = `mtg-${plan.tag}-h${pad(i, 2)}`;
    const room = roomId(plan, ((i - 1) % plan.roomCount) + 1);
    const startedAt = base + i * 23 * day + intBetween(plan.random, 0, 6) * hour;
    const endedAt = startedAt + intBetween(plan.random, 30, 120) * minute;
    meetings.push({ id, roomId: room, status: 'ended', startedAt: iso(startedAt), endedAt: iso(endedAt) });
    const parts = 1 + (i % 3);
    for (let p = 0; p < parts; p += 1) {
      recording(id, room, iso(startedAt + p * 10 * minute + intBetween(plan.random, 3, 9) * minute));
    }
  }
  const processing = `mtg-${plan.tag}-processing`;
  const processingRoom = roomId(plan, plan.roomCount);
  meetings.push({ id: processing, roomId: processingRoom, status: 'ended', startedAt: { offsetMs: -45 * minute }, endedAt: { offsetMs: 0 } });
  recording(processing, processingRoom, { offsetMs: 0 });
  for (let i = 1; i <= plan.liveMeetings; i += 1) {
    const id = `mtg-${plan.tag}-live-${i}`;
    const room = roomId(plan, i);
    meetings.push({ id, roomId: room, status: 'running', startedAt: { offsetMs: -(20 + i * 5) * minute }, endedAt: null });
    if (i < plan.liveMeetings) recording(id, room, null);
  }
  return { meetings, recordings };
}

function makeMeetingStats(plan: EnvironmentPlan, groups: SeedGroup[], participants: SeedParticipant[]): SeedMeetingStats[] {
  const base = Date.UTC(2023, 0, 3, 10);
  let entryId = 1;
  return Array.from({ length: plan.statsCount }, (_, i) => {
    const group = groups[intBetween(plan.random, 0, 9)] as SeedGroup;
    const startedAt = base + i * plan.statsSpacingDays * day + intBetween(plan.random, 0, 9) * hour;
    // Some durations carry half minutes: the fields are numbers, not integers.
    const meetingMinutes = intBetween(plan.random, 5, 180) + (i % 5 === 2 ? 0.5 : 0);
    const drawn = i % 4 === 0 ? 0 : intBetween(plan.random, 1, Math.floor(meetingMinutes));
    // Minutes recorded belong to the meeting's recordings: the historical meetings have some, the others none.
    const recordingMinutes = i >= plan.historicalMeetings ? 0 : drawn > 0 ? drawn : Math.max(1, Math.floor(meetingMinutes / 3));
    const endedAt = startedAt + meetingMinutes * minute;
    const entries = Array.from({ length: intBetween(plan.random, 1, 5) }, (_, k) => {
      const person = pick(plan.random, participants);
      const id = entryId;
      entryId += 1;
      return {
        uuid: deterministicUuid(`stats-participant:${plan.tag}:${id}`),
        id,
        userId: person.id,
        permission: 'member',
        name: person.name,
        createdAt: iso(startedAt + k * minute),
        updatedAt: iso(endedAt),
        deletedAt: id % 9 === 0 ? iso(endedAt + day) : null,
      };
    });
    return {
      uuid: deterministicUuid(`stats:${plan.tag}:${i + 1}`),
      id: i + 1,
      meetingId: i < plan.historicalMeetings ? `mtg-${plan.tag}-h${pad(i + 1, 2)}` : `mtg-${plan.tag}-s${pad(i + 1)}`,
      groupId: group.id,
      groupName: group.name,
      userId: plan.ownerId ?? seedAccounts.developer.id,
      meetingMinutes,
      recordingMinutes,
      price: Math.round(meetingMinutes * 4.5) / 100,
      startedAt: iso(startedAt),
      endedAt: iso(endedAt),
      createdAt: iso(endedAt + minute),
      participants: entries,
    };
  });
}

/**
 * Four short meetings on one day, hours apart, after the spaced records: a date range from a minute
 * before the second to a minute after the third has a record just outside on both sides, the same
 * day, so that a range read an hour or a day off, in another zone or as whole days changes the
 * records it returns (tests/support/date-bounds.ts). Nothing was recorded in them (no recordings).
 */
function makeStatsNearBounds(plan: EnvironmentPlan, stats: SeedMeetingStats[], groups: SeedGroup[], participants: SeedParticipant[]): SeedMeetingStats[] {
  const day = plan.statsBoundaryDay;
  if (day === undefined) return [];
  let entryId = Math.max(0, ...stats.flatMap((record) => record.participants.map((entry) => entry.id))) + 1;
  const meetings = [
    { start: 8 * hour, minutes: 35 },
    { start: 10 * hour, minutes: 25 },
    { start: 12 * hour + 30 * minute, minutes: 40 },
    { start: 15 * hour, minutes: 40 },
  ];
  return meetings.map(({ start, minutes }, k) => {
    const number = stats.length + k + 1;
    const group = groups[k % groups.length] as SeedGroup;
    const person = participants[k % participants.length] as SeedParticipant;
    const startedAt = day + start;
    const endedAt = startedAt + minutes * minute;
    const id = entryId;
    entryId += 1;
    return {
      uuid: deterministicUuid(`stats:${plan.tag}:${number}`),
      id: number,
      meetingId: `mtg-${plan.tag}-s${pad(number)}`,
      groupId: group.id,
      groupName: group.name,
      userId: seedAccounts.developer.id,
      meetingMinutes: minutes,
      recordingMinutes: 0,
      price: Math.round(minutes * 4.5) / 100,
      startedAt: iso(startedAt),
      endedAt: iso(endedAt),
      createdAt: iso(endedAt + minute),
      participants: [
        {
          uuid: deterministicUuid(`stats-participant:${plan.tag}:${id}`),
          id,
          userId: person.id,
          permission: 'member',
          name: person.name,
          createdAt: iso(startedAt),
          updatedAt: iso(endedAt),
          deletedAt: null,
        },
      ],
    };
  });
}

function makeTranscriptions(plan: EnvironmentPlan, stats: SeedMeetingStats[]): SeedTranscription[] {
  return stats
    .filter((_, i) => i % 3 === 1)
    .slice(0, plan.transcriptionCount)
    .map((record, i) => {
      const startedAt = Date.parse(record.startedAt) + intBetween(plan.random, 1, 5) * minute;
      const minutes = intBetween(plan.random, 1, Math.max(1, Math.floor(record.meetingMinutes) - 5)) + (i % 2 === 1 ? 0.5 : 0);
      const finishedAt = startedAt + minutes * minute;
      return {
        uuid: deterministicUuid(`transcription:${plan.tag}:${i + 1}`),
        meetingId: record.meetingId,
        minutes,
        startedAt: iso(startedAt),
        finishedAt: iso(finishedAt),
        groupId: record.groupId,
        groupName: record.groupName,
        createdAt: iso(finishedAt),
        updatedAt: iso(finishedAt + 2 * minute),
      };
    });
}

function makeEvents(plan: EnvironmentPlan, name: string, startTime: number, count: number, people: SeedParticipant[]): SeedEvent[] {
  const kinds = ['chat', 'cursor-move', 'reaction', 'slide-change'];
  let timestamp = startTime;
  return Array.from({ length: count }, (_, i) => {
    timestamp += intBetween(plan.random, 200, 90_000);
    const person = pick(plan.random, people);
    // Every tenth event is published by the service itself, without a participant connection.
    const bySystem = i % 10 === 9;
    return {
      name: `message:${name}`,
      timestamp,
      participantId: person.id,
      connectionId: bySystem ? null : `conn-${token(`${plan.tag}:${name}:${person.id}`, 12)}`,
      data: { name: pick(plan.random, kinds), payload: { sequence: i + 1, text: `${name} event ${i + 1}` } },
    };
  });
}

interface ChannelPlan {
  name: string;
  room: number;
  events: number;
  closed: boolean;
  connections: number;
  meetingId: string | null;
}

function makeChannels(plan: EnvironmentPlan, participants: SeedParticipant[]): { channels: SeedChannel[]; connections: SeedConnection[] } {
  const active = participants.filter((p) => !p.archived);
  const plans: ChannelPlan[] = [
    { name: `${plan.tag}-busy`, room: 1, events: plan.busyEvents, closed: false, connections: 4, meetingId: null },
    { name: `${plan.tag}-quiet`, room: 2, events: plan.quietEvents, closed: false, connections: 1, meetingId: null },
    ...Array.from({ length: plan.liveMeetings }, (_, i) => ({
      name: `${plan.tag}-live-${i + 1}`,
      room: i + 1,
      events: 20 + i,
      closed: false,
      connections: 2 + i,
      meetingId: `mtg-${plan.tag}-live-${i + 1}`,
    })),
    {
      name: 'lobby',
      room: plan.roomCount,
      events: plan.tag === 'dev' ? 5 : 7,
      closed: plan.tag === 'dev',
      connections: plan.tag === 'dev' ? 0 : 2,
      meetingId: null,
    },
  ];
  const channels: SeedChannel[] = [];
  const connections: SeedConnection[] = [];
  let person = 0;
  for (const [index, channelPlan] of plans.entries()) {
    const startTime = Date.UTC(2025, 5, 1 + index, 9);
    const people = active.slice(person, person + Math.max(3, channelPlan.connections));
    const events = makeEvents(plan, channelPlan.name, startTime, channelPlan.events, people);
    const lastEvent = events.at(-1)?.timestamp ?? startTime;
    channels.push({
      id: deterministicUuid(`channel:${plan.tag}:${channelPlan.name}`),
      name: channelPlan.name,
      roomId: roomId(plan, channelPlan.room),
      participantId: people[0]?.id ?? '',
      startTime,
      endTime: channelPlan.closed ? lastEvent + minute : null,
      events,
    });
    for (const [k, member] of people.slice(0, channelPlan.connections).entries()) {
      connections.push({
        participantId: member.id,
        name: member.name,
        // One connection on the quiet channel has no current connection id (the field is nullable).
        connectionId: channelPlan.name.endsWith('-quiet') ? null : `conn-${token(`${plan.tag}:${channelPlan.name}:${member.id}`, 12)}`,
        connectedAt: { offsetMs: -(30 - k) * minute },
        channelName: channelPlan.name,
        meetingId: channelPlan.meetingId,
      });
    }
    person += people.length;
  }
  return { channels, connections };
}

function makeEnvironment(plan: EnvironmentPlan): SeedEnvironment {
  const groups = makeGroups(plan);
  const participants = makeParticipants(plan, groups);
  const { meetings, recordings } = makeMeetingsAndRecordings(plan);
  const meetingStats = makeMeetingStats(plan, groups, participants);
  const transcriptions = makeTranscriptions(plan, meetingStats);
  meetingStats.push(...makeStatsNearBounds(plan, meetingStats, groups, participants));
  const { channels, connections } = makeChannels(plan, participants);
  return { groups, participants, recordings, meetingStats, transcriptions, meetings, channels, connections };
}

const plans: Record<Environment, Omit<EnvironmentPlan, 'random'> & { randomSeed: number }> = {
  development: {
    tag: 'dev',
    randomSeed: 20240611,
    groupCount: 32,
    participantCount: 90,
    roomCount: 5,
    historicalMeetings: 8,
    statsCount: 64,
    statsSpacingDays: 17,
    transcriptionCount: 18,
    liveMeetings: 3,
    busyEvents: 300,
    quietEvents: 12,
  },
  production: {
    tag: 'prod',
    randomSeed: 20240612,
    groupCount: 28,
    participantCount: 70,
    roomCount: 4,
    historicalMeetings: 6,
    statsCount: 48,
    statsSpacingDays: 22,
    transcriptionCount: 12,
    liveMeetings: 2,
    busyEvents: 260,
    quietEvents: 8,
    statsBoundaryDay: Date.UTC(2024, 5, 3),
  },
};

/** The other account's data: small, with ids of their own (grp-ext-dev-001, ...), owned by its developer. */
const foreignPlans: Record<Environment, Omit<EnvironmentPlan, 'random'> & { randomSeed: number }> = {
  development: {
    tag: 'ext-dev',
    randomSeed: 20261207,
    groupCount: 10,
    participantCount: 12,
    roomCount: 2,
    historicalMeetings: 2,
    statsCount: 4,
    statsSpacingDays: 30,
    transcriptionCount: 0,
    liveMeetings: 0,
    busyEvents: 6,
    quietEvents: 2,
    ownerId: foreignAccount.user.id,
  },
  production: {
    tag: 'ext-prod',
    randomSeed: 20261208,
    groupCount: 10,
    participantCount: 12,
    roomCount: 2,
    historicalMeetings: 1,
    statsCount: 2,
    statsSpacingDays: 30,
    transcriptionCount: 0,
    liveMeetings: 0,
    busyEvents: 4,
    quietEvents: 2,
    ownerId: foreignAccount.user.id,
  },
};

export function generateSeed(): SeedFile {
  const user = ({
    id,
    name,
    email,
    password,
    developer,
  }: {
    id: string;
    name: string;
    email: string;
    password: string;
    developer: boolean;
  }): SeedFile['users'][number] => ({
    id,
    name,
    email,
    passwordHash: hashPasswordSync(password, createHash('sha256').update(`salt:${email}`).digest().subarray(0, 16)),
    developer,
  });
  const users = [...Object.values(seedAccounts).map(user), { ...user(foreignAccount.user), account: foreignAccount.account }];
  const foreignEnvironment = (name: Environment): SeedEnvironment => {
    const { randomSeed, ...plan } = foreignPlans[name];
    return makeEnvironment({ ...plan, random: prng(randomSeed) });
  };
  const environment = (name: Environment): SeedEnvironment => {
    const { randomSeed, ...plan } = plans[name];
    return makeEnvironment({ ...plan, random: prng(randomSeed) });
  };
  return {
    version: 1,
    jwtSecret: seedKeys.jwtSecret,
    users,
    apiKeys: [
      { key: seedKeys.apiKeys.development, environment: 'development' },
      { key: seedKeys.apiKeys.production, environment: 'production' },
      { key: seedKeys.foreignApiKey, environment: 'development', account: foreignAccount.account },
    ],
    clients: [
      { ...seedKeys.clients.development, apiKey: seedKeys.apiKeys.development },
      { ...seedKeys.clients.production, apiKey: seedKeys.apiKeys.production },
    ],
    environments: { development: environment('development'), production: environment('production') },
    accounts: [{ id: foreignAccount.account, environments: { development: foreignEnvironment('development'), production: foreignEnvironment('production') } }],
  };
}

export const serialiseSeed = (seed: SeedFile): string => `${JSON.stringify(seed, null, 1)}\n`;
