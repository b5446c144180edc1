/**
 * The per-run canary credentials of the canary check (scripts/checks/check-canary.ts), and the reference
 * seed and target profile that carry them. Apart from canary.ts, whose search the certification bundle
 * uses too, so that a command reaches nothing of the reference through it (.dependency-cruiser.mjs).
 */
import { randomBytes } from 'node:crypto';
import { hashPasswordSync } from '../../reference/passwords.ts';
import type { SeedFile } from '../../reference/seed-types.ts';

/** The credentials of one canary run; every value is random, so any copy of it in a report is a leak. */
export interface CanaryCredentials {
  developerPassword: string;
  nonDeveloperPassword: string;
  usageLimitPassword: string;
  developmentApiKey: string;
  productionApiKey: string;
  developmentClientId: string;
  developmentSecret: string;
  productionClientId: string;
  productionSecret: string;
  jwtSecret: string;
  /** The password and the API key of the seed's other account (TARGET_FOREIGN_API_KEY). */
  foreignPassword: string;
  foreignApiKey: string;
}

export function canaryCredentials(random: (bytes: number) => string = (bytes) => randomBytes(bytes).toString('hex')): CanaryCredentials {
  return {
    developerPassword: `Cn-dev-${random(10)}!`,
    nonDeveloperPassword: `Cn-view-${random(10)}!`,
    usageLimitPassword: `Cn-limit-${random(10)}!`,
    developmentApiKey: `rk_dev_${random(16)}`,
    productionApiKey: `rk_prod_${random(16)}`,
    developmentClientId: `rc_dev_${random(12)}`,
    developmentSecret: `rs_dev_${random(16)}`,
    productionClientId: `rc_prod_${random(12)}`,
    productionSecret: `rs_prod_${random(16)}`,
    jwtSecret: `canary-hs256-${random(24)}`,
    foreignPassword: `Cn-out-${random(10)}!`,
    foreignApiKey: `rk_dev_${random(16)}`,
  };
}

const USER_PASSWORD: Readonly<Record<string, keyof CanaryCredentials>> = {
  'usr-0001': 'developerPassword',
  'usr-0002': 'nonDeveloperPassword',
  'usr-0003': 'usageLimitPassword',
  'usr-0101': 'foreignPassword',
};

/**
 * The seed with the canary credentials: new password hashes (same scrypt format), API keys,
 * client ids and secrets, and JWT secret. Every other copy of an old key (the clients name the
 * key they act for) is replaced too.
 */
export function canarySeed(seed: SeedFile, canary: CanaryCredentials): SeedFile {
  const replacements = new Map<string, string>([[seed.jwtSecret, canary.jwtSecret]]);
  for (const key of seed.apiKeys) {
    const fresh = key.account !== undefined ? canary.foreignApiKey : key.environment === 'production' ? canary.productionApiKey : canary.developmentApiKey;
    replacements.set(key.key, fresh);
  }
  for (const client of seed.clients) {
    const production = seed.apiKeys.find((key) => key.key === client.apiKey)?.environment === 'production';
    replacements.set(client.clientId, production ? canary.productionClientId : canary.developmentClientId);
    replacements.set(client.secret, production ? canary.productionSecret : canary.developmentSecret);
  }
  let text = JSON.stringify(seed);
  for (const [old, fresh] of replacements) text = text.split(old).join(fresh);
  const result = JSON.parse(text) as SeedFile;
  result.users = result.users.map((user) => {
    const field = USER_PASSWORD[user.id];
    if (field === undefined) throw new Error(`the seed has a user ${user.id} that the canary check does not know`);
    return { ...user, passwordHash: hashPasswordSync(canary[field], randomBytes(16)) };
  });
  return result;
}

/** The target profile with the canary credentials, and without addresses so that global setup starts the reference. */
export function canaryProfile(profile: string, canary: CanaryCredentials, expiredToken: string): string {
  const values: Readonly<Record<string, string>> = {
    TARGET_PASSWORD: canary.developerPassword,
    TARGET_API_KEY: canary.developmentApiKey,
    TARGET_OTHER_API_KEY: canary.productionApiKey,
    TARGET_CLIENT_ID: canary.developmentClientId,
    TARGET_SECRET: canary.developmentSecret,
    TARGET_NON_DEVELOPER_PASSWORD: canary.nonDeveloperPassword,
    TARGET_USAGE_LIMIT_PASSWORD: canary.usageLimitPassword,
    TARGET_EXPIRED_TOKEN: expiredToken,
    TARGET_FOREIGN_API_KEY: canary.foreignApiKey,
  };
  const seen = new Set<string>();
  const lines = profile.split('\n').flatMap((line) => {
    const key = /^([A-Z_]+)=/.exec(line)?.[1];
    if (key === 'TARGET_BASE_URL' || key === 'TARGET_REALTIME_URL') return [];
    if (key === undefined || !(key in values)) return [line];
    seen.add(key);
    return [`${key}=${values[key] ?? ''}`];
  });
  const missing = Object.keys(values).filter((key) => !seen.has(key));
  if (missing.length > 0) throw new Error(`the reference profile lacks ${missing.join(', ')}`);
  return lines.join('\n');
}
