import { readFileSync } from 'node:fs';
import { deterministicUuid } from './ids.ts';
import type { UsageWindow } from './rules.ts';
import { environments, type Environment, type SeedEnvironment, type SeedEvent, type SeedFile, type SeedTime } from './seed-types.ts';

/** In-memory state of one reference instance. Timestamps are epoch milliseconds. */

export interface User {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  developer: boolean;
  /** The account the user belongs to; absent: the main account (MAIN_ACCOUNT). */
  account?: string;
}

export interface Client {
  secret: string;
  apiKey: string;
  environment: Environment;
}

export interface Group {
  id: string;
  name: string;
  createdAt: number;
}

export interface Participant {
  id: string;
  name: string;
  email: string;
  avatar: string;
  createdAt: number;
  archived: boolean;
  groupIds: string[];
}

export interface Recording {
  uuid: string;
  roomId: string;
  meetingId: string;
  /** also the record's createdAt; null while still recording (not listed yet) */
  endedAt: number | null;
}

export interface MeetingStatsParticipant {
  uuid: string;
  id: number;
  userId: string;
  permission: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
}

export interface MeetingStatsRecord {
  uuid: string;
  id: number;
  meetingId: string;
  groupId: string;
  groupName: string;
  userId: string;
  meetingMinutes: number;
  recordingMinutes: number;
  price: number;
  startedAt: number;
  endedAt: number;
  createdAt: number;
  participants: MeetingStatsParticipant[];
}

export interface TranscriptionRecord {
  uuid: string;
  environment: Environment;
  /** The account of the record; absent: the main account (the seed gives other accounts none). */
  account?: string;
  meetingId: string;
  minutes: number;
  startedAt: number;
  finishedAt: number;
  groupId: string;
  groupName: string;
  createdAt: number;
  updatedAt: number;
}

export interface Meeting {
  id: string;
  roomId: string;
  status: 'running' | 'ended';
  startedAt: number;
  endedAt: number | null;
}

export type RealtimeEvent = SeedEvent;

export interface Channel {
  id: string;
  name: string;
  roomId: string;
  participantId: string;
  startTime: number;
  endTime: number | null;
  events: RealtimeEvent[];
}

export interface Connection {
  participantId: string;
  name: string;
  connectionId: string | null;
  connectedAt: number;
  channelName: string;
  meetingId: string | null;
}

export interface EnvironmentData {
  groups: Group[];
  groupsById: Map<string, Group>;
  /** insertion order is the order of group participant lists */
  participants: Map<string, Participant>;
  recordings: Recording[];
  meetingStats: MeetingStatsRecord[];
  meetings: Map<string, Meeting>;
  channels: Map<string, Channel>;
  connections: Connection[];
}

export interface Store {
  jwtSecret: string;
  users: User[];
  apiKeys: Map<string, Environment>;
  /** The account each API key belongs to (MAIN_ACCOUNT for the seed's main keys). */
  apiKeyAccounts: Map<string, string>;
  clients: Map<string, Client>;
  /** Transcription records span both environments: their endpoint filters by a query parameter. */
  transcriptions: TranscriptionRecord[];
  environments: Record<Environment, EnvironmentData>;
  /** The data of every account by id: MAIN_ACCOUNT's is `environments`. */
  accounts: Map<string, Record<Environment, EnvironmentData>>;
  /** transcription statistics requests per user id in the current window */
  usage: Map<string, UsageWindow>;
}

/** The account of the seed's `environments`, of its users and keys that name no other. */
export const MAIN_ACCOUNT = 'main';

export interface StoreOptions {
  /** Start of the instance; seed times given as offsets are relative to it. */
  startedAt: number;
  /** Multiplies groups, participants, recordings, statistics and events, for data-scale benchmarks. */
  scale: number;
}

const seedUrl = new URL('./seed/seed.json', import.meta.url);
let seedText: string | undefined;

/** A fresh, independent copy of the committed seed on every call. */
export function loadSeed(): SeedFile {
  seedText ??= readFileSync(seedUrl, 'utf8');
  return JSON.parse(seedText) as SeedFile;
}

function resolveTime(time: SeedTime, startedAt: number): number {
  return typeof time === 'string' ? Date.parse(time) : startedAt + time.offsetMs;
}

const copyId = (id: string, copy: number): string => `${id}~${copy}`;

function scaleEvents(events: SeedEvent[], copies: number[]): SeedEvent[] {
  const first = events[0];
  const last = events.at(-1);
  if (first === undefined || last === undefined) return events;
  const span = last.timestamp - first.timestamp + 1000;
  const older = [...copies].reverse().flatMap((copy) => events.map((event) => ({ ...event, timestamp: event.timestamp - copy * span })));
  return [...older, ...events];
}

