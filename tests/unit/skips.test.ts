/**
 * The console's skip reasons (fixtures/reporters/skips.ts): one line per skipped test, with the
 * reason its skip annotation gives, redacted, on one line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestCase } from '@playwright/test/reporter';
import { skipLines, skippedTests } from '../../fixtures/reporters/skips.ts';

type Note = { type: string; description?: string };

/** As much of a TestCase as the reporter reads. */
function testCase(title: string, status: string, annotations: Note[], declared: Note[] = []): TestCase {
  return {
    results: [{ status, annotations }],
    annotations: declared,
    location: { file: '/repo/tests/realtime.spec.ts', line: 41, column: 1 },
    titlePath: () => ['', 'project', 'realtime.spec.ts', 'channels', title],
  } as unknown as TestCase;
}

describe('skip reasons on the console', () => {
  const tests = [
    testCase('the channel lists its participants', 'skipped', [
      { type: 'requirement', description: 'RT-08' },
      { type: 'skip', description: 'not assessed: needs TARGET_CHANNEL (a realtime channel)' },
    ]),
    testCase('passes', 'passed', [{ type: 'skip', description: 'never shown: the test passed' }]),
    testCase('declared skip', 'skipped', [], [{ type: 'skip', description: 'not applicable: a bare array' }]),
    testCase('bare skip', 'skipped', []),
  ];

  it('lists each skipped test once, with its location, titles under the file, and reasons', () => {
    assert.deepEqual(skippedTests(tests, '/repo'), [
      {
        location: 'tests/realtime.spec.ts:41',
        title: 'channels › the channel lists its participants',
        reasons: ['not assessed: needs TARGET_CHANNEL (a realtime channel)'],
      },
      { location: 'tests/realtime.spec.ts:41', title: 'channels › declared skip', reasons: ['not applicable: a bare array'] },
      { location: 'tests/realtime.spec.ts:41', title: 'channels › bare skip', reasons: ['skipped without a reason'] },
    ]);
  });

  it('prints one line per skip under a heading, redacted and without line breaks', () => {
    const secret = 'S3cret-Passw0rd';
    const lines = skipLines(
      [{ location: 'tests/login.spec.ts:9', title: 'logs in', reasons: [`not assessed: login of x@y.z with ${secret} got no response\ncurl -d '${secret}'`] }],
      [secret],
    );
    assert.equal(lines.length, 2);
    assert.equal(lines[0], '1 skipped, each with its reason:');
    assert.match(lines[1] ?? '', /^ {2}- tests\/login\.spec\.ts:9 logs in: not assessed: login of x@y\.z with \S+ got no response curl -d/);
    assert.ok(!(lines[1] ?? '').includes(secret), 'the secret is redacted');
  });

  it('prints nothing when nothing was skipped', () => {
    assert.deepEqual(skipLines([], []), []);
  });
});
