/**
 * `npm run check:imports`: the rules of docs/architecture.md that no import rule can state, kept by a
 * check rather than by prose (as Kubernetes generates its conformance list from the code instead of
 * trusting a tag). Who may import whom (the layers of the wings, no circle, the suite through
 * fixtures/index.ts, a reference that imports nothing of the suite, Playwright's lib/ in one module)
 * is dependency-cruiser's, from .dependency-cruiser.mjs (`npm run check:layers`); what is left here
 * is about what the code says, not what it imports:
 *
 * - The harness names no requirement: no string or template literal in fixtures/ holds a requirement
 *   ID, outside the catalogue loader (fixtures/verdict/requirements.ts). The suite binds requirements where it
 *   calls a condition, and hands the harness what it must attribute (tests/generated/bindings.ts,
 *   tests/support/discovery.ts); the OpenAPI document names those of its schemas (`x-requirement`).
 * - The reference (reference/) reads no file of the harness, the tests or the scripts (a path into
 *   them outside an import): it is one implementation among many and knows nothing about the suite.
 * - Only the readers of the config wing read the environment (ENVIRONMENT_READERS): no other module of
 *   the harness, the specs or the reference reads a variable (`process.env.X`, `process.env[...]`,
 *   `env['X']`), not even the wing's other modules, which take values; handing the whole environment to
 *   the wing's functions is not reading it.
 * - One way to say "cannot judge": the harness, the specs and their helpers say it with the words of
 *   fixtures/verdict/not-assessed.ts (`notAssessed`, its forms, `notApplicable`), never with the idioms they
 *   replaced (a skip written by hand, its reason prefix, the error class, a raw annotation).
 * - Only fixtures/verdict/playwright-internals.ts names what Playwright does not publish: no other module of
 *   the harness, the specs or the reference names one of its private fixtures, its
 *   'all-hooks-included' mode or its TestSkipError.
 * - The harness lives in wings: fixtures/ holds its two entries (index.ts, global-setup.ts) and the
 *   wing folders, no other module (a file's place, not an import).
 * - The scripts live by kind: every module of scripts/ is in the folder of its kind or in lib/
 *   (SCRIPT_KINDS of .dependency-cruiser.mjs), none at the root of scripts/.
 *
 * Prints each breach with its file and line, and exits 1 when there is one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import { REPO_ROOT } from '../lib/repo-root.ts';
import { layerConfig } from '../lib/layer-config.ts';

export interface Breach {
  file: string;
  line: number;
  rule: string;
  detail: string;
}

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
const PLAYWRIGHT_INTERNALS_MODULE = 'fixtures/verdict/playwright-internals.ts';
const PLAYWRIGHT_INTERNAL =
  /\b_(?:combinedContextOptions|setupArtifacts|setupContextOptions|contextFactory|reuseContext)\b|all-hooks-included|\bTestSkipError\b/g;
/**
 * The modules that read (or, for the workers, write) environment variables, each for its own part:
 * the profile's sources, the staging network's proxy and CA variables, the harness's settings, the
 * plan's TARGET_FILE, and the hand-offs from the runner to its workers.
 */
