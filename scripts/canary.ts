/**
 * Pure logic of the canary check (scripts/check-canary.ts does the I/O): per-run canary credentials,
 * the reference seed and target profile that carry them, the spellings under which a credential can
 * hide in a report, and the search for them.
 */
import { randomBytes } from 'node:crypto';
import { mnemonicSpans } from '../fixtures/redact.ts';
import { hashPasswordSync } from '../reference/passwords.ts';
import type { SeedFile } from '../reference/seed-types.ts';

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
  };
}

const USER_PASSWORD: Readonly<Record<string, keyof CanaryCredentials>> = {
  'usr-0001': 'developerPassword',
  'usr-0002': 'nonDeveloperPassword',
  'usr-0003': 'usageLimitPassword',
};

/**
 * The seed with the canary credentials: new password hashes (same scrypt format), API keys,
 * client ids and secrets, and JWT secret. Every other copy of an old key (the clients name the
 * key they act for) is replaced too.
 */
export function canarySeed(seed: SeedFile, canary: CanaryCredentials): SeedFile {
  const replacements = new Map<string, string>([[seed.jwtSecret, canary.jwtSecret]]);
  for (const key of seed.apiKeys) replacements.set(key.key, key.environment === 'production' ? canary.productionApiKey : canary.developmentApiKey);
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

/** One string to look for, and what it stands for (never the value itself). */
export interface Needle {
  name: string;
  text: string;
}

/**
 * The parts of base64(prefix + value) that depend on the value alone, for each of the three
 * alignments a value can have inside a longer base64 text: a credential inside a base64-encoded
 * attachment or data URL is found whatever precedes it.
 */
export function base64Fragments(value: string): string[] {
  const length = Buffer.byteLength(value);
  const fragments: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(value)]).toString('base64');
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + length) * 8) / 6);
    const fragment = encoded.slice(start, end);
    fragments.push(fragment, fragment.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(fragments)].filter((fragment) => fragment.length >= 8);
}

/** Every spelling to search for: plain, URL-encoded, JSON-escaped and base64 (alone and as user:password pairs). */
export function needles(values: readonly { name: string; value: string }[], pairs: readonly { name: string; user: string; password: string }[]): Needle[] {
  const found = new Map<string, string>();
  const add = (name: string, text: string): void => {
    if (text.length >= 6 && !found.has(text)) found.set(text, name);
  };
  for (const { name, value } of values) {
    add(name, value);
    add(`${name} (URL-encoded)`, encodeURIComponent(value));
    add(`${name} (JSON-escaped)`, JSON.stringify(value).slice(1, -1));
    for (const fragment of base64Fragments(value)) add(`${name} (base64)`, fragment);
  }
  for (const { name, user, password } of pairs) {
    for (const fragment of base64Fragments(`${user}:${password}`)) add(`${name} (base64 user:password, as in Basic auth)`, fragment);
  }
  return [...found].map(([text, name]) => ({ name, text }));
}

/** Credentials that nobody configured but that a run produces: found by their form. */
export interface Pattern {
  name: string;
  /** [start, end) of every occurrence. */
  find: (text: string) => [number, number][];
}

const matches = (regex: RegExp) => (text: string): [number, number][] => [...text.matchAll(regex)].map((match) => [match.index, match.index + match[0].length]);

export const ISSUED_SECRET_PATTERNS: readonly Pattern[] = [
  { name: 'a JWT (an access token or the expired token)', find: matches(/eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g) },
  { name: 'a PEM private key body', find: matches(/-----BEGIN [A-Z ]*PRIVATE KEY-----(?!\[REDACTED\])\s*[A-Za-z0-9+/=]{16}/g) },
  { name: 'a secretKey (12 or more BIP-39 words in a row)', find: mnemonicSpans },
  { name: 'a passphrase made by generatedSecret()', find: matches(/CsSecret-[0-9a-f]{24}/g) },
];

export interface Hit {
  /** Where: a file path or 'console output'. */
  source: string;
  what: string;
  /** The surrounding text with the hit itself replaced by a marker. */
  context: string;
}

const CONTEXT = 60;

function contextOf(text: string, index: number, length: number, what: string): string {
  const before = text.slice(Math.max(0, index - CONTEXT), index);
  const after = text.slice(index + length, index + length + CONTEXT);
  return `${before}[CANARY: ${what}]${after}`.replace(/\s+/g, ' ');
}

/** Every occurrence of a needle or a pattern in `text`; contexts never show a hit. */
export function search(source: string, text: string, needleList: readonly Needle[], patterns: readonly Pattern[]): Hit[] {
  const hits: Hit[] = [];
  for (const needle of needleList) {
    for (let index = text.indexOf(needle.text); index !== -1; index = text.indexOf(needle.text, index + needle.text.length)) {
      hits.push({ source, what: needle.name, context: contextOf(text, index, needle.text.length, needle.name) });
    }
  }
  for (const pattern of patterns) {
    for (const [start, end] of pattern.find(text)) hits.push({ source, what: pattern.name, context: contextOf(text, start, end - start, pattern.name) });
  }
  // A context may still hold another hit nearby; mask every needle in it too.
  return hits.map((hit) => ({ ...hit, context: needleList.reduce((context, needle) => context.split(needle.text).join('[CANARY]'), hit.context) }));
}
