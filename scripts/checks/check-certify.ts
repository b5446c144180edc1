/**
 * `npm run check:certify`: `npm run certify` against the embedded reference, as a vendor runs it
 * (no TARGET_* variable, CI=true, no stdin), and what it leaves. In npm test it is the run of the
 * whole suite that the checks after it read (reports/certification.json, the Allure report).
 *
 * - It says, before the suite starts, that writes and destructive checks are on, and against what.
 * - It exits 0 and writes reports/certification-bundle.zip. In a checkout with uncommitted changes
 *   the run cannot certify: it must then exit 3 and write the NOT-FOR-SUBMISSION bundle, and the
 *   only reason given, by the certificate and by the verifier, is the changed checkout.
 * - The bundle holds exactly the certificate (JSON and Markdown, the same bytes as reports/), the
 *   single-file HTML report with the interface documents its links land on, the verifier's output
 *   and SHA256SUMS; unpacked, `sha256sum -c SHA256SUMS` accepts every file and lists each.
 * - verify-certificate accepts the bundle's certificate (CONFORMANT, certifiable), as a certifier
 *   runs it on the unpacked bundle.
 * - No credential of the profile in any spelling, and none by its form (JWTs, PEM private keys,
 *   BIP-39 secretKeys), is in any file of the bundle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { profileSecrets } from '../../fixtures/reporters/redaction.ts';
import { BUNDLE_NAME, CHECKSUMS, NOT_FOR_SUBMISSION_NAME, readBundle, REQUIRED_FILES, secretsIn, VERIFIER_OUTPUT } from '../lib/bundle.ts';
import { cleanEnv, REPO_ROOT, runGroup, seconds } from '../lib/playwright-run.ts';
import { onlyDirtyCheckout, thisCheckout, verifyCertificate } from '../lib/certificate-verifier.ts';

const REPORTS = join(REPO_ROOT, 'reports');
const EXPECTED_ENTRIES = [...REQUIRED_FILES, 'interface-spec.html', 'interface-reference.html', VERIFIER_OUTPUT, CHECKSUMS].sort();
const TIMEOUT_MS = 900_000;

const problems: string[] = [];
function expect(ok: boolean, what: string, detail = ''): void {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === '' ? '' : `: ${detail}`}`);
  if (!ok) problems.push(what);
}

/** Runs `npm run certify` with the vendor's environment, echoing its output; its exit code and output. */
function certify(): Promise<{ code: number | null; output: string }> {
  return runGroup('npm', ['run', '--silent', 'certify'], { cwd: REPO_ROOT, env: { ...cleanEnv(), CI: 'true' }, timeoutMs: TIMEOUT_MS, echo: true });
}

const started = performance.now();
const run = await certify();
console.log(`\ncheck:certify: npm run certify exited ${run.code} (${seconds(performance.now() - started)})`);

const announced = run.output.search(/^certify: with TARGET_ALLOW_WRITES=1 and TARGET_ALLOW_DESTRUCTIVE=1\b/m);
const suiteStarts = run.output.search(/^Running \d+ tests? using/m);
expect(
  run.output.includes('certify: running the whole suite against the embedded reference') && announced !== -1 && announced < suiteStarts,
  'it says, before the suite starts, that writes and destructive checks are on, and against which target',
  `announcement at ${announced}, suite start at ${suiteStarts}`,
);

const certificate = JSON.parse(readFileSync(join(REPORTS, 'certification.json'), 'utf8')) as CertificationReport;
const checkout = thisCheckout();
const ownReasons = verifyCertificate(certificate, checkout);
// A developer's checkout with uncommitted changes cannot certify; a clean clone (CI) must.
const dirty = onlyDirtyCheckout(ownReasons);
const bundleName = dirty ? NOT_FOR_SUBMISSION_NAME : BUNDLE_NAME;
if (dirty) console.log(`check:certify: this checkout has uncommitted changes, so the run cannot certify: expecting exit 3 and ${bundleName}`);
expect(certificate.verdict === 'CONFORMANT', 'the verdict is CONFORMANT', certificate.verdict);
expect(run.code === (dirty ? 3 : 0), `exit code ${dirty ? '3 (not for submission: a changed checkout)' : '0'}`, `exit ${run.code}`);
expect(
  dirty
    ? certificate.certifiability?.reasons.every((reason) => /^the checkout differs from commit/.test(reason)) === true
    : certificate.certifiability?.certifiable === true,
  dirty ? 'the only reason it cannot certify is the changed checkout' : 'the run is certifiable',
  certificate.certifiability?.reasons.join('; '),
);

