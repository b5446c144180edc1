import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { deviationNote, deviationsFor, ExpectationsError, loadExpectations, nowPassesMessage, parseExpectations } from '../../fixtures/verdict/expectations.ts';

const dir = mkdtempSync(join(tmpdir(), 'expectations-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PAG05 = 'deviations:\n  - requirement: PAG-05\n    reason: take above 100 answers 100 items\n    link: https://tracker.example.com/issues/12\n';

function problemsOf(text: string): string {
  try {
    parseExpectations(text, 'x.yaml');
  } catch (error) {
    assert.ok(error instanceof ExpectationsError);
    return error.message;
  }
  assert.fail('expected the file to be refused');
}

describe('expectations files', () => {
  it('reads a listed deviation', () => {
    assert.deepEqual(parseExpectations(PAG05, 'x.yaml'), [
      { requirement: 'PAG-05', reason: 'take above 100 answers 100 items', link: 'https://tracker.example.com/issues/12' },
    ]);
  });

  it('accepts an empty list, as shipped for the reference', () => {
    assert.deepEqual(parseExpectations('deviations: []\n', 'x.yaml'), []);
    assert.deepEqual(loadExpectations('reference').deviations, []);
  });

  it('treats a target without a file as having no deviations', () => {
    assert.deepEqual(loadExpectations('no-such-target', dir).deviations, []);
    assert.equal(loadExpectations('no-such-target').file, 'fixtures/expectations/no-such-target.yaml');
  });

  it('refuses an unknown requirement ID, a missing reason or link, and a link that is not a URL, naming each', () => {
    const message = problemsOf(
      'deviations:\n' +
        '  - requirement: PAG-99\n    reason: r\n    link: https://example.com/1\n' +
        '  - requirement: PAG-05\n    link: https://example.com/2\n' +
        '  - requirement: GRP-01\n    reason: r\n' +
        '  - requirement: GRP-02\n    reason: r\n    link: see the wiki\n',
    );
    assert.match(message, /deviations\[0\]: requirement "PAG-99" is not in spec\/requirements\.yaml/);
    assert.match(message, /deviations\[1\]: reason must say why/);
    assert.match(message, /deviations\[2\]: link must point to where/);
    assert.match(message, /deviations\[3\]: link must be an absolute URL/);
  });

  it('refuses a requirement listed twice, unknown fields and a missing list', () => {
    assert.match(problemsOf(`${PAG05}  - requirement: PAG-05\n    reason: again\n    link: https://example.com/3\n`), /requirement PAG-05 is listed twice/);
    assert.match(problemsOf('deviations:\n  - requirement: PAG-05\n    reason: r\n    link: https://example.com/1\n    owner: me\n'), /unknown field "owner"/);
    assert.match(problemsOf('deviation: []\n'), /must be a map with a "deviations" list/);
  });

  it('applies a deviation to the tests citing its requirement only', () => {
    const file = join(dir, 'vendor.yaml');
    writeFileSync(file, PAG05);
    const expectations = loadExpectations('vendor', dir);
    assert.deepEqual(
      deviationsFor(expectations, ['PAG-01', 'PAG-05']).map((deviation) => deviation.requirement),
      ['PAG-05'],
    );
    assert.deepEqual(deviationsFor(expectations, ['PAG-01']), []);
  });

  it('words the expected failure and the stale entry', () => {
    const deviation = { requirement: 'PAG-05', reason: 'take above 100 answers 100 items', link: 'https://tracker.example.com/issues/12' };
    assert.equal(deviationNote(deviation), 'known deviation PAG-05: take above 100 answers 100 items (https://tracker.example.com/issues/12)');
    assert.equal(
      nowPassesMessage([deviation], 'fixtures/expectations/vendor.yaml'),
      'known deviation PAG-05 now passes: remove it from fixtures/expectations/vendor.yaml',
    );
  });
});
