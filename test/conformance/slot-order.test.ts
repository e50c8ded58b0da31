/**
 * The run-wide slot check (conformance/run.ts `slotOrder`): an answer started after another
 * finished must not report a lower slot. Checked against the plain definition (every pair) on
 * random timelines, and on named cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CaseResult, Exchange } from "../../conformance/results.js";
import { slotOrder } from "../../conformance/run.js";
import { specMethods } from "../../conformance/spec-facts.js";

function result(id: string, slot: number | null, startedAt: number, durationMs: number): CaseResult {
  const exchange = { body: slot === null ? { result: 5 } : { result: { context: { slot } } }, startedAt, durationMs } as unknown as Exchange;
  return { id, method: "m", description: id, required: true, findings: [], exchange } as unknown as CaseResult;
}

/** The definition, pair by pair: the messages the check must give, in order. */
function expected(results: readonly CaseResult[]): string[] {
  const seen = results
    .map((r) => ({ r, slot: ((r.exchange!.body as { result: { context?: { slot: number } } }).result.context?.slot ?? null) as number | null }))
    .filter((x) => x.slot !== null && x.slot !== 0);
  const byEnd = [...seen].sort((a, b) => a.r.exchange!.startedAt + a.r.exchange!.durationMs - (b.r.exchange!.startedAt + b.r.exchange!.durationMs));
  const out: string[] = [];
  for (const s of seen) {
    const before = byEnd.filter((o) => o.r.exchange!.startedAt + o.r.exchange!.durationMs < s.r.exchange!.startedAt && o.slot! > s.slot!);
    if (before.length > 0) out.push(`${s.r.id} reported slot ${s.slot} after ${before[0]!.r.id} had reported ${before[0]!.slot}`);
  }
  return out;
}

describe("slotOrder", () => {
  it("names an answer that went back, and the first one to finish with a higher slot before it started", () => {
    const f = slotOrder([result("a", 10, 0, 5), result("b", 12, 1, 3), result("c", 11, 6, 2), result("d", 0, 9, 1), result("e", null, 9, 1)], specMethods);
    expect(f.findings.map((x) => [x.status, x.message])).toEqual([["fail", "c reported slot 11 after b had reported 12"]]);
    const ok = slotOrder([result("a", 10, 0, 5), result("b", 9, 1, 3), result("c", 12, 6, 2)], specMethods);
    expect(ok.findings.map((x) => [x.status, x.message])).toEqual([["pass", "3 context slots never went backwards"]]);
  });

  it("agrees with the pairwise definition on random timelines (property)", () => {
    // Slots mostly close together (ties and reversals), sometimes 0 (an answer the check skips).
    const answer = fc.record({ slot: fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 107 })), startedAt: fc.nat(49), durationMs: fc.nat(9) });
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 40 }), (answers) => {
        const results = answers.map((a, i) => result(`c${i}`, a.slot, a.startedAt, a.durationMs));
        const got = slotOrder(results, specMethods)
          .findings.filter((f) => f.status === "fail")
          .map((f) => f.message);
        expect(got).toEqual(expected(results));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
