/**
 * The logic of the composite action (action.yml), pure so that it is unit-tested; scripts/commands/action.ts
 * runs it with the runner's files and environment.
 *
 * The action takes the whole dotenv profile from one secret. Before anything else prints, each value
 * is registered with the runner as a mask (`::add-mask::`), except the settings that are not secret
 * (numbers, flags, the environment's name, the target's short name): masking "1" or "20" would
 * garble every log line that holds the digit. The summary is the certificate's verdict line and
 * totals table, read from certification.md, and what changed since the baseline certificate
 * (scripts/lib/certificate-diff.ts: IDs, levels, verdicts and observed forms), never the target's
 * addresses or any other evidence.
 */
import { parseDotenv } from '../../fixtures/config/dotenv.ts';
import { SETTING_VARIABLES } from '../../fixtures/config/variables.ts';
import type { OverallVerdict } from '../../fixtures/verdict/certification.ts';
import { comparisonMarkdown } from './certificate-diff.ts';
import type { DiffableCertificate } from './certificate-diff.ts';

/** Variables of the public contract whose values are settings, not secrets: they are not masked. */
export const UNMASKED_VARIABLES: ReadonlySet<string> = new Set([
  'TARGET_NAME',
  'TARGET_ENVIRONMENT',
  ...SETTING_VARIABLES,
  'TARGET_RECORDING_READY_MS',
  'TARGET_USAGE_LIMIT_REQUESTS',
  'TARGET_CHANNEL_NEWEST_EVENT_MS',
]);

/** The name of the copy of the baseline certificate, next to the reports. */
export const BASELINE_NAME = 'baseline-certification.json';

/** What the suite writes into the reports directory; removed before a run so that none is stale. */
export const REPORT_ENTRIES: readonly string[] = [
  'certification.json',
  'certification.md',
  'junit.xml',
  'allure-results',
  'allure-report',
  'interface-spec.html',
  'interface-reference.html',
  BASELINE_NAME,
];

/**
 * The strings to mask for a profile: every non-empty value of a variable that is not a plain
 * setting, line by line (a double-quoted value may hold `\n`, and the runner matches masks within
 * one line), and every line that does not parse (it may hold a secret the parser could not read).
 * Longest first, so that a value is masked before any value it contains.
 */
export function profileMasks(profile: string): string[] {
  const { values } = parseDotenv(profile);
  const masks = new Set<string>();
  const add = (text: string): void => {
    for (const line of text.split(/\r?\n|\r/)) {
      const trimmed = line.trim();
      if (trimmed !== '') masks.add(trimmed);
    }
  };
  for (const [key, value] of Object.entries(values)) {
    if (!UNMASKED_VARIABLES.has(key)) add(value);
  }
  for (const line of profile.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('#') && !/^(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=/.test(trimmed)) add(trimmed);
  }
  return [...masks].sort((a, b) => b.length - a.length);
}

/** One `::add-mask::` command, its data escaped as the runner's workflow commands require. */
export function maskCommand(value: string): string {
  return `::add-mask::${value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`;
}

/**
 * An action input that maps to a TARGET_ALLOW_* flag: '1' or '0'. Empty (not given) is '0', the
 * read-only default.
 */
export function flagInput(name: string, value: string | undefined): '1' | '0' {
  const normalized = (value ?? '').trim().toLowerCase();
  if (normalized === 'true' || normalized === '1') return '1';
  if (normalized === '' || normalized === 'false' || normalized === '0') return '0';
  throw new Error(`input ${name}: must be true or false, got ${JSON.stringify(value)}`);
}

