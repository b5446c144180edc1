/**
 * Declares the generated-input tests: one test per operation plan, each a fast-check run through
 * the harness client (so politeness, evidence and cleanup apply), gated on the permission its
 * operation needs. Each case's answer is recorded as checks, each of the one requirement it checks
 * (fixtures/generate/assess.ts): a generated test cites the requirements its cases check, not the
 * union over its operation. Shared by the invalid-input and valid-input specs, which differ only in
 * their plans and titles.
 */
import { cites, generatedSettings, generatedTags, notAssessed, recordCheck, runGenerated, summarisePlan, test } from '../../fixtures/index.ts';
import type { CaseCheck, OperationPlan } from '../../fixtures/index.ts';

function record(check: CaseCheck): void {
  if (check.notAssessable !== undefined) notAssessed.record(check.requirementId, check.label, check.notAssessable);
  else recordCheck(check.requirementId, check.label, check.failure === undefined ? undefined : new Error(check.failure));
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
        workerIndex: testInfo.workerIndex,
        record,
        annotate: (type, description) => testInfo.annotations.push({ type, description }),
      });
    });
  }
}
