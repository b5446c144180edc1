/**
 * `npm run check:layers`: the layers of docs/architecture.md, kept by dependency-cruiser
 * (.dependency-cruiser.mjs: a wing imports only the wings beneath it, no module reaches itself, the
 * suite takes the harness through its entry, the reference knows nothing of the suite, a script
 * imports no other script but scripts/lib/ and the harness through its wings), and the picture of
 * them in docs/architecture.md, made from the same graph, kept current.
 *
 *   npm run check:layers                      the rules, the figures, and whether the picture is current
 *   npm run check:layers -- --write           writes the picture (and its figures) into docs/architecture.md
 *   npm run check:layers -- --root DIR        the rules and the figures of another checkout (no picture)
 *
 * Figures: the import graph of the wings, the harness's entries (fixtures/*.ts) and the suite (tests/
 * but its unit tests), eleven nodes and 55 possible pairs: how many pairs are tied by an import (as
 * the code runs; and counting type-only imports too), the circles between them, and the circles
 * between modules; and the folders of the scripts: the pairs of them tied (each from a kind down to
 * scripts/lib/, or back up or across), the wings they import, and their arrows to the entries or the
 * suite. The picture draws the scripts' folders and the reference too. Exits 1 on a broken rule or a
 * stale picture, naming each (for a rule on what a module reaches, the whole path).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cruise, format } from 'dependency-cruiser';
import type { ICruiseResult } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { layerConfig, type Layout } from '../lib/layer-config.ts';
import { REPO_ROOT } from '../lib/repo-root.ts';

export const ARCHITECTURE_DOC = join(REPO_ROOT, 'docs', 'architecture.md');
/** What the rules look at: the harness, the suite and its unit tests, the scripts, the reference. */
export const CRUISED = ['fixtures', 'tests', 'scripts', 'reference', 'playwright.config.ts'];
const BEGIN = '<!-- layers: begin (made by npm run check:layers -- --write from .dependency-cruiser.mjs and the imports; do not edit) -->';
const END = '<!-- layers: end -->';

/** The module graph of `root` under the rules of .dependency-cruiser.mjs. */
export async function cruiseTree(root: string, paths: readonly string[] = CRUISED): Promise<ICruiseResult> {
  const { default: config } = await layerConfig();
  const tsConfigFile = join(root, 'tsconfig.json');
  const hasTsConfig = existsSync(tsConfigFile);
  const { tsConfig: _tsConfig, ...options } = config.options ?? {};
  const result = await cruise(
    paths.filter((path) => existsSync(join(root, path))),
    {
      ...options,
      ...(hasTsConfig ? { tsConfig: { fileName: tsConfigFile } } : {}),
      baseDir: root,
      ruleSet: { forbidden: config.forbidden ?? [] },
      validate: true,
    },
    {},
    hasTsConfig ? { tsConfig: extractTSConfig(tsConfigFile) } : {},
  );
  return result.output as ICruiseResult;
}

/** The node of the wing graph a module belongs to: a wing, the harness's entries, or the suite. */
export function nodeOf(path: string, wings: readonly string[]): string | undefined {
  if (path.startsWith('tests/')) return path.startsWith('tests/unit/') ? undefined : 'suite';
  const parts = path.split('/');
  if (parts[0] !== 'fixtures') return undefined;
  if (parts.length === 2) return /\.[cm]?ts$/.test(path) ? 'entries' : undefined;
  return wings.includes(parts[1] ?? '') ? parts[1] : undefined;
}

/** The node of the picture a module belongs to: a node of the wing graph, a folder of the scripts, or the reference. */
export function pictureNodeOf(path: string, wings: readonly string[], scriptFolders: readonly string[]): string | undefined {
  const parts = path.split('/');
  if (parts[0] === 'reference') return 'reference';
  if (parts[0] === 'scripts') return parts.length > 2 && scriptFolders.includes(parts[1] ?? '') ? `scripts_${parts[1]}` : undefined;
  return nodeOf(path, wings);
}

export interface WingGraph {
  nodes: string[];
  /** `from>to` for each pair of nodes joined by an import, with whether a value (not only a type) is imported. */
  edges: Map<string, { runtime: boolean }>;
}

export function wingGraph(result: ICruiseResult, wings: readonly string[]): WingGraph {
  return graphOf(result, [...wings, 'entries', 'suite'], (path) => nodeOf(path, wings));
}

/** The graph of the picture: the wing graph, with the folders of the scripts (scripts_<folder>) and the reference. */
export function pictureGraph(result: ICruiseResult, wings: readonly string[], scriptFolders: readonly string[]): WingGraph {
  const nodes = [...wings, 'entries', 'suite', ...scriptFolders.map((folder) => `scripts_${folder}`), 'reference'];
  return graphOf(result, nodes, (path) => pictureNodeOf(path, wings, scriptFolders));
}

