/**
 * `npm run check:network`: the suite on a staging network (README, "Staging networks"). Makes a private
 * CA with `openssl`, a server certificate for 127.0.0.1 and localhost and a client certificate (its key
 * encrypted), and puts the reference behind an HTTPS front that requires a client certificate of that CA,
 * reachable only through a local forward proxy (CONNECT) that counts the tunnels it carried. Then runs:
 *   - the whole suite with TARGET_CA_FILE, the client certificate and HTTPS_PROXY: CONFORMANT, exit 0,
 *     and every connection the front accepted was a tunnel of the proxy (so every request came through it);
 *   - without TARGET_CA_FILE: exit 2 within half the clean run's time, the plain cause naming
 *     TARGET_CA_FILE, a certificate that is not certifiable;
 *   - without the client certificate, through a proxy that does not listen and one that refuses the
 *     tunnel: exit 2, each with its cause;
 *   - a TARGET_CA_FILE that is not PEM: exit 2 before any test, the variable named;
 * and fails when the client key, its passphrase or the CA's key reach any report file or console line.
 *
 * `-- --baseline` also runs the suite straight to the reference, and prints what TLS and the proxy cost.
 * Reports go to reports/.checks/network/, never over a user's reports.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, Agent } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { startReference } from '../../fixtures/run/reference-process.ts';
import { writeCheckConfig } from '../lib/check-config.ts';
import { closedPort, listenOnFreePort } from '../lib/closed-port.ts';
import { cleanEnv, REPO_ROOT, runPlaywright, seconds } from '../lib/playwright-run.ts';
import type { RunResult } from '../lib/playwright-run.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/network');
const RUN_TIMEOUT_MS = 600_000;
/** The TLS failure must end within this share of the clean run (issue 36). */
const TLS_FAILURE_SHARE = 0.5;
const RECORDING_DELAY_MS = 20_000;
const PASSPHRASE = `pass-${process.pid}-${Date.now().toString(36)}-phrase`;

let failures = 0;
function verdict(ok: boolean, what: string): void {
  if (!ok) failures += 1;
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
}

/** openssl, installed from Debian's packages when missing (CI images have it). */
function ensureOpenssl(): void {
  if (spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0) return;
  console.log('check:network: openssl is missing; installing it (apt-get)');
  for (const args of [['update'], ['install', '-y', 'openssl']]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${String(run.status)}): install openssl to run this check`);
  }
}

function openssl(dir: string, args: readonly string[]): void {
  const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args[0] ?? ''} failed: ${run.stderr}`);
}

interface Pki {
  dir: string;
  caFile: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  /** The client key, encrypted with PASSPHRASE. */
  clientKey: string;
}

/** A private CA (P-256), a server certificate for 127.0.0.1 and localhost, and a client certificate. */
function makePki(dir: string): Pki {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=conformance check CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const leaf = (name: string, subject: string, extensions: string): void => {
    writeFileSync(join(dir, `${name}.ext`), extensions);
    openssl(dir, ['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.pem`,
      '-extfile',
      `${name}.ext`,
    ]);
  };
  leaf('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  leaf('client', '/CN=conformance check client', 'extendedKeyUsage=clientAuth\n');
  openssl(dir, ['pkey', '-in', 'client.key', '-out', 'client-encrypted.key', '-aes256', '-passout', `pass:${PASSPHRASE}`]);
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    caKey: join(dir, 'ca.key'),
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client-encrypted.key'),
  };
}

interface Front {
  url: string;
  requests: number;
  /** Remote ports of the TCP connections the front accepted (from the proxy, when it carried them), and how many became TLS. */
  connections: number[];
  secured: number;
  close(): Promise<void>;
}

/** The reference behind HTTPS that requires a client certificate of the CA; forwards over HTTP. */
async function startFront(pki: Pki, upstream: string): Promise<Front> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const front: Omit<Front, 'close' | 'url'> = { requests: 0, connections: [], secured: 0 };
  const server = createHttpsServer(
    { key: readFileSync(pki.serverKey), cert: readFileSync(pki.serverCert), ca: readFileSync(pki.caFile), requestCert: true, rejectUnauthorized: true },
    (incoming: IncomingMessage, outgoing) => {
      front.requests += 1;
      const forward = httpRequest(
        { agent, host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.on('error', (error) => {
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`https front: upstream failed: ${error.message}`);
      });
      incoming.pipe(forward);
    },
  );
  server.on('connection', (socket: Socket) => front.connections.push(socket.remotePort ?? -1));
  server.on('secureConnection', () => (front.secured += 1));
  server.keepAliveTimeout = 120_000;
  const port = await listenOnFreePort(server);
  return Object.assign(front, {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  });
}

