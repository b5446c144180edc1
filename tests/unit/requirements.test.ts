import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import {
  CatalogueError,
  ID_PREFIXES,
  OPERATION_IDS,
  githubAnchor,
  interfaceSection,
  interfaceSectionAnchor,
  parseCatalogue,
  requirement,
  requirements,
  sectionHeading,
  sections,
  validateCatalogue,
  type Requirement,
} from '../../fixtures/verdict/requirements.ts';
import { cites } from '../../fixtures/verdict/citations.ts';
import { checkCoverage, formatCoverage, readTestListing, type TestListing } from '../../scripts/lib/catalogue.ts';

const architecture = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');

const validEntry = {
  id: 'PAG-01',
  level: 'MUST',
  kind: 'pagination',
  statement: 'Without skip and take, a paginated list MUST return at most 10 items.',
  basis: 'take defaults to 10 and skip to 0 on paginated lists',
  section: 'Pagination',
  operations: ['listGroups'],
};

const paginationSection = { heading: 'Pagination', states: 'Lists take skip and take.' };
const catalogueWith = (...entries: unknown[]): unknown => ({ sections: { Pagination: paginationSection }, requirements: entries });
const sectionsWith = (sections: Record<string, unknown>): unknown => ({ sections, requirements: [validEntry] });

function problemsOf(document: unknown): readonly string[] {
  try {
    validateCatalogue(document, 'test.yaml');
  } catch (error) {
    assert.ok(error instanceof CatalogueError);
    assert.match(error.message, /^Invalid requirements catalogue test\.yaml:/);
    return error.problems;
  }
  assert.fail('expected a CatalogueError');
}

