/**
 * Declares the generated-input tests: one test per operation plan, each a fast-check run through
 * the harness client (so politeness, evidence and cleanup apply), gated on the permission its
 * operation needs. The plans are made with the suite's bindings (tests/generated/bindings.ts: which
 * requirement each case checks), and each case's answer is judged by the suite's conditions
 * (tests/generated/assess.ts) into checks, each of the one requirement it checks: a generated test
 * cites the requirements its cases check, not the union over its operation. Shared by the
 * invalid-input and valid-input specs, which differ only in their plans and titles.
 */
import {
  cites,
  generatedSettings,
  generatedTags,
  negativePlans,
  notApplicable,
  notAssessed,
  positivePlans,
  recordCheck,
  runGenerated,
  summarisePlan,
  test,
} from '../../fixtures/index.ts';
import type { CaseCheck, OperationPlan } from '../../fixtures/index.ts';
import { GENERATED_JUDGE } from '../generated/assess.ts';
import { CASE_BINDINGS } from '../generated/bindings.ts';

/** Plans of invalid inputs, with the requirements the suite binds to their cases. */
export const invalidInputPlans = (): OperationPlan[] => negativePlans(CASE_BINDINGS);

/** Plans of valid inputs, with the requirements the suite binds to their cases. */
export const validInputPlans = (): OperationPlan[] => positivePlans(CASE_BINDINGS);

function record(check: CaseCheck): void {
  if (check.notAssessable !== undefined) notAssessed.record(check.requirementId, check.label, check.notAssessable);
  else if (check.notApplicable !== undefined) notApplicable.record(check.requirementId, check.label, check.notApplicable);
  else recordCheck(check.requirementId, check.label, check.failure === undefined ? undefined : new Error(check.failure), undefined, check.reproduction);
}

export function declareGeneratedTests(plans: readonly OperationPlan[], title: (plan: OperationPlan) => string): void {
  const settings = generatedSettings();
  for (const plan of plans) {
    const { requirementIds } = summarisePlan(plan);
    test(title(plan), cites(...requirementIds, { tag: generatedTags(plan) }), async ({ api, discover, target, createParticipant }, testInfo) => {
      if (plan.safety === 'writes' && !target.allowWrites) notAssessed(`generated ${plan.operationId} requests`, { enable: 'TARGET_ALLOW_WRITES' });
      if (plan.safety === 'destructive' && !target.allowDestructive)
        notAssessed(`generated ${plan.operationId} requests`, { enable: 'TARGET_ALLOW_DESTRUCTIVE' });
      await runGenerated(plan, {
        api,
        provisioning: { discover, target, createParticipant: async () => (await createParticipant()).id },
        settings,
        judge: GENERATED_JUDGE,
        workerIndex: testInfo.workerIndex,
        record,
        annotate: (type, description) => testInfo.annotations.push({ type, description }),
      });
    });
  }
}
