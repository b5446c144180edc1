// dependency-cruiser's configuration: the import rules of docs/architecture.md ("Layers"), checked
// by `npm run check:layers` (inside npm test), as Kubernetes checks its import-restrictions.yaml.
// The layers are data here; the rules and the picture in docs/architecture.md are made from them.

/** The wings of the harness (fixtures/<wing>/), in layers from the ground up. A wing imports only wings of lower layers. */
export const LAYERS = [
  { wings: ['config', 'evidence'], name: 'ground' },
  { wings: ['contract'], name: 'the contract' },
  { wings: ['verdict'], name: 'judging' },
  { wings: ['transport'], name: 'talking to the target' },
  { wings: ['data', 'run'], name: "the target's data, the run's processes" },
  { wings: ['generate', 'reporters'], name: 'generated inputs, reports' },
];

/** The harness's entries, above every wing: what the specs import, and what Playwright runs before them. */
export const ENTRIES = ['fixtures/index.ts', 'fixtures/global-setup.ts'];

/**
 * The scripts (scripts/<folder>/), one folder per kind, as Kubernetes keeps what it ships (cmd/), its
 * own verify scripts (hack/) and its suites (test/) apart. A kind's folder holds its entry points,
 * each run by an npm script (or action.yml, or the workflow) and named after it; `scripts/lib/` holds
 * everything they build on: what two scripts share and the pure, unit-tested part of one. A script
 * imports no other script, only lib/; lib/ imports no kind's folder (no arrow back up). A new script
 * goes to the folder of its kind; a module it imports goes to lib/ (or into the harness, when the
 * harness is where it belongs).
 */
export const SCRIPT_KINDS = [
  { folder: 'commands', name: 'commands for users' },
  { folder: 'checks', name: "the project's own checks" },
  { folder: 'bench', name: 'benchmarks' },
  { folder: 'maintainer', name: "maintainers' tools" },
];
export const SCRIPT_LIB = 'lib';

/**
 * What a command for users may import of the harness: the wings that read and present a run's
 * results (and their ground). A command runs the suite through Playwright, never in its own process,
 * so it needs neither the wings that make a run (transport, data, run, generate) nor the reference.
 */
export const COMMAND_WINGS = ['config', 'evidence', 'contract', 'verdict', 'reporters'];

/** Wings whose modules Playwright loads on their own (reporters), and so read the harness's settings themselves. */
const READ_SETTINGS = ['reporters'];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wingsBelow = (index) => LAYERS.slice(0, index).flatMap((layer) => layer.wings);

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.wings.map((wing) => {
    const below = wingsBelow(index);
    return {
      name: `layer-${wing}`,
      comment: `fixtures/${wing}/ imports only ${below.length === 0 ? 'no other wing' : below.map((name) => `fixtures/${name}/`).join(', ')} (the layers of docs/architecture.md)`,
      severity: 'error',
      from: { path: `^fixtures/${wing}/` },
      to: { path: '^fixtures/', pathNot: `^fixtures/(?:${[wing, ...below].join('|')})/` },
    };
  }),
);

const scriptRules = [
  ...SCRIPT_KINDS.map(({ folder, name }) => ({
    name: `scripts-${folder}`,
    comment: `scripts/${folder}/ (${name}) imports, of scripts/, only scripts/${SCRIPT_LIB}/: a script imports no other script, whatever its kind`,
    severity: 'error',
    from: { path: `^scripts/${folder}/` },
    to: { path: '^scripts/', pathNot: `^scripts/${SCRIPT_LIB}/` },
  })),
  {
    name: `scripts-${SCRIPT_LIB}`,
    comment: `scripts/${SCRIPT_LIB}/, what the kinds share, imports no kind's folder: no arrow back up`,
    severity: 'error',
    from: { path: `^scripts/${SCRIPT_LIB}/` },
    to: { path: '^scripts/', pathNot: `^scripts/${SCRIPT_LIB}/` },
  },
  {
    name: 'scripts-through-the-wings',
    comment:
      "a script takes the harness through its wings (fixtures/<wing>/), never through the entries, which wire Playwright's run, nor the suite (tests/), which Playwright runs",
    severity: 'error',
    from: { path: '^scripts/' },
    to: { path: ['^fixtures/[^/]+$', '^tests/'] },
  },
  {
    name: 'commands-read-a-run',
    comment: `what a command for users reaches, itself or through scripts/${SCRIPT_LIB}/, of the harness is ${COMMAND_WINGS.map((wing) => `fixtures/${wing}/`).join(', ')}, and nothing of reference/: a command reads and presents a run, it never makes one in its own process`,
    severity: 'error',
    from: { path: '^scripts/commands/' },
    to: { reachable: true, path: ['^reference/', '^fixtures/'], pathNot: `^fixtures/(?:${COMMAND_WINGS.join('|')})/` },
  },
  {
    name: 'nothing-imports-the-scripts',
    comment: 'the harness and the suite (tests/ but its unit tests) import nothing of scripts/: the scripts stand above them',
    severity: 'error',
    from: { path: ['^fixtures/', '^tests/'], pathNot: '^tests/unit/' },
    to: { path: '^scripts/' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no module reaches itself through its imports: a circle, even of two modules, means a piece belongs lower or should be passed in',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...scriptRules,
    {
      name: 'settings-read-at-the-entries',
      comment: `below the entries, a wing takes the harness's settings and the target as parameters: it imports fixtures/config/ for its types only (${READ_SETTINGS.map((wing) => `fixtures/${wing}/`).join(', ')}, loaded by Playwright on their own, read them)`,
      severity: 'error',
      from: { path: '^fixtures/[^/]+/', pathNot: `^fixtures/(?:config|${READ_SETTINGS.join('|')})/` },
      to: { path: '^fixtures/config/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'suite-through-the-entry',
      comment: 'the suite (tests/ but its unit tests) takes the harness through fixtures/index.ts only',
      severity: 'error',
      from: { path: '^tests/', pathNot: '^tests/unit/' },
      to: { path: '^fixtures/', pathNot: `^${escape(ENTRIES[0])}$` },
    },
    {
      name: 'harness-without-the-suite',
      comment: 'the harness (fixtures/) imports nothing of the suite (tests/)',
      severity: 'error',
      from: { path: '^fixtures/' },
      to: { path: '^tests/' },
    },
    {
      name: 'reference-alone',
      comment: 'the reference (reference/) imports nothing of the harness, the suite or the scripts: it is one implementation among many',
      severity: 'error',
      from: { path: '^reference/' },
      to: { path: '^(?:fixtures|tests|scripts)/' },
    },
    {
      name: 'playwright-internals-in-one-module',
      comment:
        "only fixtures/verdict/playwright-internals.ts imports what Playwright does not publish (its lib/); the names of its private fixtures are npm run check:imports' to find",
      severity: 'error',
      from: { path: '^(?:fixtures|reference|tests)/', pathNot: ['^tests/unit/', '^fixtures/verdict/playwright-internals\\.ts$'] },
      to: { path: '(?:^|node_modules/)(?:@playwright/test|playwright|playwright-core)/lib/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(?:node_modules|reports|test-results)/' },
    // Type-only imports are held to the same direction as the others.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
