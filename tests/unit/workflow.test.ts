/**
 * The GitHub workflow hands the shards every variable of the target profile: a variable the
 * workflow forgets leaves its checks not assessed on every scheduled run, and nobody sees why.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TARGET_VARIABLES } from '../../fixtures/config/variables.ts';

const WORKFLOW = readFileSync(join(import.meta.dirname, '..', '..', '.github', 'workflows', 'conformance.yml'), 'utf8');

test('conformance.yml sets every variable of the target profile (TARGET_FILE aside: the workflow gives them one by one)', () => {
  const missing = TARGET_VARIABLES.filter((name) => name !== 'TARGET_FILE' && !new RegExp(`\\b${name}:`).test(WORKFLOW) && !WORKFLOW.includes(`"${name}=`));
  assert.deepEqual(missing, [], `conformance.yml does not set ${missing.join(', ')}`);
});
