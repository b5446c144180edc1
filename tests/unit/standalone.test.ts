import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { stringify } from 'yaml';
import { referenceLinks, sectionUrl } from '../../fixtures/reporters/report-metadata.ts';
import { requirement, requirements, sectionHeading, sections } from '../../fixtures/verdict/requirements.ts';
import { parseYaml } from '../../fixtures/contract/yaml-cache.ts';
import { inlineHtml, operationSummaries, specificationPage } from '../../scripts/lib/interface-spec-html.ts';
import { allureReportLinks, htmlIds, htmlLinks, linkProblem, markdownLinks, type ReportFiles } from '../../scripts/lib/links.ts';
import { outsidePaths, repositoryShape } from '../../scripts/lib/outside-paths.ts';

const source = (path: string) => ({ path, text: readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8') });
const catalogueSource = source('spec/requirements.yaml');
const openapiSource = source('spec/openapi.yaml');
const page = specificationPage(catalogueSource, openapiSource);

describe('the interface specification page', () => {
  const ids = htmlIds(page);

  it('has, for every requirement, the section its reports link to, with its heading text, and a row', () => {
    for (const entry of requirements()) {
      const anchor = sectionUrl(entry.section, '').split('#')[1] ?? '';
      assert.ok(ids.has(anchor), `${entry.id}: no #${anchor}`);
      assert.match(page, new RegExp(`<h[123] id="${anchor}">${sectionHeading(entry.section).replace(/[.()]/g, '\\$&')}</h[123]>`));
      assert.ok(ids.has(entry.id), `${entry.id} has no row`);
    }
  });

  it('shows every section: what it states, its variants and its unspecified points', () => {
    for (const section of Object.values(sections())) {
      assert.ok(page.includes(inlineHtml(section.states)), section.heading);
      for (const text of [...section.variants, ...section.unspecified]) assert.ok(page.includes(`<li>${inlineHtml(text)}</li>`), text);
    }
    assert.match(
      page,
      /<h3 id="8-list-recordings">8\. List recordings<\/h3>\n<p class="operation"><code>GET \{base_url\}\/recording<\/code>; security bearerAuth \+ apiKeyAuth; documented statuses 200, 401, 4XX\./,
    );
  });

  it('links only within itself and to the OpenAPI reference, and names its sources with their SHA-256', () => {
    const targets = new Set(htmlLinks(page).map((href) => href.split('#')[0]));
    assert.deepEqual([...targets].sort(), ['', 'interface-reference.html']);
    for (const href of htmlLinks(page).filter((link) => link.startsWith('#'))) assert.ok(ids.has(href.slice(1)), href);
    assert.match(page, /generated from <code>spec\/requirements\.yaml<\/code> \(SHA-256 <code>[0-9a-f]{64}<\/code>\) and <code>spec\/openapi\.yaml<\/code>/);
  });

  it('renders a basis, escapes HTML and turns backticks into code', () => {
    const catalogue = {
      sections: { Title: { heading: 'Title', states: 'Uses `<b>` & more.' } },
      requirements: [{ ...requirement('PAG-01'), section: 'Title', basis: 'Ten by `default`.' }],
    };
    const html = specificationPage({ path: 'x.yaml', text: stringify(catalogue) }, openapiSource);
    assert.ok(html.includes('<p class="states">Uses <code>&lt;b&gt;</code> &amp; more.</p>'));
    assert.ok(html.includes('<span class="basis">Rests on: Ten by <code>default</code>.</span>'));
    assert.ok(html.includes('<h1 id="title">Title</h1>'));
  });

  it('reads method, address, security and statuses of all 16 operations from the OpenAPI document', () => {
    assert.equal(operationSummaries({ openapi: '3.1.0' }).size, 0, 'nothing from a document without paths');
    const all = operationSummaries(parseYaml(openapiSource.text));
    assert.equal(all.size, 16);
    assert.deepEqual(all.get('getChannelInfo'), {
      method: 'GET',
      address: '{realtime_url}/realtime/{channel}',
      credentials: 'clientId + clientSecret',
      statuses: ['200', '401', '4XX'],
    });
    assert.equal(all.get('login')?.credentials, 'none');
  });
});

describe('links of the reports', () => {
  const produced: Record<string, string[]> = {
    'certification.md': [],
    'interface-spec.html': ['2-list-groups'],
    'interface-reference.html': ['operation/listGroups'],
    'allure-report/index.html': [],
  };
  const files: ReportFiles = {
    has: (path) => Object.hasOwn(produced, path),
    fragments: (path) => new Set(produced[path] ?? []),
  };

  it('resolves links from the page that holds them, with their fragment', () => {
    assert.equal(linkProblem('interface-spec.html#2-list-groups', 'certification.md', files), undefined);
    assert.equal(linkProblem('../interface-reference.html#operation/listGroups', 'allure-report/index.html', files), undefined);
    assert.equal(linkProblem('#2-list-groups', 'interface-spec.html', files), undefined);
    assert.equal(
      linkProblem('https://reports.example/interface-spec.html#2-list-groups', 'allure-report/index.html', files, 'https://reports.example/'),
      undefined,
    );
  });

  it('names what is wrong with a link that does not resolve', () => {
    assert.equal(linkProblem('interface-spec.html#2-list-group', 'certification.md', files), 'reports/interface-spec.html has no #2-list-group');
    assert.equal(linkProblem('../interface-spec.html#2-list-groups', 'certification.md', files), 'leaves reports/ (../interface-spec.html)');
    assert.equal(linkProblem('interface-spec.html#x', 'allure-report/index.html', files), 'reports/allure-report/interface-spec.html does not exist');
    assert.equal(
      linkProblem('../interface-reference.html#operation/listGroup', 'allure-report/index.html', files),
      'reports/interface-reference.html has no #operation/listGroup',
    );
    assert.equal(linkProblem('https://elsewhere.example/interface-spec.html', 'certification.md', files), 'an absolute address, not a file of the run');
  });

  it('finds the links of Markdown, HTML and a single-file Allure report', () => {
    assert.deepEqual(markdownLinks('Section [2. List groups](interface-spec.html#2-list-groups); [a](b) and `[c]` (d)'), [
      'interface-spec.html#2-list-groups',
      'b',
    ]);
    assert.deepEqual(htmlLinks('<a href="x.html#a&amp;b">x</a><link rel="icon" href="i.svg">'), ['x.html#a&b', 'i.svg']);
    const result = {
      name: 'lists groups',
      links: [{ url: '../interface-spec.html#2-list-groups' }],
      descriptionHtml: '<a href="../interface-reference.html#operation/listGroups">listGroups</a>',
    };
    const report = `<script>d("data/test-results/ab12.json","${Buffer.from(JSON.stringify(result)).toString('base64')}")</script>`;
    assert.deepEqual(allureReportLinks(report), {
      tests: 1,
      links: [
        { from: 'Allure test "lists groups"', url: '../interface-spec.html#2-list-groups' },
        { from: 'Allure test "lists groups" (description)', url: '../interface-reference.html#operation/listGroups' },
      ],
    });
  });

  it('the section links every requirement gets, in certification.md and in Allure, resolve in the rendered page', () => {
    const rendered: ReportFiles = { has: (path) => path === 'interface-spec.html', fragments: () => htmlIds(page) };
    for (const entry of requirements()) {
      assert.equal(linkProblem(sectionUrl(entry.section, ''), 'certification.md', rendered), undefined, entry.id);
      const [section] = referenceLinks(entry, '../').filter((link) => link.url.includes('interface-spec.html'));
      assert.equal(linkProblem(section?.url ?? '', 'allure-report/index.html', rendered), undefined, entry.id);
    }
  });
});

describe('paths outside the repository', () => {
  const shape = repositoryShape(
    ['README.md', 'docs/architecture.md', 'fixtures/index.ts', 'spec/openapi.yaml'],
    'node_modules/\nreports/*\n!reports/.gitkeep\n*.log\n',
  );
  // Built from pieces, so that this file holds none of the paths it feeds the check.
  const up = (levels: number, rest: string) => `${'../'.repeat(levels)}${rest}`;
  const sibling = up(1, ['shared', 'interface-spec' + '.md'].join('/'));

  it('catches the sibling folder and the interface source, wherever they are named', () => {
    const found = outsidePaths('README.md', `as specified in \`${sibling}\`.`, shape);
    assert.deepEqual(
      found.map((finding) => [finding.line, finding.text, finding.reason]),
      [
        [1, 'interface-spec' + '.md', 'names the interface source, which is not in the repository'],
        [1, sibling, 'climbs out of the repository'],
      ],
    );
    assert.deepEqual(
      outsidePaths('docs/architecture.md', `x\n# heading of ${up(1, 'shared/notes.txt')}`, shape).map((finding) => [finding.line, finding.reason]),
      [[2, 'leads to shared/, which the repository does not have']],
    );
  });

  it("catches a path that climbs out from the file that holds it, and a machine's own directories", () => {
    const code = `const spec = new URL('${up(3, 'notes/x.md')}', import.meta.url);\nconst other = '${['', 'work', 'notes', 'brief.md'].join('/')}';`;
    assert.deepEqual(
      outsidePaths('tests/unit/a.test.ts', code, shape).map((finding) => [finding.line, finding.reason]),
      [
        [1, 'climbs out of the repository'],
        [2, "a path of one machine's own directories"],
      ],
    );
  });

  it('leaves alone paths inside the repository, what it produces, system paths and URLs', () => {
    const fine = [
      `import { test } from '${up(1, 'fixtures/index.ts')}';`,
      `const cache = new URL('${up(1, 'node_modules/.cache/')}', import.meta.url);`,
      `const counts = '${up(1, 'reports/.request-counts/')}';`,
      "const CHROMIUM = '/usr/bin/chromium';",
      "const url = 'https://example.com/home/page';",
      `const base = '${up(1, '')}';`,
    ].join('\n');
    assert.deepEqual(outsidePaths('fixtures/a.ts', fine, shape), []);
    assert.deepEqual(outsidePaths('tests/unit/a.test.ts', `new URL('${up(2, 'spec/openapi.yaml')}', import.meta.url)`, shape), []);
  });
});
