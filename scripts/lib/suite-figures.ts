/**
 * What the benchmarks of the whole suite share: the test totals of the JUnit report that the
 * configured reporters write, and how busy the machine's cores are next to a run.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './playwright-run.ts';

/** Where the junit reporter of playwright.config.ts writes. */
export const JUNIT_FILE = join(REPO_ROOT, 'reports/junit.xml');

export interface Counts {
  tests: number;
  passed: number;
  skipped: number;
  failed: number;
}

/** The totals of the JUnit report that the configured junit reporter writes. */
export function junitCounts(file: string = JUNIT_FILE): Counts {
  const root = /<testsuites\b[^>]*>/.exec(readFileSync(file, 'utf8'))?.[0] ?? '';
  const attribute = (name: string): number => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? Number.NaN);
  const [tests, failures, errors, skipped] = ['tests', 'failures', 'errors', 'skipped'].map(attribute) as [number, number, number, number];
  if ([tests, failures, errors, skipped].some(Number.isNaN)) throw new Error(`${file} has no <testsuites> totals`);
  return { tests, passed: tests - failures - errors - skipped, skipped, failed: failures + errors };
}

const CALIBRATION_OPS = 40;
const CALIBRATION_SCRIPT = `const c=require('node:crypto');const t=process.hrtime.bigint();for(let i=0;i<${CALIBRATION_OPS};i++)c.scryptSync('pw','salt',64,{N:4096,r:8,p:1});console.log(Number(process.hrtime.bigint()-t)/1e6/${CALIBRATION_OPS})`;

/**
 * How busy the machine's cores are, next to each run: the mean time of one scrypt operation in two
 * processes at once, one per core. Shared machines slow down when their neighbours are busy, and the
 * suite is bound by CPU, so a slow run next to a slow calibration is the machine, not the suite.
 */
export async function calibrate(): Promise<number> {
  const one = (): Promise<number> =>
    new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, ['-e', CALIBRATION_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('close', () => resolvePromise(Number(output.trim())));
    });
  const times = await Promise.all([one(), one()]);
  return times.reduce((sum, time) => sum + time, 0) / times.length;
}
