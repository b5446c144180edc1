/**
 * `npm run check:report`: opens the generated Allure report (reports/allure-report/index.html) from
 * file:// in headless Chromium, the way a reader opens a report they were sent, and checks that it
 * renders as living documentation:
 * - every interface area (epic) of the results is a section of the tree;
 * - the smoke test 'listing groups returns a pagination envelope of groups' is filed under
 *   Groups > GRP-01, and its page shows the story, the links into the rendered interface
 *   documents, and its HTTP evidence ('HTTP 200 GET /groups'), redacted;
 * - those links land on the operation in interface-reference.html and on the section in
 *   interface-spec.html;
 * - the overview shows the run's certification (reports/certification.json) first: its verdict,
 *   whether the run could certify and the totals of each level as report variables, and the
 *   quality gates (Quality Gates tab) state the verdict and the certifiability, each passed or
 *   failed as the certificate says.
 * Saves a screenshot of the test page to reports/allure-report.png. Exits 1 when a check fails, 2
 * when it cannot run (no report, no browser), 1 when the browser hung or would not start in every
 * attempt.
 *
 * Run after `npm run conformance` and `npm run report`. Installs Debian's chromium with apt-get
 * when /usr/bin/chromium is missing (never `playwright install`). Each attempt runs in a child
 * process bounded in time, and a hung attempt is made once more (bounded()).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPORTS = resolve(ROOT, 'reports');
const REPORT = join(REPORTS, 'allure-report', 'index.html');
const RESULTS = join(REPORTS, 'allure-results');
const SCREENSHOT = join(REPORTS, 'allure-report.png');
const CERTIFICATE = join(REPORTS, 'certification.json');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const KNOWN_TEST = 'listing groups returns a pagination envelope of groups';
const KNOWN_EPIC = 'Groups';
const KNOWN_STORY = 'GRP-01';
const KNOWN_ATTACHMENT = 'HTTP 200 GET /groups';
/** Rendering a report of a few hundred tests takes a few seconds on a small machine. */
const UI_TIMEOUT_MS = 30_000;
/** Chromium starts in about a second; Playwright's own default (180 s) would outlast an attempt. */
const LAUNCH_TIMEOUT_MS = 30_000;

class CannotRun extends Error {}
/** The browser did not start or did not open the report: the attempt is made again (exit code 3). */
class BrowserTrouble extends Error {}
const BROWSER_TROUBLE_EXIT = 3;

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const command = 'apt-get update && apt-get install -y chromium';
  console.log(`${CHROMIUM} is missing; installing Debian's chromium: ${command}`);
  const install = spawnSync('sh', ['-c', command], { stdio: 'inherit' });
  if (install.status !== 0 || !existsSync(CHROMIUM)) {
    throw new CannotRun(
      `could not install chromium (${command} exited with ${install.status ?? install.signal}); install it as root ` +
        `(Debian: apt-get install chromium) and run npm run check:report again`,
    );
  }
}

/** The epics of the results the report was generated from. */
function epicsOfResults(): string[] {
  if (!existsSync(RESULTS)) throw new CannotRun(`${RESULTS} is missing: run npm run conformance, then npm run report`);
  const epics = new Set<string>();
  for (const file of readdirSync(RESULTS).filter((name) => name.endsWith('-result.json'))) {
    const result = JSON.parse(readFileSync(join(RESULTS, file), 'utf8')) as { labels?: { name: string; value: string }[] };
    for (const label of result.labels ?? []) if (label.name === 'epic') epics.add(label.value);
  }
  return [...epics].sort();
}

/** What the overview must show of the run's certificate. */
interface CertificateShown {
  verdict: string;
  certifiable: boolean | undefined;
  totals: Record<string, { total: number; passed: number }>;
}

function certificateOfRun(): CertificateShown {
  if (!existsSync(CERTIFICATE)) throw new CannotRun(`${CERTIFICATE} is missing: run npm run conformance, then npm run report`);
  const certificate = JSON.parse(readFileSync(CERTIFICATE, 'utf8')) as CertificateShown & { certifiability?: { certifiable?: boolean } };
  return { verdict: certificate.verdict, certifiable: certificate.certifiability?.certifiable, totals: certificate.totals };
}

type Check = { ok: true; what: string } | { ok: false; what: string; problem: string };

