import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { TestResult, TestResultContainer } from 'allure-js-commons';
import { UnsyncedResultsWriter } from '../../fixtures/reporters/allure-writer.ts';

describe('UnsyncedResultsWriter', () => {
  const root = mkdtempSync(join(tmpdir(), 'allure-writer-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('writes results, containers and attachments under the names Allure gives them, and leaves no temporary file', () => {
    const dir = join(root, 'results');
    const writer = new UnsyncedResultsWriter(dir);
    writer.writeResult({ uuid: 'r1', name: 'a test' } as TestResult);
    writer.writeGroup({ uuid: 'g1', children: ['r1'] } as unknown as TestResultContainer);
    writer.writeAttachment('a1-attachment.txt', Buffer.from('exchange'));
    const source = join(root, 'source.txt');
    writeFileSync(source, 'from a file');
    writer.writeAttachmentFromPath('a2-attachment.txt', source);
    writer.writeEnvironmentInfo({ 'Target name': 'reference' });
    assert.deepEqual(readdirSync(dir).sort(), ['a1-attachment.txt', 'a2-attachment.txt', 'environment.properties', 'g1-container.json', 'r1-result.json']);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'r1-result.json'), 'utf8')), { uuid: 'r1', name: 'a test' });
    assert.equal(readFileSync(join(dir, 'a1-attachment.txt'), 'utf8'), 'exchange');
    assert.equal(readFileSync(join(dir, 'a2-attachment.txt'), 'utf8'), 'from a file');
    assert.equal(
      readFileSync(join(dir, 'environment.properties'), 'utf8').trim(),
      'Target\\ name=reference',
      "written by Allure's own writer, in its escaped form",
    );
  });
});
