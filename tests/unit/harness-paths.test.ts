/**
 * The directories the harness writes and reads are where the repository keeps them, whatever wing
 * a module lives in: run output under reports/, caches under node_modules/.cache, known deviations
 * under fixtures/expectations/. A module moved one folder deeper with its `new URL('../...')` left
 * as it was writes a reports/ inside fixtures/, which changes the test tree's fingerprint and makes
 * every certificate of the checkout INVALID.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { YAML_CACHE_DIR } from '../../fixtures/contract/yaml-cache.ts';
import { REFERENCE_BUNDLE_DIR } from '../../fixtures/run/reference-bundle.ts';
import { LEDGER_DIR } from '../../fixtures/data/ledger.ts';
import { REQUEST_COUNTS_DIR } from '../../fixtures/run/telemetry.ts';
import { EXPECTATIONS_DIR } from '../../fixtures/verdict/expectations.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test('run output goes under reports/, caches under node_modules/.cache, deviations under fixtures/expectations', () => {
  for (const dir of [LEDGER_DIR, REQUEST_COUNTS_DIR]) assert.ok(dir.startsWith(join(ROOT, 'reports') + '/'), `${dir} is not under reports/`);
  for (const dir of [YAML_CACHE_DIR, REFERENCE_BUNDLE_DIR]) assert.ok(dir.startsWith(join(ROOT, 'node_modules', '.cache') + '/'), `${dir} is not a cache`);
  assert.equal(EXPECTATIONS_DIR, join(ROOT, 'fixtures', 'expectations'));
});
