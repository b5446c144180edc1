/** The JWT login answers (tests/conditions/token.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConditionFailure, decodeJwt, holdsJwt } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';

const segment = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const JWS = `${segment({ alg: 'HS256', typ: 'JWT' })}.${segment({ sub: 'u-1', exp: 1 })}.c2lnbmF0dXJl`;
const JWE = `${segment({ alg: 'RSA-OAEP', enc: 'A256GCM' })}.a2V5.aXY.Y2lwaGVy.dGFn`;
const login = (json: unknown): { status: number; json: unknown; curl: string } => ({ status: 200, json, curl: 'curl http://x' });

describe('conditions: token', () => {
  it('decodeJwt: a signed JWT (three segments) or an encrypted one (five), else undefined', () => {
    assert.equal(decodeJwt(JWS)?.form, 'JWS');
    assert.equal(decodeJwt(JWE)?.form, 'JWE');
    assert.equal(decodeJwt('not-a-jwt'), undefined);
    assert.equal(decodeJwt(`${segment({ alg: 'none' })}.bm90IGpzb24.`), undefined);
  });

  it('holdsJwt: a string field holding a JWT in compact serialization, never shown', () => {
    holdsJwt(login({ access_token: JWS, name: 'Ada' }), 'access_token');
    holdsJwt(login({ access_token: JWE }), 'access_token');
    fails(
      () => holdsJwt(login({ token: JWS }), 'access_token'),
      /access_token of the HTTP 200 body is undefined: expected a string holding a JWT\ncurl http:\/\/x/,
    );
    assert.throws(
      () => holdsJwt(login({ access_token: 'opaque-secret-token' }), 'access_token'),
      (error: unknown) =>
        error instanceof ConditionFailure &&
        /access_token is not a JWT in compact serialization: expected three base64url segments .* \(received 1 segment\(s\), not shown\)/.test(error.message) &&
        !error.message.includes('opaque-secret-token'),
    );
  });
});
