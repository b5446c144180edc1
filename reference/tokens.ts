import { SignJWT, jwtVerify } from 'jose';

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** HS256 bearer token: sub = user id, iat/exp in seconds from the instance clock. */
export function issueToken(secret: string, userId: string, nowMs: number, ttlS: number): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlS)
    .sign(key(secret));
}

/** The token's user id, or undefined when the token is malformed, wrongly signed or expired. */
export async function verifyToken(secret: string, token: string, nowMs: number): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'exp'],
    });
    return payload.sub;
  } catch {
    return undefined;
  }
}