function graphOf(result: ICruiseResult, nodes: string[], nodeFor: (path: string) => string | undefined): WingGraph {
  const edges = new Map<string, { runtime: boolean }>();
  for (const module of result.modules) {
    const from = nodeFor(module.source);
    if (from === undefined) continue;
    for (const dependency of module.dependencies) {
      const to = nodeFor(dependency.resolved);
      if (to === undefined || to === from) continue;
      const key = `${from}>${to}`;
      const runtime = !dependency.dependencyTypes.includes('type-only');
      const edge = edges.get(key) ?? { runtime: false };
      edge.runtime ||= runtime;
      edges.set(key, edge);
    }
  }
  return { nodes, edges };
}

/** Pairs of nodes joined by an import either way; `runtime`: counting only imports that remain when the types are erased. */
export function tiedPairs(graph: WingGraph, runtime: boolean): string[] {
  const pairs = new Set<string>();
  for (const [key, edge] of graph.edges) if (edge.runtime || !runtime) pairs.add(key.split('>').sort().join(' - '));
  return [...pairs].sort();
}

/** The circles of the wing graph: its strongly connected sets of more than one node. */
export function wingCircles(graph: WingGraph): string[][] {
  const reaches = new Map(graph.nodes.map((node) => [node, new Set<string>()]));
  for (const key of graph.edges.keys()) {
    const [from, to] = key.split('>') as [string, string];
    reaches.get(from)?.add(to);
  }
  // Transitive closure (eleven nodes).
  for (const via of graph.nodes)
    for (const from of graph.nodes) if (reaches.get(from)?.has(via)) for (const to of reaches.get(via) ?? []) reaches.get(from)?.add(to);
  const circles: string[][] = [];
  const placed = new Set<string>();
  for (const node of graph.nodes) {
    if (placed.has(node)) continue;
    const circle = graph.nodes.filter((other) => other === node || (reaches.get(node)?.has(other) && reaches.get(other)?.has(node)));
    if (circle.length > 1) circles.push(circle);
    for (const member of circle) placed.add(member);
  }
  return circles;
}

/** The distinct module circles dependency-cruiser's no-circular rule found. */
export function moduleCircles(result: ICruiseResult): string[][] {
  const circles = new Map<string, string[]>();
  for (const violation of result.summary.violations) {
    if (violation.rule.name !== 'no-circular' || violation.cycle === undefined) continue;
    const members = [violation.from, ...violation.cycle.map((step) => step.name)].filter((name, index, all) => all.indexOf(name) === index).sort();
    circles.set(members.join(' '), members);
  }
  return [...circles.values()];
}

export function figuresLine(graph: WingGraph, result: ICruiseResult): string {
  const possible = (graph.nodes.length * (graph.nodes.length - 1)) / 2;
  const circles = wingCircles(graph);
  const modules = moduleCircles(result);
  return (
    `${graph.nodes.length} nodes (${graph.nodes.length - 2} wings, the entries, the suite): ${tiedPairs(graph, true).length} of ${possible} pairs tied ` +
    `(${tiedPairs(graph, false).length} counting type-only imports); circles between them: ${circles.length}` +
    `${circles.length === 0 ? '' : ` (${circles.map((circle) => circle.join(', ')).join('; ')})`}; circles between modules: ${modules.length}` +
    `${modules.length === 0 ? '' : ` (${modules.map((circle) => circle.join(', ')).join('; ')})`}`
  );
}

/** The scripts' figures, from the picture's graph: the arrows between their folders, and what they import of the harness. */
export function scriptsLine(picture: WingGraph, layout: Layout): string {
  const lib = `scripts_${layout.SCRIPT_LIB}`;
  const ends = [...picture.edges.keys()].map((key) => key.split('>') as [string, string]);
  const between = ends.filter(([from, to]) => from.startsWith('scripts_') && to.startsWith('scripts_'));
  const down = between.filter(([from, to]) => from !== lib && to === lib);
  const wings = layout.LAYERS.flatMap((layer) => layer.wings);
  const reached = new Set(ends.filter(([from]) => from.startsWith('scripts_')).map(([, to]) => to));
  return (
    `${layout.SCRIPT_KINDS.length + 1} folders of scripts (${layout.SCRIPT_KINDS.length} kinds and ${layout.SCRIPT_LIB}/): ${between.length} pairs tied, ` +
    `${down.length} from a kind down to ${layout.SCRIPT_LIB}/, ${between.length - down.length} back up or across; they import ` +
    `${wings.filter((wing) => reached.has(wing)).length} of the ${wings.length} wings; arrows to the entries or the suite: ${['entries', 'suite'].filter((node) => reached.has(node)).length}`
  );
}

