/**
 * The certificate verifier of `npm run verify-certificate` (scripts/commands/verify-certificate.ts),
 * which the checks of the verifier, the canary and the shards call too: a certification.json checked
 * against the suite it claims and against its own evidence, as the Kubernetes conformance bot checks
 * a submission.
 *
 * - Every requirement's verdict, the totals and the overall verdict are computed again from the
 *   per-test evidence the file carries (fixtures/verdict/certification.ts certify), and compared with what it states.
 * - The requirements it lists are those of this checkout's catalogue: none missing, none added,
 *   statements and levels equal.
 * - Its commit is this checkout's, the tracked files it says differ are those that differ here, and
 *   the fingerprints (OpenAPI document, catalogue, test tree, known deviations) are those of this checkout.
 *   A run from a `git archive` copy names its commit's tree, which must be that commit's; this
 *   checkout may itself be such a copy, unchanged.
 * - The run could certify: the whole suite, an unchanged checkout, writes and destructive checks allowed.
 * - Its coverage of the interface surface, when it states one, is what its evidence's exchanges give
 *   over this checkout's OpenAPI document (informative: no verdict depends on it, but an edited one is refused).
 */
import { spawnSync } from 'node:child_process';
import { certify } from '../../fixtures/verdict/certification.ts';
import { interfaceCoverage } from '../../fixtures/verdict/coverage.ts';
import type { DeclaredOperation, InterfaceCoverage } from '../../fixtures/verdict/coverage.ts';
import type { Certification, TestEvidence } from '../../fixtures/verdict/certification.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import type { Requirement } from '../../fixtures/verdict/requirements.ts';
import type { CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { documentOperations } from '../../fixtures/reporters/coverage.ts';
import { certifiability, fingerprintOf, fingerprintPaths, gitState } from '../../fixtures/reporters/provenance.ts';
import type { Provenance } from '../../fixtures/reporters/provenance.ts';
import { REPO_ROOT } from './repo-root.ts';

/** What the checkout the verifier runs in says. */
export interface Checkout {
  catalogue: readonly Requirement[];
  git: Provenance['git'];
  fingerprint: (name: string) => string | undefined;
  /** Files under a fingerprint's paths that git does not track: a stray file changes the fingerprint, so a refusal names them. */
  untracked?: (name: string) => string[];
  /** The operations of its OpenAPI document and the statuses each declares. */
  operations: readonly DeclaredOperation[];
  /** The tree of a commit, where git can say (the tree an archive copy's certificate names must be its commit's). */
  treeOf?: (commit: string) => string | undefined;
}

export function thisCheckout(root: string = REPO_ROOT): Checkout {
  return {
    catalogue: requirements(),
    git: gitState(root),
    fingerprint: (name) => {
      const paths = fingerprintPaths(name);
      return paths === undefined ? undefined : fingerprintOf(paths, root);
    },
    untracked: (name) => {
      const paths = fingerprintPaths(name);
      if (paths === undefined) return [];
      const listed = spawnSync('git', ['-C', root, 'ls-files', '--others', '--', ...paths], { encoding: 'utf8' });
      return listed.status === 0 ? listed.stdout.split('\n').filter((line) => line !== '') : [];
    },
    operations: documentOperations(),
    treeOf: (commit) => {
      const tree = spawnSync('git', ['-C', root, 'rev-parse', '--verify', '--quiet', `${commit}^{tree}`], { encoding: 'utf8' });
      return tree.status === 0 ? tree.stdout.trim() : undefined;
    },
  };
}

function compareVerdicts(stated: Certification, evidence: readonly TestEvidence[], catalogue: readonly Requirement[]): string[] {
  const reasons: string[] = [];
  // The outages it states (what could not be judged, and why the run stopped) decide what its tests that did not run say.
  const computed = certify(catalogue, evidence, stated.outages ?? []);
  if (computed.verdict !== stated.verdict) reasons.push(`the overall verdict is ${stated.verdict}, its evidence gives ${computed.verdict}`);
  if (JSON.stringify(computed.totals) !== JSON.stringify(stated.totals))
    reasons.push(`the totals differ from those its evidence gives (${JSON.stringify(computed.totals)})`);
  const statedById = new Map(stated.requirements.map((result) => [result.id, result]));
  for (const result of computed.requirements) {
    const claimed = statedById.get(result.id);
    if (claimed !== undefined && claimed.verdict !== result.verdict)
      reasons.push(`${result.id}: stated ${claimed.verdict}, its evidence gives ${result.verdict}`);
    if (claimed !== undefined && (claimed.checksRun !== result.checksRun || claimed.checksFailed !== result.checksFailed)) {
      reasons.push(
        `${result.id}: stated ${claimed.checksRun} checks run (${claimed.checksFailed} failed), its evidence has ${result.checksRun} (${result.checksFailed} failed)`,
      );
    }
  }
  return reasons;
}

function compareCatalogue(stated: Certification, catalogue: readonly Requirement[]): string[] {
  const reasons: string[] = [];
  const statedById = new Map(stated.requirements.map((result) => [result.id, result]));
  const known = new Map(catalogue.map((entry) => [entry.id, entry]));
  for (const entry of catalogue) {
    const claimed = statedById.get(entry.id);
    if (claimed === undefined) reasons.push(`${entry.id} of the catalogue is missing`);
    else {
      if (claimed.level !== entry.level) reasons.push(`${entry.id}: level ${claimed.level}, the catalogue says ${entry.level}`);
      if (claimed.statement !== entry.statement) reasons.push(`${entry.id}: its statement differs from the catalogue's`);
    }
  }
  for (const id of statedById.keys()) if (!known.has(id)) reasons.push(`${id} is not a requirement of the catalogue`);
  return reasons;
}

function compareCoverage(stated: InterfaceCoverage, evidence: readonly TestEvidence[], operations: readonly DeclaredOperation[]): string[] {
  const computed = interfaceCoverage(
    operations,
    evidence.flatMap((test) => test.exchanges ?? []),
  );
  if (JSON.stringify(stated) === JSON.stringify(computed)) return [];
  const statedById = new Map((Array.isArray(stated.operations) ? stated.operations : []).map((operation) => [operation.operationId, operation]));
  const differing = computed.operations
    .filter((operation) => JSON.stringify(statedById.get(operation.operationId)) !== JSON.stringify(operation))
    .map((operation) => operation.operationId);
  return [
    `its coverage of the interface is not what its evidence gives (${differing.length === 0 ? 'totals or exchanges outside the operations' : differing.join(', ')}; evidence: ${computed.neverProvoked} of ${computed.declaredStatuses} declared statuses never provoked)`,
  ];
}

function compareProvenance(provenance: Provenance, checkout: Checkout): string[] {
  const reasons: string[] = [];
  const here = checkout.git;
  if ('unavailable' in provenance.git) reasons.push(`it names no commit: ${provenance.git.unavailable}`);
  else if ('unavailable' in here) reasons.push(`this checkout has no commit to compare with ${provenance.git.commit}: ${here.unavailable}`);
  else {
    if (provenance.git.commit !== here.commit) reasons.push(`it was made by commit ${provenance.git.commit}, this checkout is ${here.commit}`);
    // A certifier may verify in an archive copy too: it must be the commit's.
    if (here.archive !== undefined && here.archive.copyTree !== here.archive.tree)
      reasons.push(`this copy is not commit ${here.commit}: its files make git tree ${here.archive.copyTree}, the commit's is ${here.archive.tree}`);
    const tree = provenance.git.archive === undefined ? undefined : checkout.treeOf?.(provenance.git.commit);
    if (provenance.git.archive !== undefined && tree !== undefined && provenance.git.archive.tree !== tree)
      reasons.push(`it names tree ${provenance.git.archive.tree} for commit ${provenance.git.commit}, whose tree is ${tree}`);
    const stated = JSON.stringify([...provenance.git.modified].sort((a, b) => a.name.localeCompare(b.name)));
    const actual = JSON.stringify([...here.modified].sort((a, b) => a.name.localeCompare(b.name)));
    if (stated !== actual)
      reasons.push(`the modified files it lists are not those of this checkout (${here.modified.length} here, ${provenance.git.modified.length} stated)`);
  }
  for (const fingerprint of provenance.fingerprints) {
    const actual = checkout.fingerprint(fingerprint.name);
    if (actual === undefined) reasons.push(`unknown fingerprint "${fingerprint.name}"`);
    else if (actual !== fingerprint.sha256) {
      const stray = checkout.untracked?.(fingerprint.name) ?? [];
      const shown =
        stray.length === 0
          ? ''
          : ` (files here that git does not track: ${stray.slice(0, 5).join(', ')}${stray.length > 5 ? `, and ${stray.length - 5} more` : ''})`;
      reasons.push(`the SHA-256 of ${fingerprint.name} is not this checkout's${shown}`);
    }
  }
  for (const name of ['spec/openapi.yaml', 'spec/requirements.yaml', 'test tree (tests/, fixtures/, playwright.config.ts)']) {
    if (!provenance.fingerprints.some((fingerprint) => fingerprint.name === name)) reasons.push(`no fingerprint of ${name}`);
  }
  return reasons;
}

/** The one reason a certificate of this checkout's own run may give in a working tree with uncommitted changes. */
export const DIRTY_CHECKOUT = /^the run could not certify: the checkout differs from commit/;

/** True when the only reasons are that the checkout has uncommitted changes (as in a developer's tree; a clean clone gives none). */
export function onlyDirtyCheckout(reasons: readonly string[]): boolean {
  return reasons.length > 0 && reasons.every((reason) => DIRTY_CHECKOUT.test(reason));
}

/** Every reason the certificate is not valid here; none when it is. */
export function verifyCertificate(report: CertificationReport, checkout: Checkout): string[] {
  const reasons: string[] = [];
  if (!Array.isArray(report.requirements) || report.totals === undefined) return ['not a certification report: no requirements or totals'];
  if (report.evidence === undefined) reasons.push('it carries no evidence to compute its verdicts from');
  else reasons.push(...compareVerdicts(report, report.evidence, checkout.catalogue));
  reasons.push(...compareCatalogue(report, checkout.catalogue));
  if (report.coverage !== undefined) reasons.push(...compareCoverage(report.coverage, report.evidence ?? [], checkout.operations));
  if (report.provenance === undefined) reasons.push('it says nothing of what ran (no provenance)');
  else {
    reasons.push(...compareProvenance(report.provenance, checkout));
    const recomputed = certifiability(report.provenance, report.outages ?? []);
    for (const reason of recomputed.reasons) reasons.push(`the run could not certify: ${reason}`);
    if (report.certifiability?.certifiable === true && !recomputed.certifiable) reasons.push('it claims to be certifiable');
  }
  return reasons;
}
