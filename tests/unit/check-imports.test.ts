/** The layering check (scripts/check-imports.ts): each rule finds its breach, and leaves the allowed forms alone. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { breachesOf } from '../../scripts/check-imports.ts';

const ROOT = '/repo';
const rules = (path: string, text: string): string[] => breachesOf(path, text, ROOT).map((breach) => `${breach.line} ${breach.rule}: ${breach.detail}`);

describe('check:imports', () => {
  it('specs and their helpers take the harness through fixtures/index.ts only', () => {
    assert.deepEqual(rules('tests/a.spec.ts', "import { test } from '../fixtures/index.ts';\nimport { x } from './support/reads.ts';"), []);
    assert.deepEqual(rules('tests/a.spec.ts', "import { test } from '../fixtures/index.ts';\nimport { y } from '../fixtures/data.ts';"), [
      '2 specs take the harness through fixtures/index.ts: imports fixtures/data.ts',
    ]);
    assert.deepEqual(rules('tests/support/b.ts', "export { callServed } from '../../fixtures/served.ts';"), [
      '1 specs take the harness through fixtures/index.ts: imports fixtures/served.ts',
    ]);
  });

  it('the suite beside the specs (conditions, generated bindings) takes the harness through fixtures/index.ts too; unit tests do not', () => {
    assert.deepEqual(rules('tests/conditions/format.ts', "import { isJsonMediaType } from '../../fixtures/index.ts';"), []);
    assert.deepEqual(rules('tests/generated/assess.ts', "import { checkExchange } from '../../fixtures/contract.ts';"), [
      '1 specs take the harness through fixtures/index.ts: imports fixtures/contract.ts',
    ]);
    assert.deepEqual(rules('tests/unit/x.test.ts', "import { checkExchange } from '../../fixtures/contract.ts';"), []);
  });

  it('the harness imports nothing of the suite', () => {
    assert.deepEqual(rules('fixtures/generate/exercise.ts', "import { assess } from '../../tests/generated/assess.ts';"), [
      '1 the harness imports nothing of the suite: imports tests/generated/assess.ts',
    ]);
  });

  it('the harness names no requirement ID in its code, outside the catalogue loader; comments may', () => {
    const code = [
      '// PAG-05 in a comment is prose',
      "const shape = { listGroups: 'GRP-01' };",
      'const note = `answered ${status} (FMT-04)`;',
      'const pattern = /REC-10/;',
      "const word = 'BIP-39 English';",
    ].join('\n');
    assert.deepEqual(rules('fixtures/generate/rules.ts', code), [
      '2 the harness names no requirement (the suite binds them): names GRP-01',
      '3 the harness names no requirement (the suite binds them): names FMT-04',
      '4 the harness names no requirement (the suite binds them): names REC-10',
    ]);
    assert.deepEqual(rules('fixtures/requirements.ts', code), [], 'the catalogue loader may');
    assert.deepEqual(rules('tests/generated/bindings.ts', code), [], 'the suite binds them');
  });

  it('the reference imports and names nothing of the suite', () => {
    assert.deepEqual(rules('reference/store.ts', "import { a } from './seed-types.ts';\nconst seed = new URL('./seed/seed.json', import.meta.url);"), []);
    assert.deepEqual(rules('reference/store.ts', "const seed = new URL('../fixtures/seed/seed.json', import.meta.url);"), [
      "1 the reference knows nothing of the suite: names '../fixtures/seed/seed.json'",
    ]);
    assert.deepEqual(rules('reference/plugins/x.ts', "import { check } from '../../fixtures/checks.ts';"), [
      '1 the reference knows nothing of the suite: imports fixtures/checks.ts',
    ]);
  });

  it('the verdict engine imports no presentation code', () => {
    assert.deepEqual(rules('fixtures/checks.ts', "import { citedIds } from './annotation-structure.ts';"), []);
    assert.deepEqual(rules('fixtures/certification.ts', "import type { Finding } from './report-metadata.ts';"), [
      '1 the verdict engine imports no presentation code: imports fixtures/report-metadata.ts',
    ]);
    assert.deepEqual(rules('fixtures/report-metadata.ts', "import { x } from './reporters/allure.ts';"), [], 'presentation may import presentation');
  });

  it('only fixtures/config.ts reads the environment; handing the whole of it over is not reading it', () => {
    assert.deepEqual(rules('fixtures/config.ts', "const a = env['TARGET_NAME'];"), []);
    assert.deepEqual(rules('fixtures/global-setup.ts', 'const plan = planTarget(process.env);'), []);
    assert.deepEqual(rules('fixtures/checks.ts', "if (process.env['X'] === '1') {}"), ['1 only fixtures/config.ts reads the environment: reads process.env[']);
    assert.deepEqual(rules('fixtures/generate/settings.ts', "const seed = env['GENERATED_SEED'];"), [
      "1 only fixtures/config.ts reads the environment: reads env['GENERATED_SEED']",
    ]);
    assert.deepEqual(rules('tests/a.spec.ts', 'const ci = process.env.CI;'), ['1 only fixtures/config.ts reads the environment: reads process.env.C']);
    assert.deepEqual(rules('scripts/x.ts', "const a = process.env['A'];"), [], 'scripts are entry points, outside the rule');
  });
});
