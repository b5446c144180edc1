/**
 * Reporter of scripts/maintainer/self-verify.ts: prints progress every few seconds and writes, next to the
 * SELF_VERIFY_TARGETS file, a compact result per test (project, title, outcome, cited requirements,
 * first line of the error). Playwright's json reporter would also do, but it carries every HTTP
 * exchange the harness attaches as evidence: about 10 MB per pass of the suite, over a hundred
 * passes here.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { CHECKS_FAILED_ANNOTATION } from '../../fixtures/verdict/checks.ts';
import { checksOf, skipsOf } from '../../fixtures/verdict/records.ts';
import { shareOutcomesRestored } from '../../fixtures/config/handoff.ts';
import { harnessSettings } from '../../fixtures/config/settings.ts';
import type { TestOutcome } from './kill-matrix.ts';

export type { TestOutcome } from './kill-matrix.ts';

export interface RunResults {
  status: FullResult['status'];
  /** Errors outside any test (configuration, global setup). */
  errors: string[];
  tests: TestOutcome[];
}

export const resultsFileOf = (targetsFile: string): string => join(dirname(targetsFile), 'results.json');

const PROGRESS_EVERY_MS = 10_000;

/** The error's non-empty lines without the ANSI colour codes matcher messages carry. */
function errorLines(error: TestError | undefined): string[] {
  const text = error?.message ?? error?.value ?? '';
  return text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function firstLine(error: TestError | undefined): string | undefined {
  return errorLines(error)[0];
}

const DETAIL_LINES = 12;
const DETAIL_CHARS = 2000;

function detailOf(error: TestError | undefined): string | undefined {
  const lines = errorLines(error);
  return lines.length <= 1 ? undefined : lines.slice(0, DETAIL_LINES).join('\n').slice(0, DETAIL_CHARS);
}

export default class SelfVerifyReporter implements Reporter {
  readonly #output: string;
  readonly #startedAt = Date.now();
  readonly #remaining = new Map<string, number>();
  readonly #tests: TestOutcome[] = [];
  readonly #errors: string[] = [];
  #total = 0;
  #failed = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor() {
    const targets = harnessSettings().selfVerifyTargets;
    if (targets === undefined) throw new Error('scripts/lib/self-verify-reporter.ts reports a self-verification run: SELF_VERIFY_TARGETS is not set');
    this.#output = resultsFileOf(targets);
    // As fixtures/reporters/outcomes.ts: a test whose failures checks recorded does not cost a new
    // worker (workers inherit the runner's environment). This reporter reads result.status, which
    // stays 'failed' for such a test, so nothing needs restoring.
    shareOutcomesRestored(process.env);
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    for (const test of suite.allTests()) {
      const project = test.parent.project()?.name ?? '';
      this.#remaining.set(project, (this.#remaining.get(project) ?? 0) + 1);
    }
    this.#total = suite.allTests().length;
    process.stderr.write(`self-verify: ${this.#total} tests in ${this.#remaining.size} projects\n`);
    this.#timer = setInterval(() => this.#progress(), PROGRESS_EVERY_MS);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name ?? '';
    const failed = result.status !== 'passed' && result.status !== 'skipped';
    const error = failed ? firstLine(result.errors[0]) : undefined;
    const detail = failed ? detailOf(result.errors[0]) : undefined;
    this.#tests.push({
      project,
      title: test.title,
      location: `${test.location.file.split(/[\\/]tests[\\/]/).at(-1) ?? test.location.file}:${test.location.line}`,
      status: result.status,
      requirements: test.annotations.filter((annotation) => annotation.type === 'requirement').flatMap((annotation) => annotation.description ?? []),
      checks: checksOf(result.attachments),
      failuresRecordedByChecks: result.annotations.some((annotation) => annotation.type === CHECKS_FAILED_ANNOTATION),
      ...(error === undefined ? {} : { error }),
      ...(detail === undefined ? {} : { detail }),
      skipReasons: result.annotations.filter((annotation) => annotation.type === 'skip').map((annotation) => annotation.description ?? ''),
      skips: skipsOf(result.attachments),
      durationMs: result.duration,
      workerIndex: result.workerIndex,
    });
    if (failed) this.#failed += 1;
    this.#remaining.set(project, (this.#remaining.get(project) ?? 1) - 1);
  }

  onError(error: TestError): void {
    this.#errors.push(firstLine(error) ?? 'unknown error');
  }

  onEnd(result: FullResult): void {
    clearInterval(this.#timer);
    this.#progress();
    const results: RunResults = { status: result.status, errors: this.#errors, tests: this.#tests };
    writeFileSync(this.#output, JSON.stringify(results));
  }

  #progress(): void {
    const seconds = Math.round((Date.now() - this.#startedAt) / 1000);
    const finished = [...this.#remaining.values()].filter((left) => left === 0).length;
    process.stderr.write(
      `self-verify: ${seconds} s, ${this.#tests.length}/${this.#total} tests done, ${this.#failed} failed, ` +
        `${finished}/${this.#remaining.size} instances finished\n`,
    );
  }
}