interface Proxy {
  url: string;
  /** CONNECT tunnels opened, and the local ports of their connections to the front. */
  tunnels: number;
  tunnelPorts: Set<number>;
  /** Tunnels to the other allowed addresses, requests that were not CONNECT (plain HTTP), tunnels refused (another address). */
  elsewhere: number;
  other: number;
  refused: number;
  close(): Promise<void>;
}

/** A forward proxy that opens CONNECT tunnels to the `allowed` addresses only (host:port); `tunnels` counts those to the first. */
async function startProxy(...allowed: string[]): Promise<Proxy> {
  const proxy: Omit<Proxy, 'close' | 'url'> = { tunnels: 0, tunnelPorts: new Set(), elsewhere: 0, other: 0, refused: 0 };
  const sockets = new Set<Socket>();
  const server = createHttpServer((_incoming, outgoing) => {
    proxy.other += 1;
    outgoing.writeHead(405, { 'content-type': 'text/plain' }).end('this proxy carries CONNECT only');
  });
  server.on('connect', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    if (incoming.url === undefined || !allowed.includes(incoming.url)) {
      proxy.refused += 1;
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const [host = '', port = ''] = incoming.url.split(':');
    const upstream = connect(Number(port), host, () => {
      // Counted even when the client has gone meanwhile (a request context disposed mid-request): the
      // front has seen this connection, and it came through the proxy.
      if (incoming.url === allowed[0]) {
        proxy.tunnels += 1;
        proxy.tunnelPorts.add(upstream.localPort ?? -1);
      } else {
        proxy.elsewhere += 1;
      }
      if (client.destroyed) {
        upstream.destroy();
        return;
      }
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      // A connection still being made is ended once made, so that its port is known.
      if (!upstream.connecting) upstream.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
    upstream.on('close', end);
    client.on('close', end);
  });
  const port = await listenOnFreePort(server);
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/** The base64 lines of a PEM file's body: any of them in a report is a leak of the key. */
function pemLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Za-z0-9+/=]{40,}$/.test(line));
}

interface Scenario {
  name: string;
  env: Record<string, string>;
  args?: readonly string[];
}

