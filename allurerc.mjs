/**
 * Allure 3 report of a conformance run (`npm run report`), read by the Allure CLI.
 *
 * The Awesome report is written as one self-contained index.html (`singleFile`): the multi-file
 * report fetches its data with requests that browsers block on file://, so it would open blank.
 * Tests are grouped as living documentation: interface area, then requirement (the operations are
 * the feature labels; grouping by them too would list a test once per operation and requirement).
 *
 * The overview leads with the certification, read from the run's certificate next to the results
 * (reports/certification.json), not with the share of tests that passed: its report variables are
 * the verdict, whether the run could certify and the totals per level, and two quality gates state
 * the verdict and the certifiability (scripts/commands/report.ts evaluates them: `allure generate` alone
 * evaluates no quality gate). Both are read when Allure asks for them, not when this file is
 * imported (the certification reporter imports it for its categories at the end of every run).
 *
 * Allure keeps each report's results in its history file (`historyPath`), so a test's page shows
 * its trend over the runs and the report marks flaky tests; the GitHub workflow keeps the file
 * between runs.
 *
 * Failure categories match the messages the harness produces: the contract matcher
 * (fixtures/contract/check.ts), the API client's "got no (usable) response" and login errors
 * (fixtures/transport/client.ts), TargetConfigError (fixtures/config/profile.ts) and Playwright's timeouts. Allure 3
 * applies the first category that matches, in this order.
 */
import { readFileSync } from 'node:fs';

const CERTIFICATE = new URL('./reports/certification.json', import.meta.url);
const LEVELS = ['MUST', 'SHOULD', 'VARIANT', 'UNSPECIFIED'];

/** The run's certificate, or undefined when there is none or it cannot be read. */
export function readCertificate(file = CERTIFICATE) {
  try {
    const certificate = JSON.parse(readFileSync(file, 'utf8'));
    return typeof certificate?.verdict === 'string' && typeof certificate.totals === 'object' ? certificate : undefined;
  } catch {
    return undefined;
  }
}

/** `120/121 passed (1 failed)`: one level's totals, as the verdict line gives them (fixtures/verdict/certification.ts verdictLine). */
export function levelLine(totals) {
  const extra = [
    totals.failed > 0 ? `${totals.failed} failed` : '',
    totals.notAssessed > 0 ? `${totals.notAssessed} not assessed` : '',
    totals.withWarnings > 0 ? `${totals.withWarnings} with warnings` : '',
  ].filter((text) => text !== '');
  return `${totals.passed}/${totals.total} passed${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
}

/** Whether the run could certify, in words: `yes`, `no: <every reason>`, or `unknown` for a certificate that does not say. */
export function certifiableLine(certificate) {
  const certifiability = certificate.certifiability;
  if (typeof certifiability?.certifiable !== 'boolean') return 'unknown';
  return certifiability.certifiable ? 'yes' : `no: ${certifiability.reasons.join('; ')}`;
}

/** The report variables of the overview: the verdict, whether the run could certify, and the totals of each level. */
export function certificationVariables(certificate) {
  if (certificate === undefined) return { Verdict: 'none: the run wrote no reports/certification.json' };
  return {
    Verdict: certificate.verdict,
    Certifiable: certifiableLine(certificate),
    ...Object.fromEntries(LEVELS.filter((level) => certificate.totals[level] !== undefined).map((level) => [level, levelLine(certificate.totals[level])])),
  };
}

/** The verdict with the totals of every level, as the quality gate states it. */
function verdictText(certificate) {
  if (certificate === undefined) return 'no certificate (the run wrote no reports/certification.json)';
  return `${certificate.verdict} (${LEVELS.filter((level) => certificate.totals[level] !== undefined)
    .map((level) => `${level} ${levelLine(certificate.totals[level])}`)
    .join(', ')})`;
}

/**
 * Quality gate rules of the certification (Allure 3's QualityGateRule): `verdict` passes when the
 * certificate's verdict is the one expected, `certifiable` when the run could certify. They judge
 * the certificate, not the test results: a test's outcome is not a requirement's verdict.
 */
export function certificationRules(read = readCertificate) {
  return [
    {
      rule: 'verdict',
      message: ({ actual, expected }) => `The certification verdict is ${actual}; ${expected} expected`,
      successMessage: ({ actual }) => `The certification verdict is ${actual}`,
      validate: async ({ expected }) => {
        const certificate = read();
        return { success: certificate?.verdict === expected, actual: verdictText(certificate), testResults: [] };
      },
    },
    {
      rule: 'certifiable',
      message: ({ actual }) => `The run could not certify: ${actual}`,
      successMessage: () => 'The run could certify: the whole suite, from an unchanged checkout, with writes and destructive checks allowed',
      validate: async ({ expected }) => {
        const certificate = read();
        const certifiable = certificate === undefined ? 'no certificate' : certifiableLine(certificate);
        return { success: (certifiable === 'yes') === expected, actual: certifiable.replace(/^no: /, ''), testResults: [] };
      },
    },
  ];
}

export default {
  name: 'Meeting and Realtime Service conformance',
  output: 'reports/allure-report',
  historyPath: 'reports/allure-history.jsonl',
  // Each run adds about 0.5 MB to the file and 1.3 MB to the single-file report (311 tests): ten runs
  // show a trend and flaky tests and keep the report near 30 MB.
  historyLimit: 10,
  get variables() {
    return certificationVariables(readCertificate());
  },
  qualityGate: {
    rules: [{ id: 'certification', verdict: 'CONFORMANT', certifiable: true }],
    use: certificationRules(),
  },
  plugins: {
    awesome: {
      options: {
        singleFile: true,
        reportName: 'Meeting and Realtime Service conformance',
        reportLanguage: 'en',
        groupBy: ['epic', 'story'],
      },
    },
  },
  categories: [
    {
      name: 'Target unreachable or misconfigured',
      matchers: {
        statuses: ['failed', 'broken'],
        message:
          'ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN|ETIMEDOUT|socket hang up|got no (?:usable )?response|' +
          'Target configuration is invalid|TargetConfigError|Test timeout of \\d+ms exceeded|Timeout \\d+ms exceeded',
      },
    },
    {
      name: 'Authentication: credentials rejected, or accepted where they must not be',
      matchers: {
        statuses: ['failed', 'broken'],
        message: 'Login of the developer account|Expected status \\d+, received 40[13]\\b|Expected status 40[13], received \\d+',
      },
    },
    {
      name: 'Contract violation',
      matchers: { statuses: ['failed'], message: 'Response does not match operation|expect\\(' },
    },
    {
      name: 'Suite error',
      matchers: { statuses: ['failed', 'broken'] },
    },
  ],
};