/** Deterministic copies with derived ids; meetings, channels and connections are not multiplied. */
function scaleEnvironment(env: SeedEnvironment, scale: number): SeedEnvironment {
  if (scale === 1) return env;
  const copies = Array.from({ length: scale - 1 }, (_, i) => i + 1);
  const statsIdStride = Math.max(0, ...env.meetingStats.map((s) => s.id)) + 1;
  const entryIdStride = Math.max(0, ...env.meetingStats.flatMap((s) => s.participants.map((p) => p.id))) + 1;
  const copyAll = <T>(items: T[], copy: (item: T, k: number) => T): T[] => [...items, ...copies.flatMap((k) => items.map((item) => copy(item, k)))];
  return {
    ...env,
    groups: copyAll(env.groups, (g, k) => ({ ...g, id: copyId(g.id, k), name: `${g.name} #${k + 1}` })),
    participants: copyAll(env.participants, (p, k) => ({
      ...p,
      id: copyId(p.id, k),
      groupIds: p.groupIds.map((id) => copyId(id, k)),
    })),
    recordings: copyAll(env.recordings, (r, k) => ({ ...r, uuid: deterministicUuid(copyId(r.uuid, k)) })),
    meetingStats: copyAll(env.meetingStats, (s, k) => ({
      ...s,
      uuid: deterministicUuid(copyId(s.uuid, k)),
      id: s.id + k * statsIdStride,
      groupId: copyId(s.groupId, k),
      participants: s.participants.map((p) => ({ ...p, uuid: deterministicUuid(copyId(p.uuid, k)), id: p.id + k * entryIdStride })),
    })),
    transcriptions: copyAll(env.transcriptions, (t, k) => ({
      ...t,
      uuid: deterministicUuid(copyId(t.uuid, k)),
      groupId: copyId(t.groupId, k),
    })),
    channels: env.channels.map((c) => ({ ...c, events: scaleEvents(c.events, copies) })),
  };
}

function buildEnvironment(seed: SeedEnvironment, startedAt: number): EnvironmentData {
  const at = (time: string): number => Date.parse(time);
  const groups = seed.groups.map((g) => ({ id: g.id, name: g.name, createdAt: at(g.createdAt) }));
  return {
    groups,
    groupsById: new Map(groups.map((g) => [g.id, g])),
    participants: new Map(seed.participants.map((p) => [p.id, { ...p, createdAt: at(p.createdAt) }])),
    recordings: seed.recordings.map((r) => ({ ...r, endedAt: r.endedAt === null ? null : resolveTime(r.endedAt, startedAt) })),
    meetingStats: seed.meetingStats.map((s) => ({
      ...s,
      startedAt: at(s.startedAt),
      endedAt: at(s.endedAt),
      createdAt: at(s.createdAt),
      participants: s.participants.map((p) => ({
        ...p,
        createdAt: at(p.createdAt),
        updatedAt: at(p.updatedAt),
        deletedAt: p.deletedAt === null ? null : at(p.deletedAt),
      })),
    })),
    meetings: new Map(
      seed.meetings.map((m) => [
        m.id,
        { ...m, startedAt: resolveTime(m.startedAt, startedAt), endedAt: m.endedAt === null ? null : resolveTime(m.endedAt, startedAt) },
      ]),
    ),
    channels: new Map(seed.channels.map((c) => [c.name, c])),
    connections: seed.connections.map(({ connectedAt, ...c }) => ({ ...c, connectedAt: resolveTime(connectedAt, startedAt) })),
  };
}

export function createStore(seed: SeedFile, options: StoreOptions): Store {
  const apiKeys = new Map(seed.apiKeys.map((k) => [k.key, k.environment]));
  const apiKeyAccounts = new Map(seed.apiKeys.map((k) => [k.key, k.account ?? MAIN_ACCOUNT]));
  const dataOf = (data: Record<Environment, SeedEnvironment>): Record<Environment, EnvironmentData> =>
    Object.fromEntries(environments.map((name) => [name, buildEnvironment(data[name], options.startedAt)])) as Record<Environment, EnvironmentData>;
  const clients = new Map<string, Client>();
  for (const client of seed.clients) {
    const environment = apiKeys.get(client.apiKey);
    if (environment === undefined) throw new Error(`seed client ${client.clientId} names an unknown API key`);
    clients.set(client.clientId, { secret: client.secret, apiKey: client.apiKey, environment });
  }
  const scaled = Object.fromEntries(environments.map((name) => [name, scaleEnvironment(seed.environments[name], options.scale)])) as Record<
    Environment,
    SeedEnvironment
  >;
  const store: Store = {
    jwtSecret: seed.jwtSecret,
    users: seed.users,
    apiKeys,
    apiKeyAccounts,
    clients,
    transcriptions: environments.flatMap((environment) =>
      scaled[environment].transcriptions.map((t) => ({
        ...t,
        environment,
        startedAt: Date.parse(t.startedAt),
        finishedAt: Date.parse(t.finishedAt),
        createdAt: Date.parse(t.createdAt),
        updatedAt: Date.parse(t.updatedAt),
      })),
    ),
    environments: Object.fromEntries(environments.map((name) => [name, buildEnvironment(scaled[name], options.startedAt)])) as Record<
      Environment,
      EnvironmentData
    >,
    accounts: new Map(),
    usage: new Map(),
  };
  store.accounts.set(MAIN_ACCOUNT, store.environments);
  for (const account of seed.accounts ?? []) store.accounts.set(account.id, dataOf(account.environments));
  return store;
}
