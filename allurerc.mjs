/**
 * Allure 3 report of a conformance run (`npm run report`), read by the Allure CLI.
 *
 * The Awesome report is written as one self-contained index.html (`singleFile`): the multi-file
 * report fetches its data with requests that browsers block on file://, so it would open blank.
 * Tests are grouped as living documentation: interface area, then requirement (the operations are
 * the feature labels; grouping by them too would list a test once per operation and requirement).
 *
 * Failure categories match the messages the harness produces: the contract matcher
 * (fixtures/contract/check.ts), the API client's "got no (usable) response" and login errors
 * (fixtures/http.ts), TargetConfigError (fixtures/config.ts) and Playwright's timeouts. Allure 3
 * applies the first category that matches, in this order.
 */
export default {
  name: 'Meeting and Realtime Service conformance',
  output: 'reports/allure-report',
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
