/**
 * Documented variants: places where the interface describes more than one acceptable form. Each
 * variant switches the reference to another documented form and keeps it fully conforming; the
 * conformance suite must pass on the default and on every variant.
 */

export interface VariantConfig {
  /** Recordings: the sample's bare array, or the pagination envelope the description names. */
  recordingsForm: 'array' | 'envelope';
  /** Channel info: the sample body's `presences`, or the field table's `participants`. */
  channelParticipantsField: 'presences' | 'participants';
  /** Channel info: the sample's `id` field, which the field table does not list. */
  channelIncludesId: boolean;
  /** 401 bodies: statusCode + message as the login and close samples show, or with `error` as well. */
  unauthorizedIncludesError: boolean;
  /** Security key: served on /security only, or also on POST /participants as one place names it. */
  securityKeyOnParticipantsPath: boolean;
  /** Meeting stats with usePagination=true and onlySummary left at its default. */
  paginatedStatsDefault: 'summary' | 'records';
  /** Realtime participant `channel`: the channel name, or the room ID as the field table words it. */
  realtimeParticipantChannel: 'channel-name' | 'room-id';
}

export const defaultVariantConfig: Readonly<VariantConfig> = Object.freeze({
  recordingsForm: 'array',
  channelParticipantsField: 'presences',
  channelIncludesId: true,
  unauthorizedIncludesError: false,
  securityKeyOnParticipantsPath: false,
  paginatedStatsDefault: 'summary',
  realtimeParticipantChannel: 'channel-name',
});

export interface VariantDescription {
  name: string;
  description: string;
  /** the entry of spec/requirements.yaml that allows this form */
  requirement?: string;
}

interface Variant extends VariantDescription {
  settings: Partial<VariantConfig>;
}

/** Not a variant: the API-key header spelling (VAR-04) is accepted in every case by every variant. */
const catalogue: readonly Variant[] = [
  {
    name: 'recordings-envelope',
    requirement: 'VAR-01',
    description: 'GET /recording answers with the pagination envelope (skip/take apply) instead of a bare array.',
    settings: { recordingsForm: 'envelope' },
  },
  {
    name: 'channel-participants',
    requirement: 'VAR-02',
    description: 'GET /v2/realtime/{channel} names the connected list `participants` (field table) instead of `presences` (sample).',
    settings: { channelParticipantsField: 'participants' },
  },
  {
    name: 'channel-without-id',
    requirement: 'VAR-06',
    description: 'The channel object of GET /v2/realtime/{channel} omits `id`, which only the sample carries.',
    settings: { channelIncludesId: false },
  },
  {
    name: 'error-in-401',
    requirement: 'VAR-05',
    description: 'Every 401 body carries error: "Unauthorized" besides statusCode and message.',
    settings: { unauthorizedIncludesError: true },
  },
  {
    name: 'security-path-participants',
    requirement: 'VAR-03',
    description:
      'POST /participants with a body holding passphrase and no participantId/id also creates a security key (bearer only); other bodies stay participant upserts.',
    settings: { securityKeyOnParticipantsPath: true },
  },
  {
    name: 'meetingstats-paginated-records',
    requirement: 'UNS-19',
    description: 'GET /meetingstats?usePagination=true without onlySummary answers with paginated records instead of the summary.',
    settings: { paginatedStatsDefault: 'records' },
  },
  {
    name: 'participant-channel-room-id',
    requirement: 'VAR-07',
    description:
      'Participants of GET /v2/realtime/participants/{channel_name} carry the room ID in `channel` (field table wording) instead of the channel name.',
    settings: { realtimeParticipantChannel: 'room-id' },
  },
];

export class UnknownVariantError extends Error {
  constructor(name: string) {
    super(`unknown variant "${name}"; known variants: ${catalogue.map((v) => v.name).join(', ')}`);
    this.name = 'UnknownVariantError';
  }
}

export function listVariants(): VariantDescription[] {
  return catalogue.map(({ name, description, requirement }) => ({ name, description, ...(requirement === undefined ? {} : { requirement }) }));
}

export function isVariantName(name: string): boolean {
  return catalogue.some((variant) => variant.name === name);
}

export function resolveVariants(names: readonly string[]): VariantConfig {
  return names.reduce<VariantConfig>(
    (config, name) => {
      const variant = catalogue.find((candidate) => candidate.name === name);
      if (variant === undefined) throw new UnknownVariantError(name);
      return { ...config, ...variant.settings };
    },
    { ...defaultVariantConfig },
  );
}