const ENVIRONMENT_READERS: ReadonlySet<string> = new Set([
  'fixtures/config/sources.ts',
  'fixtures/config/staging-network.ts',
  'fixtures/config/settings.ts',
  'fixtures/config/plan.ts',
  'fixtures/config/handoff.ts',
]);
const ENVIRONMENT_RULE = 'only the readers of fixtures/config/ read the environment';
const ENV_READ = /process\.env\s*(?:\[|\.[A-Za-z_])|\benv\s*(?:\[\s*['"`][A-Z][A-Z0-9_]*['"`]\s*\]|\.[A-Z][A-Z0-9_]+\b)/g;
/** The module of the one vocabulary for "cannot judge", the only place its mechanism may be named. */
const CANNOT_JUDGE = 'fixtures/verdict/not-assessed.ts';
/** The idioms the vocabulary replaced, each with the word that says it now. */
const OTHER_CANNOT_JUDGE: readonly { pattern: RegExp; instead: string }[] = [
  { pattern: /\b(?:test|base|testInfo|test\.info\(\))\.(?:skip|fixme)\s*\(/g, instead: 'notAssessed(reason, need) or notApplicable(reason)' },
  { pattern: /['"`]not (?:assessed|applicable): /g, instead: 'notAssessed(reason) or notApplicable(reason), which write the prefix' },
  { pattern: /\bNotAssessable\b/g, instead: 'notAssessed.check(reason) inside a check, notAssessed.is(error) to recognise it' },
  { pattern: /\bcheckNotAssessed\b/g, instead: 'notAssessed.record(id, label, reason)' },
  { pattern: /\bneeds\(/g, instead: "value ?? notAssessed(reason, { enable: 'TARGET_X' })" },
  { pattern: /\brequire(?:Writes|Destructive)\b/g, instead: "if (!target.allowWrites) notAssessed(reason, { enable: 'TARGET_ALLOW_WRITES' })" },
  { pattern: /(?:\btype:\s*|\bannotate\(\s*)['"`]not assessed['"`]/g, instead: 'notAssessed.case(description)' },
];

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(?:ts|mts)$/.test(name) ? [path] : [];
  });
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** The repository-relative paths a source imports (relative specifiers only), with their lines. */
export function importsOf(file: string, text: string, root: string = REPO_ROOT): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? '';
    if (!specifier.startsWith('.')) continue;
    found.push({
      target: relative(root, resolve(dirname(file), specifier))
        .split('\\')
        .join('/'),
      line: lineOf(text, (match.index ?? 0) + Math.max(0, match[0].search(/\S/))),
    });
  }
  return found;
}

/** The one module of the harness that may name requirement IDs: it loads the catalogue. */
const CATALOGUE_LOADER = 'fixtures/verdict/requirements.ts';

const LITERALS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

let catalogueIds: RegExp | undefined;

/** A requirement ID of one of the catalogue's prefixes (`PAG-05`, and a number the catalogue lacks too). */
function requirementIdPattern(): RegExp {
  catalogueIds ??= new RegExp(`\\b(?:${[...new Set(requirements().map((entry) => entry.id.replace(/-\d+$/, '')))].join('|')})-\\d{2,3}\\b`, 'g');
  return catalogueIds;
}

/** The requirement IDs that string, template and regular-expression literals of a source hold, with their lines (comments are not code). */
export function requirementLiteralsOf(text: string): { id: string; line: number }[] {
  const source = ts.createSourceFile('source.ts', text, ts.ScriptTarget.Latest, true);
  const found: { id: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (LITERALS.has(node.kind)) {
      const start = node.getStart(source);
      for (const match of node.getText(source).matchAll(requirementIdPattern())) {
        found.push({ id: match[0], line: source.getLineAndCharacterOfPosition(start + (match.index ?? 0)).line + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The breaches of one source file (`path` relative to the repository). */
export function breachesOf(path: string, text: string, root: string = REPO_ROOT): Breach[] {
  const breaches: Breach[] = [];
  const file = join(root, path);
  // The suite: the spec files and everything beside them but the project's own unit tests.
  const isSpecSide = path.startsWith('tests/') && !path.startsWith('tests/unit/');
  if (path.startsWith('fixtures/') && path !== CATALOGUE_LOADER) {
    for (const { id, line } of requirementLiteralsOf(text)) {
      breaches.push({ file: path, line, rule: 'the harness names no requirement (the suite binds them)', detail: `names ${id}` });
    }
  }
  if (path.startsWith('reference/')) {
    // What it imports is dependency-cruiser's (reference-alone); a path into the suite outside an import is a file read at run time (a seed, a profile).
    const importLines = new Set(importsOf(file, text, root).map((entry) => entry.line));
    for (const match of text.matchAll(/['"`](?:\.\.\/)+(?:fixtures|tests|scripts)\/[^'"`]*['"`]/g)) {
      const line = lineOf(text, match.index ?? 0);
      if (!importLines.has(line)) breaches.push({ file: path, line, rule: 'the reference knows nothing of the suite', detail: `names ${match[0]}` });
    }
  }
  // The mechanism of a skip lives in two modules: the vocabulary, and the one that names Playwright's skip error.
  if ((path.startsWith('fixtures/') || isSpecSide) && path !== CANNOT_JUDGE && path !== PLAYWRIGHT_INTERNALS_MODULE) {
    for (const { pattern, instead } of OTHER_CANNOT_JUDGE) {
      for (const match of text.matchAll(pattern)) {
        breaches.push({
          file: path,
          line: lineOf(text, match.index ?? 0),
          rule: `one way to say "cannot judge" (${CANNOT_JUDGE})`,
          detail: `${match[0]}: say ${instead}`,
        });
      }
    }
  }
  const readsEnvironment = (path.startsWith('fixtures/') || isSpecSide || path.startsWith('reference/')) && !ENVIRONMENT_READERS.has(path);
  if (readsEnvironment) {
    for (const match of text.matchAll(ENV_READ)) {
      breaches.push({
        file: path,
        line: lineOf(text, match.index ?? 0),
        rule: ENVIRONMENT_RULE,
        detail: `reads ${match[0]}`,
      });
    }
  }
  if ((path.startsWith('fixtures/') || isSpecSide || path.startsWith('reference/')) && path !== PLAYWRIGHT_INTERNALS_MODULE) {
    for (const match of text.matchAll(PLAYWRIGHT_INTERNAL)) {
      breaches.push({
        file: path,
        line: lineOf(text, match.index ?? 0),
        rule: `only ${PLAYWRIGHT_INTERNALS_MODULE} uses Playwright's internals`,
        detail: `names ${match[0]}`,
      });
    }
  }
  return breaches;
}

/** The wings of the harness (docs/architecture.md, "Layout"; their layers are .dependency-cruiser.mjs'). */
export const HARNESS_WINGS = ['config', 'transport', 'contract', 'data', 'evidence', 'verdict', 'reporters', 'run', 'generate'];
/** The harness's entries, the only modules at the root of fixtures/. */
export const HARNESS_ENTRIES = ['fixtures/index.ts', 'fixtures/global-setup.ts'];

/** Modules of fixtures/ outside the wings: every file of fixtures/ but the entries lives in a wing folder. */
export function outsideTheWings(paths: readonly string[]): Breach[] {
  return paths
    .filter((path) => path.startsWith('fixtures/') && !HARNESS_ENTRIES.includes(path) && /\.(?:ts|mts)$/.test(path))
    .filter((path) => !HARNESS_WINGS.includes(path.split('/')[1] ?? ''))
    .map((path) => ({ file: path, line: 1, rule: 'the harness in wings', detail: `move it into one of fixtures/{${HARNESS_WINGS.join(',')}}/` }));
}

/** Modules of scripts/ outside the folders of its kinds and lib/ (`folders`): a script lives in the folder of its kind. */
export function outsideTheKinds(paths: readonly string[], folders: readonly string[]): Breach[] {
  return paths
    .filter((path) => path.startsWith('scripts/') && /\.(?:ts|mts)$/.test(path))
    .filter((path) => path.split('/').length < 3 || !folders.includes(path.split('/')[1] ?? ''))
    .map((path) => ({
      file: path,
      line: 1,
      rule: 'the scripts by kind',
      detail: `move it into one of scripts/{${folders.join(',')}}/ (docs/architecture.md, "Layout")`,
    }));
}

async function main(): Promise<void> {
  const { SCRIPT_KINDS, SCRIPT_LIB } = await layerConfig();
  const sources = ['fixtures', 'tests', 'reference']
    .flatMap((dir) => filesUnder(join(REPO_ROOT, dir)))
    .filter((file) => !file.includes(`${join('tests', 'unit')}`));
  const paths = sources.map((file) => relative(REPO_ROOT, file).split('\\').join('/'));
  const scripts = filesUnder(join(REPO_ROOT, 'scripts')).map((file) => relative(REPO_ROOT, file).split('\\').join('/'));
  const breaches = [
    ...outsideTheWings(paths),
    ...outsideTheKinds(scripts, [...SCRIPT_KINDS.map((kind) => kind.folder), SCRIPT_LIB]),
    ...sources.flatMap((file, index) => breachesOf(paths[index] as string, readFileSync(file, 'utf8'))),
  ];
  for (const breach of breaches) console.log(`${breach.file}:${breach.line}: ${breach.rule}: ${breach.detail}`);
  console.log(
    `check:imports: ${sources.length} files and ${scripts.length} scripts, ${breaches.length} breach(es) of the rules of docs/architecture.md that no import rule states`,
  );
  process.exit(breaches.length === 0 ? 0 : 1);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(REPO_ROOT, 'scripts/checks/check-imports.ts')) await main();
