/**
 * `diff` of two moving references that follow one history (one seed) at different lags, one
 * slot every 20 ms: the indexer catching up (5 slots behind) is never a failure against the one
 * at the head, whatever moved between their answers; the whole corpus, proofs included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffTargets } from "../../conformance/compare.js";
import { casesDir, readFixtures } from "../../conformance/fixtures.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../reference/serve.js";

let head: ReferenceIndexer;
let behind: ReferenceIndexer;
beforeAll(async () => {
  [head, behind] = await Promise.all([
    startReferenceIndexer({ port: 0, live: { intervalMs: 20 } }),
    startReferenceIndexer({ port: 0, live: { intervalMs: 20, lag: 5 } }),
  ]);
  await Promise.all([head.warmed, behind.warmed]);
}, 180_000);
afterAll(async () => {
  await Promise.all([head?.close(), behind?.close()]);
});

describe("diff of two moving references at different lags", () => {
  it("is not a failure", async () => {
    const before = head.store.slot;
    const summary = await diffTargets({ url: behind.url, against: head.url, casesDir, fixtures: await readFixtures() });
    const failed = summary.results.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.findings.find((f) => f.status === "fail")?.message}`);
    expect(failed).toEqual([]);
    expect(summary.passed).toBe(true);
    expect(summary.results.length).toBeGreaterThan(500);
    expect(head.store.slot, "the chains moved during the diff").toBeGreaterThan(before);
    // The side catching up answers behind the head.
    expect(behind.store.slot).toBeLessThan(head.store.slot);
  }, 600_000);
});
