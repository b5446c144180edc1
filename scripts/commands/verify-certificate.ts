/**
 * `npm run verify-certificate -- FILE`: checks a certification.json against the suite it claims and
 * against its own evidence (scripts/lib/certificate-verifier.ts says how). Prints VALID or INVALID
 * with every reason; exit code 0 (valid), 1 (invalid), 2 (the file cannot be read).
 *
 * Run it in a checkout of the commit the certificate names. It proves the certificate is consistent
 * with that suite and with itself; that the evidence came from the target is what running the suite
 * again shows.
 */
import { resolve } from 'node:path';
import { loadCertificate, NotACertificate } from '../../fixtures/reporters/certificate.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { thisCheckout, verifyCertificate } from '../lib/certificate-verifier.ts';

function main(): number {
  const file = process.argv[2];
  if (file === undefined) {
    console.error('usage: npm run verify-certificate -- reports/certification.json');
    return 2;
  }
  let report: CertificationReport;
  try {
    report = loadCertificate(resolve(file));
  } catch (error) {
    if (!(error instanceof NotACertificate)) throw error;
    console.error(`verify-certificate: ${error.message.split('\n')[0] ?? ''}`);
    return 2;
  }
  const reasons = verifyCertificate(report, thisCheckout());
  if (reasons.length === 0) {
    console.log(
      `VALID: ${file} (${report.verdict}, ${report.requirements.length} requirements computed again from ${report.evidence?.length ?? 0} tests' evidence; commit and fingerprints match this checkout)`,
    );
    return 0;
  }
  console.log(`INVALID: ${file}\n${reasons.map((reason) => `  - ${reason}`).join('\n')}`);
  return 1;
}

process.exit(main());
