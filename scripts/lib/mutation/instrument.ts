/**
 * Stryker's instrumenter over the reference's behaviour: every mutant of the mutated files compiled
 * into one copy of the reference (mutation switching: `__STRYKER_ACTIVE_MUTANT__` in a process's
 * environment chooses the mutant that process runs), and the list of those mutants.
 *
 * What is mutated is the reference's behaviour: its handlers (`reference/plugins/`), store,
 * pagination, tokens, validation, rules, errors and views. Not mutated: the fault catalogue and the
 * allowed variations (switched off in a plain run, so none of their mutants could be reached), the
 * documented variants' and the options' configuration, the command line and the listener, the seed
 * and its types, and the everyday-word list (data).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import type { Logger } from '@stryker-mutator/api/logging';

/** The mutated files, relative to the repository: reference/*.ts and reference/plugins/*.ts but these. */
const NOT_MUTATED = new Set([
  'reference/cli.ts',
  'reference/server.ts',
  'reference/options.ts',
  'reference/variants.ts',
  'reference/context.ts',
  'reference/seed-types.ts',
  'reference/everyday-words.ts',
]);

export function mutatedFiles(root: string): string[] {
  const listed = (folder: string): string[] =>
    readdirSync(join(root, folder))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${folder}/${name}`);
  return [...listed('reference'), ...listed('reference/plugins')].filter((file) => !NOT_MUTATED.has(file)).sort();
}

/** One mutant, as Stryker's instrumenter reports it, with its source text. */
export interface MutantInfo {
  /** Stryker's id: its rank over the mutated files in their order (stable for the same sources). */
  id: string;
  /** Path relative to the repository. */
  file: string;
  mutatorName: string;
  /** Lines and columns counted from 1, as Stryker's report schema gives them. */
  location: { start: Position; end: Position };
  /** The code the mutant replaces, and its replacement. */
  original: string;
  replacement: string;
}

export interface Instrumented {
  mutants: MutantInfo[];
  /** Instrumented source of each mutated file, by path relative to the repository. */
  sources: Map<string, string>;
  /** Original source of each mutated file. */
  originals: Map<string, string>;
}

const quietLogger: Logger = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`stryker: ${message}\n`),
  error: (message: string) => process.stderr.write(`stryker: ${message}\n`),
  fatal: (message: string) => process.stderr.write(`stryker: ${message}\n`),
};

type Position = { line: number; column: number };

/** The text between two positions of Stryker's API (lines and columns counted from 0). */
function textAt(source: string, start: Position, end: Position): string {
  const lines = source.split('\n');
  if (start.line === end.line) return (lines[start.line] ?? '').slice(start.column, end.column);
  return [(lines[start.line] ?? '').slice(start.column), ...lines.slice(start.line + 1, end.line), (lines[end.line] ?? '').slice(0, end.column)].join('\n');
}

export async function instrument(root: string): Promise<Instrumented> {
  const files = mutatedFiles(root);
  const originals = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  const instrumenter = new Instrumenter(quietLogger);
  const result = await instrumenter.instrument(
    files.map((file) => ({ name: join(root, file), content: originals.get(file) ?? '', mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  );
  const byPath = (name: string): string => relative(root, name).split(sep).join('/');
  const sources = new Map(result.files.map((file) => [byPath(file.name), file.content]));
  const mutants = result.mutants.map((mutant): MutantInfo => {
    const file = byPath(mutant.fileName);
    const { start, end } = mutant.location;
    return {
      id: mutant.id,
      file,
      mutatorName: mutant.mutatorName,
      // The report schema counts lines and columns from 1.
      location: { start: { line: start.line + 1, column: start.column + 1 }, end: { line: end.line + 1, column: end.column + 1 } },
      original: textAt(originals.get(file) ?? '', start, end),
      replacement: mutant.replacement,
    };
  });
  return { mutants, sources, originals };
}

/**
 * Writes a copy of reference/ under `sandbox` with the instrumented files in place of the mutated
 * ones, and bundles it (esbuild, as fixtures/run/reference-bundle.ts bundles the plain reference) into
 * one module that also writes, at exit, which mutants the run reached (Stryker's coverage object)
 * to the file named by MUTATION_COVERAGE_FILE. Returns the bundle's path.
 */
export async function buildMutantBundle(root: string, instrumented: Instrumented, sandbox: string): Promise<string> {
  rmSync(sandbox, { recursive: true, force: true });
  mkdirSync(sandbox, { recursive: true });
  cpSync(join(root, 'reference'), join(sandbox, 'reference'), { recursive: true });
  for (const [file, source] of instrumented.sources) writeFileSync(join(sandbox, file), source);
  const entry = join(sandbox, 'entry.ts');
  writeFileSync(
    entry,
    [
      "import { writeFileSync } from 'node:fs';",
      "process.once('exit', () => {",
      "  const file = process.env['MUTATION_COVERAGE_FILE'];",
      '  const stryker = (globalThis as { __stryker__?: { mutantCoverage?: { static: Record<string, number> } } }).__stryker__;',
      '  if (file !== undefined) writeFileSync(file, JSON.stringify(Object.keys(stryker?.mutantCoverage?.static ?? {})));',
      '});',
      "await import('./reference/server.ts');",
      '',
    ].join('\n'),
  );
  const { build } = await import('esbuild');
  const outfile = join(sandbox, 'reference.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0] ?? '20'}`,
    packages: 'external',
    outfile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(plugin) {
          // Each module keeps its own location (the store finds its seed beside it, in the sandbox's copy).
          plugin.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  if (!existsSync(outfile)) throw new Error(`esbuild wrote no bundle at ${outfile}`);
  mkdirSync(dirname(outfile), { recursive: true });
  return outfile;
}
