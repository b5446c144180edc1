/**
 * The certification bundle (`npm run certify`, scripts/commands/certify.ts): one zip archive of what a vendor
 * submits, made from a run's reports directory:
 *
 *   certification.json, certification.md   the certificate
 *   allure-report/index.html                the single-file HTML report (npm run report)
 *   interface-spec.html, interface-reference.html   the interface documents its links land on
 *   verify-certificate.txt                  what `npm run verify-certificate` said of the certificate
 *   SHA256SUMS                              the SHA-256 of each file above, as `sha256sum -c` reads it
 *
 * The files keep their places relative to each other, so every link resolves in the unpacked
 * bundle as it does in reports/. Before anything is packed, each file is searched for the
 * credentials of the profile and for credentials by their form (scripts/lib/canary.ts): a hit writes
 * no bundle.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE } from '../../fixtures/reporters/report-metadata.ts';
import { ISSUED_SECRET_PATTERNS, needles, search } from './canary.ts';
import type { Hit } from './canary.ts';

/** The bundle of a run that may be submitted: certifiable, CONFORMANT, its certificate VALID, its HTML report there. */
export const BUNDLE_NAME = 'certification-bundle.zip';
/** The bundle of any other run: the same files, named so that nobody submits it by mistake. */
export const NOT_FOR_SUBMISSION_NAME = 'certification-bundle.NOT-FOR-SUBMISSION.zip';
export const CHECKSUMS = 'SHA256SUMS';
export const VERIFIER_OUTPUT = 'verify-certificate.txt';

/** The files taken from the reports directory: the first three must be there, the interface documents may not (npm run report builds them). */
export const REQUIRED_FILES: readonly string[] = ['certification.json', 'certification.md', 'allure-report/index.html'];
const DOCUMENTS: readonly string[] = [INTERFACE_SPEC_FILE, INTERFACE_REFERENCE_FILE];

export interface BundleEntry {
  name: string;
  data: Buffer;
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `sha256sum` output for the entries: `<hex>  <name>` (two spaces: text mode), one a line. */
export function checksumList(entries: readonly BundleEntry[]): string {
  return entries.map((entry) => `${sha256Hex(entry.data)}  ${entry.name}\n`).join('');
}

/** The entries of a bundle from a reports directory and the verifier's output; the files missing of REQUIRED_FILES. */
export function bundleEntries(reportsDir: string, verifierOutput: string): { entries: BundleEntry[]; missing: string[] } {
  const present = [...REQUIRED_FILES, ...DOCUMENTS].filter((name) => existsSync(join(reportsDir, name)));
  const entries: BundleEntry[] = [
    ...present.map((name) => ({ name, data: readFileSync(join(reportsDir, name)) })),
    { name: VERIFIER_OUTPUT, data: Buffer.from(verifierOutput) },
  ];
  entries.push({ name: CHECKSUMS, data: Buffer.from(checksumList(entries)) });
  return { entries, missing: REQUIRED_FILES.filter((name) => !present.includes(name)) };
}

/**
 * Credentials in the entries: each of `secrets` in every spelling, and credentials by their form
 * (a JWT, a PEM private key, a BIP-39 secretKey...) outside the interface documents, whose examples
 * are not secrets. The hits never show the value.
 */
export function secretsIn(entries: readonly BundleEntry[], secrets: readonly string[]): Hit[] {
  const needleList = needles(
    secrets.map((value, index) => ({ name: `credential ${index + 1} of the profile`, value })),
    [],
  );
  return entries.flatMap((entry) =>
    search(entry.name, entry.data.toString('latin1'), needleList, DOCUMENTS.includes(entry.name) ? [] : ISSUED_SECRET_PATTERNS),
  );
}

/** Writes the entries as a zip archive at `file` (replacing it). */
export function writeBundle(file: string, entries: readonly BundleEntry[]): void {
  rmSync(file, { force: true });
  const zip = new AdmZip();
  for (const entry of entries) zip.addFile(entry.name, entry.data);
  zip.writeZip(file);
}

/** The entries of a bundle, as written. */
export function readBundle(file: string): BundleEntry[] {
  return new AdmZip(file)
    .getEntries()
    .filter((entry) => !entry.isDirectory)
    .map((entry) => ({ name: entry.entryName, data: entry.getData() }));
}
