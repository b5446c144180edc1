import type { FastifyInstance } from 'fastify';
import type { Behaviour } from './behaviour.ts';
import type { SeedFile } from './seed-types.ts';
import { resolveVariants, type VariantConfig } from './variants.ts';

/** Code run on the root instance, so that its hooks and routes apply to the whole app. */
export type ReferenceExtension = (app: FastifyInstance) => void | Promise<void>;

/**
 * Where the two interfaces are served. The interface names only {base_url} and {realtime_url}, so
 * a deployment may put either under a path prefix, and the realtime interface on its own origin.
 */
export interface ReferenceLayout {
  /** Path prefix of the main interface: '' (the root) or '/segment[/segment...]'. */
  basePath: string;
  /** Path prefix of the versioned realtime interface on its origin. */
  realtimeBasePath: string;
  /** 'same': one listener serves both interfaces; 'separate': the realtime interface has its own (buildServers). */
  realtimeOrigin: 'same' | 'separate';
}

export const defaultLayout: Readonly<ReferenceLayout> = Object.freeze({ basePath: '', realtimeBasePath: '/v2', realtimeOrigin: 'same' });

export interface ReferenceOptions {
  /** Documented variants to switch on (see reference/variants.ts). */
  variants?: readonly string[];
  /** Path prefixes and origins of the two interfaces (default: main at /, realtime at /v2, one listener). */
  layout?: Partial<ReferenceLayout>;
  /** Delay from the end of a recording until it is available; the interface says about 5 minutes. */
  recordingDelayMs?: number;
  /** Transcription statistics requests allowed per account and window before 403. */
  usageLimit?: number;
  usageWindowMs?: number;
  /** Lifetime of issued bearer tokens. */
  tokenTtlS?: number;
  /** Multiplies the seed's groups, participants, recordings, statistics and events. */
  seedScale?: number;
  /** Largest accepted request body; larger bodies get 413. */
  bodyLimit?: number;
  /** Security key pairs generated in the background from start-up, ready for the first requests. */
  keyPairsAtStart?: number;
  /** Seed to load instead of reference/seed/seed.json; it is deep-copied, never mutated. */
  seed?: SeedFile;
  /** Clock of the instance, in epoch milliseconds. */
  now?: () => number;
  logger?: boolean;
  /** Replacements for named pieces of behaviour (used from outside, e.g. by a fault catalogue). */
  behaviour?: Partial<Behaviour>;
  /** Run on the root instance before the API plugins are registered (hooks that see every route). */
  beforeRoutes?: readonly ReferenceExtension[];
  /** Run on the root instance after the API plugins are registered. */
  afterRoutes?: readonly ReferenceExtension[];
}

export interface ReferenceConfig {
  recordingDelayMs: number;
  usageLimit: number;
  usageWindowMs: number;
  tokenTtlS: number;
  seedScale: number;
  bodyLimit: number;
  keyPairsAtStart: number;
  variantNames: readonly string[];
  variants: VariantConfig;
  layout: ReferenceLayout;
}

export type NumericOption = 'recordingDelayMs' | 'usageLimit' | 'usageWindowMs' | 'tokenTtlS' | 'seedScale' | 'bodyLimit' | 'keyPairsAtStart';

export const numericOptionRules: Readonly<Record<NumericOption, { min: number; max: number; default: number }>> = {
  recordingDelayMs: { min: 0, max: 2 ** 31 - 1, default: 300_000 },
  usageLimit: { min: 1, max: 1_000_000_000, default: 100 },
  usageWindowMs: { min: 1, max: 2 ** 31 - 1, default: 60_000 },
  tokenTtlS: { min: 1, max: 10 * 365 * 24 * 3600, default: 3600 },
  seedScale: { min: 1, max: 200, default: 1 },
  bodyLimit: { min: 1024, max: 64 * 1024 * 1024, default: 1024 * 1024 },
  keyPairsAtStart: { min: 0, max: 64, default: 0 },
};

export class ReferenceOptionError extends Error {
  readonly option: string;

  constructor(option: string, message: string) {
    super(`${option}: ${message}`);
    this.name = 'ReferenceOptionError';
    this.option = option;
  }
}

export function checkNumericOption(option: NumericOption, value: number): number {
  const { min, max } = numericOptionRules[option];
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ReferenceOptionError(option, `expected an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

const pathPrefix = /^(\/[A-Za-z0-9._~-]+)*$/;

function resolveLayout(given: Partial<ReferenceLayout> = {}): ReferenceLayout {
  const layout = { ...defaultLayout, ...given };
  for (const key of ['basePath', 'realtimeBasePath'] as const) {
    if (!pathPrefix.test(layout[key]))
      throw new ReferenceOptionError(`layout.${key}`, `expected '' or /segment[/segment...], got ${JSON.stringify(layout[key])}`);
  }
  if (layout.realtimeOrigin === 'same' && (layout.realtimeBasePath === '' || layout.realtimeBasePath === layout.basePath)) {
    throw new ReferenceOptionError('layout.realtimeBasePath', 'on the main origin the realtime interface needs a prefix of its own');
  }
  return layout;
}

export function resolveConfig(options: ReferenceOptions): ReferenceConfig {
  const numeric = (option: NumericOption): number => checkNumericOption(option, options[option] ?? numericOptionRules[option].default);
  const variantNames = options.variants ?? [];
  let variants: VariantConfig;
  try {
    variants = resolveVariants(variantNames);
  } catch (error) {
    throw new ReferenceOptionError('variants', (error as Error).message);
  }
  return {
    recordingDelayMs: numeric('recordingDelayMs'),
    usageLimit: numeric('usageLimit'),
    usageWindowMs: numeric('usageWindowMs'),
    tokenTtlS: numeric('tokenTtlS'),
    seedScale: numeric('seedScale'),
    bodyLimit: numeric('bodyLimit'),
    keyPairsAtStart: numeric('keyPairsAtStart'),
    variantNames,
    variants,
    layout: resolveLayout(options.layout),
  };
}
