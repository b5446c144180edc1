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

  it('says "cannot judge" only with the words of fixtures/not-assessed.ts, which alone names their mechanism', () => {
    const rule = 'one way to say "cannot judge" (fixtures/not-assessed.ts)';
    const allowed = [
      "const channel = target.ids.channel ?? notAssessed('a realtime channel', { enable: 'TARGET_CHANNEL' });",
      "if (total === 0) notAssessed('the list is empty');",
      'if (exchange.status !== 200) notAssessed.check(`getParticipant answered HTTP ${exchange.status}`);',
      'if (!notAssessed.is(error)) throw error;',
      "notAssessed.record('PAG-04', 'the walk', 'the walk could not read its pages (PAG-10)');",
      "if (form === 'bare array') notApplicable('listRecordings answers with a bare array (VAR-01)');",
      '// the check needs records on the target, and skips as not assessed without them',
    ].join('\n');
    assert.deepEqual(rules('tests/a.spec.ts', allowed), []);
    assert.deepEqual(
      rules('fixtures/not-assessed.ts', 'class NotAssessable extends Error {}\nbase.skip(true, `not assessed: ${reason}`);'),
      [],
      'the module is the mechanism',
    );
    assert.deepEqual(
      rules(
        'tests/a.spec.ts',
        [
          "test.skip(total === 0, 'not assessed: the list is empty');",
          "if (!ok) throw new NotAssessable('the list is empty');",
          "checkNotAssessed('PAG-04', 'the walk', 'why');",
          "const channel = needs(target.ids.channel, 'TARGET_CHANNEL', 'a realtime channel');",
          "requireWrites(target, 'creates participants');",
          "test.info().annotations.push({ type: 'not assessed', description: 'a case' });",
        ].join('\n'),
      ).map((line) => line.replace(/: say .*$/, '')),
      [
        `1 ${rule}: test.skip(`,
        `1 ${rule}: 'not assessed: `,
        `2 ${rule}: NotAssessable`,
        `3 ${rule}: checkNotAssessed`,
        `4 ${rule}: needs(`,
        `5 ${rule}: requireWrites`,
        `6 ${rule}: type: 'not assessed'`,
      ],
    );
    assert.deepEqual(rules('tests/support/x.ts', "testInfo.skip(true, 'not applicable: x');").length, 2, 'testInfo.skip and the prefix, in a helper');
    assert.deepEqual(rules('scripts/x.ts', "test.skip(true, 'not assessed: x');"), [], 'scripts are outside the rule');
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
