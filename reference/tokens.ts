import { SignJWT, jwtVerify } from 'jose';

/**
 * The HMAC key of each signing secret, imported into Web Crypto once: jose imports a raw key on
 * every call otherwise, which costs more than the signature itself.
 */
const keys = new Map<string, Promise<CryptoKey>>();

function key(secret: string): Promise<CryptoKey> {
  let imported = keys.get(secret);
  if (imported === undefined) {
    imported = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, imported);
    // A failed import is not kept: the next call tries again.
    imported.catch(() => keys.delete(secret));
  }
  return imported;
}

/** HS256 bearer token: sub = user id, iat/exp in seconds from the instance clock. */
export async function issueToken(secret: string, userId: string, nowMs: number, ttlS: number): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlS)
    .sign(await key(secret));
}

/** The token's user id, or undefined when the token is malformed, wrongly signed or expired. */
export async function verifyToken(secret: string, token: string, nowMs: number): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, await key(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'exp'],
    });
    return payload.sub;
  } catch {
    return undefined;
  }
}
