/**
 * The import rules of .dependency-cruiser.mjs (npm run check:layers), each on a small tree of its
 * own: a wrong-way import, a circle, a value read from fixtures/config/ below the entries, each
 * fails, naming its rule, and the allowed forms pass. The step itself exits 1 on such a tree.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cruiseTree, moduleCircles, pictureGraph, scriptsLine, tiedPairs, wingCircles, wingGraph, withBlock } from '../../scripts/checks/check-layers.ts';
import { layerConfig } from '../../scripts/lib/layer-config.ts';
import { REPO_ROOT } from '../../scripts/lib/playwright-run.ts';

const WINGS = ['config', 'evidence', 'contract', 'verdict', 'transport', 'data', 'run', 'generate', 'reporters'];
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A checkout of `files` (path: source) in a fresh temporary directory. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

async function broken(files: Record<string, string>): Promise<string[]> {
  const result = await cruiseTree(tree(files));
  return result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`).sort();
}

describe('check:layers (dependency-cruiser)', () => {
  it('refuses an import against the direction of the layers, a type-only one too; the other way is allowed', async () => {
    assert.deepEqual(
      await broken({
        'fixtures/verdict/engine.ts': "import { label } from '../reporters/labels.ts';\nexport const verdict = label;",
        'fixtures/reporters/labels.ts': 'export const label = 1;',
        'fixtures/contract/check.ts': "import type { Verdict } from '../verdict/types.ts';\nexport type Checked = Verdict;",
        'fixtures/verdict/types.ts': 'export type Verdict = string;',
      }),
      ['layer-contract: fixtures/contract/check.ts -> fixtures/verdict/types.ts', 'layer-verdict: fixtures/verdict/engine.ts -> fixtures/reporters/labels.ts'],
    );
    assert.deepEqual(
      await broken({
        'fixtures/reporters/labels.ts': "import { verdict } from '../verdict/engine.ts';\nexport const label = verdict;",
        'fixtures/verdict/engine.ts': "import type { Checked } from '../contract/check.ts';\nexport const verdict: Checked = 'passed';",
        'fixtures/contract/check.ts': 'export type Checked = string;',
        'fixtures/index.ts': "export { label } from './reporters/labels.ts';",
      }),
      [],
    );
  });

  it('refuses peers of one layer importing each other, and a wing importing the entries', async () => {
    assert.deepEqual(
      await broken({
        'fixtures/data/discovery.ts': "import { start } from '../run/reference.ts';\nexport const d = start;",
        'fixtures/run/reference.ts': "import { test } from '../index.ts';\nexport const start = test;",
        'fixtures/index.ts': 'export const test = 1;',
      }),
      ['layer-data: fixtures/data/discovery.ts -> fixtures/run/reference.ts', 'layer-run: fixtures/run/reference.ts -> fixtures/index.ts'],
    );
  });

  it('refuses a circle, even of two modules of one wing, even through a type', async () => {
    const files = {
      'fixtures/data/discovery.ts': "import { find } from './served.ts';\nexport class Discovery { f = find; }",
      'fixtures/data/served.ts': "import type { Discovery } from './discovery.ts';\nexport const find = (d?: Discovery) => d;",
    };
    assert.deepEqual(await broken(files), ['no-circular: fixtures/data/discovery.ts -> fixtures/data/served.ts']);
    assert.deepEqual(moduleCircles(await cruiseTree(tree(files))), [['fixtures/data/discovery.ts', 'fixtures/data/served.ts']]);
  });

  it('below the entries, fixtures/config/ is imported for its types only; the entries and the reporters read the settings', async () => {
    const profile = 'export interface TargetConfig { name: string }';
    const settings = 'export const harnessSettings = () => ({ runId: undefined });';
    assert.deepEqual(
      await broken({
        'fixtures/config/profile.ts': profile,
        'fixtures/config/settings.ts': settings,
        'fixtures/data/watch.ts': "import { harnessSettings } from '../config/settings.ts';\nexport const file = harnessSettings();",
        'fixtures/transport/client.ts': "import type { TargetConfig } from '../config/profile.ts';\nexport const t = (c: TargetConfig) => c;",
        'fixtures/reporters/run-info.ts': "import { harnessSettings } from '../config/settings.ts';\nexport const info = harnessSettings();",
        'fixtures/index.ts': "import { harnessSettings } from './config/settings.ts';\nexport const s = harnessSettings();",
      }),
      ['settings-read-at-the-entries: fixtures/data/watch.ts -> fixtures/config/settings.ts'],
    );
  });

  it("keeps the suite to fixtures/index.ts, the harness away from the suite, the reference alone, and Playwright's lib/ in one module", async () => {
    assert.deepEqual(
      await broken({
        'fixtures/index.ts': 'export const test = 1;',
        'fixtures/data/discovery.ts': "import { bindings } from '../../tests/generated/bindings.ts';\nexport const d = bindings;",
        'tests/generated/bindings.ts': "import { test } from '../../fixtures/index.ts';\nexport const bindings = test;",
        'tests/support/reads.ts': "import { d } from '../../fixtures/data/discovery.ts';\nexport const r = d;",
        'tests/unit/discovery.test.ts': "import { d } from '../../fixtures/data/discovery.ts';\nexport const u = d;",
        'reference/store.ts': "import { test } from '../fixtures/index.ts';\nexport const s = test;",
        'fixtures/run/internals.ts': "import { x } from 'playwright-core/lib/utils';\nexport const y = x;",
      }),
      [
        'harness-without-the-suite: fixtures/data/discovery.ts -> tests/generated/bindings.ts',
        'playwright-internals-in-one-module: fixtures/run/internals.ts -> playwright-core/lib/utils',
        'reference-alone: reference/store.ts -> fixtures/index.ts',
        'suite-through-the-entry: tests/support/reads.ts -> fixtures/data/discovery.ts',
      ],
    );
  });

  it('keeps the scripts by kind: a script imports no other script, only scripts/lib/, lib/ no kind, the harness through its wings', async () => {
    assert.deepEqual(
      await broken({
        'fixtures/index.ts': 'export const test = 1;',
        'fixtures/verdict/verdict.ts': 'export const verdict = 1;',
        'fixtures/run/reference.ts': 'export const start = 1;',
        'reference/app.ts': 'export const app = 1;',
        'scripts/lib/shared.ts': "import { start } from '../../fixtures/run/reference.ts';\nexport const shared = start;",
        'scripts/lib/up.ts': "import { bench } from '../bench/bench-x.ts';\nexport const up = bench;",
        'scripts/bench/bench-x.ts': "import { test } from '../../fixtures/index.ts';\nexport const bench = test;",
        'scripts/checks/check-x.ts':
          "import { verify } from '../commands/verify.ts';\nimport { pure } from './x.ts';\nimport { app } from '../../reference/app.ts';\nexport const c = [verify, pure, app];",
        'scripts/checks/x.ts':
          "import { shared } from '../lib/shared.ts';\nimport { verdict } from '../../fixtures/verdict/verdict.ts';\nexport const pure = [shared, verdict];",
        'scripts/commands/verify.ts': "import { verdict } from '../../fixtures/verdict/verdict.ts';\nexport const verify = verdict;",
        'scripts/commands/report.ts': "import { shared } from '../lib/shared.ts';\nexport const report = shared;",
        'scripts/commands/seed.ts': "import { app } from '../../reference/app.ts';\nexport const seed = app;",
        'fixtures/data/discovery.ts': "import { shared } from '../../scripts/lib/shared.ts';\nexport const d = shared;",
      }),
      [
        'commands-read-a-run: scripts/commands/report.ts -> fixtures/run/reference.ts',
        'commands-read-a-run: scripts/commands/seed.ts -> reference/app.ts',
        'nothing-imports-the-scripts: fixtures/data/discovery.ts -> scripts/lib/shared.ts',
        'scripts-checks: scripts/checks/check-x.ts -> scripts/checks/x.ts',
        'scripts-checks: scripts/checks/check-x.ts -> scripts/commands/verify.ts',
        'scripts-lib: scripts/lib/up.ts -> scripts/bench/bench-x.ts',
        'scripts-through-the-wings: scripts/bench/bench-x.ts -> fixtures/index.ts',
      ],
    );
  });

  it('counts the pairs of wings tied by an import, as the code runs and with types, and the circles between wings', async () => {
    const result = await cruiseTree(
      tree({
        'fixtures/contract/check.ts': "import type { Verdict } from '../verdict/types.ts';\nexport type Checked = Verdict;",
        'fixtures/verdict/types.ts': "import { check } from '../contract/values.ts';\nexport type Verdict = typeof check;",
        'fixtures/contract/values.ts': 'export const check = 1;',
        'fixtures/index.ts': "import { check } from './contract/values.ts';\nexport const test = check;",
        'tests/a.spec.ts': "import { test } from '../fixtures/index.ts';\nexport const a = test;",
      }),
    );
    const graph = wingGraph(result, WINGS);
    assert.deepEqual(tiedPairs(graph, true), ['contract - entries', 'contract - verdict', 'entries - suite']);
    assert.deepEqual(tiedPairs(graph, false), ['contract - entries', 'contract - verdict', 'entries - suite']);
    assert.deepEqual(wingCircles(graph), [['contract', 'verdict']]);
  });

  it("draws the scripts' folders and the reference in the picture, and counts an arrow between kinds as one across", async () => {
    const result = await cruiseTree(
      tree({
        'fixtures/verdict/verdict.ts': 'export const verdict = 1;',
        'reference/app.ts': 'export const app = 1;',
        'scripts/lib/shared.ts': "import { app } from '../../reference/app.ts';\nexport const shared = app;",
        'scripts/checks/check-x.ts':
          "import { shared } from '../lib/shared.ts';\nimport { verify } from '../commands/verify.ts';\nexport const c = [shared, verify];",
        'scripts/commands/verify.ts': "import { verdict } from '../../fixtures/verdict/verdict.ts';\nexport const verify = verdict;",
      }),
    );
    const layout = await layerConfig();
    const picture = pictureGraph(result, WINGS, [...layout.SCRIPT_KINDS.map((kind) => kind.folder), layout.SCRIPT_LIB]);
    assert.deepEqual([...picture.edges.keys()].sort(), [
      'scripts_checks>scripts_commands',
      'scripts_checks>scripts_lib',
      'scripts_commands>verdict',
      'scripts_lib>reference',
    ]);
    assert.equal(
      scriptsLine(picture, layout),
      '5 folders of scripts (4 kinds and lib/): 2 pairs tied, 1 from a kind down to lib/, 1 back up or across; they import 1 of the 9 wings; arrows to the entries or the suite: 0',
    );
  });

  it('replaces the picture between its markers in docs/architecture.md, and says when there is none', () => {
    const begin = '<!-- layers: begin (made by npm run check:layers -- --write from .dependency-cruiser.mjs and the imports; do not edit) -->';
    assert.equal(withBlock(`a\n${begin}\nold\n<!-- layers: end -->\nb`, 'NEW'), 'a\nNEW\nb');
    assert.equal(withBlock('a\nb', 'NEW'), undefined);
  });

  it('fails the npm test step on a tree with an import against the direction, naming the rule', () => {
    const root = tree({
      'fixtures/verdict/engine.ts': "import { label } from '../reporters/labels.ts';\nexport const verdict = label;",
      'fixtures/reporters/labels.ts': 'export const label = 1;',
    });
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'checks', 'check-layers.ts'), '--root', root], {
      encoding: 'utf8',
      cwd: REPO_ROOT,
    });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /layer-verdict: fixtures\/verdict\/engine\.ts → fixtures\/reporters\/labels\.ts/);
    assert.match(run.stdout, /1 broken rule\(s\) of \.dependency-cruiser\.mjs/);
  });
});
