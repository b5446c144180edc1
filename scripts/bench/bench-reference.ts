/**
 * Throughput of the reference: starts it in-process on a free port and runs autocannon against a
 * paginated authenticated list (GET /groups) and against POST /login (scrypt-bound), then prints
 * requests per second and latency p50/p99 and exits (non-zero when any request failed).
 *
 * Usage: npm run bench:reference -- [--duration 3] [--connections 10] [--seed-scale 1]
 */
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { buildApp } from '../../reference/app.ts';
import { seedAccounts, seedKeys } from '../lib/seed-generator.ts';

interface AutocannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  duration: number;
  connections: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

// autocannon ships no type declarations; this is the part of its programmatic API used here.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    'seed-scale': { type: 'string', default: '1' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const seedScale = Number(values['seed-scale']);

const app = await buildApp({ seedScale });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
const credentials = JSON.stringify({ email: seedAccounts.developer.email, password: seedAccounts.developer.password });

let failed = false;
try {
  const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: credentials });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const scenarios: [string, AutocannonOptions][] = [
    [
      'GET /groups?skip=10&take=10',
      { url: `${base}/groups?skip=10&take=10`, headers: { authorization: `Bearer ${token}`, apikey: seedKeys.apiKeys.development }, duration, connections },
    ],
    ['POST /login', { url: `${base}/login`, method: 'POST', headers: { 'content-type': 'application/json' }, body: credentials, duration, connections }],
  ];
  console.log(`reference benchmark: ${duration} s per scenario, ${connections} connections, seed scale ${seedScale}`);
  for (const [name, options] of scenarios) {
    const result = await autocannon(options);
    const problems = result.errors + result.timeouts + result.non2xx;
    failed ||= problems > 0;
    console.log(
      `${name.padEnd(30)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms` +
        `  (${result.requests.total} requests, ${problems} failed)`,
    );
  }
} finally {
  await app.close();
}
process.exitCode = failed ? 1 : 0;
