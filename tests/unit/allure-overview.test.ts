/**
 * The certification on the Allure overview (allurerc.mjs): the report variables and the quality
 * gates read from the run's certificate, on two real certificates (tests/unit/certificates/).
 * `npm run check:report` checks that the rendered report shows them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdictLine } from '../../fixtures/verdict/certification.ts';
import type { Certification } from '../../fixtures/verdict/certification.ts';

interface Rule {
  rule: string;
  message: (payload: { actual: unknown; expected: unknown }) => string;
  successMessage: (payload: { actual: unknown; expected: unknown }) => string;
  validate: (payload: { expected: unknown }) => Promise<{ success: boolean; actual: string }>;
}
interface AllureConfig {
  historyPath: string;
  historyLimit: number;
  qualityGate: { rules: Record<string, unknown>[]; use: Rule[] };
}
interface AllureRc {
  default: AllureConfig;
  readCertificate: (file: URL) => (Certification & { certifiability?: { certifiable: boolean; reasons: string[] } }) | undefined;
  certificationVariables: (certificate: unknown) => Record<string, string>;
  certificationRules: (read: () => unknown) => Rule[];
}

// A path held in a variable: TypeScript does not look for the types of a JavaScript module it cannot see.
const ALLURERC = new URL('../../allurerc.mjs', import.meta.url).href;
const allurerc = (await import(ALLURERC)) as AllureRc;
const certificate = (name: string) => {
  const read = allurerc.readCertificate(new URL(`./certificates/${name}.json`, import.meta.url));
  assert.ok(read !== undefined, name);
  return read;
};
const plain = certificate('plain');
const faulty = certificate('page-stuck-at-first');

/** What a rule says about a certificate, as Allure's quality gate shows it. */
async function judge(rule: Rule, expected: unknown): Promise<{ success: boolean; message: string }> {
  const result = await rule.validate({ expected });
  const message = (result.success ? rule.successMessage : rule.message)({ actual: result.actual, expected });
  return { success: result.success, message };
}

describe('allurerc.mjs: the certification on the overview', () => {
  it('report variables: the verdict, whether the run could certify, and each level as the verdict line gives it', () => {
    const variables = allurerc.certificationVariables(faulty);
    assert.deepEqual(Object.keys(variables), ['Verdict', 'Certifiable', 'MUST', 'SHOULD', 'VARIANT', 'UNSPECIFIED']);
    assert.equal(variables['Verdict'], 'NOT CONFORMANT');
    assert.equal(variables['Certifiable'], 'yes');
    assert.equal(variables['MUST'], '120/121 passed (1 failed)');
    const line = verdictLine({ ...faulty, knownDeviations: [], suiteErrors: [] });
    for (const level of ['MUST', 'SHOULD', 'VARIANT', 'UNSPECIFIED']) assert.ok(line.includes(`${level} ${variables[level]}`), `${level} in ${line}`);
  });

  it('says so when there is no certificate, and why the run could not certify when it could not', () => {
    assert.deepEqual(allurerc.certificationVariables(undefined), { Verdict: 'none: the run wrote no reports/certification.json' });
    const narrowed = { ...plain, certifiability: { certifiable: false, reasons: ['40 tests selected, narrowed by --grep @PAG'] } };
    assert.equal(allurerc.certificationVariables(narrowed)['Certifiable'], 'no: 40 tests selected, narrowed by --grep @PAG');
  });

  it('quality gates: the verdict must be CONFORMANT and the run certifiable, each judged on the certificate', async () => {
    const { rules, use } = allurerc.default.qualityGate;
    assert.deepEqual(rules, [{ id: 'certification', verdict: 'CONFORMANT', certifiable: true }]);
    assert.deepEqual(
      use.map((rule) => rule.rule),
      ['verdict', 'certifiable'],
    );
    const [verdict, certifiable] = allurerc.certificationRules(() => faulty);
    assert.ok(verdict !== undefined && certifiable !== undefined);
    assert.deepEqual(await judge(verdict, 'CONFORMANT'), {
      success: false,
      message:
        'The certification verdict is NOT CONFORMANT (MUST 120/121 passed (1 failed), SHOULD 21/21 passed, VARIANT 7/7 passed, UNSPECIFIED 30/30 passed); CONFORMANT expected',
    });
    assert.equal((await judge(certifiable, true)).success, true);
    const [plainVerdict] = allurerc.certificationRules(() => plain);
    assert.ok(plainVerdict !== undefined);
    assert.equal((await judge(plainVerdict, 'CONFORMANT')).success, true);
    const [, notCertifiable] = allurerc.certificationRules(() => ({ ...plain, certifiability: { certifiable: false, reasons: ['writes not allowed'] } }));
    assert.ok(notCertifiable !== undefined);
    assert.deepEqual(await judge(notCertifiable, true), { success: false, message: 'The run could not certify: writes not allowed' });
    const [missing] = allurerc.certificationRules(() => undefined);
    assert.ok(missing !== undefined);
    assert.match((await judge(missing, 'CONFORMANT')).message, /no certificate/);
  });

  it("keeps Allure's history in reports/, for each test's trend and its flaky results", () => {
    assert.equal(allurerc.default.historyPath, 'reports/allure-history.jsonl');
    assert.ok(allurerc.default.historyLimit >= 5);
  });
});
