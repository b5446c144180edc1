/** The certification bundle of npm run certify (scripts/lib/bundle.ts); check:certify runs the command itself. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { bundleEntries, CHECKSUMS, readBundle, secretsIn, VERIFIER_OUTPUT, writeBundle } from '../../scripts/lib/bundle.ts';

const scratch = mkdtempSync(join(tmpdir(), 'bundle-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function reportsDir(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(scratch, 'reports-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const RUN = {
  'certification.json': '{"verdict":"CONFORMANT"}\n',
  'certification.md': '# Certification\n',
  'allure-report/index.html': '<html>report</html>\n',
  'interface-spec.html': '<html>spec</html>\n',
  'allure-results/1-result.json': '{}',
};

describe('the certification bundle', () => {
  it("holds the certificate, the HTML report, the interface documents there are, the verifier's output and their checksums", () => {
    const { entries, missing } = bundleEntries(reportsDir(RUN), 'VALID: reports/certification.json\n');
    assert.deepEqual(missing, []);
    assert.deepEqual(
      entries.map((entry) => entry.name),
      ['certification.json', 'certification.md', 'allure-report/index.html', 'interface-spec.html', VERIFIER_OUTPUT, CHECKSUMS],
    );
    const sums = entries.at(-1)?.data.toString('utf8') ?? '';
    assert.match(sums, /^[0-9a-f]{64} {2}certification\.json\n/);
    assert.equal(sums.split('\n').filter((line) => line !== '').length, entries.length - 1);
  });

  it('names the required files a run did not leave', () => {
    const { missing } = bundleEntries(reportsDir({ 'certification.json': '{}' }), '');
    assert.deepEqual(missing, ['certification.md', 'allure-report/index.html']);
  });

  it('is a zip archive that reads back as written, whose SHA256SUMS sha256sum -c accepts, and refuses a changed file', () => {
    const { entries } = bundleEntries(reportsDir(RUN), 'VALID\n');
    const file = join(scratch, 'bundle.zip');
    writeBundle(file, entries);
    const read = readBundle(file);
    const pairs = (list: typeof entries) => list.map((entry) => `${entry.name} ${entry.data.toString('base64')}`).sort();
    assert.deepEqual(pairs(read), pairs(entries));
    const unpacked = mkdtempSync(join(scratch, 'unpacked-'));
    for (const entry of read) {
      mkdirSync(dirname(join(unpacked, entry.name)), { recursive: true });
      writeFileSync(join(unpacked, entry.name), entry.data);
    }
    assert.equal(spawnSync('sha256sum', ['-c', CHECKSUMS], { cwd: unpacked }).status, 0);
    writeFileSync(join(unpacked, 'certification.md'), '# Certification (edited)\n');
    assert.equal(spawnSync('sha256sum', ['--quiet', '-c', CHECKSUMS], { cwd: unpacked }).status, 1);
  });

  it('finds a credential of the profile in any spelling, and a credential by its form, never in the interface documents', () => {
    const password = 'Dev-Passw0rd!';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl';
    const entry = (name: string, text: string) => ({ name, data: Buffer.from(text) });
    assert.deepEqual(secretsIn([entry('certification.md', 'all redacted: [REDACTED]')], [password]), []);
    const hits = secretsIn(
      [
        entry('certification.md', `password ${password}`),
        entry('certification.json', JSON.stringify({ url: `?p=${encodeURIComponent(password)}` })),
        entry('allure-report/index.html', `Bearer ${jwt}`),
        entry('interface-spec.html', `an example token: ${jwt}`),
      ],
      [password],
    );
    assert.deepEqual(
      hits.map((hit) => hit.source),
      ['certification.md', 'certification.json', 'allure-report/index.html'],
    );
    assert.ok(hits.every((hit) => !hit.context.includes(password) && !hit.context.includes(jwt)));
  });
});
