/**
 * Finding the links of the reports and deciding whether each lands on something the run produced:
 * a file under reports/ and, when the link has a fragment, the element it names (an id of the
 * interface specification page, or an operation of the OpenAPI reference, which Redoc routes as
 * `#operation/<operationId>`). Pure functions over texts and a view of the files; the I/O is in
 * scripts/checks/check-links.ts.
 */
import { posix } from 'node:path';

/** A link and where it was found (a file, and in the Allure report the test that shows it). */
export interface FoundLink {
  from: string;
  url: string;
}

export interface LinkProblem extends FoundLink {
  problem: string;
}

/** The targets of Markdown inline links `[text](url)` (certification.md). */
export function markdownLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^()\s]+)\)/g)].map((match) => match[1] ?? '');
}

const decodeEntities = (text: string): string =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The href of every element of an HTML text. */
export function htmlLinks(html: string): string[] {
  return [...html.matchAll(/\shref="([^"]*)"/g)].map((match) => decodeEntities(match[1] ?? ''));
}

/** Every id of an HTML text. */
export function htmlIds(html: string): Set<string> {
  return new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((match) => decodeEntities(match[1] ?? '')));
}

interface AllureTestResult {
  name?: string;
  links?: { url?: string }[];
  descriptionHtml?: string;
}

/**
 * The links every test of a single-file Allure 3 report shows: its links and the anchors of its
 * description. The report holds each test result as base64 JSON in a call `d("data/test-results/<id>.json","<base64>")`.
 */
export function allureReportLinks(indexHtml: string): { tests: number; links: FoundLink[] } {
  const links: FoundLink[] = [];
  let tests = 0;
  for (const match of indexHtml.matchAll(/d\("data\/test-results\/[^"]+\.json","([A-Za-z0-9+/=]+)"\)/g)) {
    const result = JSON.parse(Buffer.from(match[1] ?? '', 'base64').toString('utf8')) as AllureTestResult;
    tests += 1;
    const from = `Allure test "${result.name ?? '?'}"`;
    for (const link of result.links ?? []) links.push({ from, url: link.url ?? '' });
    for (const url of htmlLinks(result.descriptionHtml ?? '')) links.push({ from: `${from} (description)`, url });
  }
  return { tests, links };
}

/** What the checker may know of the produced files, keyed by their path relative to reports/. */
export interface ReportFiles {
  /** Whether the file exists. */
  has(path: string): boolean;
  /** The fragments a file resolves: the ids of an HTML page, the operation routes of the OpenAPI reference. */
  fragments(path: string): ReadonlySet<string>;
}

/**
 * Why a link found in `fromPath` (relative to reports/) does not land on a produced file, or
 * undefined when it does. Links into the published reports (`reportsUrl`) are checked as the files
 * they name; any other absolute address, and any path that leaves reports/, is not a file of the run.
 */
export function linkProblem(url: string, fromPath: string, files: ReportFiles, reportsUrl?: string): string | undefined {
  const hashAt = url.indexOf('#');
  const address = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? undefined : decodeURIComponent(url.slice(hashAt + 1));
  let target: string;
  if (reportsUrl !== undefined && address.startsWith(reportsUrl)) target = decodeURIComponent(address.slice(reportsUrl.length));
  else if (/^[a-z][a-z0-9+.-]*:/i.test(address) || address.startsWith('//')) return 'an absolute address, not a file of the run';
  else if (address === '') target = fromPath;
  else target = posix.normalize(posix.join(posix.dirname(fromPath), decodeURIComponent(address)));
  if (target.startsWith('../') || target === '..' || posix.isAbsolute(target)) return `leaves reports/ (${target})`;
  if (!files.has(target)) return `reports/${target} does not exist`;
  if (fragment !== undefined && fragment !== '' && !files.fragments(target).has(fragment)) return `reports/${target} has no #${fragment}`;
  return undefined;
}

/** Every problem of a list of links found in one file. */
export function linkProblems(links: readonly FoundLink[], fromPath: string, files: ReportFiles, reportsUrl?: string): LinkProblem[] {
  return links.flatMap((link) => {
    const problem = linkProblem(link.url, fromPath, files, reportsUrl);
    return problem === undefined ? [] : [{ ...link, problem }];
  });
}
