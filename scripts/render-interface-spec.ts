/**
 * Renders the interface specification (../shared/interface-spec.md) to reports/interface-spec.html,
 * so that the links of the Allure report and the certification report land on the section a
 * requirement comes from. Part of `npm run docs`.
 *
 * Usage: tsx scripts/render-interface-spec.ts [source.md] [output.html]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTERFACE_SPEC_FILE } from '../fixtures/report-metadata.ts';
import { specificationPage } from './interface-spec-html.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const source = resolve(process.argv[2] ?? resolve(ROOT, '../shared/interface-spec.md'));
const output = resolve(process.argv[3] ?? resolve(ROOT, 'reports', INTERFACE_SPEC_FILE));

mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, specificationPage(readFileSync(source, 'utf8'), relative(ROOT, source)));
console.log(`interface specification rendered: ${relative(process.cwd(), output)}`);
