/** The checkout's root, for the scripts that name its files: a module of its own, so that reading it loads nothing else. */
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
