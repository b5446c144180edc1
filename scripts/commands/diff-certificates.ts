/**
 * `npm run diff-certificates -- OLD.json NEW.json [--markdown]`: what changed between two runs'
 * certificates (scripts/lib/certificate-diff.ts): requirements newly failed, newly passed, newly not
 * assessed, SHOULD requirements newly warned, variants whose observed form changed, unspecified
 * behaviour whose observation changed, and the overall verdict. `--markdown` writes it for a job
 * summary. Exit code 1 when a requirement newly failed, 0 otherwise, 2 when a file cannot be read or
 * is not a certificate.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { diffable, diffCertificates, diffExitCode, renderMarkdown, renderText } from '../lib/certificate-diff.ts';
import { loadCertificate, NotACertificate } from '../../fixtures/reporters/certificate.ts';
import type { DiffableCertificate } from '../lib/certificate-diff.ts';

const USAGE = 'usage: npm run diff-certificates -- OLD.json NEW.json [--markdown]';

const read = (file: string): DiffableCertificate => diffable(loadCertificate(file));

function main(argv: readonly string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { markdown: { type: 'boolean', default: false } } });
  } catch (error) {
    console.error(`diff-certificates: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const [before, after, ...extra] = parsed.positionals;
  if (before === undefined || after === undefined || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  try {
    const diff = diffCertificates(read(before), read(after));
    const labels = { before, after };
    process.stdout.write(parsed.values.markdown ? renderMarkdown(diff, labels) : renderText(diff, labels));
    return diffExitCode(diff);
  } catch (error) {
    if (!(error instanceof NotACertificate)) throw error;
    console.error(`diff-certificates: ${error.message}`);
    return 2;
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
