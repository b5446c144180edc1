/**
 * `engines` in package.json is what the suite promises to run on, and the machine and CI run the
 * oldest Node it allows: every installed package must accept each Node version it allows, or
 * `npm ci` warns EBADENGINE and a package may fail where the promise says it runs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

const ROOT = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

/** The packages of the lock whose `engines.node` refuses some Node version the suite's `engines` allows. */
function narrowerEngines(ours: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .flatMap(([path, entry]) => {
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return node === undefined || semver.subset(ours, node) ? [] : [`${path}@${entry.version ?? '?'} needs node ${node}`];
    });
}

test('every locked package accepts every Node version package.json engines allows', () => {
  assert.deepEqual(narrowerEngines(manifest.engines.node), []);
});

test('the check tells a package that needs a newer Node than the suite allows', () => {
  assert.ok(narrowerEngines('>=16').some((line) => line.includes('needs node')));
});

test('the Node running the suite is one engines allows', () => {
  assert.ok(semver.satisfies(process.version, manifest.engines.node), `${process.version} is outside ${manifest.engines.node}`);
});
