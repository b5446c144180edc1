/**
 * What changed between two certificates (`npm run diff-certificates -- OLD.json NEW.json`): the
 * requirements newly failed, newly passed and newly not assessed, the SHOULD requirements newly
 * warned, the documented variants whose observed form changed, the unspecified behaviours whose
 * observation changed, and the overall verdict. Pure, so that it is unit-tested on real certificates
 * (tests/unit/certificate-diff.test.ts) and the job summaries use the same words as the command.
 *
 * It reads only what a certificate states as facts: IDs, levels, verdicts, totals, certifiability,
 * and the observations (evidence the certification reporter has already redacted). Nothing else is
 * printed: no address of the target, no check's message, so the output is safe for a job summary.
 *
 * A certificate lists each observation's form and detail apart (an older certificate's `form (detail)`
 * texts are read into that shape by readCertificate): the detail says where it was seen (an operation,
 * a parameter, a count), the form what was seen. Two runs are compared by their
 * sets of forms, so that a target whose data grows (more participants, a newer event) does not show
 * up as a changed behaviour, and a behaviour seen in one more place does not either.
 */
import { verdictLine } from '../../fixtures/verdict/certification.ts';
import type { Certification, OverallVerdict, RequirementVerdict } from '../../fixtures/verdict/certification.ts';
import type { Level } from '../../fixtures/verdict/requirements.ts';
import type { Observation } from '../../fixtures/verdict/annotation-structure.ts';
import { readCertificate } from '../../fixtures/reporters/certificate.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';

/** One requirement as the diff reads it. */
export interface RequirementState {
  id: string;
  level: Level;
  verdict: RequirementVerdict;
  statement: string;
  observations: Observation[];
}

/** The parts of a certificate the diff reads, checked. */
export interface DiffableCertificate {
  /** The verdict line of the run (`certification: CONFORMANT (MUST 121/121 passed, ...)`). */
  verdictLine: string;
  verdict: OverallVerdict;
  certifiable?: boolean;
  target?: string;
  startTime?: string;
  requirements: RequirementState[];
}

/** The parts of a checked certificate (fixtures/reporters/certificate.ts readCertificate) the diff reads. */
export function diffable(report: CertificationReport): DiffableCertificate {
  const parsed = report as unknown as Record<string, unknown>;
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const states = report.requirements.map((entry): RequirementState => ({
    id: entry.id,
    level: entry.level,
    verdict: entry.verdict,
    statement: typeof entry.statement === 'string' ? entry.statement : '',
    observations: entry.observations ?? [],
  }));
  const list = (key: string): unknown[] => (Array.isArray(parsed[key]) ? parsed[key] : []);
  const certifiability = parsed['certifiability'];
  const certifiable = isObject(certifiability) && typeof certifiability['certifiable'] === 'boolean' ? certifiability['certifiable'] : undefined;
  const reasons =
    isObject(certifiability) && Array.isArray(certifiability['reasons']) ? certifiability['reasons'].filter((reason) => typeof reason === 'string') : [];
  const line = verdictLine({
    verdict: report.verdict,
    totals: report.totals,
    ...(certifiable === undefined ? {} : { certifiability: { certifiable, reasons } }),
    requirements: [],
    knownDeviations: list('knownDeviations') as Certification['knownDeviations'],
    fixedDeviations: [],
    suiteErrors: list('suiteErrors') as Certification['suiteErrors'],
    unknownCitations: [],
  });
  const target = isObject(parsed['target']) && typeof parsed['target']['name'] === 'string' ? parsed['target']['name'] : undefined;
  const startTime = typeof parsed['startTime'] === 'string' ? parsed['startTime'] : undefined;
  return {
    verdictLine: line,
    verdict: report.verdict,
    ...(certifiable === undefined ? {} : { certifiable }),
    ...(target === undefined ? {} : { target }),
    ...(startTime === undefined ? {} : { startTime }),
    requirements: states,
  };
}

