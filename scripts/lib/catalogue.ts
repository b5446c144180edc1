/**
 * Pure logic of the catalogue check: read the tests out of a Playwright JSON report (as written by
 * `playwright test --list --reporter=json`), match their citations against the requirements
 * catalogue, and format the findings. scripts/checks/check-catalogue.ts does the I/O.
 */
import { isRecord } from '../../fixtures/contract/document.ts';
import type { Requirement } from '../../fixtures/verdict/requirements.ts';

/** One test (a Playwright spec: the same test in several projects counts once). */
export interface ListedTest {
  /** file:line relative to the test directory. */
  location: string;
  /** Describe titles and the test title, joined with ' › '. */
  title: string;
  /** Requirement IDs cited by `requirement` annotations and by ID-shaped tags, in first-seen order. */
  ids: string[];
}

export interface TestListing {
  tests: ListedTest[];
  /** Errors Playwright met while collecting tests (a spec that does not load, for example). */
  errors: string[];
}

export interface UnknownCitation {
  id: string;
  citedBy: ListedTest[];
}

export interface CoverageReport {
  requirementCount: number;
  testCount: number;
  uncovered: Requirement[];
  uncited: ListedTest[];
  unknown: UnknownCitation[];
  loadErrors: string[];
  ok: boolean;
}

/** Tags come without '@' in the JSON report and with it in test details; accept both. */
const ID_TAG = /^@?([A-Z]+-\d{2,3})$/;

const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function citedIds(spec: Record<string, unknown>): string[] {
  const ids: string[] = [];
  for (const test of records(spec.tests)) {
    for (const annotation of records(test.annotations)) {
      if (annotation.type === 'requirement') ids.push(text(annotation.description).trim() || '(empty requirement annotation)');
    }
  }
  for (const tag of Array.isArray(spec.tags) ? spec.tags : []) {
    const match = typeof tag === 'string' ? ID_TAG.exec(tag) : null;
    if (match?.[1] !== undefined) ids.push(match[1]);
  }
  return [...new Set(ids)];
}

function collectSuite(suite: Record<string, unknown>, titles: string[], into: Map<string, ListedTest>): void {
  for (const spec of records(suite.specs)) {
    const location = `${text(spec.file) || text(suite.file)}:${typeof spec.line === 'number' ? spec.line : 0}`;
    const title = [...titles, text(spec.title)].join(' › ');
    const key = text(spec.id) || `${location} ${title}`;
    const ids = citedIds(spec);
    const known = into.get(key);
    if (known === undefined) into.set(key, { location, title, ids });
    else known.ids = [...new Set([...known.ids, ...ids])];
  }
  for (const child of records(suite.suites)) collectSuite(child, [...titles, text(child.title)], into);
}

/** Reads the tests of a Playwright JSON report; throws when the input is not such a report. */
export function readTestListing(report: unknown): TestListing {
  if (!isRecord(report) || !Array.isArray(report.suites)) {
    throw new Error('not a Playwright JSON report: expected an object with a "suites" array');
  }
  const tests = new Map<string, ListedTest>();
  // Top-level suites are files; their title is the file path, already in each test's location.
  for (const fileSuite of records(report.suites)) collectSuite(fileSuite, [], tests);
  const errors = records(report.errors).map((error) => {
    const location = isRecord(error.location) ? ` (${text(error.location.file)}:${String(error.location.line ?? '')})` : '';
    return `${text(error.message) || 'unknown error'}${location}`;
  });
  return { tests: [...tests.values()], errors };
}

/** Every requirement needs a test; every test needs a citation; every citation needs a requirement. */
export function checkCoverage(catalogue: readonly Requirement[], listing: TestListing): CoverageReport {
  const known = new Set(catalogue.map((entry) => entry.id));
  const cited = new Set(listing.tests.flatMap((test) => test.ids));
  const unknown = new Map<string, ListedTest[]>();
  for (const test of listing.tests) {
    for (const id of test.ids) {
      if (!known.has(id)) unknown.set(id, [...(unknown.get(id) ?? []), test]);
    }
  }
  const report = {
    requirementCount: catalogue.length,
    testCount: listing.tests.length,
    uncovered: catalogue.filter((entry) => !cited.has(entry.id)),
    uncited: listing.tests.filter((test) => test.ids.length === 0),
    unknown: [...unknown].map(([id, citedBy]) => ({ id, citedBy })),
    loadErrors: [...listing.errors],
  };
  const ok = report.uncovered.length === 0 && report.uncited.length === 0 && report.unknown.length === 0 && report.loadErrors.length === 0;
  return { ...report, ok };
}

const STATEMENT_WIDTH = 100;

const clip = (value: string, width: number): string => (value.length <= width ? value : `${value.slice(0, width - 1)}…`);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `  ${cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ')}`;
  return [line(header), ...rows.map(line)];
}

/** Human-readable findings, ending with a one-line summary. */
export function formatCoverage(report: CoverageReport): string {
  const lines: string[] = [];
  if (report.uncovered.length > 0) {
    lines.push(
      `Requirements without a test (${report.uncovered.length}):`,
      ...table(
        ['ID', 'LEVEL', 'KIND', 'STATEMENT'],
        report.uncovered.map((entry) => [entry.id, entry.level, entry.kind, clip(entry.statement, STATEMENT_WIDTH)]),
      ),
      '',
    );
  }
  if (report.uncited.length > 0) {
    lines.push(
      `Tests that cite no requirement (${report.uncited.length}):`,
      ...table(
        ['LOCATION', 'TEST'],
        report.uncited.map((test) => [test.location, test.title]),
      ),
      '',
    );
  }
  if (report.unknown.length > 0) {
    lines.push(
      `Cited IDs missing from the catalogue (${report.unknown.length}):`,
      ...table(
        ['ID', 'CITED BY'],
        report.unknown.map(({ id, citedBy }) => [id, citedBy.map((test) => `${test.location} ${test.title}`).join('; ')]),
      ),
      '',
    );
  }
  // Last, next to the summary: a spec that fails to load hides its tests from every table above.
  if (report.loadErrors.length > 0) {
    lines.push(`Errors while listing tests (${report.loadErrors.length}):`, ...report.loadErrors.map((error) => `  ${error}`), '');
  }
  const covered = report.requirementCount - report.uncovered.length;
  lines.push(
    `catalogue check ${report.ok ? 'passed' : 'FAILED'}: ${covered}/${report.requirementCount} requirements covered by ${report.testCount} tests; ` +
      `${report.uncovered.length} without a test, ${report.uncited.length} tests without a citation, ` +
      `${report.unknown.length} unknown IDs, ${report.loadErrors.length} listing errors`,
  );
  return lines.join('\n');
}
