/**
 * The access token login answers: "a JWT", in compact serialization, signed (JWS, three segments)
 * or encrypted (JWE, five, RFC 7516). The suite reads no more of it than its form.
 */
import { isRecord } from '../../fixtures/index.ts';
import type { JsonObject } from '../../fixtures/index.ts';
import { fail, shown } from './condition.ts';
import type { Answer } from './condition.ts';

/** A signed JWT (JWS): header and claims readable, and a signature the suite can replace. */
export interface SignedJwt {
  form: 'JWS';
  header: JsonObject;
  claims: JsonObject;
  segments: [string, string, string];
}

/** An encrypted JWT (JWE): only its protected header is readable. */
export interface EncryptedJwt {
  form: 'JWE';
  header: JsonObject;
  segments: string[];
}

export type DecodedJwt = SignedJwt | EncryptedJwt;

function decodeSegment(segment: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A JWT in compact serialization, or undefined when the token is not one: three base64url segments
 * whose first two decode to JSON objects (signed), or five whose first, the protected header, does
 * (encrypted, RFC 7516). The interface says only "a JWT", and an encrypted JWT is one.
 */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const segments = token.split('.');
  if (!segments.every((segment) => /^[A-Za-z0-9_-]*$/.test(segment))) return undefined;
  const header = decodeSegment(segments[0] ?? '');
  if (header === undefined) return undefined;
  if (segments.length === 5) return { form: 'JWE', header, segments };
  if (segments.length !== 3) return undefined;
  const [headerSegment = '', claimsSegment = '', signature = ''] = segments;
  const claims = decodeSegment(claimsSegment);
  return claims === undefined ? undefined : { form: 'JWS', header, claims, segments: [headerSegment, claimsSegment, signature] };
}

/**
 * The body carries `name`, a JWT in compact serialization. The token itself is never shown: it is a
 * credential.
 */
export function holdsJwt(answer: Pick<Answer, 'status' | 'json' | 'curl'>, name: string): void {
  const token = isRecord(answer.json) ? answer.json[name] : undefined;
  if (typeof token !== 'string') fail(`${name} of the HTTP ${answer.status} body is ${shown(token)}: expected a string holding a JWT`, answer);
  if (decodeJwt(token) === undefined)
    fail(
      `${name} is not a JWT in compact serialization: expected three base64url segments whose first two decode to JSON objects, or the five of an encrypted JWT (received ${token.split('.').length} segment(s), not shown)`,
      answer,
    );
}
