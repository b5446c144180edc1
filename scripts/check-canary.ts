/**
 * `npm run check:canary`: proves that no credential leaks into what a run leaves behind.
 *
 * Runs the whole suite (`playwright test`, the configured reporters) against the embedded reference
 * loaded with a seed of per-run random canary credentials (developer, non-developer and usage-limit
 * passwords, both API keys, client ids and secrets, the JWT secret and so an expired token of its
 * own), then generates the Allure report, and searches every file under reports/ and test-results/
 * plus the captured console output for each canary value (plain, URL-encoded, JSON-escaped, base64
 * alone and as user:password) and for credentials found by their form (JWTs, PEM private keys,
 * BIP-39 secretKeys, generatedSecret() passphrases). Files older than the run (left by other
 * commands, such as blob reports of a sharding check) are not its output and are only counted.
 * Exits 1 on any hit, naming the file with a context in which the hit is masked; 2 when the run
 * could not exercise the suite.
 *
 * Usage: npm run check:canary [-- <playwright test arguments, e.g. --workers 2>]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_TARGET_FILE, parseDotenv } from '../fixtures/config.ts';
import { INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE } from '../fixtures/report-metadata.ts';
import type { SeedFile } from '../reference/seed-types.ts';
import { issueToken } from '../reference/tokens.ts';
import { ISSUED_SECRET_PATTERNS, canaryCredentials, canaryProfile, canarySeed, needles, search } from './canary.ts';
import type { CanaryCredentials, Hit } from './canary.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SEED = resolve(ROOT, 'fixtures/seed/seed.json');
const SEARCHED = ['reports', 'test-results'].map((dir) => resolve(ROOT, dir));
/**
 * The rendered interface documents (`npm run docs`) come from the committed OpenAPI document, whose
 * examples hold a sample JWT and PEM key: they are searched for the canary values, not for forms.
 */
const DOCUMENTS = new Set([INTERFACE_REFERENCE_FILE, INTERFACE_SPEC_FILE].map((file) => resolve(ROOT, 'reports', file)));
/** The expired token is signed with the canary JWT secret at a time long past. */
const EXPIRED_TOKEN_ISSUED_AT = Date.parse('2024-01-01T00:00:00Z');

class CannotRun extends Error {}

/** Runs a command from the repository root, echoing and capturing its output. */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const capture = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString('utf8');
      stream.write(chunk);
    };
    child.stdout.on('data', capture(process.stdout));
    child.stderr.on('data', capture(process.stderr));
    child.once('error', reject);
    child.once('close', (status) => resolvePromise({ status, output }));
  });
}

function filesUnder(path: string): string[] {
  const stats = statIfPresent(path);
  if (stats === undefined || !(stats.isFile() || stats.isDirectory())) return [];
  if (stats.isFile()) return [path];
  return (ifPresent(() => readdirSync(path)) ?? []).flatMap((name) => filesUnder(join(path, name)));
}

/** Another run in the same working tree may remove a file between the listing and the reading. */
function ifPresent<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const readIfPresent = (file: string): Buffer | undefined => ifPresent(() => readFileSync(file));
const statIfPresent = (file: string): Stats | undefined => ifPresent(() => statSync(file));

/** Passphrase literals of the tests (`passphrase: '...'`): constants that must not appear in reports either. */
function passphraseLiterals(): { name: string; value: string }[] {
  const literals = filesUnder(resolve(ROOT, 'tests'))
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/passphrase:\s*'([^'\\]{8,})'/g)].map((match) => ({ file, value: match[1] ?? '' })));
  return literals.map(({ file, value }) => ({ name: `a passphrase literal of ${relative(ROOT, file)}`, value }));
}

function searchedValues(canary: CanaryCredentials, expiredToken: string): { name: string; value: string }[] {
  return [
    { name: 'TARGET_PASSWORD', value: canary.developerPassword },
    { name: 'TARGET_NON_DEVELOPER_PASSWORD', value: canary.nonDeveloperPassword },
    { name: 'TARGET_USAGE_LIMIT_PASSWORD', value: canary.usageLimitPassword },
    { name: 'TARGET_API_KEY', value: canary.developmentApiKey },
    { name: 'TARGET_OTHER_API_KEY', value: canary.productionApiKey },
    { name: 'TARGET_CLIENT_ID', value: canary.developmentClientId },
    { name: 'TARGET_SECRET', value: canary.developmentSecret },
    { name: 'the production client id', value: canary.productionClientId },
    { name: 'the production client secret', value: canary.productionSecret },
    { name: 'the JWT secret', value: canary.jwtSecret },
    { name: 'TARGET_EXPIRED_TOKEN', value: expiredToken },
    ...passphraseLiterals(),
  ];
}

