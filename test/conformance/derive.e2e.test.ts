/** Every spec-derived case passes against the reference indexer (the whole derived corpus). */
import { beforeAll, describe, expect, it } from "vitest";
import type { Fixtures } from "../../conformance/case-format.js";
import { deriveCases } from "../../conformance/derive.js";
import { casesDir, readFixtures } from "../../conformance/fixtures.js";
import { runSuite } from "../../conformance/run.js";
import { useReferenceIndexer } from "../helpers/reference.js";

const reference = useReferenceIndexer();
let fixtures: Fixtures;

beforeAll(async () => {
  fixtures = await readFixtures();
});

describe("the derived cases", () => {
  it("all pass against the reference indexer", async () => {
    const summary = await runSuite({ url: reference().url, casesDir, fixtures, caseGlobs: ["derived/**"], concurrency: 8, derived: true });
    const failed = summary.results.filter((r) => r.status !== "pass").map((r) => `${r.id}: ${r.findings.map((f) => f.message).join("; ")}`);
    expect(failed).toEqual([]);
    expect(summary.results.length).toBe(deriveCases(fixtures).length);
  });
});
