/** conformance/reporters/support/stats.ts: the per-method table holds the spec's methods only. */
import { describe, expect, it } from "vitest";
import type { CaseResult, RunSummary, Status } from "../../../../conformance/results.js";
import { methodStats } from "../../../../conformance/reporters/support/stats.js";
import { methods } from "../../../../generated/index.js";

describe("the per-method table", () => {
  it("lists the spec's methods, protocol cases under (protocol), run-wide cases under (run-wide)", () => {
    const result = (id: string, method: string, status: Status): CaseResult => ({
      id,
      method,
      description: id,
      required: true,
      findings: [],
      exchange: null,
      status,
      durationMs: 0,
    });
    const results = [
      result("slot/indexer-slot", "getIndexerSlot", "pass"),
      result("http/liveness", "liveness", "pass"),
      result("http/readiness", "readiness", "fail"),
      result("protocol/unknown", "getUnknownMethod", "pass"),
      result("line-3", "(batch)", "pass"),
      result("run/slot-order", "*", "pass"),
    ];
    const summary = { results, counts: { pass: 5, fail: 1, warn: 0, skip: 0 } } as unknown as RunSummary;
    const rows = methodStats(summary);
    expect(rows.map((r) => r.method)).toEqual(["getIndexerSlot", "(protocol)", "(run-wide)"]);
    expect(rows[1]!.counts).toEqual({ pass: 3, fail: 1, warn: 0, skip: 0, notRun: 0 });
    expect(rows.every((r) => r.method in methods || r.method.startsWith("("))).toBe(true);
  });

  it("a tally's pseudo-methods join the same rows", () => {
    const blank = { pass: 0, fail: 0, warn: 0, skip: 0 };
    const tally = {
      cases: 9,
      unlisted: 9,
      byCheck: {},
      byMethod: {
        getIndexerSlot: { ...blank, pass: 4 },
        "(batch)": { ...blank, pass: 2 },
        "?": { ...blank, fail: 1 },
        "(not in the spec)": { ...blank, fail: 2 },
      },
    };
    const rows = methodStats({ results: [], tally } as unknown as RunSummary);
    expect(rows.map((r) => [r.method, r.counts.pass, r.counts.fail])).toEqual([
      ["getIndexerSlot", 4, 0],
      ["(protocol)", 2, 3],
    ]);
  });
});
