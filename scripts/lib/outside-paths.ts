/**
 * Finds, in the repository's own files, paths that lead outside it: whatever a clone does not hold
 * is missing for the team or the vendor who cloned it. Three rules:
 * - an absolute path under a machine's own directories (home, root, work or mount folders; not the
 *   system's own, such as the browser the report check drives);
 * - a relative path that climbs out of the repository from the file that holds it, or that climbs
 *   (`../`) to a top-level name the repository neither holds nor produces;
 * - the file name of the interface source this project was written from, which is not part of it
 *   (the project's own description is spec/requirements.yaml and spec/openapi.yaml).
 * A text that only looks like a path (an HTTP path the suite sends, say) is allowed by name in
 * scripts/checks/check-standalone.ts. Pure: that script lists and reads the files.
 */
import { posix } from 'node:path';

export interface OutsidePath {
  file: string;
  line: number;
  text: string;
  reason: string;
}

/** The top-level names a `../` path may land on: the repository's own entries and what it produces. */
export interface RepositoryShape {
  topLevel: ReadonlySet<string>;
}

/** Written as patterns, not as the paths themselves, so that this file does not match its own rules. */
const MACHINE_PATH = /(?<![\w.~-])\/(?:work|home|root|Users|mnt)\/[^\s'"`)\]>,;]*/g;
const SOURCE_DOCUMENT = /\binterface-spec\.md\b/g;
const CLIMBING_PATH = /(?<![\w./-])(?:\.\.\/)+[\w.@-][^\s'"`)\]>,;#?]*/g;

function climbingProblem(path: string, file: string, shape: RepositoryShape): string | undefined {
  const landed = posix.normalize(posix.join(posix.dirname(file), path));
  if (landed === '..' || landed.startsWith('../')) return 'climbs out of the repository';
  const first = landed.split('/')[0] ?? '';
  if (first === '' || first === '.' || /[${}*]/.test(first)) return undefined;
  if (!shape.topLevel.has(first)) return `leads to ${first}/, which the repository does not have`;
  return undefined;
}

/** Every path of one file's text that leads outside the repository. */
export function outsidePaths(file: string, text: string, shape: RepositoryShape): OutsidePath[] {
  const found: OutsidePath[] = [];
  text.split('\n').forEach((content, index) => {
    const add = (match: string, reason: string) => found.push({ file, line: index + 1, text: match, reason });
    for (const [match] of content.matchAll(MACHINE_PATH)) add(match, "a path of one machine's own directories");
    for (const [match] of content.matchAll(SOURCE_DOCUMENT)) add(match, 'names the interface source, which is not in the repository');
    for (const [match] of content.matchAll(CLIMBING_PATH)) {
      const problem = climbingProblem(match, file, shape);
      if (problem !== undefined) add(match, problem);
    }
  });
  return found;
}

/**
 * The top-level names of a list of repository files, and the folders the repository produces and
 * ignores (the top-level entries of its .gitignore: node_modules/, test-results/, ...).
 */
export function repositoryShape(files: readonly string[], gitignore: string): RepositoryShape {
  const ignored = gitignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'))
    .map((line) => line.replace(/^\//, '').split('/')[0] ?? '')
    .filter((name) => name !== '' && !/[*?[]/.test(name));
  return { topLevel: new Set([...files.map((file) => file.split('/')[0] ?? ''), ...ignored]) };
}
