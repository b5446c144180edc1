/**
 * `npm run check:verifier`: the certificate verifier (scripts/commands/verify-certificate.ts) on this run's
 * own certificate, reports/certification.json (npm test runs it after check:certify, whose npm run certify runs the suite), and on
 * copies of it with one thing changed each: every tampering must be refused, for its own reason.
 *
 * The run's certificate itself must be VALID, but for one allowance: in a checkout with uncommitted
 * changes it cannot certify, and the verifier must then say exactly that (in CI, a clean clone, it is VALID).
 */
import { join } from 'node:path';
import { certify } from '../../fixtures/verdict/certification.ts';
import { loadCertificate } from '../../fixtures/reporters/certificate.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { REPO_ROOT } from '../lib/playwright-run.ts';
import { onlyDirtyCheckout, thisCheckout, verifyCertificate } from '../lib/certificate-verifier.ts';

const FILE = join(REPO_ROOT, 'reports/certification.json');
const report = loadCertificate(FILE);
const checkout = thisCheckout();
const copy = (): CertificationReport => structuredClone(report);

const problems: string[] = [];
const own = verifyCertificate(report, checkout);
const dirty = onlyDirtyCheckout(own);
if (own.length > 0 && !dirty) problems.push(`the run's own certificate is INVALID:\n${own.map((reason) => `    ${reason}`).join('\n')}`);
console.log(
  `the run's certificate: ${own.length === 0 ? 'VALID' : dirty ? 'not certifiable only because this checkout has uncommitted changes (as it says)' : 'INVALID'}`,
);

/** A certificate whose stated verdicts are those its evidence gives: what a careful forger would produce. */
function recomputed(changed: CertificationReport): CertificationReport {
  const certification = certify(checkout.catalogue, changed.evidence ?? []);
  return { ...changed, ...certification, evidence: changed.evidence ?? [] };
}

/** The first evidence entry with a passed check of `level`, and the check's index. */
function passedCheck(changed: CertificationReport, level: string): { test: number; check: number; id: string } {
  const levels = new Map(checkout.catalogue.map((entry) => [entry.id, entry.level]));
  for (const [test, evidence] of (changed.evidence ?? []).entries()) {
    const check = evidence.checks.findIndex((record) => record.outcome === 'passed' && levels.get(record.requirementId) === level);
    if (check !== -1) return { test, check, id: evidence.checks[check]?.requirementId ?? '' };
  }
  throw new Error(`no passed ${level} check in ${FILE}`);
}

const TAMPERINGS: readonly { what: string; expect: RegExp; change: () => CertificationReport }[] = [
  {
    what: "a requirement's verdict edited from failed to passed",
    expect: /stated passed, its evidence gives failed/,
    change: () => {
      const changed = copy();
      const { test, check } = passedCheck(changed, 'MUST');
      const record = changed.evidence?.[test]?.checks[check];
      if (record !== undefined) record.outcome = 'failed';
      return changed;
    },
  },
  {
    what: 'a failed check removed',
    expect: /stated failed, its evidence gives/,
    change: () => {
      const failing = copy();
      const { test, check } = passedCheck(failing, 'MUST');
      const record = failing.evidence?.[test]?.checks[check];
      if (record !== undefined) record.outcome = 'failed';
      const consistent = recomputed(failing);
      consistent.evidence?.[test]?.checks.splice(check, 1);
      return consistent;
    },
  },
  {
    what: 'a requirement dropped',
    expect: /of the catalogue is missing/,
    change: () => {
      const changed = copy();
      changed.requirements = changed.requirements.slice(1);
      return changed;
    },
  },
  {
    what: 'a level changed',
    expect: /level SHOULD, the catalogue says MUST/,
    change: () => {
      const changed = copy();
      const entry = changed.requirements.find((result) => result.level === 'MUST');
      if (entry !== undefined) entry.level = 'SHOULD';
      return changed;
    },
  },
  {
    what: 'a hash changed',
    expect: /the SHA-256 of spec\/openapi\.yaml is not this checkout's/,
    change: () => {
      const changed = copy();
      const fingerprint = changed.provenance?.fingerprints.find((entry) => entry.name === 'spec/openapi.yaml');
      if (fingerprint !== undefined) fingerprint.sha256 = '0'.repeat(64);
      return changed;
    },
  },
  {
    what: 'a certificate from a narrowed selection',
    expect: /could not certify: \d+ tests selected, narrowed by --grep @PAG/,
    change: () => {
      const changed = copy();
      if (changed.provenance !== undefined) changed.provenance.selection = { ...changed.provenance.selection, narrowedBy: ['--grep @PAG'], testsSelected: 40 };
      return changed;
    },
  },
  {
    what: 'a certificate from a modified checkout',
    expect: /the modified files it lists are not those of this checkout/,
    change: () => {
      const changed = copy();
      if (changed.provenance !== undefined && !('unavailable' in changed.provenance.git)) {
        changed.provenance.git = {
          ...changed.provenance.git,
          modified: [...changed.provenance.git.modified, { name: 'tests/smoke.spec.ts', sha256: '1'.repeat(64) }],
        };
      }
      return changed;
    },
  },
  {
    what: 'the coverage of the interface edited (a status claimed received)',
    expect: /its coverage of the interface is not what its evidence gives/,
    change: () => {
      const changed = copy();
      const declared = changed.coverage?.operations[0]?.declared[0];
      if (declared !== undefined) declared.exchanges += 1;
      return changed;
    },
  },
];

for (const tampering of TAMPERINGS) {
  const reasons = verifyCertificate(tampering.change(), checkout).filter((reason) => !own.includes(reason));
  const refused = reasons.some((reason) => tampering.expect.test(reason));
  console.log(`${refused ? 'refused' : 'ACCEPTED'}: ${tampering.what}${refused ? ` (${reasons.find((reason) => tampering.expect.test(reason))})` : ''}`);
  if (!refused) problems.push(`${tampering.what}: not refused for its reason (${tampering.expect}); new reasons: ${reasons.join('; ') || 'none'}`);
}

for (const problem of problems) console.log(`FAIL ${problem}`);
console.log(`check:verifier ${problems.length === 0 ? 'passed' : 'FAILED'}: ${TAMPERINGS.length} tamperings of the run's own certificate`);
process.exit(problems.length === 0 ? 0 : 1);
