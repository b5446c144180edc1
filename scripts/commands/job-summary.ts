/**
 * `node --import tsx scripts/commands/job-summary.ts REPORTS_DIR [--previous FILE --previous-label TEXT] [--artifact NAME]`:
 * prints the job summary of the repository's workflow (scripts/lib/job-summary.ts) for the
 * certificate in REPORTS_DIR, compared with the previous run's certificate FILE when there is one
 * (the workflow appends it to $GITHUB_STEP_SUMMARY). Exit code 0 whatever the verdict: the
 * summary says it; 2 for a wrong usage.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { diffable } from '../lib/certificate-diff.ts';
import { loadCertificate, NotACertificate } from '../../fixtures/reporters/certificate.ts';
import type { DiffableCertificate, PreviousCertificate } from '../lib/certificate-diff.ts';
import { renderRunSummary } from '../lib/job-summary.ts';

const USAGE = 'usage: node --import tsx scripts/commands/job-summary.ts REPORTS_DIR [--previous FILE --previous-label TEXT] [--artifact NAME]';

/** The certificate in `file`, or why it cannot be compared. */
function certificateIn(file: string): { certificate?: DiffableCertificate; problem?: string } {
  if (!existsSync(file)) return { problem: `there is no ${file}` };
  try {
    return { certificate: diffable(loadCertificate(file)) };
  } catch (error) {
    if (!(error instanceof NotACertificate)) throw error;
    return { problem: error.message };
  }
}

function main(argv: readonly string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { previous: { type: 'string' }, 'previous-label': { type: 'string' }, artifact: { type: 'string', default: 'conformance-reports' } },
    });
  } catch (error) {
    console.error(`job-summary: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const [reports, ...extra] = parsed.positionals;
  if (reports === undefined || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const markdownFile = join(reports, 'certification.md');
  const current = certificateIn(join(reports, 'certification.json'));
  const label = parsed.values['previous-label'] ?? 'the previous run';
  const previousFile = parsed.values.previous ?? '';
  let previous: PreviousCertificate;
  if (previousFile === '' || !existsSync(previousFile)) {
    previous = {
      label,
      missing:
        'No previous certificate: no earlier run of this workflow on this branch kept one (artifact `conformance-history`), so there is nothing to compare with. The next run compares with this one.',
    };
  } else {
    const read = certificateIn(previousFile);
    previous =
      read.certificate === undefined
        ? { label, missing: `The certificate of ${label} cannot be compared: ${read.problem ?? 'unreadable'}.` }
        : { label, certificate: read.certificate };
  }
  process.stdout.write(
    renderRunSummary({
      ...(existsSync(markdownFile) ? { markdown: readFileSync(markdownFile, 'utf8') } : {}),
      ...(current.certificate === undefined ? {} : { certificate: current.certificate }),
      previous,
      artifactName: parsed.values.artifact,
    }),
  );
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