/** Reads the certificate the run wrote, to tell a run that exercised the suite from one that did not. */
function certificationLine(started: number): string {
  const file = resolve(ROOT, 'reports/certification.json');
  if ((statIfPresent(file)?.mtimeMs ?? 0) < started) throw new CannotRun('the run wrote no reports/certification.json: it stopped before the tests ran');
  const report = JSON.parse(readFileSync(file, 'utf8')) as { verdict?: string; requirements?: { verdict: string }[] };
  const assessed = (report.requirements ?? []).filter((entry) => entry.verdict !== 'failed' && entry.verdict !== 'not assessed').length;
  if (assessed === 0) throw new CannotRun('no requirement passed under the canary credentials: did the reference load the canary seed (--seed)?');
  return `${report.verdict ?? '?'}, ${assessed} requirements passed`;
}

async function main(): Promise<number> {
  const workdir = mkdtempSync(join(tmpdir(), 'canary-'));
  try {
    const canary = canaryCredentials();
    const expiredToken = await issueToken(canary.jwtSecret, 'usr-0001', EXPIRED_TOKEN_ISSUED_AT, 3600);
    const seedFile = join(workdir, 'seed.json');
    const profileFile = join(workdir, 'canary.env');
    const profileText = readFileSync(REFERENCE_TARGET_FILE, 'utf8');
    writeFileSync(seedFile, JSON.stringify(canarySeed(JSON.parse(readFileSync(SEED, 'utf8')) as SeedFile, canary)));
    writeFileSync(profileFile, canaryProfile(profileText, canary, expiredToken));

    // Only the canary profile configures the target: any TARGET_* of the caller's shell is dropped.
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TARGET_')));
    env['TARGET_FILE'] = profileFile;
    env['REFERENCE_ARGS'] = `--seed ${seedFile}`;
    const started = Date.now();
    console.log(`check:canary: running the suite against the reference with per-run canary credentials (${workdir})`);
    const suite = await run(resolve(ROOT, 'node_modules/.bin/playwright'), ['test', ...process.argv.slice(2)], env);
    const certification = certificationLine(started);
    const report = await run(resolve(ROOT, 'node_modules/.bin/allure'), ['generate', 'reports/allure-results', '-o', 'reports/allure-report'], env);
    if (report.status !== 0) throw new CannotRun(`allure generate exited with ${report.status}`);

    const { values: profile } = parseDotenv(profileText);
    const pairs = [
      { name: 'developer e-mail:password', user: profile['TARGET_EMAIL'] ?? '', password: canary.developerPassword },
      { name: 'non-developer e-mail:password', user: profile['TARGET_NON_DEVELOPER_EMAIL'] ?? '', password: canary.nonDeveloperPassword },
      { name: 'usage-limit e-mail:password', user: profile['TARGET_USAGE_LIMIT_EMAIL'] ?? '', password: canary.usageLimitPassword },
      { name: 'client_id:secret', user: canary.developmentClientId, password: canary.developmentSecret },
    ];
    const values = searchedValues(canary, expiredToken);
    const needleList = needles(values, pairs);
    const listed = SEARCHED.flatMap(filesUnder);
    const files = listed.filter((file) => (statIfPresent(file)?.mtimeMs ?? 0) >= started);
    let bytes = 0;
    const hits: Hit[] = [];
    const unsearchable: string[] = [];
    let vanished = 0;
    for (const file of files) {
      const content = readIfPresent(file);
      if (content === undefined) {
        vanished += 1;
        continue;
      }
      bytes += content.length;
      // A compressed archive (a Playwright trace) hides its text from any search.
      if (content.subarray(0, 4).equals(Buffer.from('PK\u0003\u0004', 'latin1'))) unsearchable.push(relative(ROOT, file));
      hits.push(...search(relative(ROOT, file), content.toString('latin1'), needleList, DOCUMENTS.has(file) ? [] : ISSUED_SECRET_PATTERNS));
    }
    const consoleOutput = suite.output + report.output;
    hits.push(...search('console output', consoleOutput, needleList, ISSUED_SECRET_PATTERNS));

    console.log(
      `\ncheck:canary: the suite ran (playwright exit ${suite.status}; certification ${certification}).\n` +
        `searched ${files.length - vanished} files written by this run (${bytes} bytes; ${listed.length - files.length} older files not searched) under ${SEARCHED.map((dir) => relative(ROOT, dir)).join('/ and ')}/ and ` +
        `${Buffer.byteLength(consoleOutput)} bytes of console output for ${values.length} canary values ` +
        `(${needleList.length} spellings: plain, URL-encoded, JSON-escaped, base64) and ${ISSUED_SECRET_PATTERNS.length} credential forms ` +
        `(${ISSUED_SECRET_PATTERNS.map((pattern) => pattern.name).join('; ')}).`,
    );
    for (const file of unsearchable) console.log(`UNSEARCHABLE ${file}: a compressed archive (trace?) could hide credentials; keep traces off`);
    for (const hit of hits) console.log(`LEAK ${hit.source}: ${hit.what}\n  …${hit.context}…`);
    if (hits.length > 0 || unsearchable.length > 0) {
      console.log(`check:canary: FAILED, ${hits.length} leak(s)${unsearchable.length > 0 ? ` and ${unsearchable.length} unsearchable file(s)` : ''}`);
      return 1;
    }
    console.log('check:canary: no canary value and no issued credential found anywhere');
    return 0;
  } catch (error) {
    console.error(`check:canary could not run: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof CannotRun ? 2 : 1;
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
