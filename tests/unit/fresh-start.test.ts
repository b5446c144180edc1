/**
 * A run's fresh start (fixtures/reporters/fresh-start.ts): what it removes of the previous run's
 * reports, what it keeps, and when playwright.config.ts clears them itself (a bad profile stops the
 * run before any reporter exists).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { clearRunOutputs, runnerOf } from '../../fixtures/reporters/fresh-start.ts';

const root = mkdtempSync(join(tmpdir(), 'fresh-start-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('fresh start', () => {
  it("removes the run's outputs and every certificate, and nothing else under reports/", () => {
    const reports = join(root, 'reports');
    const files = ['junit.xml', 'certification.json', 'certification.md', 'certification-variant-x.json', 'certification-variant-x.md'];
    const kept = ['interface-spec.html', 'allure-history.jsonl', 'certification-notes.txt', join('blob-1', 'report-1.zip'), join('.created', 'run-0.jsonl')];
    for (const name of [...files, join('allure-results', 'a.json'), ...kept]) {
      mkdirSync(join(reports, name, '..'), { recursive: true });
      writeFileSync(join(reports, name), 'x');
    }
    clearRunOutputs(root, { outputs: ['reports/junit.xml', 'reports/allure-results', 'reports/certification.json'], certificateDir: 'reports' });
    for (const name of [...files, 'allure-results']) assert.equal(existsSync(join(reports, name)), false, `${name} removed`);
    for (const name of kept) assert.equal(existsSync(join(reports, name)), true, `${name} kept`);
  });

  it('clears nothing that is not there, without an error', () => {
    assert.doesNotThrow(() => clearRunOutputs(join(root, 'nowhere'), { outputs: ['reports/junit.xml'], certificateDir: 'reports' }));
  });

  it("is the runner's configuration when --config names it or its directory, or names none in its directory", () => {
    const file = '/repo/playwright.config.ts';
    assert.equal(runnerOf(file, ['node', 'playwright', 'test'], '/repo'), true);
    assert.equal(runnerOf(file, ['node', 'playwright', 'test'], '/elsewhere'), false);
    assert.equal(runnerOf(file, ['node', 'playwright', 'test', '--config', 'playwright.config.ts'], '/repo'), true);
    assert.equal(runnerOf(file, ['node', 'playwright', 'test', '-c', '/repo/playwright.config.ts'], '/tmp'), true);
    assert.equal(runnerOf(file, ['node', 'playwright', 'test', '--config=/repo/playwright.config.ts'], '/tmp'), true);
    assert.equal(
      runnerOf(file, ['node', 'playwright', 'test', '--config', '/repo/reports/.checks/x/playwright.config.ts'], '/repo'),
      false,
      "a check's configuration",
    );
  });
});
