/**
 * No room of the harness or of the suite grows past 400 lines (issue 38): a module of fixtures/ or
 * of tests/ (the specs, their support, conditions and generated layer) that needs more holds more
 * than one concern, and is split along its seam (docs/contributing.md, "Add a module to the harness").
 * The unit tests are not rooms: a test file follows the module it tests.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const MAX_LINES = 400;

/** The .ts files below `folder`, but those of `except` (folders relative to the repository). */
function modules(folder: string, except: readonly string[] = []): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !except.some((skipped) => file.startsWith(`${skipped}/`)));
}

test(`every module of fixtures/ and of the suite has at most ${MAX_LINES} lines`, () => {
  const files = [...modules('fixtures'), ...modules('tests', ['tests/unit'])];
  assert.ok(files.length > 100, `only ${files.length} modules found: the walk missed the tree`);
  const over = files
    .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  assert.deepEqual(over, [], `split these along a seam:\n${over.join('\n')}`);
});
