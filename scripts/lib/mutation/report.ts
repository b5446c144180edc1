/**
 * The figures and reports of a mutation run: the tally against the triage, the last line, and the
 * report in Stryker's format (mutation-testing-report-schema), rendered by the same web component
 * Stryker's HTML reporter embeds (mutation-testing-elements).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import type { MutantInfo } from './instrument.ts';
import { entryFor, keyOf, type MutantKey, type TriageEntry } from './triage.ts';
import type { MutantStatus } from './verdict.ts';

/** What one sampled mutant's run gave. */
export interface MutantOutcome {
  id: string;
  status: MutantStatus;
  killedBy: string[];
  reason: string;
  durationMs: number;
}

export interface Tally {
  sampled: number;
  killed: number;
  survived: number;
  equivalent: number;
  gapsClosed: number;
  untriaged: number;
  timedOut: number;
  errors: number;
  /** Killed or timed out, over the sampled mutants that are neither equivalent nor errors, in percent. */
  score: number;
  /** Survivors without an equivalent entry (a gap entry whose mutant survives is still open), with their key. */
  untriagedMutants: { mutant: MutantInfo; outcome: MutantOutcome; entry?: TriageEntry }[];
  /** Mutants triaged equivalent that the suite killed: the triage is wrong, or a check judges what the interface does not state. */
  contradicted: { mutant: MutantInfo; outcome: MutantOutcome }[];
}

const survives = (status: MutantStatus): boolean => status === 'Survived' || status === 'NoCoverage';

export function tally(mutants: readonly MutantInfo[], outcomes: readonly MutantOutcome[], entries: readonly TriageEntry[]): Tally {
  const keys: MutantKey[] = mutants.map(keyOf);
  const byId = new Map(mutants.map((mutant) => [mutant.id, mutant]));
  const result: Tally = {
    sampled: outcomes.length,
    killed: 0,
    survived: 0,
    equivalent: 0,
    gapsClosed: 0,
    untriaged: 0,
    timedOut: 0,
    errors: 0,
    score: 0,
    untriagedMutants: [],
    contradicted: [],
  };
  for (const outcome of outcomes) {
    const mutant = byId.get(outcome.id);
    if (mutant === undefined) throw new Error(`mutant ${outcome.id} is not among the instrumented mutants: were the sources changed?`);
    const entry = entryFor(keyOf(mutant), entries, keys);
    if (outcome.status === 'Killed') {
      result.killed++;
      if (entry?.triage === 'gap') result.gapsClosed++;
      if (entry?.triage === 'equivalent') result.contradicted.push({ mutant, outcome });
    } else if (outcome.status === 'Timeout') {
      result.timedOut++;
    } else if (outcome.status === 'RuntimeError') {
      result.errors++;
    } else if (survives(outcome.status)) {
      result.survived++;
      if (entry?.triage === 'equivalent') result.equivalent++;
      else {
        result.untriaged++;
        result.untriagedMutants.push({ mutant, outcome, ...(entry === undefined ? {} : { entry }) });
      }
    }
  }
  const judged = result.sampled - result.equivalent - result.errors;
  result.score = judged === 0 ? 100 : (100 * (result.killed + result.timedOut)) / judged;
  return result;
}

export function summaryLine(figures: Tally, where: string): string {
  return (
    `mutants: ${figures.sampled} sampled, killed ${figures.killed}, survived ${figures.survived} ` +
    `(equivalent ${figures.equivalent}, gaps closed ${figures.gapsClosed}, untriaged ${figures.untriaged}), ` +
    `timed out ${figures.timedOut}, errors ${figures.errors}; score ${figures.score.toFixed(1)}% of non-equivalent; report ${where}`
  );
}

/** A survivor as the triage file takes it, to paste and complete. */
export function triageStub(mutant: MutantInfo): string {
  const key = keyOf(mutant);
  const quoted = (text: string): string => JSON.stringify(text);
  return [
    `  - file: ${key.file}`,
    `    line: ${key.line}`,
    `    mutator: ${key.mutator}`,
    `    original: ${quoted(key.original)}`,
    `    replacement: ${quoted(key.replacement)}`,
    '    triage: equivalent | gap',
  ].join('\n');
}

export interface ReportInput {
  mutants: readonly MutantInfo[];
  originals: ReadonlyMap<string, string>;
  outcomes: readonly MutantOutcome[];
  entries: readonly TriageEntry[];
  /** Why a mutant outside the outcomes was not run (the sample). */
  notRun: string;
}

/** The report in Stryker's schema: every mutant of the sources, those outside the sample `Ignored`. */
export function strykerReport(input: ReportInput): MutationTestResult {
  const outcomes = new Map(input.outcomes.map((outcome) => [outcome.id, outcome]));
  const keys = input.mutants.map(keyOf);
  const files: MutationTestResult['files'] = {};
  for (const [file, source] of input.originals) files[file] = { language: 'typescript', source, mutants: [] };
  for (const mutant of input.mutants) {
    const outcome = outcomes.get(mutant.id);
    const entry = entryFor(keyOf(mutant), input.entries, keys);
    const triage =
      entry === undefined
        ? ''
        : entry.triage === 'equivalent'
          ? ` Triaged equivalent: ${entry.why}`
          : ` Triaged a gap of ${entry.requirement}, closed by ${entry.check} (fault ${entry.fault}).`;
    files[mutant.file]?.mutants.push({
      id: mutant.id,
      mutatorName: mutant.mutatorName,
      replacement: mutant.replacement,
      location: mutant.location,
      status: outcome?.status ?? 'Ignored',
      statusReason: outcome === undefined ? input.notRun : `${outcome.reason}.${triage}`,
      ...(outcome === undefined ? {} : { duration: Math.round(outcome.durationMs) }),
    });
  }
  return {
    schemaVersion: '2',
    thresholds: { high: 95, low: 80 },
    files,
    framework: { name: 'meeting-realtime-conformance mutation (Stryker instrumenter)' },
  };
}

/** The HTML page Stryker's HTML reporter writes: the report app of mutation-testing-elements with the report inline. */
export function reportHtml(report: MutationTestResult): string {
  const script = readFileSync(createRequire(import.meta.url).resolve('mutation-testing-elements/dist/mutation-test-elements.js'), 'utf8');
  // A closing tag inside the JSON would end the script element: break every '<' apart.
  const json = JSON.stringify(report).replace(/</g, '\\u003c');
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"><title>Mutation testing of the reference</title>',
    `<script>${script}</script>`,
    '</head><body>',
    '<mutation-test-report-app titlePostfix="reference mutation"></mutation-test-report-app>',
    `<script>document.querySelector('mutation-test-report-app').report = ${json};</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
