/**
 * `npm run check:diff`: npm run diff-certificates on this run's own certificate
 * (reports/certification.json, from npm test's check:certify step: npm run certify), as a team's CI would use it:
 * - against itself: exit 0, no change;
 * - from it to the certificate of a run on the reference with the fault page-stuck-at-first
 *   (tests/unit/certificates/page-stuck-at-first.json, trimmed from a real run): exit 1, and the
 *   requirements newly failed are exactly those the fault declares;
 * - from that certificate back to this run's: exit 0, the same requirements newly passed.
 * A requirement the catalogue gained or lost since that certificate is only named as such.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULTS } from '../../reference/faults/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUN = join(ROOT, 'reports/certification.json');
const FAULT = 'page-stuck-at-first';
const FAULTY = join(ROOT, `tests/unit/certificates/${FAULT}.json`);
const declared = [...(FAULTS.find((fault) => fault.name === FAULT)?.requirements ?? [])].sort();

const diff = (before: string, after: string) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/commands/diff-certificates.ts'), before, after], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
};
/** The IDs listed under a section of the text output ("Requirements newly failed: 2" and one line each). */
const listed = (output: string, section: string): string[] => {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${section}: `));
  const ids: string[] = [];
  for (const line of start === -1 ? [] : lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    ids.push(line.trim().split(' ')[0] ?? '');
  }
  return ids.sort();
};

const problems: string[] = [];
const expect = (ok: boolean, what: string, output: string): void => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) problems.push(`${what}\n${output.replace(/^/gm, '    ')}`);
};

const same = diff(RUN, RUN);
expect(same.code === 0 && /^no change$/m.test(same.output), "this run's certificate against itself: exit 0, no change", same.output);
const broken = diff(RUN, FAULTY);
expect(
  broken.code === 1 && JSON.stringify(listed(broken.output, 'Requirements newly failed')) === JSON.stringify(declared),
  `this run's certificate -> ${FAULT}'s: exit 1, newly failed exactly ${declared.join(', ')} (the fault's declared requirements)`,
  broken.output,
);
const mended = diff(FAULTY, RUN);
expect(
  mended.code === 0 && declared.every((id) => listed(mended.output, 'Requirements newly passed').includes(id)),
  `${FAULT}'s certificate -> this run's: exit 0, ${declared.join(', ')} newly passed`,
  mended.output,
);
for (const problem of problems) console.log(`FAIL ${problem}`);
console.log(`check:diff ${problems.length === 0 ? 'passed' : 'FAILED'}: diff-certificates on this run's certificate, 3 comparisons`);
process.exit(problems.length === 0 ? 0 : 1);