/** The certificate in `text` as the diff reads it, or NotACertificate saying what is wrong with it. `name` is how the message names the file. */
export function parseCertificate(text: string, name: string): DiffableCertificate {
  return diffable(readCertificate(text, name));
}

/** A requirement whose verdict moved; `before` is absent for a requirement the old certificate did not list. */
export interface VerdictChange {
  id: string;
  level: Level;
  statement: string;
  before?: RequirementVerdict;
  after: RequirementVerdict;
}

/** A variant or unspecified behaviour observed in both runs, with other forms now. */
export interface ObservationChange {
  id: string;
  level: Level;
  statement: string;
  before: string[];
  after: string[];
}

export interface CertificateDiff {
  verdict: { before: string; after: string; changed: boolean };
  /** The two certificates name different targets: said, since the comparison may then mean little. */
  targets?: { before: string; after: string };
  newlyFailed: VerdictChange[];
  newlyPassed: VerdictChange[];
  newlyNotAssessed: VerdictChange[];
  /** SHOULD requirements that passed without a warning before and with one now. */
  newlyWarned: VerdictChange[];
  variantsChanged: ObservationChange[];
  unspecifiedChanged: ObservationChange[];
  /** Requirements only one of the two lists (the catalogue changed between the runs). */
  added: string[];
  removed: string[];
}

/** The distinct forms of a requirement's observations, sorted. */
export function observedForms(observations: readonly Observation[]): string[] {
  return [...new Set(observations.map((observation) => observation.form))].sort();
}

type Standing = 'failed' | 'not assessed' | 'passing';
const standing = (verdict: RequirementVerdict): Standing => (verdict === 'failed' ? 'failed' : verdict === 'not assessed' ? 'not assessed' : 'passing');

export function diffCertificates(before: DiffableCertificate, after: DiffableCertificate): CertificateDiff {
  const old = new Map(before.requirements.map((entry) => [entry.id, entry]));
  const now = new Set(after.requirements.map((entry) => entry.id));
  const diff: CertificateDiff = {
    verdict: { before: before.verdictLine, after: after.verdictLine, changed: before.verdictLine !== after.verdictLine },
    newlyFailed: [],
    newlyPassed: [],
    newlyNotAssessed: [],
    newlyWarned: [],
    variantsChanged: [],
    unspecifiedChanged: [],
    added: after.requirements.filter((entry) => !old.has(entry.id)).map((entry) => entry.id),
    removed: before.requirements.filter((entry) => !now.has(entry.id)).map((entry) => entry.id),
  };
  if (before.target !== undefined && after.target !== undefined && before.target !== after.target)
    diff.targets = { before: before.target, after: after.target };
  for (const entry of after.requirements) {
    const previous = old.get(entry.id);
    const change: VerdictChange = {
      id: entry.id,
      level: entry.level,
      statement: entry.statement,
      ...(previous === undefined ? {} : { before: previous.verdict }),
      after: entry.verdict,
    };
    const was = previous === undefined ? undefined : standing(previous.verdict);
    const is = standing(entry.verdict);
    if (is === 'failed' && was !== 'failed') diff.newlyFailed.push(change);
    else if (is === 'not assessed' && was !== 'not assessed') diff.newlyNotAssessed.push(change);
    else if (is === 'passing' && was !== undefined && was !== 'passing') diff.newlyPassed.push(change);
    if (previous === undefined || was !== 'passing' || is !== 'passing') continue;
    if (entry.verdict === 'passed with warnings' && previous.verdict !== 'passed with warnings') diff.newlyWarned.push(change);
    if (entry.level !== 'VARIANT' && entry.level !== 'UNSPECIFIED') continue;
    const [formsBefore, formsAfter] = [observedForms(previous.observations), observedForms(entry.observations)];
    if (JSON.stringify(formsBefore) === JSON.stringify(formsAfter)) continue;
    const observed: ObservationChange = { id: entry.id, level: entry.level, statement: entry.statement, before: formsBefore, after: formsAfter };
    (entry.level === 'VARIANT' ? diff.variantsChanged : diff.unspecifiedChanged).push(observed);
  }
  return diff;
}

