import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CliError, parseCli } from '../../reference/cli.ts';
import { listVariants } from '../../reference/variants.ts';
import { seedAccounts, seedKeys } from '../../scripts/lib/seed-generator.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const listening = /^reference listening on (http:\/\/127\.0\.0\.1:(\d+)) \(realtime http:\/\/127\.0\.0\.1:\2\/v2\)$/;

describe('parseCli', () => {
  it('applies the documented defaults', () => {
    assert.deepEqual(parseCli([]), { kind: 'serve', port: 4010, options: { variants: [] } });
  });

  it('reads every option, in both --flag value and --flag=value forms', () => {
    const command = parseCli([
      '--port=0',
      '--variant',
      'error-in-401',
      '--variant=recordings-envelope',
      '--recording-delay-ms',
      '1500',
      '--usage-limit',
      '5',
      '--usage-window-ms=1000',
      '--token-ttl-s',
      '60',
      '--seed-scale',
      '2',
      '--log',
    ]);
    assert.deepEqual(command, {
      kind: 'serve',
      port: 0,
      options: {
        variants: ['error-in-401', 'recordings-envelope'],
        recordingDelayMs: 1500,
        usageLimit: 5,
        usageWindowMs: 1000,
        tokenTtlS: 60,
        seedScale: 2,
        logger: true,
      },
    });
  });

  it('lists variants and help on request', () => {
    assert.deepEqual(parseCli(['--list-variants']), { kind: 'list-variants' });
    assert.deepEqual(parseCli(['--help']), { kind: 'help' });
  });

  it('names the flag in every error', () => {
    const table: [string[], RegExp][] = [
      [['--port', 'abc'], /^--port:/],
      [['--port', '70000'], /^--port:/],
      [['--port'], /^--port: a value is required/],
      [['--variant', 'nope'], /^--variant: unknown variant "nope"/],
      [['--seed-scale', '0'], /^--seed-scale:/],
      [['--usage-limit', '-1'], /^--usage-limit:/],
      [['--recording-delay-ms', '1.5'], /^--recording-delay-ms:/],
      [['--token-ttl-s', '0'], /^--token-ttl-s:/],
      [['--log=yes'], /^--log: takes no value/],
      [['--bogus'], /^--bogus: unknown option/],
      [['stray'], /^stray: unknown option/],
    ];
    for (const [argv, message] of table) {
      assert.throws(
        () => parseCli(argv),
        (error: unknown) => error instanceof CliError && message.test(error.message),
        argv.join(' '),
      );
    }
  });
});

function startServer(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'reference/server.ts', ...args], { cwd: root });
}

/** Resolves with the first line; `output()` keeps collecting everything the child writes. */
function watch(child: ChildProcessWithoutNullStreams): { firstLine: Promise<string>; output: () => { stdout: string; stderr: string } } {
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const firstLine = new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] ?? '');
    });
    child.once('exit', () => resolve(stdout));
  });
  return { firstLine, output: () => ({ stdout, stderr }) };
}

async function collect(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** node:http keeps header-name case on the wire, unlike fetch, so case-insensitivity is really exercised. */
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('reference server process', () => {
  it('prints one listening line, serves both interfaces on 127.0.0.1 and exits 0 on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = startServer(['--port', '0']);
      const watched = watch(child);
      const line = await watched.firstLine;
      const match = listening.exec(line);
      assert.ok(match, `unexpected first line: ${line}`);
      const base = match[1] ?? '';
      const login = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: seedAccounts.developer.email, password: seedAccounts.developer.password }),
      });
      const { access_token: token } = (await login.json()) as { access_token: string };
      assert.equal(await get(`${base}/groups`, { Authorization: `Bearer ${token}`, APIKEY: seedKeys.apiKeys.development }), 200);
      assert.equal(await get(`${base}/groups`, { Authorization: `Bearer ${token}`, apiKey: seedKeys.apiKeys.development }), 200);
      const { clientId, secret } = seedKeys.clients.development;
      assert.equal(await get(`${base}/v2/realtime/dev-busy`, { Client_Id: clientId, SECRET: secret }), 200);
      const exit = once(child, 'exit');
      child.kill(signal);
      assert.deepEqual(await exit, [0, null], signal);
      assert.deepEqual(watched.output(), { stdout: `${line}\n`, stderr: '' });
    }
  });

  it('exits 2 naming the flag for a bad option, and prints the variants as JSON', async () => {
    const [bad, list] = await Promise.all([collect(startServer(['--usage-window-ms', 'soon'])), collect(startServer(['--list-variants']))]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--usage-window-ms/);
    assert.equal(bad.stdout, '');
    assert.equal(list.code, 0);
    assert.deepEqual(JSON.parse(list.stdout), listVariants());
    assert.ok(listVariants().every((v) => typeof v.name === 'string' && typeof v.description === 'string'));
  });
});
