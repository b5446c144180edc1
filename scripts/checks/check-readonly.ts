/**
 * `npm run check:readonly`: proves that the suite changes nothing on a target that does not allow
 * writes. Starts the reference and a recording proxy in front of it, runs the whole suite through
 * the proxy with TARGET_ALLOW_WRITES=0 and TARGET_ALLOW_DESTRUCTIVE=0, and fails when
 *   - any request was other than POST /login or a GET, or was a GET /meeting/close/... (closeMeeting
 *     is a GET that ends a meeting);
 *   - a GET /transcript/stats answered 403 (the usage limit was exhausted: a state change too);
 *   - the run itself failed (exit code other than 0; skipped tests are fine) or exceeded its bound.
 *
 * Reports go to reports/.checks/readonly/, never over a user's reports.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { resolveTargetVariables } from '../../fixtures/config/sources.ts';
import { listOperations } from '../../fixtures/contract/index.ts';
import { startReference } from '../../fixtures/run/reference-process.ts';
import { cleanEnv, readJsonReport, REPO_ROOT, runPlaywright, seconds } from '../lib/playwright-run.ts';
import type { RecordedRequest } from '../lib/recording-proxy.ts';
import { startRecordingProxy } from '../lib/recording-proxy.ts';

const OUTPUT_DIR = join(REPO_ROOT, 'reports/.checks/readonly');
const RUN_TIMEOUT_MS = 600_000;

/** Why a request may have changed something, or undefined when it cannot have. */
function stateChange(request: RecordedRequest): string | undefined {
  const path = request.path.split('?')[0] ?? '';
  if (request.method === 'POST' && path === '/login') return undefined;
  if (request.method !== 'GET') return `${request.method} may change state`;
  if (path.startsWith('/meeting/close/')) return 'closeMeeting ends the meeting (a GET that changes state)';
  if (path === '/transcript/stats' && request.status === 403) return 'the transcription usage limit was reached (a read-only run must not exhaust it)';
  return undefined;
}

/** The request of an evidence attachment named by the harness: "HTTP 401 PUT /path" or "HTTP error GET /path". */
function exchangeOf(attachmentName: string): RecordedRequest | undefined {
  const match = /^HTTP (\d{3}|error) ([A-Z]+) (\S+)$/.exec(attachmentName);
  if (match === null) return undefined;
  const [, status = '', method = '', path = ''] = match;
  return status === 'error' ? { method, path } : { method, path, status: Number(status) };
}

/** Method and path template of each operation, with the realtime prefix the proxy sees (/v2). */
const TEMPLATES = listOperations().map((operation) => ({
  name: `${operation.operationId} (${operation.method} ${operation.server === 'realtime' ? '/v2' : ''}${operation.path})`,
  method: operation.method,
  pattern: new RegExp(`^${operation.server === 'realtime' ? '/v2' : ''}${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The operation a request was sent to, for the tally; requests to undocumented paths by their path. */
function route(request: RecordedRequest): string {
  const path = request.path.split('?')[0] ?? '';
  return TEMPLATES.find((template) => template.method === request.method && template.pattern.test(path))?.name ?? `${request.method} ${path} (no operation)`;
}

const profile = resolveTargetVariables({ TARGET_FILE: REFERENCE_TARGET_FILE }).values;
rmSync(OUTPUT_DIR, { recursive: true, force: true });
mkdirSync(OUTPUT_DIR, { recursive: true });
const reference = await startReference({ recordingDelayMs: Number(profile['TARGET_RECORDING_READY_MS'] ?? 1500) });
let failures = 0;
try {
  const proxy = await startRecordingProxy(reference.baseUrl);
  try {
    const reportFile = join(OUTPUT_DIR, 'report.json');
    console.log(`check:readonly: the whole suite, read-only, through a recording proxy (${proxy.url} -> ${reference.baseUrl})`);
    const run = await runPlaywright({
      args: ['test', '--reporter=dot,json', `--output=${join(OUTPUT_DIR, 'test-results')}`],
      env: {
        ...cleanEnv(),
        TARGET_FILE: REFERENCE_TARGET_FILE,
        TARGET_BASE_URL: proxy.url,
        TARGET_REALTIME_URL: `${proxy.url}/v2`,
        TARGET_ALLOW_WRITES: '0',
        TARGET_ALLOW_DESTRUCTIVE: '0',
        PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
      },
      timeoutMs: RUN_TIMEOUT_MS,
      onLine: (line) => console.log(`  | ${line}`),
    });

    const tally = new Map<string, number>();
    for (const request of proxy.requests) tally.set(route(request), (tally.get(route(request)) ?? 0) + 1);
    console.log(`\nrequests recorded: ${proxy.requests.length}`);
    for (const [name, count] of [...tally].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${String(count).padStart(5)}  ${name}`);

    const report = readJsonReport(reportFile);
    const offending = new Map<string, number>();
    for (const request of proxy.requests) {
      const why = stateChange(request);
      if (why === undefined) continue;
      const line = `${request.method} ${request.path} -> ${request.status ?? 'no answer'}: ${why}`;
      offending.set(line, (offending.get(line) ?? 0) + 1);
    }
    if (offending.size > 0) {
      failures += 1;
      const total = [...offending.values()].reduce((sum, count) => sum + count, 0);
      console.log(`\nFAIL: ${total} request(s) that may change state:`);
      for (const [line, count] of offending) console.log(`  ${String(count).padStart(5)}x ${line}`);
      console.log('sent by these tests (from their evidence attachments); gate them on TARGET_ALLOW_WRITES or TARGET_ALLOW_DESTRUCTIVE with notAssessed:');
      for (const test of report.tests) {
        const sent = [
          ...new Set(
            test.attachments
              .flatMap((name) => exchangeOf(name) ?? [])
              .filter((request) => stateChange(request) !== undefined)
              .map((request) => `${request.method} ${request.path}`),
          ),
        ];
        if (sent.length > 0) console.log(`  - ${test.title}: ${sent.join(', ')}`);
      }
    } else {
      console.log('\nok: every request was POST /login or a GET that changes nothing');
    }

    const count = (status: string): number => report.tests.filter((test) => test.status === status).length;
    console.log(
      `tests: ${report.tests.length} (${count('passed')} passed, ${count('skipped')} skipped, ${count('failed') + count('timedOut')} failed) in ${seconds(run.durationMs)}`,
    );
    if (run.timedOut) {
      failures += 1;
      console.log(`FAIL: the run exceeded ${seconds(RUN_TIMEOUT_MS)} and was stopped`);
    } else if (run.code !== 0) {
      failures += 1;
      console.log(
        `FAIL: the run exited with code ${String(run.code)}${run.signal === null ? '' : ` (signal ${run.signal})`}; a read-only run must pass or skip:`,
      );
      for (const test of report.tests.filter((entry) => entry.status !== 'passed' && entry.status !== 'skipped')) {
        console.log(`  - ${test.title}: ${test.errors[0]?.split('\n')[0] ?? test.status}`);
      }
      for (const error of report.errors) console.log(`  - ${error.split('\n')[0]}`);
    } else {
      console.log('ok: the run passed (skipped tests are expected without writes)');
    }
  } finally {
    await proxy.close();
  }
} finally {
  await reference.stop();
}
console.log(failures === 0 ? 'check:readonly passed' : 'check:readonly FAILED');
process.exit(failures === 0 ? 0 : 1);