/** The exit code of `npm run diff-certificates`: 1 when a requirement newly failed. */
export function diffExitCode(diff: CertificateDiff): 0 | 1 {
  return diff.newlyFailed.length > 0 ? 1 : 0;
}

/** True when nothing the diff reports changed. */
export function unchanged(diff: CertificateDiff): boolean {
  return (
    !diff.verdict.changed &&
    [
      diff.newlyFailed,
      diff.newlyPassed,
      diff.newlyNotAssessed,
      diff.newlyWarned,
      diff.variantsChanged,
      diff.unspecifiedChanged,
      diff.added,
      diff.removed,
    ].every((list) => list.length === 0)
  );
}

/** How the two certificates are named in the output: a label each (a file name, "the previous run"). */
export interface DiffLabels {
  before: string;
  after: string;
}

const verdictOf = (line: string): string => line.replace(/^certification: /, '');
const orNothing = (forms: readonly string[]): string => (forms.length === 0 ? 'nothing observed' : forms.join('; '));
const wasVerdict = (change: VerdictChange): string => change.before ?? 'not listed';

const SECTIONS = [
  ['newlyFailed', 'Requirements newly failed', 'no requirement newly failed'],
  ['newlyPassed', 'Requirements newly passed', 'no requirement newly passed'],
  ['newlyNotAssessed', 'Requirements newly not assessed', 'no requirement newly not assessed'],
  ['newlyWarned', 'SHOULD requirements newly with warnings', 'no SHOULD requirement newly with warnings'],
] as const;
const OBSERVED_SECTIONS = [
  ['variantsChanged', 'Variants whose observed form changed', 'no variant observed in another form'],
  ['unspecifiedChanged', 'Unspecified behaviour whose observation changed', 'no unspecified behaviour observed otherwise'],
] as const;

