/** `diff` over the whole corpus: two indexers with the same data agree, and so do two moving ones at different lags. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffTargets } from "../../conformance/compare.js";
import { casesDir, readFixtures } from "../../conformance/fixtures.js";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../reference/serve.js";
import { useReferenceIndexer } from "../helpers/reference.js";

const fixtures = () => datasetProfile(generateDataset()) as never;

describe("diff --url A --against B", () => {
  const seed1 = useReferenceIndexer();
  const seed1b = useReferenceIndexer();

  it("finds no difference between two indexers with the same data", async () => {
    // A whole corpus on a loaded machine: a request gets a minute, not the default 10 s.
    const summary = await diffTargets({ url: seed1().url, against: seed1b().url, casesDir, fixtures: fixtures(), timeoutMs: 60_000 });
    const differing = summary.results.filter((r) => r.status !== "pass").map((r) => `${r.id}: ${r.findings.map((f) => f.message).join("; ")}`);
    expect(differing).toEqual([]);
    expect(summary.results.length).toBeGreaterThan(60);
  });
});

describe("diff of two moving references at different lags", () => {
  // One history at lags 0 and 5, one slot every 20 ms: catching up is never a failure.
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
