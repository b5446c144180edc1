/**
 * Shape of reference/seed/seed.json. Timestamps are ISO 8601 strings, except a `SeedTime` that may be
 * given relative to the moment the reference starts, so that "live" data (a recording that has just
 * ended, participants that have just connected) is live whenever the server starts.
 */
export type Environment = 'development' | 'production';

export const environments: readonly Environment[] = ['development', 'production'];

export type SeedTime = string | { offsetMs: number };

export interface SeedUser {
  id: string;
  name: string;
  email: string;
  /** `scrypt$N$r$p$<salt base64>$<hash base64>` */
  passwordHash: string;
  developer: boolean;
  /** The account the user belongs to (SeedAccount.id); absent: the seed's main account. */
  account?: string;
}

export interface SeedApiKey {
  key: string;
  environment: Environment;
  /** The account the key belongs to (SeedAccount.id); absent: the seed's main account. */
  account?: string;
}

/** An account other than the main one, with data of its own; its users and keys name it. */
export interface SeedAccount {
  id: string;
  environments: Record<Environment, SeedEnvironment>;
  /** Accounts other than the main one (whose data is `environments`). */
  accounts?: SeedAccount[];
}

export interface SeedClient {
  clientId: string;
  secret: string;
  /** The API key the client acts for; it selects the environment and is echoed as channel.apiKey. */
  apiKey: string;
}

export interface SeedGroup {
  id: string;
  name: string;
  createdAt: string;
}

export interface SeedParticipant {
  id: string;
  name: string;
  email: string;
  avatar: string;
  createdAt: string;
  archived: boolean;
  groupIds: string[];
}

/** A recording's record is created when the recording ends; until then it is not listed. */
export interface SeedRecording {
  uuid: string;
  roomId: string;
  meetingId: string;
  /** null while the running meeting is still being recorded; closing the meeting ends it */
  endedAt: SeedTime | null;
}

export interface SeedMeetingStatsParticipant {
  uuid: string;
  id: number;
  userId: string;
  permission: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface SeedMeetingStats {
  uuid: string;
  id: number;
  meetingId: string;
  groupId: string;
  groupName: string;
  userId: string;
  meetingMinutes: number;
  recordingMinutes: number;
  price: number;
  startedAt: string;
  endedAt: string;
  createdAt: string;
  participants: SeedMeetingStatsParticipant[];
}

export interface SeedTranscription {
  uuid: string;
  meetingId: string;
  minutes: number;
  startedAt: string;
  finishedAt: string;
  groupId: string;
  groupName: string;
  createdAt: string;
  updatedAt: string;
}

export interface SeedMeeting {
  id: string;
  roomId: string;
  status: 'running' | 'ended';
  startedAt: SeedTime;
  endedAt: SeedTime | null;
}

export interface SeedEvent {
  name: string;
  timestamp: number;
  participantId: string;
  connectionId: string | null;
  data: { name: string; payload: Record<string, unknown> };
}

export interface SeedChannel {
  id: string;
  name: string;
  roomId: string;
  participantId: string;
  startTime: number;
  endTime: number | null;
  /** oldest first */
  events: SeedEvent[];
}

export interface SeedConnection {
  participantId: string;
  name: string;
  connectionId: string | null;
  connectedAt: SeedTime;
  channelName: string;
  /** the meeting whose close disconnects this participant; null when not in a meeting */
  meetingId: string | null;
}

export interface SeedEnvironment {
  groups: SeedGroup[];
  participants: SeedParticipant[];
  recordings: SeedRecording[];
  meetingStats: SeedMeetingStats[];
  transcriptions: SeedTranscription[];
  meetings: SeedMeeting[];
  channels: SeedChannel[];
  connections: SeedConnection[];
}

export interface SeedFile {
  version: 1;
  /** HS256 secret of the bearer tokens; fixed so that a target profile can carry an expired token. */
  jwtSecret: string;
  users: SeedUser[];
  apiKeys: SeedApiKey[];
  clients: SeedClient[];
  environments: Record<Environment, SeedEnvironment>;
  /** Accounts other than the main one (whose data is `environments`). */
  accounts?: SeedAccount[];
}
