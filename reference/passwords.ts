import { scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Cost kept modest on purpose: the conformance suite logs in often and must stay fast. */
export const defaultScryptParams = { N: 4096, r: 8, p: 1 } as const;

const keyLength = 32;
const maxCost = 1 << 16;

interface ParsedHash {
  params: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

/** Encodes as `scrypt$N$r$p$<salt base64>$<hash base64>`; the seed generator uses a fixed salt per user. */
export function hashPasswordSync(password: string, salt: Buffer, params = defaultScryptParams): string {
  const hash = scryptSync(password, salt, keyLength, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

function parseHash(encoded: string): ParsedHash | undefined {
  const [scheme, n, r, p, salt, hash] = encoded.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const bounded = Object.values(params).every((v) => Number.isInteger(v) && v > 0) && params.N <= maxCost;
  return bounded ? { params, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') } : undefined;
}

function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A hash with the default cost that matches no password, so unknown e-mails cost as much as wrong passwords. */
export const unmatchableHash = hashPasswordSync('\u0000', Buffer.alloc(16));

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (parsed === undefined) return false;
  const { N, r, p } = parsed.params;
  const candidate = await scryptAsync(password, parsed.salt, parsed.hash.length, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
  return candidate.length === parsed.hash.length && timingSafeEqual(candidate, parsed.hash);
}
