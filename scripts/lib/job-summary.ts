/**
 * The job summary of the repository's own workflow (.github/workflows/conformance.yml, merge job):
 * the run's verdict line and totals table (from certification.md, as the composite action's
 * summary gives them) and what changed since the previous run's certificate (npm run
 * diff-certificates), or why there is nothing to compare with. Nothing else of the certificate: no
 * address of the target, no evidence.
 */
import { digestCertificate } from './action.ts';
import { comparisonMarkdown } from './certificate-diff.ts';
import type { DiffableCertificate, PreviousCertificate } from './certificate-diff.ts';

export const PREVIOUS_RUN_HEADING = '### What changed since the previous run';

export interface RunSummaryInput {
  /** certification.md of the run, when it wrote one. */
  markdown?: string;
  /** certification.json of the run, read as a certificate. */
  certificate?: DiffableCertificate;
  previous: PreviousCertificate;
  /** The artifact the reports are kept in. */
  artifactName: string;
}

export function renderRunSummary(input: RunSummaryInput): string {
  const digest = input.markdown === undefined ? undefined : digestCertificate(input.markdown);
  const lines = [`## Conformance${digest?.target === undefined ? '' : ` of ${digest.target}`}`, ''];
  if (digest?.verdictLine === undefined) {
    lines.push('**No verdict**: the merge of the shards wrote no certificate (see the step "Merge the shards with the project\'s reporters").', '');
  } else {
    lines.push(digest.verdictLine, '');
    if (digest.totals.length > 0) lines.push(...digest.totals, '');
  }
  lines.push(comparisonMarkdown(input.certificate, input.previous, PREVIOUS_RUN_HEADING).trimEnd(), '');
  if (digest?.verdictLine !== undefined)
    lines.push(
      `The whole certificate (certification.md and .json, every requirement with its tests), the Allure report and the JUnit report are in the artifact \`${input.artifactName}\`.`,
    );
  return `${lines.join('\n').trimEnd()}\n`;
}