/** Lines for $GITHUB_OUTPUT: `name=value`, or the delimited form for a value with a line break. */
export function outputLines(outputs: Readonly<Record<string, string>>): string {
  return Object.entries(outputs)
    .map(([name, value]) => {
      if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
      const delimiter = `ghadelimiter_${Math.random().toString(36).slice(2)}`;
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

/** The parts of certification.md that the job summary shows. */
export interface CertificateDigest {
  /** The target's short name, from the report's title. */
  target?: string;
  /** `**Verdict: CONFORMANT (MUST 121/121 passed, ...)**` */
  verdictLine?: string;
  /** The totals table, header included. */
  totals: string[];
}

export function digestCertificate(markdown: string): CertificateDigest {
  const lines = markdown.split(/\r?\n/);
  const target = /^# Certification report: (.*)$/.exec(lines[0] ?? '')?.[1];
  const verdictLine = lines.find((line) => /^\*\*Verdict: .*\*\*$/.test(line));
  const heading = lines.indexOf('## Totals');
  const totals: string[] = [];
  if (heading !== -1) {
    for (const line of lines.slice(heading + 1)) {
      if (line.startsWith('|')) totals.push(line);
      else if (totals.length > 0) break;
    }
  }
  const digest: CertificateDigest = { totals };
  if (target !== undefined) digest.target = target;
  if (verdictLine !== undefined) digest.verdictLine = verdictLine;
  return digest;
}

/** What `npm run conformance`'s exit code means (README, "Exit codes"). */
export function exitCodeMeaning(code: string): string {
  switch (code) {
    case '0':
      return 'exit code 0: the target was judged (CONFORMANT or INCOMPLETE)';
    case '1':
      return 'exit code 1: a MUST or VARIANT requirement failed';
    case '2':
      return 'exit code 2: not everything could be judged, and nothing failed (a configuration error, a target or one of its interfaces that could not be reached or stopped answering, the run budget reached, or a cancel)';
    case '':
      return 'the suite did not run: an earlier step of the action failed';
    default:
      return `exit code ${code}: the run ended abnormally`;
  }
}

export interface SummaryInput {
  /** Exit code of `npm run conformance`, '' when it did not run. */
  exitCode: string;
  /** certification.md of the run, when there is one. */
  markdown?: string;
  /** certification.json's verdict, when there is one. */
  verdict?: OverallVerdict | string;
  /** The run's certification.json, when there is one and it reads as a certificate. */
  certificate?: DiffableCertificate;
  /** The baseline certificate given to the action (its copy next to the reports), when one was. */
  baseline?: DiffableCertificate;
  artifactName: string;
  /** Why the action's own preparation failed, when it did. */
  prepareFailed?: boolean;
}

/** The heading of the comparison with the baseline certificate in the job summary. */
export const BASELINE_HEADING = '### What changed since the baseline certificate';

/** The job summary: the verdict line and the totals table, what the exit code means, then what changed since the baseline. */
export function renderSummary(input: SummaryInput): string {
  const digest = input.markdown === undefined ? undefined : digestCertificate(input.markdown);
  const lines = [`## Conformance${digest?.target === undefined ? '' : ` of ${digest.target}`}`, ''];
  if (digest?.verdictLine !== undefined) {
    lines.push(digest.verdictLine, '');
    if (digest.totals.length > 0) lines.push(...digest.totals, '');
  } else if (input.prepareFailed === true) {
    lines.push('**No verdict**: the action could not prepare the run (see the step "Prepare the target profile").', '');
  } else if (input.exitCode === '2') {
    // A run that judged part of the target (one interface down, a stop) wrote a certificate, shown above.
    lines.push(
      '**No verdict**: the run stopped before it judged anything: the profile or the harness settings are invalid (the step "Run the conformance suite" names each bad variable, never its value).',
      '',
    );
  } else {
    lines.push('**No verdict**: the run wrote no certificate (see the step "Run the conformance suite").', '');
  }
  lines.push(
    input.prepareFailed === true ? `The suite did not run: ${exitCodeMeaning(input.exitCode)}.` : `The suite ended with ${exitCodeMeaning(input.exitCode)}.`,
  );
  if (input.markdown !== undefined) {
    lines.push('', `The reports (certification.md, certification.json, junit.xml, allure-results/) are in the artifact \`${input.artifactName}\`.`);
  }
  if (input.markdown !== undefined) {
    const missing = 'No baseline certificate was given (input `baseline-certificate`, the certification.json of an earlier run): nothing to compare with.';
    const previous = { label: `the baseline (${BASELINE_NAME})`, ...(input.baseline === undefined ? { missing } : { certificate: input.baseline }) };
    lines.push('', comparisonMarkdown(input.certificate, previous, BASELINE_HEADING).trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

/** A step of action.yml, as a runner reads it. */
export interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
  with?: Record<string, string>;
}

/** action.yml, parsed. */
export interface ActionFile {
  name?: string;
  description?: string;
  inputs: Record<string, { description?: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description?: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}
