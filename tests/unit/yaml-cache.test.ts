import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseYaml } from '../../fixtures/contract/yaml-cache.ts';

describe('parseYaml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'yaml-cache-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('parses as yaml does, keeps the JSON form, and answers from it the next time', () => {
    const text = 'a: 1\nb: [x, "y", true, null, 2.5]\nc: {d: e}\n';
    assert.deepEqual(parseYaml(text, dir), parse(text));
    const [cached, ...others] = readdirSync(dir);
    assert.equal(others.length, 0);
    // A forged cache entry shows that the second call reads the cache instead of parsing.
    writeFileSync(join(dir, cached ?? ''), JSON.stringify({ from: 'cache' }));
    assert.deepEqual(parseYaml(text, dir), { from: 'cache' });
  });

  it('parses again when the cache entry is unreadable', () => {
    const text = 'k: v\n';
    parseYaml(text, dir);
    for (const name of readdirSync(dir)) writeFileSync(join(dir, name), '{"half');
    assert.deepEqual(parseYaml(text, dir), { k: 'v' });
  });

  it('keeps neither a text that does not parse nor data that JSON cannot hold', () => {
    const empty = mkdtempSync(join(dir, 'x-'));
    assert.throws(() => parseYaml('a: [1, 2\n', empty));
    assert.throws(() => parseYaml('a: [1, 2\n', empty), 'the error comes every time');
    assert.ok(Number.isNaN((parseYaml('n: .nan\n', empty) as { n: number }).n));
    assert.deepEqual(readdirSync(empty), []);
  });
});
