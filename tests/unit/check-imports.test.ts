/**
 * The rules no import rule states (scripts/checks/check-imports.ts): each finds its breach, and leaves the
 * allowed forms alone. The import rules are dependency-cruiser's (tests/unit/check-layers.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { breachesOf, outsideTheKinds, outsideTheWings } from '../../scripts/checks/check-imports.ts';

const ROOT = '/repo';
const rules = (path: string, text: string): string[] => breachesOf(path, text, ROOT).map((breach) => `${breach.line} ${breach.rule}: ${breach.detail}`);

describe('check:imports', () => {
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
    assert.deepEqual(rules('fixtures/verdict/requirements.ts', code), [], 'the catalogue loader may');
    assert.deepEqual(rules('tests/generated/bindings.ts', code), [], 'the suite binds them');
  });

  it('the reference names no file of the suite; its imports are left to dependency-cruiser', () => {
    assert.deepEqual(rules('reference/store.ts', "import { a } from './seed-types.ts';\nconst seed = new URL('./seed/seed.json', import.meta.url);"), []);
    assert.deepEqual(rules('reference/store.ts', "const seed = new URL('../fixtures/seed/seed.json', import.meta.url);"), [
      "1 the reference knows nothing of the suite: names '../fixtures/seed/seed.json'",
    ]);
    assert.deepEqual(
      rules('reference/plugins/x.ts', "import { check } from '../../fixtures/verdict/checks.ts';"),
      [],
      'reference-alone of .dependency-cruiser.mjs',
    );
  });

  it('says "cannot judge" only with the words of fixtures/verdict/not-assessed.ts, which alone names their mechanism', () => {
    const rule = 'one way to say "cannot judge" (fixtures/verdict/not-assessed.ts)';
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
      rules('fixtures/verdict/not-assessed.ts', 'class NotAssessable extends Error {}\nbase.skip(true, `not assessed: ${reason}`);'),
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

  it('only the readers of fixtures/config/ read the environment; handing the whole of it over is not reading it', () => {
    assert.deepEqual(rules('fixtures/config/sources.ts', "const a = env['TARGET_FILE'];"), []);
    assert.deepEqual(rules('fixtures/config/settings.ts', "const a = env['CONFORMANCE_WORKERS'];"), []);
    assert.deepEqual(rules('fixtures/config/profile.ts', 'const config = loadTargetConfig(env, cwd);'), []);
    assert.deepEqual(rules('fixtures/config/profile.ts', "const a = env['TARGET_NAME'];"), [
      "1 only the readers of fixtures/config/ read the environment: reads env['TARGET_NAME']",
    ]);
    assert.deepEqual(rules('fixtures/global-setup.ts', 'const plan = planTarget(process.env);'), []);
    assert.deepEqual(rules('fixtures/verdict/checks.ts', "if (process.env['X'] === '1') {}"), [
      '1 only the readers of fixtures/config/ read the environment: reads process.env[',
    ]);
    assert.deepEqual(rules('fixtures/generate/settings.ts', "const seed = env['GENERATED_SEED'];"), [
      "1 only the readers of fixtures/config/ read the environment: reads env['GENERATED_SEED']",
    ]);
    assert.deepEqual(rules('tests/a.spec.ts', 'const ci = process.env.CI;'), [
      '1 only the readers of fixtures/config/ read the environment: reads process.env.C',
    ]);
    assert.deepEqual(rules('scripts/x.ts', "const a = process.env['A'];"), [], 'scripts are entry points, outside the rule');
  });

  it("only fixtures/verdict/playwright-internals.ts uses Playwright's internals", () => {
    assert.deepEqual(rules('fixtures/verdict/playwright-internals.ts', "_setupArtifacts: [async ({}, use) => use(), { auto: 'all-hooks-included' }],"), []);
    assert.deepEqual(rules('fixtures/index.ts', '  _combinedContextOptions: [{}, { box: true }],'), [
      "1 only fixtures/verdict/playwright-internals.ts uses Playwright's internals: names _combinedContextOptions",
    ]);
    assert.deepEqual(rules('fixtures/verdict/checks.ts', "return error.constructor.name === 'TestSkipError';"), [
      "1 only fixtures/verdict/playwright-internals.ts uses Playwright's internals: names TestSkipError",
    ]);
    assert.deepEqual(rules('tests/a.spec.ts', "import { x } from 'playwright-core/lib/utils';"), [], "an import of lib/ is dependency-cruiser's");
    assert.deepEqual(rules('tests/unit/x.test.ts', "const name = 'TestSkipError';"), [], 'the unit tests check the internals');
  });

  it('the harness lives in wings: fixtures/ holds its two entries, the wing folders and data, no other module', () => {
    assert.deepEqual(
      outsideTheWings(['fixtures/index.ts', 'fixtures/global-setup.ts', 'fixtures/transport/client.ts', 'fixtures/targets/reference.env', 'tests/a.spec.ts']),
      [],
    );
    assert.deepEqual(
      outsideTheWings(['fixtures/helpers.ts', 'fixtures/misc/x.ts']).map((breach) => breach.file),
      ['fixtures/helpers.ts', 'fixtures/misc/x.ts'],
    );
  });

  it('the scripts live by kind: every module of scripts/ in the folder of its kind or lib/, none at the root', () => {
    const folders = ['commands', 'checks', 'bench', 'maintainer', 'lib'];
    assert.deepEqual(
      outsideTheKinds(['scripts/checks/check-x.ts', 'scripts/lib/mutation/run.ts', 'scripts/commands/report.ts', 'fixtures/index.ts'], folders),
      [],
    );
    assert.deepEqual(
      outsideTheKinds(['scripts/certify.ts', 'scripts/tools/x.ts', 'scripts/bench/bench-x.ts'], folders).map((breach) => breach.file),
      ['scripts/certify.ts', 'scripts/tools/x.ts'],
    );
  });
});
