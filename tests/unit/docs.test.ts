/**
 * The docs for their readers (issue 24): the README stays a user's page of at most about 250
 * lines, and every `npm run NAME` and `npm test -- NAME` that the README and docs/ name is a script
 * or step that exists, so a reader who copies a command does not meet "missing script", and every
 * file of the repository they name exists (a module moved to another wing is renamed in the docs).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCS = [
  'README.md',
  'reference/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

/** The npm scripts a document names, e.g. `npm run check:canary`, `npm run -s check:standalone`. */
export function scriptsNamed(text: string): string[] {
  return [...text.matchAll(/npm run (?:-s |--silent )?([a-z][\w:-]*)/g)].map((match) => match[1] as string);
}

test('scriptsNamed reads the script after npm run and its silent flag', () => {
  assert.deepEqual(scriptsNamed('run `npm run -s check:standalone` then npm run conformance -- --grep @PAG'), ['check:standalone', 'conformance']);
});

test('every npm script the README and docs/ name exists in package.json', () => {
  const missing = DOCS.flatMap((doc) =>
    scriptsNamed(readFileSync(join(ROOT, doc), 'utf8'))
      .filter((name) => !scripts.includes(name))
      .map((name) => `${doc}: npm run ${name}`),
  );
  assert.deepEqual(missing, [], `commands in the docs that name no script of package.json:\n${missing.join('\n')}`);
});

test('every file of the repository the README and docs/ name exists', () => {
  const missing = DOCS.flatMap((doc) =>
    [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/(?:fixtures|scripts|tests|reference|spec|docs)\/[\w./-]+\.(?:ts|ya?ml|env|mjs|md|json)\b/g)]
      .map((match) => match[0])
      .filter((path) => !existsSync(join(ROOT, path)))
      .map((path) => `${doc}: ${path}`),
  );
  assert.deepEqual(missing, [], `files the docs name that do not exist (moved or renamed?):\n${missing.join('\n')}`);
});

test('the README stays a page for users: at most 250 lines', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
  assert.ok(lines <= 250, `README.md has ${lines} lines; maintainers' material belongs in docs/`);
});