ensureOpenssl();
rmSync(OUTPUT_DIR, { recursive: true, force: true });
mkdirSync(OUTPUT_DIR, { recursive: true });
const pki = makePki(mkdtempSync(join(tmpdir(), 'conformance-network-')));
// The processing recording (REC-07) must still be processing when the run's watch starts: here the
// reference starts before the runner (which starts twice to trust the CA), so its delay is longer than
// the profile's, and the run is told the same delay.
const reference = await startReference({ recordingDelayMs: RECORDING_DELAY_MS, extraArgs: ['--key-pairs-at-start', '4'] });
const outputs: string[] = [];
try {
  const front = await startFront(pki, reference.baseUrl);
  // The front, and the reference itself: the urls of its recordings name its own address (REC-08 reads one).
  const proxy = await startProxy(new URL(front.url).host, new URL(reference.baseUrl).host);
  try {
    const base: Record<string, string> = {
      TARGET_FILE: REFERENCE_TARGET_FILE,
      TARGET_BASE_URL: front.url,
      TARGET_REALTIME_URL: `${front.url}/v2`,
      TARGET_CA_FILE: pki.caFile,
      TARGET_CLIENT_CERT_FILE: pki.clientCert,
      TARGET_CLIENT_KEY_FILE: pki.clientKey,
      TARGET_CLIENT_KEY_PASSPHRASE: PASSPHRASE,
      TARGET_RECORDING_READY_MS: String(RECORDING_DELAY_MS),
      HTTPS_PROXY: proxy.url,
    };
    const environment = (env: Record<string, string>): NodeJS.ProcessEnv => {
      const clean = cleanEnv();
      // Only the scenario's network settings: none of the machine's proxies or extra CAs.
      for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'NODE_EXTRA_CA_CERTS', 'CONFORMANCE_CA_TRUSTED'])
        delete clean[name];
      return { ...clean, ...env };
    };
    const run = async (scenario: Scenario): Promise<RunResult & { dir: string }> => {
      const dir = join(OUTPUT_DIR, scenario.name);
      mkdirSync(dir, { recursive: true });
      const config = writeCheckConfig(dir);
      console.log(`\ncheck:network: ${scenario.name}`);
      const result = await runPlaywright({
        args: ['test', `--config=${config}`, ...(scenario.args ?? [])],
        env: environment(scenario.env),
        timeoutMs: RUN_TIMEOUT_MS,
        onLine: (line) => {
          if (line.trim() !== '' && !/^\s*[✓✘-]?\s*\d+ /.test(line)) console.log(`  | ${line}`);
        },
      });
      outputs.push(result.output);
      console.log(`  exit ${String(result.code)} in ${seconds(result.durationMs)}`);
      return { ...result, dir };
    };
    const certificate = (dir: string): { verdict?: string; certifiability?: { certifiable: boolean; reasons: string[] } } => {
      try {
        return JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as {
          verdict?: string;
          certifiability?: { certifiable: boolean; reasons: string[] };
        };
      } catch {
        return {};
      }
    };

    // The whole suite, through the proxy, trusting the private CA, with the client certificate.
    const clean = await run({ name: 'through-proxy', env: base });
    const cleanCertificate = certificate(clean.dir);
    verdict(
      clean.code === 0 && cleanCertificate.verdict === 'CONFORMANT',
      `through the proxy with the private CA and the client certificate: ${cleanCertificate.verdict ?? 'no certificate'}, exit ${String(clean.code)}`,
    );
    // By their order at the front, to find the request that went around the proxy.
    const around = [...front.connections.entries()].filter(([, port]) => !proxy.tunnelPorts.has(port)).map(([index]) => `#${index + 1}`);
    const direct = around.length;
    console.log(
      `  the front answered ${front.requests} request(s) on ${front.connections.length} connection(s), ${front.secured} of them TLS (the others closed before TLS: the pre-flight's tunnel probe, a request given up); the proxy carried ${proxy.tunnels} tunnel(s) to it and ${proxy.elsewhere} to the reference's own address (recording urls), refused ${proxy.refused}, got ${proxy.other} plain request(s)`,
    );
    verdict(
      front.requests > 0 && front.connections.length > 0 && direct === 0,
      `every connection to the front came through a tunnel of the proxy (${direct} did not${direct === 0 ? '' : `: ${around.slice(0, 5).join(', ')} of ${front.connections.length}`})`,
    );
    verdict(proxy.tunnels === front.connections.length, `tunnels of the proxy (${proxy.tunnels}) = connections of the front (${front.connections.length})`);

    // --baseline: the same run on a fresh reference, straight (plain HTTP, no proxy), for the cost of TLS and the proxy.
    if (process.argv.includes('--baseline')) {
      const fresh = await startReference({ recordingDelayMs: RECORDING_DELAY_MS, extraArgs: ['--key-pairs-at-start', '4'] });
      try {
        const plain = await run({
          name: 'baseline-direct',
          env: {
            TARGET_FILE: REFERENCE_TARGET_FILE,
            TARGET_BASE_URL: fresh.baseUrl,
            TARGET_REALTIME_URL: fresh.realtimeUrl,
            TARGET_RECORDING_READY_MS: String(RECORDING_DELAY_MS),
          },
        });
        console.log(
          `  through the front and the proxy / straight to the reference (exit ${String(plain.code)}): ${seconds(clean.durationMs)} / ${seconds(plain.durationMs)} = ${(clean.durationMs / plain.durationMs).toFixed(2)}`,
        );
      } finally {
        await fresh.stop();
      }
    }

    // Without the CA: the TLS failure is a configuration error, named, within half the clean run.
    const { TARGET_CA_FILE: _ca, ...withoutCa } = base;
    const unknownCa = await run({ name: 'unknown-ca', env: withoutCa });
    const ratio = unknownCa.durationMs / clean.durationMs;
    console.log(`  unknown CA / clean run: ${seconds(unknownCa.durationMs)} / ${seconds(clean.durationMs)} = ${ratio.toFixed(2)}`);
    const unknownCaCertificate = certificate(unknownCa.dir);
    verdict(unknownCa.code === 2, `unknown CA: exit ${String(unknownCa.code)}, expected 2`);
    verdict(/signed by an unknown CA: set TARGET_CA_FILE/.test(unknownCa.output), 'unknown CA: the console names the cause and TARGET_CA_FILE');
    verdict(ratio <= TLS_FAILURE_SHARE, `unknown CA: ended within ${TLS_FAILURE_SHARE} of the clean run (${ratio.toFixed(2)})`);
    verdict(
      unknownCaCertificate.certifiability?.certifiable === false &&
        unknownCaCertificate.certifiability.reasons.some((reason) => reason.includes('TARGET_CA_FILE')),
      `unknown CA: the certificate (${unknownCaCertificate.verdict ?? 'none'}) is not certifiable and names TARGET_CA_FILE`,
    );

    // Without the client certificate.
    const { TARGET_CLIENT_CERT_FILE: _cert, TARGET_CLIENT_KEY_FILE: _key, TARGET_CLIENT_KEY_PASSPHRASE: _pass, ...withoutClient } = base;
    const noClient = await run({ name: 'no-client-certificate', env: withoutClient });
    verdict(
      noClient.code === 2 && /requires a client certificate: set TARGET_CLIENT_CERT_FILE and TARGET_CLIENT_KEY_FILE/.test(noClient.output),
      `no client certificate: exit ${String(noClient.code)} (expected 2), the cause names TARGET_CLIENT_CERT_FILE and TARGET_CLIENT_KEY_FILE`,
    );

    // A proxy that does not listen.
    const noProxy = await run({ name: 'proxy-unreachable', env: { ...base, HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}` } });
    verdict(
      noProxy.code === 2 && /the proxy \S+ cannot be reached: check HTTPS_PROXY/.test(noProxy.output),
      `unreachable proxy: exit ${String(noProxy.code)} (expected 2), the cause names HTTPS_PROXY`,
    );

    // A proxy that refuses the tunnel (it answers 403 in the target's stead).
    const refusing = await startProxy('nowhere.invalid:1');
    try {
      const refused = await run({ name: 'proxy-refuses', env: { ...base, HTTPS_PROXY: refusing.url } });
      verdict(
        refused.code === 2 && /the proxy \S+ refused a tunnel to 127\.0\.0\.1:\d+ \(HTTP 403\): check HTTPS_PROXY/.test(refused.output),
        `a proxy that refuses the tunnel: exit ${String(refused.code)} (expected 2), the cause names HTTPS_PROXY (${refusing.refused} tunnel(s) refused)`,
      );
    } finally {
      await refusing.close();
    }

    // A CA file that is not PEM (the client key): refused before any test, the variable named, not its contents.
    const notPem = join(pki.dir, 'not-a-certificate.pem');
    writeFileSync(notPem, 'not a certificate\n');
    const badCa = await run({ name: 'ca-not-pem', env: { ...base, TARGET_CA_FILE: notPem } });
    verdict(
      badCa.code === 2 && /TARGET_CA_FILE: \S+ holds no PEM certificate/.test(badCa.output),
      `a CA file that is not PEM: exit ${String(badCa.code)} (expected 2), TARGET_CA_FILE named`,
    );
  } finally {
    await proxy.close();
    await front.close();
  }
} finally {
  await reference.stop();
}

// Neither the client key, its passphrase nor the CA's key in any report or console line.
const secrets = [PASSPHRASE, ...pemLines(pki.clientKey), ...pemLines(join(pki.dir, 'client.key')), ...pemLines(pki.caKey)];
const leaks = [
  ...filesUnder(OUTPUT_DIR).map((file) => ({ where: file, text: readFileSync(file, 'latin1') })),
  ...outputs.map((text, index) => ({ where: `console of run ${index + 1}`, text })),
].filter(({ text }) => secrets.some((secret) => text.includes(secret)));
verdict(
  leaks.length === 0,
  `no key material or passphrase in ${filesUnder(OUTPUT_DIR).length} report file(s) and ${outputs.length} console output(s)${leaks.length === 0 ? '' : `: found in ${leaks.map((leak) => leak.where).join(', ')}`}`,
);
rmSync(pki.dir, { recursive: true, force: true });
console.log(failures === 0 ? '\ncheck:network passed' : `\ncheck:network FAILED (${failures})`);
process.exit(failures === 0 ? 0 : 1);
