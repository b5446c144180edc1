/**
 * Generated invalid inputs: for every operation, requests derived from spec/openapi.yaml that each
 * break exactly one documented constraint. Where the interface states a rejection the answer must be
 * a 4xx with the error shape; where it states none, a valid 2xx or a 4xx; never a 5xx. Refused
 * participant writes are read back (nothing was created). Seed and run count: GENERATED_SEED and
 * GENERATED_RUNS (fixtures/generate/settings.ts).
 */
import { cites, requireDestructive, requireWrites, test } from '../fixtures/index.ts';
import { generatedSettings, generatedTags, negativePlans, negativeTitle, runGenerated, summarisePlan } from '../fixtures/generate/index.ts';

const settings = generatedSettings();

for (const plan of negativePlans()) {
  const { requirementIds } = summarisePlan(plan);
  test(negativeTitle(plan), cites(...requirementIds, { tag: generatedTags(plan) }), async ({ api, discover, target, warn, createParticipant }, testInfo) => {
    if (plan.safety === 'writes') requireWrites(target, `generated ${plan.operationId} requests`);
    if (plan.safety === 'destructive') requireDestructive(target, `generated ${plan.operationId} requests`);
    await runGenerated(plan, {
      api,
      provisioning: { discover, target, createParticipant: async () => (await createParticipant()).id },
      settings,
      workerIndex: testInfo.workerIndex,
      warn,
      annotate: (type, description) => testInfo.annotations.push({ type, description }),
      skip: (reason) => {
        test.skip(true, reason);
        // test.skip throws; this only tells the compiler so.
        throw new Error(reason);
      },
    });
  });
}
