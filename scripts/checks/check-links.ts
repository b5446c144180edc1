/**
 * `npm run check:links`: every link of the reports lands on a file the run produced, with the
 * section or operation it names. Checks, after `npm run conformance` and `npm run report`:
 * - the links of reports/certification.md;
 * - the links and description anchors of every test of the Allure report (read from the report
 *   itself, reports/allure-report/index.html);
 * - the links of the interface specification page (reports/interface-spec.html);
 * - the links that the certification report and Allure would write for every requirement of the
 *   catalogue, passed or not (a passing run's certification.md links to no section at all).
 * A fragment must name an id of the page it points to; `#operation/<id>` of the OpenAPI reference
 * must name an operation of the document Redoc embedded. Exits 1 when a link does not resolve, 2 when
 * the reports are missing.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { harnessSettings } from '../../fixtures/config/settings.ts';
import { INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE, referenceLinks, sectionUrl } from '../../fixtures/reporters/report-metadata.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import { allureReportLinks, htmlIds, htmlLinks, linkProblems, markdownLinks, type FoundLink, type LinkProblem, type ReportFiles } from '../lib/links.ts';

const REPORTS = resolve(fileURLToPath(new URL('../../', import.meta.url)), 'reports');
const CERTIFICATION = 'certification.md';
const ALLURE_REPORT = 'allure-report/index.html';
const SHOWN_PROBLEMS = 20;

class CannotRun extends Error {}

/** The produced files, read on demand and kept: the Allure report alone is some 20 MB. */
function reportFiles(): ReportFiles & { text(path: string): string } {
  const texts = new Map<string, string>();
  const fragments = new Map<string, ReadonlySet<string>>();
  const text = (path: string): string => {
    if (!texts.has(path)) texts.set(path, readFileSync(join(REPORTS, path), 'utf8'));
    return texts.get(path) as string;
  };
  return {
    text,
    has: (path) => existsSync(join(REPORTS, path)) && statSync(join(REPORTS, path)).isFile(),
    fragments(path) {
      if (!fragments.has(path)) {
        const html = text(path);
        // Redoc routes #operation/<operationId> itself, from the document it embeds.
        const operations =
          path === INTERFACE_REFERENCE_FILE ? [...html.matchAll(/"operationId":"([^"]+)"/g)].map((match) => `operation/${match[1] ?? ''}`) : [];
        fragments.set(path, new Set([...htmlIds(html), ...operations]));
      }
      return fragments.get(path) as ReadonlySet<string>;
    },
  };
}

const foundIn = (from: string, urls: readonly string[]): FoundLink[] => urls.map((url) => ({ from, url }));

function main(): number {
  try {
    const files = reportFiles();
    for (const path of [CERTIFICATION, ALLURE_REPORT]) {
      if (!files.has(path)) throw new CannotRun(`reports/${path} is missing: run npm run conformance, then npm run report`);
    }
    const { reportsUrl } = harnessSettings();
    const allure = allureReportLinks(files.text(ALLURE_REPORT));
    if (allure.tests === 0 || allure.links.length === 0) {
      throw new Error(`found ${allure.tests} tests and ${allure.links.length} links in reports/${ALLURE_REPORT}: has the format of the Allure report changed?`);
    }
    const certification = foundIn(CERTIFICATION, markdownLinks(files.text(CERTIFICATION)));
    const catalogue = requirements();
    // A missing page fails below, through the links of every requirement into it.
    const spec = files.has(INTERFACE_SPEC_FILE) ? foundIn(INTERFACE_SPEC_FILE, htmlLinks(files.text(INTERFACE_SPEC_FILE))) : [];
    const groups: [string, string, FoundLink[]][] = [
      [CERTIFICATION, CERTIFICATION, certification],
      [`the Allure report (${allure.tests} tests)`, ALLURE_REPORT, allure.links],
      [INTERFACE_SPEC_FILE, INTERFACE_SPEC_FILE, spec],
      [
        `certification.md for each of ${catalogue.length} requirements`,
        CERTIFICATION,
        catalogue.map((entry) => ({ from: entry.id, url: sectionUrl(entry.section, '') })),
      ],
      [
        `Allure for each of ${catalogue.length} requirements`,
        ALLURE_REPORT,
        catalogue.flatMap((entry) => referenceLinks(entry, reportsUrl ?? '../').map((link) => ({ from: entry.id, url: link.url }))),
      ],
    ];
    const problems: LinkProblem[] = [];
    for (const [what, fromPath, links] of groups) {
      const found = linkProblems(links, fromPath, files, reportsUrl);
      console.log(`${found.length === 0 ? 'ok  ' : 'FAIL'} ${what}: ${links.length} links${found.length === 0 ? '' : `, ${found.length} do not resolve`}`);
      problems.push(...found);
    }
    // One line per broken address, with one of the places that link to it.
    const distinct = new Map<string, { example: LinkProblem; count: number }>();
    for (const problem of problems) {
      const key = `${problem.url}\n${problem.problem}`;
      distinct.set(key, { example: distinct.get(key)?.example ?? problem, count: (distinct.get(key)?.count ?? 0) + 1 });
    }
    for (const { example, count } of [...distinct.values()].slice(0, SHOWN_PROBLEMS)) {
      console.log(`  ${example.url}: ${example.problem} (${count === 1 ? example.from : `${count} links, such as ${example.from}`})`);
    }
    if (distinct.size > SHOWN_PROBLEMS) console.log(`  ... and ${distinct.size - SHOWN_PROBLEMS} more addresses`);
    const total = groups.reduce((sum, [, , links]) => sum + links.length, 0);
    console.log(
      problems.length === 0
        ? `check:links: all ${total} links resolve to files of the run`
        : `check:links: ${problems.length} of ${total} links do not resolve`,
    );
    return problems.length === 0 ? 0 : 1;
  } catch (error) {
    console.error(`check:links could not run: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof CannotRun ? 2 : 1;
  }
}

process.exitCode = main();