describe('catalogue validation', () => {
  test('accepts a well-formed catalogue', () => {
    const catalogue = validateCatalogue(catalogueWith(validEntry));
    assert.deepEqual(catalogue.requirements, [validEntry]);
    assert.deepEqual(catalogue.sections, { Pagination: { ...paginationSection, unspecified: [], variants: [] } });
  });

  test('keeps a basis when an entry gives one, and refuses an empty one', () => {
    const basis = 'Lists return ten results by default.';
    assert.deepEqual(validateCatalogue(catalogueWith({ ...validEntry, basis })).requirements, [{ ...validEntry, basis }]);
    assert.ok(problemsOf(catalogueWith({ ...validEntry, basis: ' ' })).some((problem) => /basis must be a non-empty string/.test(problem)));
  });

  test('reads a section with its subsection, operation, unspecified points and variants', () => {
    const endpoint = {
      heading: '2. List groups',
      within: 'Endpoints',
      operation: 'listGroups',
      states: 'Lists groups.',
      unspecified: ['The largest take.'],
      variants: ['Bare list or envelope.'],
    };
    const catalogue = validateCatalogue(
      sectionsWith({ Endpoints: { heading: 'Endpoints', states: 'Sixteen.' }, 'List groups': endpoint, Pagination: paginationSection }),
    );
    assert.deepEqual(catalogue.sections['List groups'], endpoint);
  });

  const sectionCases: [string, Record<string, unknown>, RegExp][] = [
    ['a section that is a plain heading text', { Pagination: 'Pagination' }, /section "Pagination" must be a map with heading and states/],
    ['a section without states', { Pagination: { heading: 'Pagination' } }, /section "Pagination": states must be a non-empty string/],
    ['a section without heading', { Pagination: { states: 'x' } }, /section "Pagination": heading must be a non-empty string/],
    ['an unknown section field', { Pagination: { ...paginationSection, anchor: 'p' } }, /section "Pagination": unknown field "anchor"/],
    ['an unknown operation', { Pagination: { ...paginationSection, operation: 'listGroup' } }, /unknown operationId "listGroup"/],
    ['an empty variants list', { Pagination: { ...paginationSection, variants: [] } }, /variants must be a non-empty list of non-empty strings/],
    ['an unspecified point that is not text', { Pagination: { ...paginationSection, unspecified: [3] } }, /unspecified must be a non-empty list/],
    [
      'a subsection of an unknown section',
      { Pagination: { ...paginationSection, within: 'Nowhere' } },
      /within must name a top-level section defined before it/,
    ],
    [
      'a subsection of a subsection',
      {
        Top: { heading: 'Top', states: 'x' },
        Middle: { heading: 'Middle', states: 'x', within: 'Top' },
        Pagination: { ...paginationSection, within: 'Middle' },
      },
      /section "Pagination": within must name a top-level section/,
    ],
    [
      'a subsection before its parent',
      { Pagination: { ...paginationSection, within: 'Later' }, Later: { heading: 'Later', states: 'x' } },
      /section "Pagination": within must name a top-level section defined before it/,
    ],
    [
      'two headings with one anchor',
      { Paging: { heading: 'Pagination!', states: 'x' }, Pagination: paginationSection },
      /section "Pagination": heading has the same anchor #pagination as section "Paging"/,
    ],
  ];
  for (const [what, sections, expected] of sectionCases) {
    test(`rejects ${what}`, () => {
      const problems = problemsOf(sectionsWith(sections));
      assert.ok(
        problems.some((problem) => expected.test(problem)),
        problems.join('\n'),
      );
    });
  }

  test('rejects a first section that is a subsection (it is the title of the page)', () => {
    const problems = problemsOf(sectionsWith({ Pagination: { ...paginationSection, within: 'Pagination' } }));
    assert.ok(
      problems.some((problem) => /within must name a top-level section/.test(problem)),
      problems.join('\n'),
    );
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['a malformed id', { id: 'pag-1' }, /id "pag-1" does not match/],
    ['an id with four digits', { id: 'PAG-0001' }, /does not match/],
    ['an unknown prefix', { id: 'FOO-01' }, /unknown ID prefix "FOO"/],
    ['an unknown level', { level: 'MAY' }, /unknown level "MAY"/],
    ['a VARIANT level outside VAR', { level: 'VARIANT' }, /level VARIANT is not allowed with the PAG prefix \(allowed: MUST, SHOULD, UNSPECIFIED\)/],
    ['a VAR id of another level', { id: 'VAR-01' }, /level MUST is not allowed with the VAR prefix \(allowed: VARIANT\)/],
    [
      'a UNS id of another level',
      { id: 'UNS-01', level: 'SHOULD', basis: 'not stated: x' },
      /level SHOULD is not allowed with the UNS prefix \(allowed: UNSPECIFIED\)/,
    ],
    ['a VAR id that is unspecified', { id: 'VAR-01', level: 'UNSPECIFIED', basis: 'not shown: x' }, /level UNSPECIFIED is not allowed with the VAR prefix/],
    ['no basis', { basis: undefined }, /basis must be a non-empty string/],
    ['an empty basis', { basis: ' ' }, /basis must be a non-empty string/],
    [
      'an UNSPECIFIED basis without "not shown:"',
      { level: 'UNSPECIFIED', basis: 'pages are numbered' },
      /basis of a UNSPECIFIED requirement starts with "not shown:"/,
    ],
    ['a SHOULD basis without "not stated:"', { level: 'SHOULD', basis: 'not shown: x' }, /basis of a SHOULD requirement starts with "not stated:"/],
    [
      'a SHOULD basis that names neither robustness nor a sentence',
      { level: 'SHOULD', basis: 'not stated: which list of English words the secretKey draws from' },
      /basis of a SHOULD requirement names what it rests on/,
    ],
    [
      'a SHOULD basis of another kind of robustness',
      { level: 'SHOULD', basis: 'not stated: the words of the key; robustness: taste' },
      /basis of a SHOULD requirement names what it rests on/,
    ],
    [
      'a SHOULD basis that says the interface says something without quoting it',
      { level: 'SHOULD', basis: 'not stated: x; the interface says so' },
      /basis of a SHOULD requirement names what it rests on/,
    ],
    ['a MUST basis that says the interface is silent', { basis: 'not stated: x' }, /basis of a MUST requirement states what the interface shows/],
    ['an unknown kind', { kind: 'misc' }, /unknown kind "misc"/],
    ['an empty statement', { statement: '  ' }, /statement must be a non-empty string/],
    ['an unknown section', { section: 'Paging' }, /section "Paging" is not in "sections"/],
    ['an unknown operationId', { operations: ['listGroup'] }, /unknown operationId "listGroup"/],
    ['no operations', { operations: [] }, /operations must be a non-empty list/],
    ['an operation listed twice', { operations: ['login', 'login'] }, /lists an operationId twice/],
    ['an unknown field', { anchor: 'x', note: 'y' }, /unknown field "anchor"/],
  ];
  for (const [what, change, expected] of cases) {
    test(`rejects ${what}`, () => {
      const problems = problemsOf(catalogueWith({ ...validEntry, ...change }));
      assert.ok(
        problems.some((problem) => expected.test(problem)),
        problems.join('\n'),
      );
    });
  }

  test('lets any other prefix carry MUST, SHOULD or UNSPECIFIED, each with its basis', () => {
    const entries = [
      { ...validEntry, id: 'PAG-06', level: 'UNSPECIFIED', basis: 'not shown: whether pages are numbered from 0 or 1' },
      { ...validEntry, id: 'INP-01', level: 'SHOULD', basis: 'not stated: the answer to a body that is not JSON; robustness: malformed input' },
      { ...validEntry, id: 'INP-09', level: 'SHOULD', basis: 'not stated: the answer to long path values; robustness: malformed input, limits' },
      { ...validEntry, id: 'RT-12', level: 'SHOULD', basis: 'not stated: that they agree; the interface says "the currently connected participants"' },
      { ...validEntry, id: 'PAG-07' },
      { ...validEntry, id: 'UNS-01', level: 'UNSPECIFIED', basis: '  not shown: the status for an unknown group  ' },
      { ...validEntry, id: 'VAR-01', level: 'VARIANT', basis: 'the sample is a bare array, the description the envelope' },
    ];
    const catalogue = validateCatalogue(catalogueWith(...entries));
    assert.deepEqual(
      catalogue.requirements.map((entry) => [entry.id, entry.level]),
      entries.map((entry) => [entry.id, entry.level]),
    );
    assert.equal(catalogue.requirements[5]?.basis, 'not shown: the status for an unknown group');
  });

  test('rejects duplicate IDs', () => {
    const problems = problemsOf(catalogueWith(validEntry, validEntry));
    assert.deepEqual(problems, ['requirements[1]: duplicate id PAG-01']);
  });

  test('lists every problem at once, naming the entry', () => {
    const problems = problemsOf(catalogueWith({ ...validEntry, level: 'MAY' }, { ...validEntry, id: 'PAG-02', kind: 'misc' }));
    assert.equal(problems.length, 2);
    assert.match(problems[0] ?? '', /^requirements\[0\] \(PAG-01\): unknown level/);
    assert.match(problems[1] ?? '', /^requirements\[1\] \(PAG-02\): unknown kind/);
  });

  test('rejects a document without sections or requirements', () => {
    assert.ok(problemsOf({}).some((problem) => problem.includes('"sections" must be a non-empty map')));
    assert.ok(problemsOf({}).some((problem) => problem.includes('"requirements" must be a non-empty list')));
    assert.ok(problemsOf([]).some((problem) => problem.includes('must be a map')));
    assert.ok(problemsOf({ ...(catalogueWith(validEntry) as object), extra: 1 }).includes('unknown top-level key "extra"'));
  });

  test('parseCatalogue reports YAML syntax errors as catalogue errors', () => {
    assert.throws(
      () => parseCatalogue('requirements: [', 'broken.yaml'),
      (error: unknown) => {
        assert.ok(error instanceof CatalogueError);
        assert.match(error.problems[0] ?? '', /^not valid YAML/);
        return true;
      },
    );
    assert.deepEqual(parseCatalogue(stringify(catalogueWith(validEntry))).requirements, [validEntry]);
  });
});

describe('the catalogue of this project', () => {
  const all = requirements();

  // No bound on the number of entries: the catalogue grows with what the interface states. What it
  // must do is cover the interface, so a part of it that nobody certifies, or a prefix that names
  // nothing, fails here (the operations: the MUST test below).
  test('covers the interface: every section of its description and every ID prefix holds a requirement', () => {
    assert.ok(all.length > 0, 'the catalogue loads with its entries');
    const cited = new Set(all.map((entry) => entry.section));
    assert.deepEqual(
      Object.keys(sections()).filter((section) => !cited.has(section)),
      [],
      'sections no requirement rests on',
    );
    assert.deepEqual(
      ID_PREFIXES.filter((prefix) => !all.some((entry) => entry.id.startsWith(`${prefix}-`))),
      [],
      'prefixes without an entry',
    );
  });

  test('OPERATION_IDS are the 16 operationIds of docs/architecture.md, in order', () => {
    const documented = [...architecture.matchAll(/^\| \d+ \| `(\w+)` \|/gm)].map((match) => match[1]);
    assert.deepEqual([...OPERATION_IDS], documented);
    assert.equal(OPERATION_IDS.length, 16);
  });

  test('every operation is concerned by at least one MUST requirement', () => {
    const concerned = new Set(all.filter((entry) => entry.level === 'MUST').flatMap((entry) => entry.operations));
    assert.deepEqual(
      OPERATION_IDS.filter((operation) => !concerned.has(operation)),
      [],
    );
  });

  test('every statement speaks in the voice of its level', () => {
    const voice = { MUST: /\bMUST\b/, SHOULD: /\bSHOULD\b/, VARIANT: /\bMAY\b/, UNSPECIFIED: /\bMAY\b/ } as const;
    assert.deepEqual(
      all.filter((entry) => !voice[entry.level].test(entry.statement)).map((entry) => entry.id),
      [],
    );
  });

  test('requirement() finds entries and names unknown IDs', () => {
    assert.equal(requirement('PAG-01').section, 'Pagination');
    assert.throws(() => requirement('NOPE-01'), { message: 'Unknown requirement ID "NOPE-01"' });
  });

  test('entries are frozen so that no test can alter the shared catalogue', () => {
    assert.ok(Object.isFrozen(requirement('PAG-01')));
    assert.ok(Object.isFrozen(requirement('PAG-01').operations));
  });

  test('the sections describe the interface without it: endpoints name their operation, variants and unspecified points are written down', () => {
    const all = Object.entries(sections());
    const described = all.filter(([, section]) => section.operation !== undefined).map(([, section]) => section.operation);
    assert.deepEqual([...described].sort(), [...OPERATION_IDS].sort(), 'one endpoint section per operation');
    for (const [name, section] of all) {
      const levels = new Set(
        requirements()
          .filter((entry) => entry.section === name)
          .map((entry) => entry.level),
      );
      if (levels.has('VARIANT')) assert.ok(section.variants.length > 0, `section "${name}" has a VARIANT requirement but lists no variant`);
      if (levels.has('UNSPECIFIED')) assert.ok(section.unspecified.length > 0, `section "${name}" has an UNSPECIFIED requirement but lists nothing unstated`);
    }
  });
});

describe('section anchors', () => {
  test('follow GitHub heading slugs', () => {
    assert.equal(githubAnchor('14. Channel info (versioned realtime interface)'), '14-channel-info-versioned-realtime-interface');
    assert.equal(githubAnchor('Meeting and Realtime Service: Interface Specification'), 'meeting-and-realtime-service-interface-specification');
    assert.equal(githubAnchor('snake_case and-hyphen'), 'snake_case-and-hyphen');
  });

  test('resolve section names and heading texts, and reject anything else', () => {
    assert.equal(sectionHeading('Login'), '1. Login');
    assert.equal(interfaceSectionAnchor('Login'), '1-login');
    assert.equal(interfaceSectionAnchor('Participant (directory record)'), 'participant-directory-record');
    assert.equal(interfaceSection('1. Login'), interfaceSection('Login'));
    assert.equal(interfaceSection('Login').operation, 'login');
    assert.throws(() => interfaceSectionAnchor('Nowhere'), { message: 'Unknown section "Nowhere"' });
  });
});

describe('cites', () => {
  test('gives one tag and one annotation per ID, and one tag per level', () => {
    assert.deepEqual(cites('PAG-01', 'PAG-02', 'VAR-01'), {
      tag: ['@PAG-01', '@PAG-02', '@VAR-01', '@must', '@variant'],
      annotation: [
        { type: 'requirement', description: 'PAG-01' },
        { type: 'requirement', description: 'PAG-02' },
        { type: 'requirement', description: 'VAR-01' },
      ],
    });
  });

  test('appends extra tags from a trailing options object', () => {
    assert.deepEqual(cites('PART-04', { tag: ['@writes'] }).tag, ['@PART-04', '@must', '@writes']);
    assert.deepEqual(cites('UNS-01', { tag: [] }).tag, ['@UNS-01', '@unspecified']);
  });

  test('throws at definition time on unknown, repeated or missing IDs and on bad extra tags', () => {
    assert.throws(() => cites('PAG-01', 'PAG-999'), { message: 'Unknown requirement ID "PAG-999"' });
    assert.throws(() => cites('PAG-01', 'PAG-01'), /cited twice/);
    assert.throws(() => cites(), /at least one requirement ID/);
    assert.throws(() => cites({ tag: ['@writes'] }), /at least one requirement ID/);
    assert.throws(() => cites('PAG-01', { tag: ['writes'] }), /must start with '@'/);
    assert.throws(() => cites('PAG-01', { tag: ['@PAG-02'] }), /as an ID, not as an extra tag/);
  });
});

const catalogue: Requirement[] = [
  { ...validEntry, id: 'PAG-01' },
  { ...validEntry, id: 'PAG-02' },
  { ...validEntry, id: 'UNS-01', level: 'UNSPECIFIED', kind: 'unspecified' },
] as Requirement[];

const playwrightTest = (projectName: string, annotations: unknown[]) => ({
  timeout: 30000,
  annotations,
  expectedStatus: 'passed',
  projectId: projectName,
  projectName,
  results: [],
  status: 'skipped',
});

/** The shape `playwright test --list --reporter=json` writes: file suites, nested describes, one spec per test. */
const listReport = {
  config: {},
  suites: [
    {
      title: 'pagination.spec.ts',
      file: 'pagination.spec.ts',
      line: 0,
      column: 0,
      specs: [
        {
          title: 'default page',
          ok: true,
          tags: ['PAG-01', 'must'],
          id: 'a1',
          file: 'pagination.spec.ts',
          line: 5,
          column: 1,
          tests: [
            playwrightTest('main', [{ type: 'requirement', description: 'PAG-01', location: { file: 'x', line: 5, column: 1 } }]),
            playwrightTest('other', [{ type: 'requirement', description: 'PAG-01' }]),
          ],
        },
      ],
      suites: [
        {
          title: 'walks',
          file: 'pagination.spec.ts',
          line: 9,
          column: 6,
          specs: [
            {
              title: 'title tag only @UNS-01',
              tags: ['UNS-01'],
              id: 'a2',
              file: 'pagination.spec.ts',
              line: 10,
              column: 3,
              tests: [playwrightTest('main', [])],
            },
            {
              title: 'cites a retired ID',
              tags: ['@writes'],
              id: 'a3',
              file: 'pagination.spec.ts',
              line: 14,
              column: 3,
              tests: [
                playwrightTest('main', [
                  { type: 'requirement', description: 'PAG-77' },
                  { type: 'issue', description: 'PAG-02' },
                ]),
              ],
            },
          ],
          suites: [
            {
              title: 'deeper',
              file: 'pagination.spec.ts',
              line: 18,
              column: 8,
              specs: [{ title: 'cites nothing', tags: [], id: 'a4', file: 'pagination.spec.ts', line: 19, column: 5, tests: [playwrightTest('main', [])] }],
            },
          ],
        },
      ],
    },
  ],
  errors: [{ message: 'SyntaxError: Unexpected token', location: { file: 'broken.spec.ts', line: 3, column: 1 } }],
  stats: {},
};

describe('coverage check', () => {
  const listing = readTestListing(listReport);

  test('reads nested suites, merges projects, and takes IDs from annotations and tags', () => {
    assert.deepEqual(listing.tests, [
      { location: 'pagination.spec.ts:5', title: 'default page', ids: ['PAG-01'] },
      { location: 'pagination.spec.ts:10', title: 'walks › title tag only @UNS-01', ids: ['UNS-01'] },
      { location: 'pagination.spec.ts:14', title: 'walks › cites a retired ID', ids: ['PAG-77'] },
      { location: 'pagination.spec.ts:19', title: 'walks › deeper › cites nothing', ids: [] },
    ]);
    assert.deepEqual(listing.errors, ['SyntaxError: Unexpected token (broken.spec.ts:3)']);
  });

  test('finds uncovered requirements, uncited tests, unknown IDs and listing errors', () => {
    const report = checkCoverage(catalogue, listing);
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.uncovered.map((entry) => entry.id),
      ['PAG-02'],
    );
    assert.deepEqual(
      report.uncited.map((test) => test.title),
      ['walks › deeper › cites nothing'],
    );
    assert.deepEqual(
      report.unknown.map(({ id, citedBy }) => [id, citedBy.map((test) => test.location)]),
      [['PAG-77', ['pagination.spec.ts:14']]],
    );
    assert.equal(report.loadErrors.length, 1);
    const text = formatCoverage(report);
    assert.match(text, /Requirements without a test \(1\):\n {2}ID {6}LEVEL {2}KIND {8}STATEMENT\n {2}PAG-02 {2}MUST/);
    assert.match(text, /Tests that cite no requirement \(1\):[\s\S]*pagination\.spec\.ts:19 {2}walks › deeper › cites nothing/);
    assert.match(text, /PAG-77 {2}pagination\.spec\.ts:14 walks › cites a retired ID/);
    assert.match(text, /Errors while listing tests \(1\):\n {2}SyntaxError: Unexpected token \(broken\.spec\.ts:3\)\n\ncatalogue check FAILED/);
    assert.match(
      text,
      /catalogue check FAILED: 2\/3 requirements covered by 4 tests; 1 without a test, 1 tests without a citation, 1 unknown IDs, 1 listing errors$/,
    );
  });

  test('passes when every requirement is cited and every test cites a known one', () => {
    const complete: TestListing = {
      tests: [{ location: 'a.spec.ts:1', title: 'a', ids: ['PAG-01', 'PAG-02', 'UNS-01'] }],
      errors: [],
    };
    const report = checkCoverage(catalogue, complete);
    assert.equal(report.ok, true);
    assert.equal(
      formatCoverage(report),
      'catalogue check passed: 3/3 requirements covered by 1 tests; 0 without a test, 0 tests without a citation, 0 unknown IDs, 0 listing errors',
    );
  });

  test('with no specs at all, every requirement lacks a test', () => {
    const report = checkCoverage(catalogue, readTestListing({ config: {}, suites: [], errors: [], stats: {} }));
    assert.equal(report.ok, false);
    assert.equal(report.uncovered.length, catalogue.length);
    assert.equal(report.testCount, 0);
  });

  test('rejects input that is not a Playwright JSON report', () => {
    assert.throws(() => readTestListing({ tests: [] }), /not a Playwright JSON report/);
    assert.throws(() => readTestListing(null), /not a Playwright JSON report/);
  });
});
