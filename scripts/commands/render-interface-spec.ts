/**
 * Writes the interface specification page, reports/interface-spec.html, from the project's own
 * documents (spec/requirements.yaml and spec/openapi.yaml), so that the links of the Allure report and
 * of the certification report land on the section a requirement comes from. Part of `npm run docs`.
 *
 * Usage: tsx scripts/commands/render-interface-spec.ts [output.html]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTERFACE_SPEC_FILE } from '../../fixtures/reporters/report-metadata.ts';
import { specificationPage } from '../lib/interface-spec-html.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const output = resolve(process.argv[2] ?? resolve(ROOT, 'reports', INTERFACE_SPEC_FILE));
const source = (path: string) => ({ path, text: readFileSync(resolve(ROOT, path), 'utf8') });

mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, specificationPage(source('spec/requirements.yaml'), source('spec/openapi.yaml')));
console.log(`interface specification rendered: ${relative(process.cwd(), output)}`);
