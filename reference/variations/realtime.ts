/**
 * Allowed variations of the realtime channels.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { isObject, rewriteBody } from '../faults/tools.ts';
import type { Variation } from './tools.ts';

export const variations: readonly Variation[] = [
  {
    name: 'channel-participants-both',
    description: 'Channel info carries the connected list under both documented names, presences and participants.',
    basis:
      'Endpoint 14: "The field table names that list participants ..., while the sample body names it presences. Which of the two list names is authoritative: not shown."',
    requirement: 'VAR-02',
    apply: rewriteBody(['getChannelInfo'], (body) => {
      if (!isObject(body)) return undefined;
      const list = body['presences'] ?? body['participants'];
      return { ...body, presences: list, participants: list };
    }),
  },
];
