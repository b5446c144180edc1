/**
 * The triage of surviving mutants, `reference/mutation-triage.yaml`: each survivor of the documented
 * sample is either *equivalent* (no answer of the interface changes; the entry says why) or a *gap*
 * (the suite missed a behaviour the interface states), closed by a check under the requirement it
 * breaks, which quotes the interface's sentence, and a fault of reference/faults/ that breaks the same.
 *
 * A mutant is named by its file, mutator, original and mutated code (whitespace folded, the first
 * 160 characters) and line: an entry matches the mutant of the same code on the same line, or, when
 * the sources moved it, the only mutant of that code in the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface MutantKey {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
}

interface EntryBase extends MutantKey {
  triage: 'equivalent' | 'gap';
}

export interface EquivalentEntry extends EntryBase {
  triage: 'equivalent';
  /** Why no answer of the interface changes. */
  why: string;
}

export interface GapEntry extends EntryBase {
  triage: 'gap';
  /** The requirement the mutant breaks. */
  requirement: string;
  /** The sentence of the interface the requirement rests on. */
  sentence: string;
  /** The check that now kills it: `<spec file> › <test title>`. */
  check: string;
  /** The fault of reference/faults/ that breaks the same requirement the same way. */
  fault: string;
}

export type TriageEntry = EquivalentEntry | GapEntry;

const CODE_CHARS = 160;

/** Code as an entry holds it: whitespace folded to single spaces, at most 160 characters. */
export function codeKey(code: string): string {
  const folded = code.replace(/\s+/g, ' ').trim();
  return folded.length <= CODE_CHARS ? folded : `${folded.slice(0, CODE_CHARS)}…`;
}

export function keyOf(mutant: { file: string; mutatorName: string; original: string; replacement: string; location: { start: { line: number } } }): MutantKey {
  return {
    file: mutant.file,
    line: mutant.location.start.line,
    mutator: mutant.mutatorName,
    original: codeKey(mutant.original),
    replacement: codeKey(mutant.replacement),
  };
}

const sameCode = (a: MutantKey, b: MutantKey): boolean =>
  a.file === b.file && a.mutator === b.mutator && a.original === b.original && a.replacement === b.replacement;

/** The entry of a mutant, among `keys` (every mutant of the sources, to tell when code is not unique in its file). */
export function entryFor(mutant: MutantKey, entries: readonly TriageEntry[], keys: readonly MutantKey[]): TriageEntry | undefined {
  const candidates = entries.filter((entry) => sameCode(entry, mutant));
  const onLine = candidates.find((entry) => entry.line === mutant.line);
  if (onLine !== undefined) return onLine;
  const unique = keys.filter((key) => sameCode(key, mutant)).length === 1;
  return unique && candidates.length === 1 ? candidates[0] : undefined;
}

export interface TriageContext {
  root: string;
  /** Requirement ids of the catalogue. */
  requirementIds: ReadonlySet<string>;
  /** Faults of reference/faults/, by name, with the requirements each declares. */
  faults: ReadonlyMap<string, readonly string[]>;
}

/** Reads and checks the triage file: every problem, each naming its entry. */
export function parseTriage(text: string, context: TriageContext): { entries: TriageEntry[]; problems: string[] } {
  const problems: string[] = [];
  const document: unknown = parse(text);
  const list = typeof document === 'object' && document !== null ? (document as Record<string, unknown>)['survivors'] : undefined;
  if (!Array.isArray(list)) return { entries: [], problems: ['expected a top-level list `survivors:`'] };
  const entries: TriageEntry[] = [];
  list.forEach((raw: unknown, index) => {
    const where = `survivors[${index}]`;
    if (typeof raw !== 'object' || raw === null) {
      problems.push(`${where}: expected a mapping`);
      return;
    }
    const entry = raw as Record<string, unknown>;
    const text = (key: string): string => {
      const value = entry[key];
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`${where}: ${key} must be a non-empty string`);
        return '';
      }
      return value;
    };
    const common = { file: text('file'), mutator: text('mutator'), original: text('original'), replacement: text('replacement') };
    const line = entry['line'];
    if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1) problems.push(`${where}: line must be a positive integer`);
    const key = { ...common, line: typeof line === 'number' ? line : 0 };
    if (common.file !== '' && !existsSync(join(context.root, common.file))) problems.push(`${where}: no file ${common.file}`);
    const allowed = entry['triage'] === 'equivalent' ? ['why'] : entry['triage'] === 'gap' ? ['requirement', 'sentence', 'check', 'fault'] : [];
    const unknown = Object.keys(entry).filter((name) => !['file', 'line', 'mutator', 'original', 'replacement', 'triage', ...allowed].includes(name));
    if (unknown.length > 0) problems.push(`${where}: unknown keys ${unknown.join(', ')}`);
    if (entry['triage'] === 'equivalent') {
      entries.push({ ...key, triage: 'equivalent', why: text('why') });
    } else if (entry['triage'] === 'gap') {
      const gap: GapEntry = { ...key, triage: 'gap', requirement: text('requirement'), sentence: text('sentence'), check: text('check'), fault: text('fault') };
      if (gap.requirement !== '' && !context.requirementIds.has(gap.requirement)) problems.push(`${where}: no requirement ${gap.requirement} in the catalogue`);
      const declared = context.faults.get(gap.fault);
      if (gap.fault !== '' && declared === undefined) problems.push(`${where}: no fault ${gap.fault} in reference/faults/`);
      else if (declared !== undefined && !declared.includes(gap.requirement)) problems.push(`${where}: fault ${gap.fault} does not declare ${gap.requirement}`);
      const specFile = gap.check.split(' › ')[0] ?? '';
      if (gap.check !== '' && !existsSync(join(context.root, specFile))) problems.push(`${where}: check names no file of the repository (${specFile})`);
      else if (gap.check !== '' && !readFileSync(join(context.root, specFile), 'utf8').includes(gap.check.slice(specFile.length + 3)))
        problems.push(`${where}: ${specFile} has no test titled ${JSON.stringify(gap.check.slice(specFile.length + 3))}`);
      entries.push(gap);
    } else {
      problems.push(`${where}: triage must be equivalent or gap`);
    }
  });
  return { entries, problems };
}
