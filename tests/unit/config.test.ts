import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseDotenv } from '../../fixtures/config/dotenv.ts';
import { useStartedReference } from '../../fixtures/config/handoff.ts';
import { REFERENCE_TARGET_FILE, planTarget } from '../../fixtures/config/plan.ts';
import { TargetConfigError, loadTargetConfig, secretValues } from '../../fixtures/config/profile.ts';
import { harnessSettings } from '../../fixtures/config/settings.ts';
import { DEFAULTS } from '../../fixtures/config/variables.ts';
import { isLoopback, workersFor } from '../../fixtures/config/workers.ts';
import { VALID_PROFILE } from './valid-profile.ts';

const dir = mkdtempSync(join(tmpdir(), 'target-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const VALID: Record<string, string> = { ...VALID_PROFILE };

let fileCount = 0;
function profile(text: string): string {
  fileCount += 1;
  const path = join(dir, `profile-${fileCount}.env`);
  writeFileSync(path, text);
  return path;
}

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadTargetConfig(env, dir);
  } catch (error) {
    assert.ok(error instanceof TargetConfigError, `expected TargetConfigError, got ${String(error)}`);
    return error.problems;
  }
  assert.fail('expected the configuration to be rejected');
}

describe('parseDotenv', () => {
  it('reads comments, export prefixes, quotes and inline comments', () => {
    const { values, problems } = parseDotenv(
      ['# a comment', '', 'export A=plain value # trailing comment', "B='single # kept'", 'C="double \\"quoted\\"\\nline"', 'D=', '  E = spaced  '].join('\n'),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(values, { A: 'plain value', B: 'single # kept', C: 'double "quoted"\nline', D: '', E: 'spaced' });
  });

  it('names the line of a malformed entry without echoing it', () => {
    const { problems } = parseDotenv('GOOD=1\nnot an assignment hunter2\nQ="unterminated hunter2');
    assert.equal(problems.length, 2);
    assert.match(problems[0] ?? '', /^line 2: /);
    assert.match(problems[1] ?? '', /^line 3 \(Q\): unterminated/);
    assert.ok(problems.every((problem) => !problem.includes('hunter2')));
  });
});

describe('loadTargetConfig', () => {
  it('maps every variable to the typed configuration with defaults', () => {
    const config = loadTargetConfig(VALID, dir);
    assert.deepEqual(config, {
      name: 'target',
      baseUrl: 'https://api.example.test',
      realtimeUrl: 'https://realtime.example.test/v2',
      email: 'dev@example.test',
      password: 'pw-S3cret!',
      apiKey: 'key-0123456789',
      environment: 'development',
      clientId: 'client-abcdef',
      secret: 'secret-fedcba',
      ids: {},
      recordingReadyMs: DEFAULTS.recordingReadyMs,
      allowWrites: false,
      allowDestructive: false,
      maxRps: 20,
      maxConcurrency: 4,
      timeoutMs: 10_000,
      maxBodyBytes: 8 * 1024 * 1024,
      network: {},
    });
  });

  it('reads TARGET_MAX_BODY_BYTES, and refuses one that is not a positive integer', () => {
    assert.equal(loadTargetConfig({ ...VALID, TARGET_MAX_BODY_BYTES: '1048576' }).maxBodyBytes, 1_048_576);
    assert.throws(() => loadTargetConfig({ ...VALID, TARGET_MAX_BODY_BYTES: '16MB' }), /TARGET_MAX_BODY_BYTES: must be a positive integer/);
  });

  it('reads optional accounts, ids, flags and limits', () => {
    const config = loadTargetConfig(
      {
        ...VALID,
        TARGET_NAME: 'staging-eu',
        TARGET_OTHER_API_KEY: 'other-key',
        TARGET_NON_DEVELOPER_EMAIL: 'plain@example.test',
        TARGET_NON_DEVELOPER_PASSWORD: 'plain-pw',
        TARGET_USAGE_LIMIT_EMAIL: 'limited@example.test',
        TARGET_USAGE_LIMIT_PASSWORD: 'limited-pw',
        TARGET_USAGE_LIMIT_REQUESTS: '50',
        TARGET_EXPIRED_TOKEN: 'expired.token.value',
        TARGET_GROUP_ID: 'g1',
        TARGET_RUNNING_MEETING_CHANNEL: 'ch-9',
        TARGET_ALLOW_WRITES: 'true',
        TARGET_ALLOW_DESTRUCTIVE: '1',
        TARGET_MAX_RPS: '200',
        TARGET_MAX_CONCURRENCY: '16',
        TARGET_TIMEOUT_MS: '2500',
        TARGET_RECORDING_READY_MS: '1500',
      },
      dir,
    );
    assert.equal(config.name, 'staging-eu');
    assert.equal(config.otherApiKey, 'other-key');
    assert.deepEqual(config.nonDeveloper, { email: 'plain@example.test', password: 'plain-pw' });
    assert.deepEqual(config.usageLimit, { email: 'limited@example.test', password: 'limited-pw', requests: 50 });
    assert.equal(config.expiredToken, 'expired.token.value');
    assert.deepEqual(config.ids, { groupId: 'g1', runningMeetingChannel: 'ch-9' });
    assert.equal(config.allowWrites, true);
    assert.equal(config.allowDestructive, true);
    assert.deepEqual([config.maxRps, config.maxConcurrency, config.timeoutMs, config.recordingReadyMs], [200, 16, 2500, 1500]);
  });

  it('takes values from TARGET_FILE and lets TARGET_* variables override them', () => {
    const file = profile(
      [...Object.entries(VALID).map(([key, value]) => `${key}=${value}`), 'TARGET_NAME=from-file', 'TARGET_MAX_RPS=7', 'TARGET_GROUP_ID=file-group'].join('\n'),
    );
    const config = loadTargetConfig({ TARGET_FILE: file, TARGET_MAX_RPS: '9', TARGET_GROUP_ID: '' }, dir);
    assert.equal(config.file, file);
    assert.equal(config.name, 'from-file');
    assert.equal(config.maxRps, 9, 'the environment overrides the file');
    assert.equal(config.ids.groupId, 'file-group', 'an empty environment value does not blank the file value');
  });

  it('resolves a relative TARGET_FILE from the working directory', () => {
    const file = profile(
      Object.entries(VALID)
        .map(([key, value]) => `${key}="${value}"`)
        .join('\n'),
    );
    const config = loadTargetConfig({ TARGET_FILE: file.slice(dir.length + 1) }, dir);
    assert.equal(config.file, file);
    assert.equal(config.password, VALID['TARGET_PASSWORD']);
  });

  it('names every missing required variable in one error', () => {
    const problems = problemsOf({});
    // The sample profile sets exactly the required variables, in the order the loader names them.
    const required = Object.keys(VALID_PROFILE);
    assert.deepEqual(
      problems,
      required.map((key) => `${key}: required, not set`),
    );
  });

  it('names every invalid variable with what is wrong', () => {
    const problems = problemsOf({
      ...VALID,
      TARGET_BASE_URL: 'not a url',
      TARGET_REALTIME_URL: 'ftp://files.example.test',
      TARGET_ENVIRONMENT: 'staging',
      TARGET_ALLOW_WRITES: 'yes',
      TARGET_ALLOW_DESTRUCTIVE: '2',
      TARGET_MAX_RPS: '0',
      TARGET_MAX_CONCURRENCY: '-3',
      TARGET_TIMEOUT_MS: '1.5',
      TARGET_RECORDING_READY_MS: 'soon',
      TARGET_NAME: 'has spaces',
      TARGET_NON_DEVELOPER_EMAIL: 'plain@example.test',
      TARGET_USAGE_LIMIT_PASSWORD: 'limited-pw',
      TARGET_BASEURL: 'https://typo.example.test',
    });
    const expected: [string, RegExp][] = [
      ['TARGET_BASEURL', /not a known variable/],
      ['TARGET_BASE_URL', /not a valid absolute URL/],
      ['TARGET_REALTIME_URL', /must be http or https, got ftp:/],
      ['TARGET_ENVIRONMENT', /must be development or production, got "staging"/],
      ['TARGET_NAME', /letters, digits/],
      ['TARGET_NON_DEVELOPER_PASSWORD', /required when TARGET_NON_DEVELOPER_EMAIL is set/],
      ['TARGET_USAGE_LIMIT_EMAIL', /required when TARGET_USAGE_LIMIT_PASSWORD is set/],
      ['TARGET_ALLOW_WRITES', /must be 0, 1, true or false, got "yes"/],
      ['TARGET_ALLOW_DESTRUCTIVE', /must be 0, 1, true or false, got "2"/],
      ['TARGET_RECORDING_READY_MS', /positive integer, got "soon"/],
      ['TARGET_MAX_RPS', /positive integer, got "0"/],
      ['TARGET_MAX_CONCURRENCY', /positive integer, got "-3"/],
      ['TARGET_TIMEOUT_MS', /positive integer, got "1.5"/],
    ];
    assert.equal(problems.length, expected.length, problems.join('\n'));
    for (const [variable, pattern] of expected) {
      const problem = problems.find((text) => text.startsWith(`${variable}: `));
      assert.ok(problem !== undefined, `no problem reported for ${variable}:\n${problems.join('\n')}`);
      assert.match(problem, pattern);
    }
  });

  it('requires the request bound when a usage-limit account is given', () => {
    const problems = problemsOf({ ...VALID, TARGET_USAGE_LIMIT_EMAIL: 'l@example.test', TARGET_USAGE_LIMIT_PASSWORD: 'limited-pw' });
    assert.deepEqual(
      problems.map((problem) => problem.split(':')[0]),
      ['TARGET_USAGE_LIMIT_REQUESTS'],
    );
  });

  it('rejects base URLs that embed credentials, a query or a fragment', () => {
    const problems = problemsOf({ ...VALID, TARGET_BASE_URL: 'https://user:hunter2@api.example.test', TARGET_REALTIME_URL: 'https://rt.example.test/v2?x=1' });
    assert.match(problems[0] ?? '', /^TARGET_BASE_URL: must not embed credentials/);
    assert.match(problems[1] ?? '', /^TARGET_REALTIME_URL: must not carry a query/);
    assert.ok(problems.every((problem) => !problem.includes('hunter2')));
  });

  it('reports an unreadable TARGET_FILE and malformed lines in it', () => {
    assert.match(problemsOf({ ...VALID, TARGET_FILE: join(dir, 'missing.env') })[0] ?? '', /^TARGET_FILE: cannot read .*missing\.env \(ENOENT\)/);
    const file = profile('TARGET_FILE=other.env\nbroken line');
    const problems = problemsOf({ ...VALID, TARGET_FILE: file });
    assert.ok(problems.some((problem) => problem.startsWith('TARGET_FILE: a target file cannot name another')));
    assert.ok(problems.some((problem) => problem.startsWith(`TARGET_FILE ${file} line 2:`)));
  });

  it('never puts secret values in the error message', () => {
    const secrets = {
      TARGET_PASSWORD: 'pw-Hunter2-x',
      TARGET_API_KEY: 'ak-Hunter2-x',
      TARGET_CLIENT_ID: 'ci-Hunter2-x',
      TARGET_SECRET: 'se-Hunter2-x',
      TARGET_OTHER_API_KEY: 'oak-Hunter2-x',
      TARGET_NON_DEVELOPER_PASSWORD: 'ndp-Hunter2-x',
      TARGET_EXPIRED_TOKEN: 'et-Hunter2-x',
    };
    let message = '';
    try {
      loadTargetConfig({ ...secrets, TARGET_ENVIRONMENT: 'nope' }, dir);
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    assert.match(message, /TARGET_BASE_URL: required/);
    assert.match(message, /TARGET_NON_DEVELOPER_EMAIL: required when TARGET_NON_DEVELOPER_PASSWORD is set/);
    assert.doesNotMatch(message, /Hunter2/);
  });
});

describe('secretValues', () => {
  it('lists every credential of the configuration once', () => {
    const config = loadTargetConfig(
      {
        ...VALID,
        TARGET_OTHER_API_KEY: 'other',
        TARGET_NON_DEVELOPER_EMAIL: 'n@e.test',
        TARGET_NON_DEVELOPER_PASSWORD: 'npw',
        TARGET_EXPIRED_TOKEN: 'old.jwt.x',
        TARGET_SECRET: VALID['TARGET_API_KEY'] ?? '',
      },
      dir,
    );
    assert.deepEqual(secretValues(config).sort(), ['client-abcdef', 'key-0123456789', 'npw', 'old.jwt.x', 'other', 'pw-S3cret!'].sort());
  });
});

describe('planTarget and harness settings', () => {
  it('starts the reference with the reference profile when no base URL is configured', () => {
    const plan = planTarget({ REFERENCE_ARGS: ' --variant presences  --fault drop-pagination ' }, dir);
    assert.ok(plan.kind === 'reference', 'the reference profile names a base URL, but TARGET_FILE does not name the profile');
    assert.equal(plan.targetFile, REFERENCE_TARGET_FILE);
    assert.equal(plan.recordingReadyMs, loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE }, dir).recordingReadyMs);
    assert.deepEqual(plan.referenceArgs, ['--variant', 'presences', '--fault', 'drop-pagination']);
  });

  it('takes the recording delay from the chosen profile', () => {
    const file = profile('TARGET_RECORDING_READY_MS=1234');
    const plan = planTarget({ TARGET_FILE: file }, dir);
    assert.ok(plan.kind === 'reference');
    assert.equal(plan.recordingReadyMs, 1234);
    assert.equal(plan.targetFile, file);
  });

  it('uses the configured target when the environment or the given file names a base URL', () => {
    assert.equal(planTarget({ TARGET_BASE_URL: 'https://api.example.test' }, dir).kind, 'configured');
    assert.equal(planTarget({ TARGET_FILE: profile('TARGET_BASE_URL=https://api.example.test') }, dir).kind, 'configured');
    assert.equal(planTarget({ TARGET_FILE: REFERENCE_TARGET_FILE }, dir).kind, 'configured', 'naming the reference profile means a hand-started reference');
  });

  it('points the environment at a started reference, keeping a given TARGET_FILE', () => {
    const env: Record<string, string | undefined> = {};
    useStartedReference(env, { baseUrl: 'http://127.0.0.1:5000', realtimeUrl: 'http://127.0.0.1:5000/v2' }, REFERENCE_TARGET_FILE);
    assert.deepEqual(env, { TARGET_FILE: REFERENCE_TARGET_FILE, TARGET_BASE_URL: 'http://127.0.0.1:5000', TARGET_REALTIME_URL: 'http://127.0.0.1:5000/v2' });
    const custom: Record<string, string | undefined> = { TARGET_FILE: 'mine.env' };
    useStartedReference(custom, { baseUrl: 'http://127.0.0.1:1', realtimeUrl: 'http://127.0.0.1:1/v2' }, REFERENCE_TARGET_FILE);
    assert.equal(custom['TARGET_FILE'], 'mine.env');
  });

  it('reads workers, CI and the run id', () => {
    assert.deepEqual(harnessSettings({}), { remote: false, ci: false, referenceArgs: [], outcomesRestored: false });
    assert.deepEqual(harnessSettings({ CONFORMANCE_WORKERS: '1', CI: 'true', CONFORMANCE_RUN_ID: 'r1' }), {
      workers: 1,
      remote: false,
      ci: true,
      referenceArgs: [],
      runId: 'r1',
      outcomesRestored: false,
    });
    assert.equal(harnessSettings({ CONFORMANCE_OUTCOMES_RESTORED: '1' }).outcomesRestored, true);
    assert.deepEqual(harnessSettings({ GENERATED_SEED: '7', GENERATED_RUNS: '0' }), {
      remote: false,
      ci: false,
      referenceArgs: [],
      outcomesRestored: false,
      generatedSeed: '7',
      generatedRuns: '0',
    });
    assert.equal(harnessSettings({ CI: 'false' }).ci, false);
    assert.throws(() => harnessSettings({ CONFORMANCE_WORKERS: 'many' }), /CONFORMANCE_WORKERS: must be a positive integer/);
  });

  it('sizes the workers for the cores on loopback and for waiting on a remote target, within TARGET_MAX_CONCURRENCY', () => {
    const remote = { TARGET_BASE_URL: 'https://staging.example.test' };
    // No address: the embedded reference, on loopback.
    assert.equal(workersFor({}), 2);
    assert.equal(workersFor({ TARGET_BASE_URL: 'http://127.0.0.1:4010', TARGET_MAX_CONCURRENCY: '32' }), 2);
    assert.equal(workersFor({ ...remote, TARGET_MAX_CONCURRENCY: '32' }), 8);
    assert.equal(workersFor({ ...remote, TARGET_MAX_CONCURRENCY: '16' }), 4);
    assert.equal(workersFor({ ...remote, TARGET_MAX_CONCURRENCY: '1000' }), 8);
    // The polite defaults of an unknown target (4 in flight) keep two workers, and one request in flight never gets two.
    assert.equal(workersFor(remote), 2);
    assert.equal(workersFor({ ...remote, TARGET_MAX_CONCURRENCY: '1' }), 1);
    assert.equal(workersFor({ TARGET_BASE_URL: 'http://localhost:4010', TARGET_MAX_CONCURRENCY: '1' }), 1);
    // A proxy on loopback in front of a remote target, and an explicit choice.
    assert.equal(workersFor({ TARGET_BASE_URL: 'http://127.0.0.1:4010', TARGET_MAX_CONCURRENCY: '32', CONFORMANCE_REMOTE: '1' }), 8);
    assert.equal(workersFor({ ...remote, TARGET_MAX_CONCURRENCY: '32', CONFORMANCE_WORKERS: '3' }), 3);
    // A malformed limit is reported by loadTargetConfig; the default stands in meanwhile.
    assert.equal(workersFor({ ...remote, TARGET_MAX_CONCURRENCY: 'many' }), 2);
  });

  it('tells loopback addresses from remote ones', () => {
    for (const url of ['http://127.0.0.1:1', 'http://127.1.2.3', 'http://localhost', 'http://api.localhost:8080', 'http://[::1]:4010'])
      assert.equal(isLoopback(url), true, url);
    for (const url of ['https://staging.example.test', 'http://10.0.0.5', 'http://127.example.test', 'not a url']) assert.equal(isLoopback(url), false, url);
  });
});
