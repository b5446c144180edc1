/**
 * Allowed variations of the addresses: where the two interfaces are served.
 * Part of the catalogue of allowed variations: reference/variations/index.ts puts them in its order.
 */
import { withLayout, type Variation } from './tools.ts';

export const variations: readonly Variation[] = [
  {
    name: 'path-prefix',
    description: 'The main interface is served under the path prefix /api/v9 ({base_url} = http://host:port/api/v9); the realtime interface stays at /v2.',
    basis: 'Addresses: "{base_url} is the base address of the main REST interface." Nothing fixes its path.',
    apply: withLayout({ basePath: '/api/v9' }),
  },
  {
    name: 'realtime-origin',
    description: 'The versioned realtime interface has its own listener (another port, so another origin) at its root; the main origin does not serve it.',
    basis: 'Addresses: "{realtime_url} is the base address of the versioned realtime interface." Nothing ties it to {base_url}.',
    apply: withLayout({ realtimeOrigin: 'separate', realtimeBasePath: '' }),
  },
];
