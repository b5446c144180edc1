/**
 * The interface specification page (reports/interface-spec.html), generated from the project's own
 * description of the interface: the `sections` of spec/requirements.yaml (what the interface states,
 * leaves unsaid and contradicts, section by section), the requirements that certify each section, and
 * the method, address, credentials and statuses of each operation from spec/openapi.yaml. Each section
 * heading carries the slug of its heading text as id, as interfaceSectionAnchor() computes it: that is
 * where the links of the Allure report and of certification.md land. Pure: the I/O is in
 * scripts/commands/render-interface-spec.ts.
 */
import { createHash } from 'node:crypto';
import { INTERFACE_REFERENCE_FILE, operationUrl } from '../../fixtures/reporters/report-metadata.ts';
import { githubAnchor, parseCatalogue } from '../../fixtures/verdict/requirements.ts';
import type { Catalogue, Requirement, Section } from '../../fixtures/verdict/requirements.ts';
import { parseYaml } from '../../fixtures/contract/yaml-cache.ts';

/** A source file of the page: its path in the repository and its text. */
export interface PageSource {
  path: string;
  text: string;
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Escaped text in which `backticked` spans become code, the one markup the catalogue's prose uses. */
export function inlineHtml(text: string): string {
  return text
    .split('`')
    .map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
    .join('');
}

/** What the OpenAPI document says of one operation, as the page shows it. */
export interface OperationSummary {
  method: string;
  address: string;
  credentials: string;
  statuses: string[];
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function serverOf(...holders: unknown[]): string {
  for (const holder of holders) {
    const servers = isJson(holder) ? holder['servers'] : undefined;
    const url = Array.isArray(servers) && isJson(servers[0]) ? servers[0]['url'] : undefined;
    if (typeof url === 'string') return url;
  }
  return '';
}

function credentialsOf(security: unknown): string {
  if (!Array.isArray(security)) return 'not stated';
  const options = security.filter(isJson).map((option) => Object.keys(option).join(' + '));
  return options.length === 0 || options.every((option) => option === '') ? 'none' : options.join(' or ');
}

/** Every operation of the document by operationId (method, address with its server, credentials, statuses). */
export function operationSummaries(document: unknown): Map<string, OperationSummary> {
  const summaries = new Map<string, OperationSummary>();
  if (!isJson(document) || !isJson(document['paths'])) return summaries;
  for (const [path, item] of Object.entries(document['paths'])) {
    if (!isJson(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isJson(operation) || typeof operation['operationId'] !== 'string') continue;
      summaries.set(operation['operationId'], {
        method: method.toUpperCase(),
        address: `${serverOf(operation, item, document)}${path}`,
        credentials: credentialsOf(operation['security'] ?? document['security']),
        statuses: isJson(operation['responses']) ? Object.keys(operation['responses']) : [],
      });
    }
  }
  return summaries;
}

function operationLine(operationId: string, summary: OperationSummary | undefined): string {
  const reference = `<a href="${operationUrl(operationId, '')}">${escapeHtml(operationId)} in the OpenAPI reference</a>`;
  if (summary === undefined) return `<p class="operation">${reference}</p>`;
  return (
    `<p class="operation"><code>${escapeHtml(`${summary.method} ${summary.address}`)}</code>; security ` +
    `${escapeHtml(summary.credentials)}; documented statuses ${escapeHtml(summary.statuses.join(', '))}. ${reference}.</p>`
  );
}

function list(title: string, items: readonly string[], className: string): string {
  if (items.length === 0) return '';
  return `<h4>${title}</h4>\n<ul class="${className}">\n${items.map((item) => `<li>${inlineHtml(item)}</li>`).join('\n')}\n</ul>\n`;
}

function requirementRow(entry: Requirement): string {
  const basis = entry.basis === undefined ? '' : `<br><span class="basis">Rests on: ${inlineHtml(entry.basis)}</span>`;
  const operations = entry.operations.map((operationId) => `<a href="${operationUrl(operationId, '')}">${escapeHtml(operationId)}</a>`).join(', ');
  return `<tr id="${escapeHtml(entry.id)}"><td><a href="#${escapeHtml(entry.id)}">${escapeHtml(entry.id)}</a></td><td>${entry.level}</td><td>${inlineHtml(entry.statement)}${basis}</td><td>${operations}</td></tr>`;
}

function requirementsTable(entries: readonly Requirement[]): string {
  if (entries.length === 0) return '<p class="none">No requirement of the catalogue cites this section.</p>\n';
  return (
    `<h4>Requirements that certify it (${entries.length})</h4>\n<table class="requirements">\n` +
    '<thead><tr><th>ID</th><th>Level</th><th>Requirement</th><th>Operations</th></tr></thead>\n<tbody>\n' +
    `${entries.map(requirementRow).join('\n')}\n</tbody>\n</table>\n`
  );
}

function sectionBody(section: Section, entries: readonly Requirement[], operations: Map<string, OperationSummary>): string {
  return (
    (section.operation === undefined ? '' : `${operationLine(section.operation, operations.get(section.operation))}\n`) +
    `<p class="states">${inlineHtml(section.states)}</p>\n` +
    list('Documented variants (the interface says both)', section.variants, 'variants') +
    list('Not stated by the interface', section.unspecified, 'unspecified') +
    requirementsTable(entries)
  );
}

function contents(names: readonly string[], catalogue: Catalogue): string {
  const item = (name: string): string => {
    const section = catalogue.sections[name] as Section;
    return `<a href="#${githubAnchor(section.heading)}">${escapeHtml(section.heading)}</a>`;
  };
  const top = names.filter((name) => catalogue.sections[name]?.within === undefined);
  const children = (parent: string) => names.filter((name) => catalogue.sections[name]?.within === parent);
  const nested = (parent: string): string => {
    const below = children(parent);
    return below.length === 0 ? '' : `\n<ul>${below.map((name) => `<li>${item(name)}</li>`).join('')}</ul>`;
  };
  return `<nav aria-label="Contents"><p><strong>Contents</strong></p>\n<ul>\n${top.map((name) => `<li>${item(name)}${nested(name)}</li>`).join('\n')}\n</ul></nav>\n`;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The whole page. The first section of the catalogue is the page's title and introduction; the others
 * follow in catalogue order, a section `within` another one level deeper.
 */
export function specificationPage(catalogueSource: PageSource, openapiSource: PageSource): string {
  const catalogue = parseCatalogue(catalogueSource.text, catalogueSource.path);
  const operations = operationSummaries(parseYaml(openapiSource.text));
  const names = Object.keys(catalogue.sections);
  const citing = (name: string) => catalogue.requirements.filter((entry) => entry.section === name);
  const [first, ...rest] = names as [string, ...string[]];
  const title = (catalogue.sections[first] as Section).heading;
  const provenance = [catalogueSource, openapiSource].map((source) => `<code>${escapeHtml(source.path)}</code> (SHA-256 <code>${sha256(source.text)}</code>)`);
  const body = rest
    .map((name) => {
      const section = catalogue.sections[name] as Section;
      const level = section.within === undefined ? 2 : 3;
      return `<section>\n<h${level} id="${githubAnchor(section.heading)}">${escapeHtml(section.heading)}</h${level}>\n${sectionBody(section, citing(name), operations)}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.55 system-ui, sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
  table { border-collapse: collapse; margin: .5rem 0 1rem; width: 100%; }
  th, td { border: 1px solid #c8c8c8; padding: .3rem .6rem; text-align: left; vertical-align: top; }
  code { background: #f2f2f2; padding: 0 .2rem; }
  h4 { margin: 1rem 0 .3rem; font-size: 1rem; }
  .requirements td:nth-child(-n+2) { white-space: nowrap; }
  .requirements td:nth-child(3) { width: 60%; }
  .basis { color: #5a5a5a; font-size: .9rem; }
  .operation { background: #f5f8fc; padding: .4rem .6rem; }
  :target { background: #fff3b0; scroll-margin-top: 1rem; }
  .source { color: #5a5a5a; font-size: .9rem; border-bottom: 1px solid #ddd; padding-bottom: .5rem; }
</style>
</head>
<body>
<h1 id="${githubAnchor(title)}">${escapeHtml(title)}</h1>
<p class="source">This project's description of the interface, generated from ${provenance.join(' and ')}:
${names.length} sections and the ${catalogue.requirements.length} requirements that certify them. The shapes of the
operations are in the <a href="${INTERFACE_REFERENCE_FILE}">OpenAPI reference</a>.</p>
${contents(rest, catalogue)}${sectionBody(catalogue.sections[first] as Section, citing(first), operations)}${body}
</body>
</html>
`;
}
