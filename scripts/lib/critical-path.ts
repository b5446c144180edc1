/**
 * The critical path of a run, from the request timelines its workers wrote (fixtures/run/telemetry.ts).
 *
 * A request *follows* another of the same test when it was asked for only after the other had been
 * answered: the test waited for that answer (or at least did not ask for both at once). A *chain*
 * is a sequence of requests of one test, each following the one before. A test's chain is its
 * longest one: against a target that answers in d ms the test cannot take less than chain × d,
 * however many requests may be in flight. The run's critical path is the longest chain of any one
 * test; the sum of the chains of all tests is what its workers must wait through between them, so
 * that with W workers the run waits at least sum × d / W.
 *
 * Requests outside any test (the recording watch, which polls on its own clock) belong to no chain.
 */
import type { TimedRequest } from '../../fixtures/run/telemetry.ts';

export interface TestChain {
  test: string;
  /** The test's longest chain, in order. */
  chain: TimedRequest[];
  /** All requests of the test. */
  requests: number;
}

export interface CriticalPath {
  /** The test with the longest chain (the first such, in title order, when several tie). */
  longest: TestChain | undefined;
  /** Sum over tests of their chain lengths. */
  sequentialSteps: number;
  /** Tests that sent at least one request. */
  tests: number;
  /** Requests sent by tests. */
  requestsInTests: number;
  /** Requests sent outside any test. */
  background: number;
  /** The worker whose tests' chains add up to the most, and that sum. */
  busiestWorker: { worker: number; steps: number } | undefined;
  /** Every test that sent a request: its worker, its chain length, its requests and its chain's operations, longest chain first (ties in title order). */
  byTest: { test: string; worker: number; steps: number; requests: number; chain: string[] }[];
}

/** The longest sequence of `requests` in which each was asked for after the one before had been answered. */
export function longestChain(requests: readonly TimedRequest[]): TimedRequest[] {
  const sorted = [...requests].sort((a, b) => a.asked - b.asked);
  const depth: number[] = [];
  const previous: (number | undefined)[] = [];
  for (const [index, request] of sorted.entries()) {
    let best: number | undefined;
    for (let before = 0; before < index; before += 1) {
      const candidate = sorted[before] as TimedRequest;
      if (candidate.answered <= request.asked && (best === undefined || (depth[before] ?? 0) > (depth[best] ?? 0))) best = before;
    }
    depth.push(best === undefined ? 1 : (depth[best] ?? 0) + 1);
    previous.push(best);
  }
  let end: number | undefined;
  for (let index = 0; index < sorted.length; index += 1) {
    if (end === undefined || (depth[index] ?? 0) > (depth[end] ?? 0)) end = index;
  }
  const chain: TimedRequest[] = [];
  for (let at = end; at !== undefined; at = previous[at]) chain.unshift(sorted[at] as TimedRequest);
  return chain;
}

/** The chains of a run, from each worker's timeline (by worker index). */
export function criticalPath(timelines: ReadonlyMap<number, readonly TimedRequest[]>): CriticalPath {
  let longest: TestChain | undefined;
  let sequentialSteps = 0;
  let tests = 0;
  let requestsInTests = 0;
  let background = 0;
  let busiestWorker: CriticalPath['busiestWorker'];
  const byTestSummary: CriticalPath['byTest'] = [];
  for (const [worker, timeline] of timelines) {
    const byTest = new Map<string, TimedRequest[]>();
    for (const request of timeline) {
      if (request.test === '') background += 1;
      else byTest.set(request.test, [...(byTest.get(request.test) ?? []), request]);
    }
    let workerSteps = 0;
    for (const [test, requests] of [...byTest].sort(([a], [b]) => a.localeCompare(b))) {
      const chain = longestChain(requests);
      tests += 1;
      requestsInTests += requests.length;
      workerSteps += chain.length;
      byTestSummary.push({ test, worker, steps: chain.length, requests: requests.length, chain: chain.map((request) => request.operationId) });
      if (longest === undefined || chain.length > longest.chain.length) longest = { test, chain, requests: requests.length };
    }
    sequentialSteps += workerSteps;
    if (busiestWorker === undefined || workerSteps > busiestWorker.steps) busiestWorker = { worker, steps: workerSteps };
  }
  byTestSummary.sort((a, b) => b.steps - a.steps || a.test.localeCompare(b.test));
  return { longest, sequentialSteps, tests, requestsInTests, background, busiestWorker, byTest: byTestSummary };
}
