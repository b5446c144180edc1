/**
 * Allowed variations of the credentials: token schemes and lifetime.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { BEARER_OPERATIONS, headerValue, onRequest } from '../faults/tools.ts';
import type { Variation } from './tools.ts';

export const variations: readonly Variation[] = [
  {
    name: 'token-any-scheme',
    description: 'The bearer token is accepted under any scheme word (Token, JWT, bearer) and with no scheme at all.',
    basis: 'Authentication: "Authorization: Bearer <ACCESS_TOKEN>"; which other schemes are refused: not shown.',
    apply: onRequest(BEARER_OPERATIONS, (request) => {
      const authorization = headerValue(request, 'authorization');
      const token = authorization === undefined ? undefined : /^(?:\S+\s+)?(\S+)\s*$/.exec(authorization)?.[1];
      if (token !== undefined) request.headers.authorization = `Bearer ${token}`;
    }),
  },
  {
    name: 'short-token-lifetime',
    description: 'Bearer tokens expire 20 s after login.',
    basis: 'Authentication: "Token lifetime: not shown."',
    apply: (options) => ({ ...options, tokenTtlS: 20 }),
  },
];