/** Runs one check and prints its line at once: a run that hangs shows how far it got. */
async function check(what: string, body: () => Promise<void>): Promise<Check> {
  let result: Check;
  try {
    await body();
    result = { ok: true, what };
  } catch (error) {
    result = { ok: false, what, problem: (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '' };
  }
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.what}${result.ok ? '' : `: ${result.problem}`}`);
  return result;
}

/** The overview's report variables and its quality gates: the certification where readers look first. */
async function checkOverview(page: Page, certificate: CertificateShown): Promise<Check[]> {
  const checks: Check[] = [];
  const variables = page.getByTestId('report-variables');
  const variable = async (key: string, value: RegExp): Promise<void> => {
    const item = variables.getByTestId('metadata-item').filter({ has: page.getByTestId('metadata-item-key').getByText(key, { exact: true }) });
    const shown = (await item.getByTestId('metadata-item-value').innerText({ timeout: UI_TIMEOUT_MS })).trim();
    if (!value.test(shown)) throw new Error(`${key} shows "${shown}", the certificate gives ${value}`);
  };
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  checks.push(await check(`the overview shows the verdict ${certificate.verdict}`, () => variable('Verdict', new RegExp(`^${escape(certificate.verdict)}$`))));
  checks.push(
    await check(`the overview shows whether the run could certify (${certificate.certifiable === true ? 'yes' : 'no'})`, () =>
      variable('Certifiable', certificate.certifiable === true ? /^yes$/ : /^(?:no: \S|unknown$)/),
    ),
  );
  checks.push(
    await check('the overview shows the totals of each level', async () => {
      for (const [level, totals] of Object.entries(certificate.totals)) await variable(level, new RegExp(`^${totals.passed}/${totals.total} passed(?: \\(|$)`));
    }),
  );
  checks.push(
    await check('the quality gates state the verdict and the certifiability, each passed or failed as the certificate says', async () => {
      await page.getByTestId('nav-tab-qualityGate').click({ timeout: UI_TIMEOUT_MS });
      const gate = async (rule: string, passed: boolean, message: RegExp): Promise<void> => {
        const result = page.getByTestId('quality-gate-result').filter({ has: page.getByTestId('quality-gate-result-rule').getByText(rule, { exact: true }) });
        const icon = await result
          .getByTestId(/^quality-gate-result-(?:passed|failed)-icon$/)
          .first()
          .getAttribute('data-testid', { timeout: UI_TIMEOUT_MS });
        if ((icon === 'quality-gate-result-passed-icon') !== passed)
          throw new Error(`${rule} is shown ${passed ? 'failed' : 'passed'}, the certificate says ${passed ? 'passed' : 'failed'}`);
        const shown = await result.getByTestId('quality-gate-result-message').innerText({ timeout: UI_TIMEOUT_MS });
        if (!message.test(shown)) throw new Error(`${rule} says "${shown.split('\n')[0] ?? ''}"`);
      };
      try {
        await gate(
          'certification/verdict',
          certificate.verdict === 'CONFORMANT',
          new RegExp(`The certification verdict is ${escape(certificate.verdict)} \\(MUST `),
        );
        await gate(
          'certification/certifiable',
          certificate.certifiable === true,
          certificate.certifiable === true ? /The run could certify/ : /The run could not certify/,
        );
      } finally {
        // The checks after this one read the results tree, whatever this one found.
        await page.getByTestId('nav-tab-results').click({ timeout: UI_TIMEOUT_MS });
      }
    }),
  );
  return checks;
}

async function checkReport(page: Page, epics: readonly string[], certificate: CertificateShown): Promise<Check[]> {
  const checks: Check[] = [];
  console.log(`opening ${REPORT}`);
  await page.goto(pathToFileURL(REPORT).href, { timeout: UI_TIMEOUT_MS }).catch((error: unknown) => {
    throw new BrowserTrouble(`the report did not open: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  });
  const tree = page.getByTestId('tree-content').first();
  const section = (title: RegExp) => tree.getByTestId('tree-section-title').filter({ hasText: title }).first();

  checks.push(
    await check('the report renders from file:// (single-file mode)', async () => {
      await tree.waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );
  checks.push(...(await checkOverview(page, certificate)));
  for (const epic of epics) {
    checks.push(await check(`interface area "${epic}" is a section of the tree`, () => section(new RegExp(`^${epic}$`)).waitFor({ timeout: UI_TIMEOUT_MS })));
  }
  checks.push(
    await check(`"${KNOWN_TEST}" is filed under ${KNOWN_EPIC} > ${KNOWN_STORY}`, async () => {
      await page.getByTestId('search-input').fill(KNOWN_TEST);
      await section(new RegExp(`^${KNOWN_EPIC}$`)).click({ timeout: UI_TIMEOUT_MS });
      await section(new RegExp(`^${KNOWN_STORY} `)).click({ timeout: UI_TIMEOUT_MS });
      await tree.getByTestId('tree-leaf-title').getByText(KNOWN_TEST, { exact: true }).click({ timeout: UI_TIMEOUT_MS });
      await page.getByTestId('test-result-info-title').getByText(KNOWN_TEST, { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );
  checks.push(
    await check(`the test page shows the story ${KNOWN_STORY} with its statement`, () =>
      page
        .getByTestId('metadata-item-value')
        .getByText(new RegExp(`^${KNOWN_STORY} \\S`))
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS }),
    ),
  );
  checks.push(
    await check(`the test page shows the redacted HTTP evidence "${KNOWN_ATTACHMENT}"`, async () => {
      const attachment = page.getByTestId('test-result-attachment').filter({ hasText: KNOWN_ATTACHMENT }).first();
      await attachment.getByTestId('test-result-attachment-header').click({ timeout: UI_TIMEOUT_MS });
      await attachment
        .getByText(/curl -sS -i -X GET/)
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
      await attachment
        .getByText(/Authorization: Bearer \[REDACTED\]/)
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );
  await page.screenshot({ path: SCREENSHOT, fullPage: true });

  checks.push(
    await check('the test page lists its links into the OpenAPI reference and the interface specification', async () => {
      const links = page.getByTestId('test-result-meta-link');
      await links
        .filter({ hasText: `${KNOWN_STORY}: listGroups in the OpenAPI reference` })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
      await links
        .filter({ hasText: `${KNOWN_STORY}: "2. List groups" in the interface specification` })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );
  // The description carries the same links as real anchors whatever the address of the reports.
  const descriptionLink = async (name: string): Promise<string> => {
    const description = page.frameLocator('[data-testid="test-result-description-frame"]');
    const href = await description.getByRole('link', { name, exact: true }).first().getAttribute('href', { timeout: UI_TIMEOUT_MS });
    if (href === null) throw new Error(`the description link "${name}" has no href`);
    return new URL(href, page.url()).href;
  };
  const documents = await page.context().newPage();
  checks.push(
    await check('the description links listGroups to its operation in the OpenAPI reference', async () => {
      await documents.goto(await descriptionLink('listGroups'));
      // Redoc's heading holds a deep-link anchor, whose label ("link to List groups") is part of its name.
      await documents
        .getByRole('heading', { name: /(^| )List groups$/ })
        .first()
        .waitFor({ timeout: UI_TIMEOUT_MS });
    }),
  );
  checks.push(
    await check('the description links "2. List groups" to its section of the interface specification', async () => {
      const url = await descriptionLink('2. List groups');
      await documents.goto(url);
      const anchor = decodeURIComponent(new URL(url).hash.slice(1));
      const heading = (await documents.locator(`[id="${anchor}"]`).textContent({ timeout: UI_TIMEOUT_MS })) ?? '';
      if (heading !== '2. List groups') throw new Error(`#${anchor} is "${heading}"`);
    }),
  );
  return checks;
}

async function main(): Promise<number> {
  let browser: Browser | undefined;
  try {
    if (!existsSync(REPORT)) throw new CannotRun(`${REPORT} is missing: run npm run conformance, then npm run report`);
    const epics = epicsOfResults();
    const certificate = certificateOfRun();
    ensureChromium();
    console.log(`starting ${CHROMIUM}`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS }).catch((error: unknown) => {
      throw new BrowserTrouble(`chromium did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const checks = await checkReport(page, epics, certificate);
    const failed = checks.filter((result) => !result.ok).length;
    console.log(`screenshot: ${SCREENSHOT}`);
    console.log(
      failed === 0 ? `check:report: the Allure report renders (${checks.length} checks)` : `check:report: ${failed} of ${checks.length} checks failed`,
    );
    return failed === 0 ? 0 : 1;
  } catch (error) {
    console.error(`check:report could not run: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof BrowserTrouble) return BROWSER_TROUBLE_EXIT;
    return error instanceof CannotRun ? 2 : 1;
  } finally {
    await browser?.close();
  }
}

/** One attempt's bound: the checks take about 15 s; a browser that hangs is not waited for. */
const ATTEMPT_TIMEOUT_MS = 90_000;
const ATTEMPTS = 3;
/** Set in the child process that makes one attempt. */
const ATTEMPT_ENV = 'CHECK_REPORT_ATTEMPT';

/**
 * Runs the check in a child process bounded in time, and again when that one hangs (at most
 * ATTEMPTS times). Headless Chromium was seen, twice in clean-clone CI runs, to stop making
 * progress without any of Playwright's timeouts firing, and both attempts of one run hung; the
 * checks print their lines as they go, so the next hang shows where. Killing the child also ends its
 * browser (the pipe to it closes). A check that fails or cannot run is not retried: its exit code
 * stands; a browser that did not start or open the report within its timeout is tried again.
 */
function bounded(): number {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, [ATTEMPT_ENV]: '1' },
      timeout: ATTEMPT_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    if (run.error === undefined && run.signal === null && run.status !== BROWSER_TROUBLE_EXIT) return run.status ?? 1;
    const why =
      run.status === BROWSER_TROUBLE_EXIT
        ? 'the browser did not start or open the report'
        : `did not finish within ${ATTEMPT_TIMEOUT_MS / 1000} s (${run.error?.message ?? `ended by ${run.signal ?? 'a signal'}`})`;
    console.error(`check:report: attempt ${attempt} of ${ATTEMPTS}: ${why}${attempt < ATTEMPTS ? '; trying again' : ''}`);
  }
  console.error(`check:report: the browser did not finish the checks in ${ATTEMPTS} attempts of at most ${ATTEMPT_TIMEOUT_MS / 1000} s`);
  return 1;
}

process.exitCode = process.env[ATTEMPT_ENV] === '1' ? await main() : bounded();
