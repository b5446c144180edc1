/** A copy made by `git archive` names its commit and knows whether it is unchanged (fixtures/reporters/archive-copy.ts). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ARCHIVAL_FILE, ARCHIVAL_TEMPLATE, archiveState, copyTree, readArchival } from '../../fixtures/reporters/archive-copy.ts';
import { certifiability, gitState } from '../../fixtures/reporters/provenance.ts';
import type { Provenance } from '../../fixtures/reporters/provenance.ts';
import { REPO_ROOT } from '../../scripts/lib/playwright-run.ts';

const scratch = mkdtempSync(join(tmpdir(), 'archive-copy-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();

/** A small repository laid out like ours: the archival file, ignore rules, a nested tree, an executable, a symlink. */
function repository(): { dir: string; commit: string; tree: string } {
  const dir = join(scratch, 'repo');
  mkdirSync(join(dir, 'spec/deep'), { recursive: true });
  mkdirSync(join(dir, 'reports'), { recursive: true });
  writeFileSync(join(dir, ARCHIVAL_FILE), ARCHIVAL_TEMPLATE);
  writeFileSync(join(dir, '.gitattributes'), `${ARCHIVAL_FILE} export-subst\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules\nreports/*\n!reports/.gitkeep\n*.log\n');
  writeFileSync(join(dir, 'reports/.gitkeep'), '');
  writeFileSync(join(dir, 'spec/a.yaml'), 'a: 1\n');
  writeFileSync(join(dir, 'spec/deep/b.yaml'), 'b: 2\n');
  writeFileSync(join(dir, 'spec-x'), 'sorts between spec and spec/ in a tree\n');
  writeFileSync(join(dir, 'run'), '#!/bin/sh\n');
  chmodSync(join(dir, 'run'), 0o755);
  symlinkSync('spec/a.yaml', join(dir, 'link'));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'one');
  return { dir, commit: git(dir, 'rev-parse', 'HEAD'), tree: git(dir, 'rev-parse', 'HEAD^{tree}') };
}

/** `git archive HEAD | tar -x` into a fresh directory. */
function archiveCopy(repo: string, name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['archive', 'HEAD'], { cwd: repo, maxBuffer: 1 << 26 }) });
  return dir;
}

const repo = repository();

describe('a git archive copy', () => {
  it('names the commit, its date and its tree, and its files make that tree', () => {
    const copy = archiveCopy(repo.dir, 'copy');
    // What a run leaves, and what the ignore rules leave out.
    mkdirSync(join(copy, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(copy, 'node_modules/pkg/index.js'), '');
    writeFileSync(join(copy, 'reports/certification.json'), '{}');
    writeFileSync(join(copy, 'debug.log'), '');
    const state = archiveState(copy);
    assert.ok(!('unavailable' in state));
    assert.equal(state.stamp.commit, repo.commit);
    assert.equal(state.stamp.tree, repo.tree);
    assert.match(state.stamp.committedAt, /^\d{4}-\d\d-\d\dT/);
    assert.equal(state.copyTree, repo.tree);
    const provenanceGit = gitState(copy);
    assert.deepEqual(provenanceGit, {
      commit: repo.commit,
      modified: [],
      archive: { committedAt: state.stamp.committedAt, tree: repo.tree, copyTree: repo.tree },
    });
  });

  it('computes the tree git computes for a checkout (this repository at its index, with the archival file as committed)', () => {
    assert.equal(copyTree(repo.dir), repo.tree);
  });

  it('sees a changed, an added and a removed file, and a changed mode', () => {
    const changes: readonly [string, (dir: string) => void][] = [
      ['changed', (dir) => writeFileSync(join(dir, 'spec/deep/b.yaml'), 'b: 3\n')],
      ['added', (dir) => writeFileSync(join(dir, 'spec/extra.yaml'), '')],
      ['removed', (dir) => rmSync(join(dir, 'spec/a.yaml'))],
      ['mode', (dir) => chmodSync(join(dir, 'run'), 0o644)],
    ];
    for (const [name, change] of changes) {
      const copy = archiveCopy(repo.dir, `copy-${name}`);
      change(copy);
      const state = archiveState(copy);
      assert.ok(!('unavailable' in state));
      assert.notEqual(state.copyTree, repo.tree, name);
      const reasons = certifiability(provenanceOf(gitState(copy))).reasons;
      assert.ok(
        reasons.some((reason) => reason.startsWith(`the copy differs from commit ${repo.commit.slice(0, 12)}: its files make git tree`)),
        `${name}: ${reasons.join('; ')}`,
      );
    }
  });

  it('is still a copy when it lies inside another checkout (the copy is not the top of it)', () => {
    const nested = join(repo.dir, 'reports', 'nested');
    cpSync(archiveCopy(repo.dir, 'copy-for-nesting'), nested, { recursive: true, verbatimSymlinks: true });
    const state = gitState(nested);
    assert.ok(!('unavailable' in state) && state.archive?.copyTree === repo.tree, JSON.stringify(state));
  });
});

describe('a copy that is not an archive', () => {
  it('names no commit when the placeholders were not filled in (a plain copy)', () => {
    const copy = join(scratch, 'plain');
    cpSync(repo.dir, copy, { recursive: true, verbatimSymlinks: true, filter: (source) => !source.includes('/.git/') && !source.endsWith('/.git') });
    const state = gitState(copy);
    assert.ok('unavailable' in state);
    assert.match(state.unavailable, /\.git_archival\.txt was not filled in by git archive \(a plain copy of a checkout\)/);
    assert.ok(certifiability(provenanceOf(state)).reasons.includes(state.unavailable));
  });

  it('names no commit without the archival file, or with values that are not object ids', () => {
    const copy = join(scratch, 'bare');
    mkdirSync(copy);
    assert.match(String((gitState(copy) as { unavailable?: string }).unavailable), /no \.git_archival\.txt/);
    assert.deepEqual(readArchival('node: main\nnode-date: x\ntree: y\n'), { unfilled: '.git_archival.txt names no commit and tree (node: main)' });
  });

  it("keeps the template this module knows in the repository's own archival file", () => {
    assert.equal(readFileSync(join(REPO_ROOT, ARCHIVAL_FILE), 'utf8'), ARCHIVAL_TEMPLATE);
    assert.match(readFileSync(join(REPO_ROOT, '.gitattributes'), 'utf8'), /^\.git_archival\.txt export-subst$/m);
  });
});

function provenanceOf(git: Provenance['git']): Provenance {
  return {
    git,
    fingerprints: [],
    selection: { command: 'test', narrowedBy: [], testsSelected: 1 },
    permissions: { allowWrites: true, allowDestructive: true },
    optionalVariablesSet: [],
    workers: 1,
    politeness: undefined,
    versions: { suite: '0', node: 'v20', playwright: '1', ajv: '8' },
    startedAt: '',
    endedAt: '',
  };
}