const bundleFile = join(REPORTS, bundleName);
const otherFile = join(REPORTS, dirty ? BUNDLE_NAME : NOT_FOR_SUBMISSION_NAME);
expect(existsSync(bundleFile) && !existsSync(otherFile), `one bundle, reports/${bundleName}`);
const entries = existsSync(bundleFile) ? readBundle(bundleFile) : [];
const names = entries.map((entry) => entry.name).sort();
expect(JSON.stringify(names) === JSON.stringify(EXPECTED_ENTRIES), `it holds ${EXPECTED_ENTRIES.join(', ')}`, names.join(', '));
const entry = (name: string): Buffer | undefined => entries.find((candidate) => candidate.name === name)?.data;
for (const name of ['certification.json', 'certification.md', 'allure-report/index.html']) {
  expect(entry(name)?.equals(readFileSync(join(REPORTS, name))) === true, `its ${name} is the run's (the same bytes as reports/${name})`);
}
expect(
  /<html/i.test(entry('allure-report/index.html')?.toString('utf8').slice(0, 2000) ?? '') && (entry('allure-report/index.html')?.length ?? 0) > 100_000,
  'its HTML report is the single-file Allure report',
  `${entry('allure-report/index.html')?.length ?? 0} bytes`,
);
const verifierText = entry(VERIFIER_OUTPUT)?.toString('utf8') ?? '';
expect(
  verifierText.startsWith('$ npm run verify-certificate -- reports/certification.json\n') &&
    (dirty ? /^INVALID: /m.test(verifierText) && /the checkout differs from commit/.test(verifierText) : /^VALID: .*\(CONFORMANT, /m.test(verifierText)),
  `its ${VERIFIER_OUTPUT} holds the verifier's ${dirty ? 'refusal for the changed checkout alone' : 'VALID'}`,
  verifierText.split('\n').slice(0, 4).join(' | '),
);

// As a certifier checks it: unpacked, the checksums, then the verifier on the unpacked certificate.
const unpacked = mkdtempSync(join(tmpdir(), 'check-certify-'));
try {
  for (const { name, data } of entries) {
    const path = join(unpacked, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
  }
  const sums = spawnSync('sha256sum', ['-c', CHECKSUMS], { cwd: unpacked, encoding: 'utf8' });
  const okLines = sums.stdout.split('\n').filter((line) => line.endsWith(': OK'));
  expect(
    sums.status === 0 && okLines.length === EXPECTED_ENTRIES.length - 1,
    `sha256sum -c ${CHECKSUMS} accepts each of the other ${EXPECTED_ENTRIES.length - 1} files`,
    `${sums.stdout}${sums.stderr}`.trim(),
  );
  const verify = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'scripts/commands/verify-certificate.ts'), join(unpacked, 'certification.json')],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    },
  );
  const unpackedReasons = verifyCertificate(JSON.parse(readFileSync(join(unpacked, 'certification.json'), 'utf8')) as CertificationReport, checkout);
  expect(
    dirty ? verify.status === 1 && onlyDirtyCheckout(unpackedReasons) : verify.status === 0 && /^VALID: /.test(verify.stdout),
    `verify-certificate ${dirty ? 'refuses the unpacked certificate only for the changed checkout' : 'accepts the unpacked certificate'}`,
    `${verify.stdout}${verify.stderr}`.trim(),
  );
} finally {
  rmSync(unpacked, { recursive: true, force: true });
}

const hits = secretsIn(entries, profileSecrets({}));
expect(
  hits.length === 0,
  'no credential of the profile (in any spelling) and none by its form in any file of the bundle',
  hits.map((hit) => `${hit.source}: ${hit.what}`).join('; '),
);

console.log(
  `\ncheck:certify: ${problems.length === 0 ? 'every check passed' : `${problems.length} check(s) failed: ${problems.join('; ')}`} (${seconds(performance.now() - started)})`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