/** The picture: the scripts, then the layers from the suite down, then the reference; each import between two nodes an arrow (dotted: types only). */
export function mermaidOf(picture: WingGraph, layout: Layout): string {
  const rows = [
    {
      id: 'layerScripts',
      name: `the scripts: each kind imports only scripts/${layout.SCRIPT_LIB}/ of them`,
      nodes: layout.SCRIPT_KINDS.map((kind) => [`scripts_${kind.folder}`, `scripts/${kind.folder}/: ${kind.name}`]),
    },
    { id: 'layerScriptsLib', name: 'what the scripts share', nodes: [[`scripts_${layout.SCRIPT_LIB}`, `scripts/${layout.SCRIPT_LIB}/`]] },
    { id: 'layerSuite', name: 'the suite', nodes: [['suite', 'tests/: specs, support, conditions, generated']] },
    { id: 'layerEntries', name: 'the entries', nodes: [['entries', layout.ENTRIES.join('<br>')]] },
    ...layout.LAYERS.map((layer, index) => ({
      id: `layer${index}`,
      name: `${index}: ${layer.name}`,
      nodes: layer.wings.map((wing) => [wing, `fixtures/${wing}/`]),
    })).reverse(),
    { id: 'layerReference', name: 'the reference: imports nothing of the above', nodes: [['reference', 'reference/']] },
  ];
  const lines = ['```mermaid', 'flowchart TB'];
  for (const row of rows) {
    lines.push(`  subgraph ${row.id}["${row.name}"]`, '    direction LR');
    for (const [id, label] of row.nodes) lines.push(`    ${id}["${label}"]`);
    lines.push('  end');
  }
  for (const [key, edge] of [...picture.edges].sort(([a], [b]) => a.localeCompare(b))) {
    const [from, to] = key.split('>') as [string, string];
    lines.push(`  ${from} ${edge.runtime ? '-->' : '-.->'} ${to}`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** The generated block of docs/architecture.md: the figures and the picture. */
export function layersBlock(graph: WingGraph, picture: WingGraph, result: ICruiseResult, layout: Layout): string {
  return [BEGIN, '', `Counted from the imports: ${figuresLine(graph, result)}; ${scriptsLine(picture, layout)}.`, '', mermaidOf(picture, layout), '', END].join(
    '\n',
  );
}

/** `doc` with its generated block replaced by `block`; undefined when it has none. */
export function withBlock(doc: string, block: string): string | undefined {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return `${doc.slice(0, start)}${block}${doc.slice(end + END.length)}`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt < 0 ? REPO_ROOT : resolve(args[rootAt + 1] ?? '.');
  const write = args.includes('--write');
  const layout = await layerConfig();
  const result = await cruiseTree(root);
  const wings = layout.LAYERS.flatMap((layer) => layer.wings);
  const graph = wingGraph(result, wings);
  const picture = pictureGraph(result, wings, [...layout.SCRIPT_KINDS.map((kind) => kind.folder), layout.SCRIPT_LIB]);
  let failed = result.summary.error > 0;
  if (failed) {
    console.log((await format(result, { outputType: 'err' })).output as string);
    // A rule on what a module reaches names only where the path starts: say where it goes.
    for (const violation of result.summary.violations)
      if (violation.via !== undefined) console.log(`${violation.rule.name}: ${[violation.from, ...violation.via.map((step) => step.name)].join(' → ')}`);
  }
  console.log(`check:layers: ${result.summary.totalCruised} modules, ${result.summary.error} broken rule(s) of .dependency-cruiser.mjs`);
  console.log(`check:layers: ${figuresLine(graph, result)}`);
  console.log(`check:layers: ${scriptsLine(picture, layout)}`);
  if (root === REPO_ROOT) {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    const updated = withBlock(doc, layersBlock(graph, picture, result, layout));
    if (updated === undefined) {
      console.log(`check:layers: docs/architecture.md has no block between\n  ${BEGIN}\n  ${END}`);
      failed = true;
    } else if (write) {
      writeFileSync(ARCHITECTURE_DOC, updated);
      console.log('check:layers: wrote the picture of the layers into docs/architecture.md');
    } else if (updated !== doc) {
      console.log("check:layers: the picture of the layers in docs/architecture.md is not the imports' any more: npm run check:layers -- --write");
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(REPO_ROOT, 'scripts/checks/check-layers.ts')) await main();