/** The diff for a terminal: one line per change, every section named even when empty. */
export function renderText(diff: CertificateDiff, labels: DiffLabels): string {
  const lines = [`diff-certificates: ${labels.before} -> ${labels.after}`];
  if (diff.targets !== undefined) lines.push(`note: the certificates are of different targets (${diff.targets.before}, ${diff.targets.after})`);
  lines.push(
    ...(diff.verdict.changed
      ? [`verdict before: ${verdictOf(diff.verdict.before)}`, `verdict now:    ${verdictOf(diff.verdict.after)}`]
      : [`verdict unchanged: ${verdictOf(diff.verdict.after)}`]),
  );
  for (const [key, title] of SECTIONS) {
    const changes = diff[key];
    lines.push(`${title}: ${changes.length === 0 ? 'none' : changes.length}`);
    for (const change of changes) lines.push(`  ${change.id} (${change.level}): ${wasVerdict(change)} -> ${change.after}`);
  }
  for (const [key, title] of OBSERVED_SECTIONS) {
    const changes = diff[key];
    lines.push(`${title}: ${changes.length === 0 ? 'none' : changes.length}`);
    for (const change of changes) lines.push(`  ${change.id}: ${orNothing(change.before)} -> ${orNothing(change.after)}`);
  }
  if (diff.added.length > 0) lines.push(`Requirements only in ${labels.after}: ${diff.added.join(', ')}`);
  if (diff.removed.length > 0) lines.push(`Requirements only in ${labels.before}: ${diff.removed.join(', ')}`);
  lines.push(
    diff.newlyFailed.length > 0
      ? `${diff.newlyFailed.length} requirement(s) newly failed: ${diff.newlyFailed.map((change) => change.id).join(', ')}`
      : unchanged(diff)
        ? 'no change'
        : 'no requirement newly failed',
  );
  return `${lines.join('\n')}\n`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const shortStatement = (statement: string): string => (statement.length > 120 ? `${statement.slice(0, 119).trimEnd()}…` : statement);

/** Tables longer than this are folded (`<details>`) in Markdown, so that a summary still opens on the verdicts. */
const FOLD_AFTER_ROWS = 15;

/** A titled table; folded when it is long (a first comparison with an unreachable run lists every requirement). */
function table(title: string, header: string[], rows: string[]): string[] {
  const head = [`| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`];
  if (rows.length <= FOLD_AFTER_ROWS) return [`**${title}**`, '', ...head, ...rows, ''];
  return [`<details><summary><b>${title}</b></summary>`, '', ...head, ...rows, '', '</details>', ''];
}

/** The diff as Markdown (a job summary): the verdict before and now, then a table per kind of change that happened. */
export function renderMarkdown(diff: CertificateDiff, labels: DiffLabels, heading = '### What changed since the previous run'): string {
  const lines = [
    heading,
    '',
    '| | Verdict |',
    '|---|---|',
    `| ${cell(labels.before)} | ${cell(verdictOf(diff.verdict.before))} |`,
    `| ${cell(labels.after)} | ${cell(verdictOf(diff.verdict.after))} |`,
    '',
  ];
  if (diff.targets !== undefined)
    lines.push(`Note: the certificates are of different targets (${cell(diff.targets.before)}, ${cell(diff.targets.after)}).`, '');
  if (unchanged(diff)) {
    lines.push('No requirement changed its verdict, and every variant and unspecified behaviour was observed as before.');
    return `${lines.join('\n')}\n`;
  }
  for (const [key, title] of SECTIONS) {
    const changes = diff[key];
    if (changes.length === 0) continue;
    // A trimmed certificate may carry no statements: the column is left out rather than left empty.
    const stated = changes.some((change) => change.statement !== '');
    const rows = changes.map(
      (change) => `| ${change.id} | ${change.level} | ${wasVerdict(change)} | ${change.after} |${stated ? ` ${cell(shortStatement(change.statement))} |` : ''}`,
    );
    lines.push(...table(`${title} (${changes.length})`, ['Requirement', 'Level', 'Before', 'Now', ...(stated ? ['Statement'] : [])], rows));
  }
  for (const [key, title] of OBSERVED_SECTIONS) {
    const changes = diff[key];
    if (changes.length === 0) continue;
    const rows = changes.map((change) => `| ${change.id} | ${cell(orNothing(change.before))} | ${cell(orNothing(change.after))} |`);
    lines.push(...table(`${title} (${changes.length})`, ['Requirement', 'Before', 'Now'], rows));
  }
  if (diff.added.length > 0) lines.push(`Requirements only in ${cell(labels.after)}: ${diff.added.join(', ')}.`, '');
  if (diff.removed.length > 0) lines.push(`Requirements only in ${cell(labels.before)}: ${diff.removed.join(', ')}.`, '');
  const unchangedKinds = [...SECTIONS, ...OBSERVED_SECTIONS].filter(([key]) => diff[key].length === 0).map(([, , kind]) => kind);
  const none = unchangedKinds.join(', ');
  if (none !== '') lines.push(`${none.charAt(0).toUpperCase()}${none.slice(1)}.`);
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A certificate to compare the run's with in a job summary, or why there is none. */
export interface PreviousCertificate {
  /** How the summary names it: "the previous run (#41, 2025-06-02)", "the baseline certificate". */
  label: string;
  certificate?: DiffableCertificate;
  /** Why there is no certificate to compare with, when there is none. */
  missing?: string;
}

/** The comparison a job summary shows: what changed since the previous certificate, or why nothing is compared. */
export function comparisonMarkdown(current: DiffableCertificate | undefined, previous: PreviousCertificate, heading: string): string {
  if (previous.certificate === undefined) return `${heading}\n\n${previous.missing ?? `There is no ${previous.label} to compare with.`}\n`;
  if (current === undefined) return `${heading}\n\nThis run wrote no certificate: nothing to compare with ${previous.label}.\n`;
  return renderMarkdown(diffCertificates(previous.certificate, current), { before: previous.label, after: 'this run' }, heading);
}
