/**
 * Generated valid inputs: for every operation, valid combinations of its documented parameters
 * (each flag combination crossed with each filter, paging at its edges, body fields at their
 * documented lengths, the target's own ids), each accepted with a body that matches the operation
 * and, where filters or paging apply, items that honour them. Where the interface leaves a valid
 * combination's answer open, a 4xx with the error shape is accepted too.
 */
import { cites, requireDestructive, requireWrites, test } from '../fixtures/index.ts';
import { generatedSettings, generatedTags, positivePlans, positiveTitle, runGenerated, summarisePlan } from '../fixtures/generate/index.ts';

const settings = generatedSettings();

for (const plan of positivePlans()) {
  const { requirementIds } = summarisePlan(plan);
  test(positiveTitle(plan), cites(...requirementIds, { tag: generatedTags(plan) }), async ({ api, discover, target, warn, createParticipant }, testInfo) => {
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
