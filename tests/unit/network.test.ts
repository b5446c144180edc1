/**
 * Staging networks: the profile's CA file, client certificate and proxy variables (fixtures/config/staging-network.ts),
 * the request-context options made of them and the plain names of TLS and proxy failures
 * (fixtures/transport/network.ts). A valid CA and client certificate are proved by `npm run check:network`.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { loadTargetConfig, secretValues, TargetConfigError } from '../../fixtures/config/profile.ts';
import { caTrustRestart, caTrustedEnvironment, exemptFromProxy } from '../../fixtures/config/staging-network.ts';
import { networkConfigurationProblem, requestContextOptions } from '../../fixtures/transport/network.ts';
import { preflight } from '../../fixtures/transport/preflight.ts';
import { closedPort } from '../../scripts/lib/closed-port.ts';
import { VALID_PROFILE } from './valid-profile.ts';

const dir = mkdtempSync(join(tmpdir(), 'target-network-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const VALID: Record<string, string> = { ...VALID_PROFILE };

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadTargetConfig({ ...VALID, ...env }, dir);
  } catch (error) {
    if (error instanceof TargetConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('NO_PROXY', () => {
  const exempt = (url: string, noProxy: string): boolean => exemptFromProxy(new URL(url), noProxy);
  it('exempts a host and its subdomains, with or without a leading dot or *.', () => {
    assert.equal(exempt('https://api.example.test/x', 'example.test'), true);
    assert.equal(exempt('https://example.test', '.example.test'), true);
    assert.equal(exempt('https://api.example.test', '*.example.test'), true);
    assert.equal(exempt('https://badexample.test', 'example.test'), false);
    assert.equal(exempt('https://api.example.test', 'other.test, localhost'), false);
  });
  it('reads *, ports, IPv6 and CIDR ranges', () => {
    assert.equal(exempt('https://anything.test', '*'), true);
    assert.equal(exempt('https://api.example.test', 'api.example.test:443'), true);
    assert.equal(exempt('https://api.example.test:8443', 'api.example.test:443'), false);
    assert.equal(exempt('http://[::1]:4010', '[::1]'), true);
    assert.equal(exempt('http://10.1.2.3:80', '10.0.0.0/8'), true);
    assert.equal(exempt('http://11.1.2.3:80', '10.0.0.0/8'), false);
    assert.equal(exempt('http://api.example.test', '10.0.0.0/8'), false);
  });
});

describe('the proxy of the profile', () => {
  it('takes HTTPS_PROXY for https targets, lower case first, and keeps its credentials out of the server', () => {
    const config = loadTargetConfig({ ...VALID, HTTPS_PROXY: 'http://upper.test:3128', https_proxy: 'http://ci:pr0xy-Pass@lower.test:8080' }, dir);
    assert.deepEqual(config.network.proxy, { server: 'http://lower.test:8080', variable: 'https_proxy', username: 'ci', password: 'pr0xy-Pass' });
    assert.ok(secretValues(config).includes('pr0xy-Pass'));
    assert.deepEqual(requestContextOptions(config).proxy, { server: 'http://lower.test:8080', username: 'ci', password: 'pr0xy-Pass' });
  });
  it('ignores HTTP_PROXY for https targets, and gives the interfaces NO_PROXY exempts as bypass', () => {
    assert.equal(loadTargetConfig({ ...VALID, HTTP_PROXY: 'http://proxy.test:3128' }, dir).network.proxy, undefined);
    const config = loadTargetConfig({ ...VALID, HTTPS_PROXY: 'proxy.test:3128', NO_PROXY: 'realtime.example.test' }, dir);
    assert.deepEqual(config.network.proxy, { server: 'http://proxy.test:3128', variable: 'HTTPS_PROXY', bypass: 'realtime.example.test' });
    assert.equal(loadTargetConfig({ ...VALID, HTTPS_PROXY: 'http://proxy.test:3128', no_proxy: '*' }, dir).network.proxy, undefined);
  });
  it('refuses a proxy it cannot use, naming the variable and never the value', () => {
    assert.deepEqual(problems({ HTTPS_PROXY: 'ftp://user:hunter22@proxy.test' }), ['HTTPS_PROXY: the proxy must be http, https, socks5 or socks4, got ftp:']);
    assert.deepEqual(problems({ TARGET_REALTIME_URL: 'http://realtime.example.test/v2', HTTPS_PROXY: 'http://a.test:1', HTTP_PROXY: 'http://b.test:1' }), [
      'HTTPS_PROXY, HTTP_PROXY: the two interfaces would go through different proxies; the suite sends both through one',
    ]);
    assert.match(
      problems({ TARGET_REALTIME_URL: 'https://api.example.test:8443/v2', HTTPS_PROXY: 'http://a.test:1', NO_PROXY: 'api.example.test:443' }).join('\n'),
      /^NO_PROXY: exempts api\.example\.test:443 but not the other interface on the same host/,
    );
  });
});

describe('CA and client certificate files', () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const keyFile = join(dir, 'client.key');
  writeFileSync(keyFile, key);
  const notPem = join(dir, 'not.pem');
  writeFileSync(notPem, 'hello\n');

  it('names a missing or non-PEM file by its variable and path, never its contents', () => {
    assert.deepEqual(problems({ TARGET_CA_FILE: 'missing-ca.pem' }), [`TARGET_CA_FILE: cannot read ${join(dir, 'missing-ca.pem')} (ENOENT)`]);
    assert.deepEqual(problems({ TARGET_CA_FILE: keyFile }), [`TARGET_CA_FILE: ${keyFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`]);
    const found = problems({ TARGET_CLIENT_CERT_FILE: keyFile, TARGET_CLIENT_KEY_FILE: keyFile });
    assert.deepEqual(found, [`TARGET_CLIENT_CERT_FILE: ${keyFile} holds no PEM certificate that parses (-----BEGIN CERTIFICATE-----)`]);
    assert.ok(!found.join('\n').includes(key.split('\n')[1] ?? '-'));
  });
  it('wants the certificate and the key together, and a passphrase only with a key', () => {
    assert.deepEqual(problems({ TARGET_CLIENT_CERT_FILE: notPem }), ['TARGET_CLIENT_KEY_FILE: required when TARGET_CLIENT_CERT_FILE is set']);
    assert.deepEqual(problems({ TARGET_CLIENT_KEY_FILE: keyFile }), ['TARGET_CLIENT_CERT_FILE: required when TARGET_CLIENT_KEY_FILE is set']);
    assert.deepEqual(problems({ TARGET_CLIENT_KEY_PASSPHRASE: 'Secret-Phrase-1' }), [
      'TARGET_CLIENT_KEY_FILE: required when TARGET_CLIENT_KEY_PASSPHRASE is set',
    ]);
  });
  it('restarts the runner once to trust TARGET_CA_FILE, keeping a NODE_EXTRA_CA_CERTS already trusted', () => {
    const caFile = join(dir, 'ca.pem');
    assert.equal(caTrustRestart({ ...VALID }, dir), undefined);
    assert.deepEqual(caTrustRestart({ ...VALID, TARGET_CA_FILE: 'ca.pem' }, dir), { caFile });
    assert.deepEqual(caTrustRestart({ ...VALID, TARGET_CA_FILE: 'ca.pem', NODE_EXTRA_CA_CERTS: '/etc/corp.pem' }, dir), {
      caFile,
      alsoTrusted: '/etc/corp.pem',
    });
    const restarted = caTrustedEnvironment(caFile, '/tmp/bundle.pem', { ...VALID, TARGET_CA_FILE: 'ca.pem' });
    assert.equal(restarted['NODE_EXTRA_CA_CERTS'], '/tmp/bundle.pem');
    assert.equal(caTrustRestart(restarted, dir), undefined);
  });
});

describe('TLS and proxy failures in plain words', () => {
  const none = { network: {} };
  const configured = {
    network: {
      caFile: '/ca.pem',
      clientCertificate: { certFile: '/c.pem', keyFile: '/c.key' },
      proxy: { server: 'http://127.0.0.1:3128', variable: 'HTTPS_PROXY' },
    },
  };
  const table: readonly [string, typeof none | typeof configured, RegExp | undefined][] = [
    ['apiRequestContext.fetch: unable to verify the first certificate', none, /unknown CA: set TARGET_CA_FILE/],
    ['apiRequestContext.fetch: self-signed certificate in certificate chain', configured, /neither Node nor TARGET_CA_FILE trusts: check TARGET_CA_FILE/],
    [
      'apiRequestContext.fetch: 40C8:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required',
      none,
      /requires a client certificate: set TARGET_CLIENT_CERT_FILE/,
    ],
    [
      'apiRequestContext.fetch: error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca',
      configured,
      /refused the client certificate: check TARGET_CLIENT_CERT_FILE\/TARGET_CLIENT_KEY_FILE/,
    ],
    [
      "apiRequestContext.fetch: Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list",
      none,
      /check the host of TARGET_BASE_URL/,
    ],
    ['apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:3128', configured, /the proxy http:\/\/127\.0\.0\.1:3128 cannot be reached: check HTTPS_PROXY/],
    ['apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:443', configured, undefined],
    ['apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:3128', none, undefined],
    ['apiRequestContext.fetch: Timeout 500ms exceeded.', configured, undefined],
  ];
  for (const [message, target, expected] of table) {
    it(`${expected === undefined ? 'leaves' : 'names'} "${message.slice(25, 85)}"`, () => {
      const found = networkConfigurationProblem(message, target);
      if (expected === undefined) assert.equal(found, undefined);
      else assert.match(found ?? '', expected);
    });
  }
});

describe('the pre-flight through a proxy', () => {
  it('stops the run when the proxy does not listen, naming HTTP_PROXY, not the target', async () => {
    const port = await closedPort();
    const config = loadTargetConfig(
      {
        ...VALID,
        TARGET_BASE_URL: 'http://api.example.test',
        TARGET_REALTIME_URL: 'http://api.example.test/v2',
        HTTP_PROXY: `http://127.0.0.1:${port}`,
        TARGET_TIMEOUT_MS: '2000',
      },
      dir,
    );
    const found = await preflight(config, secretValues(config));
    assert.equal(found.kind, 'misconfigured');
    assert.equal(found.kind === 'misconfigured' ? found.cause : '', `the proxy http://127.0.0.1:${port} cannot be reached: check HTTP_PROXY (and NO_PROXY)`);
    assert.match(
      found.kind === 'misconfigured' ? found.message : '',
      /^Pre-flight: configuration error: the proxy .* cannot be reached: check HTTP_PROXY \(and NO_PROXY\)\.\n {2}The run stops before its tests/,
    );
  });

  it('stops the run when the proxy refuses the tunnel, instead of taking its 403 for the login answer of the target', async () => {
    const proxy = createServer((_incoming, outgoing) => outgoing.writeHead(405).end());
    const statuses = ['403 Forbidden', '407 Proxy Authentication Required'];
    proxy.on('connect', (_incoming, socket: Socket) => socket.end(`HTTP/1.1 ${statuses[0] ?? ''}\r\ncontent-length: 0\r\n\r\n`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const server = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const config = loadTargetConfig(
        {
          ...VALID,
          TARGET_BASE_URL: 'http://api.example.test',
          TARGET_REALTIME_URL: 'http://api.example.test/v2',
          HTTP_PROXY: server,
          TARGET_TIMEOUT_MS: '2000',
        },
        dir,
      );
      const found = await preflight(config, secretValues(config));
      assert.equal(
        found.kind === 'misconfigured' ? found.cause : found.kind,
        `the proxy ${server} refused a tunnel to api.example.test:80 (HTTP 403): check HTTP_PROXY and NO_PROXY, or the proxy's rules`,
      );
      statuses.shift();
      const again = await preflight(config, secretValues(config));
      assert.match(again.kind === 'misconfigured' ? again.cause : again.kind, /asks for credentials \(HTTP 407\): give them in HTTP_PROXY/);
    } finally {
      proxy.close();
    }
  });
});
