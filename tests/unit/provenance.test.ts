/** The provenance of a certificate, and whether its run could certify (fixtures/reporters/provenance.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { provenanceInfo } from '../../fixtures/reporters/allure.ts';
import { certifiability, changedPaths, narrowingOptions, provenance } from '../../fixtures/reporters/provenance.ts';
import type { Provenance } from '../../fixtures/reporters/provenance.ts';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';

const whole: Provenance = provenance({
  testsSelected: 311,
  workers: 2,
  startedAt: new Date(0),
  endedAt: new Date(1000),
  argv: ['node', 'playwright', 'test'],
  env: { TARGET_FILE: REFERENCE_TARGET_FILE },
});

describe('provenance', () => {
  it('finds every option that narrows a run, with its value, and the file filters', () => {
    assert.deepEqual(narrowingOptions(['node', 'cli.js', 'test']), { command: 'test', narrowedBy: [] });
    assert.deepEqual(narrowingOptions(['node', 'cli.js', 'test', '--workers', '4', '--reporter=line']), { command: 'test', narrowedBy: [] });
    assert.deepEqual(narrowingOptions(['node', 'cli.js', 'test', '--grep', '@PAG', '--shard=1/3', 'tests/login.spec.ts', '--last-failed', '--project', 'p']), {
      command: 'test',
      narrowedBy: ['--grep @PAG', '--shard 1/3', 'file filter tests/login.spec.ts', '--last-failed', '--project p'],
    });
    assert.deepEqual(narrowingOptions(['node', 'cli.js', 'merge-reports', '--config', 'playwright.config.ts', 'blobs']), {
      command: 'merge-reports',
      narrowedBy: [],
    });
  });

  it('names the fingerprints, the permissions, the optional variables (names only) and the versions', () => {
    assert.deepEqual(
      whole.fingerprints.map((fingerprint) => fingerprint.name),
      [
        'spec/openapi.yaml',
        'spec/requirements.yaml',
        'test tree (tests/, fixtures/, playwright.config.ts)',
        'known deviations fixtures/expectations/reference.yaml',
      ],
    );
    for (const fingerprint of whole.fingerprints) assert.match(fingerprint.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(whole.permissions, { allowWrites: true, allowDestructive: true });
    assert.ok(whole.optionalVariablesSet.includes('TARGET_OTHER_API_KEY'));
    assert.ok(!JSON.stringify(whole).includes('rk_prod_'), 'never a value');
    assert.match(whole.versions.playwright, /^1\.\d+\.\d+$/);
  });

  it('reads the reference profile in a merge of shards run against the embedded reference, which is given no TARGET_* variable', () => {
    const merged = provenance({
      testsSelected: 311,
      workers: 2,
      startedAt: new Date(0),
      endedAt: new Date(1000),
      argv: ['node', 'playwright', 'merge-reports'],
      env: {},
    });
    assert.deepEqual(merged.permissions, whole.permissions);
    assert.deepEqual(merged.politeness, whole.politeness);
    assert.deepEqual(merged.optionalVariablesSet, whole.optionalVariablesSet);
    assert.deepEqual(merged.fingerprints, whole.fingerprints);
    assert.deepEqual(certifiability({ ...merged, git: { commit: 'a'.repeat(40), modified: [] } }), { certifiable: true, reasons: [] });
  });

  it('certifies only the whole suite on an unchanged checkout with writes and destructive checks allowed', () => {
    const clean: Provenance = { ...whole, git: { commit: 'a'.repeat(40), modified: [] } };
    assert.deepEqual(certifiability(clean), { certifiable: true, reasons: [] });
    const narrowed = { ...clean, selection: { command: 'test', narrowedBy: ['--grep @PAG'], testsSelected: 40 } };
    assert.deepEqual(certifiability(narrowed).reasons, ['40 tests selected, narrowed by --grep @PAG']);
    assert.match(
      certifiability({ ...clean, git: { commit: 'b'.repeat(40), modified: [{ name: 'tests/x.spec.ts', sha256: 'c' }] } }).reasons.join(),
      /differs from commit bbbbbbbbbbbb in 1 tracked file/,
    );
    assert.match(certifiability({ ...clean, git: { unavailable: 'no git' } }).reasons.join(), /no git/);
    assert.deepEqual(certifiability({ ...clean, permissions: { allowWrites: false, allowDestructive: false } }).reasons, [
      'participant writes not allowed (TARGET_ALLOW_WRITES)',
      'destructive checks not allowed (TARGET_ALLOW_DESTRUCTIVE)',
    ]);
  });
});

describe("the Allure report's environment carries the certificate's provenance", () => {
  it('names the commit, says when the checkout differs, and when there is no git', () => {
    assert.equal(provenanceInfo({ commit: 'abc123', modified: [] })['Suite commit'], 'abc123');
    assert.equal(
      provenanceInfo({ commit: 'abc123', modified: [{ name: 'tests/a.spec.ts', sha256: 'x' }] })['Suite commit'],
      'abc123 (the checkout differs in 1 tracked file(s))',
    );
    assert.equal(provenanceInfo({ unavailable: 'not a git checkout' })['Suite commit'], 'none: not a git checkout');
  });

  it('gives the same fingerprints as the certificate', () => {
    const info = provenanceInfo({ unavailable: 'not needed here' });
    const certified = provenance({
      testsSelected: 1,
      workers: 1,
      startedAt: new Date(),
      endedAt: new Date(),
      argv: [],
      env: { TARGET_FILE: REFERENCE_TARGET_FILE },
    });
    const byName = new Map(certified.fingerprints.map((fingerprint) => [fingerprint.name, fingerprint.sha256]));
    assert.equal(info['Catalogue SHA-256'], byName.get('spec/requirements.yaml'));
    assert.equal(info['Test tree SHA-256'], byName.get('test tree (tests/, fixtures/, playwright.config.ts)'));
  });
});

describe("the changed paths of git status's porcelain", () => {
  it('names a rename by its new path and its whole original path', () => {
    const output = ['R  fixtures/data/ledger.ts', 'fixtures/run/ledger.ts', ' M README.md', 'D  docs/old.md', ''].join('\0');
    assert.deepEqual(changedPaths(output), ['fixtures/data/ledger.ts', 'fixtures/run/ledger.ts', 'README.md', 'docs/old.md']);
  });

  it('names nothing for a clean checkout', () => {
    assert.deepEqual(changedPaths(''), []);
  });
});
