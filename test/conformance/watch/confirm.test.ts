/** A method's standing across runs: 0 only after `confirm` consecutive deciding failures; undecided runs neither count nor break. */
import { describe, expect, it } from "vitest";
import { Confirmations, outcomeOf, type MethodOutcome } from "../../../conformance/watch/confirm.js";

const run = (c: Confirmations, outcomes: Record<string, MethodOutcome>) => {
  c.record(new Map(Object.entries(outcomes)));
  return Object.fromEntries([...c.all()].map(([m, s]) => [m, `${s.conformant}/${s.failingRuns}`]));
};

describe("outcomeOf", () => {
  it("fails a method a case failed, or not served and not opted out", () => {
    expect(outcomeOf({ status: "not conformant", fails: false })).toBe("fail");
    expect(outcomeOf({ status: "not served", fails: true })).toBe("fail");
  });
  it("passes a method whose cases ran without failing, moved relations (warnings) included", () => {
    expect(outcomeOf({ status: "conformant", fails: false })).toBe("pass");
    expect(outcomeOf({ status: "partly certified", fails: false })).toBe("pass");
  });
  it("decides nothing of a method none of whose cases ran, or opted out", () => {
    for (const status of ["skipped", "not run", "not served"] as const) expect(outcomeOf({ status, fails: false })).toBe("undecided");
  });
});

describe("Confirmations", () => {
  it("reads 0 at the confirm-th consecutive failure, and 1 again at the next pass", () => {
    const c = new Confirmations(2);
    expect(run(c, { a: "fail", b: "pass" })).toEqual({ a: "1/1", b: "1/0" });
    expect(run(c, { a: "fail", b: "pass" })).toEqual({ a: "0/2", b: "1/0" });
    expect(run(c, { a: "fail" })).toEqual({ a: "0/3", b: "1/0" });
    expect(run(c, { a: "pass" })).toEqual({ a: "1/0", b: "1/0" });
  });

  it("a pass between failures starts the count again", () => {
    const c = new Confirmations(2);
    run(c, { a: "fail" });
    run(c, { a: "pass" });
    expect(run(c, { a: "fail" })).toEqual({ a: "1/1" });
  });

  it("an undecided run (inconclusive, skipped, not run) never sets 0 and keeps the streak", () => {
    const c = new Confirmations(2);
    expect(run(c, { a: "undecided" })).toEqual({});
    run(c, { a: "fail" });
    expect(run(c, { a: "undecided" })).toEqual({ a: "1/1" });
    expect(run(c, { a: "fail" })).toEqual({ a: "0/2" });
    expect(run(c, { a: "undecided" })).toEqual({ a: "0/2" });
  });

  it("with --confirm 1 the first failure reads 0", () => {
    expect(run(new Confirmations(1), { a: "fail" })).toEqual({ a: "0/1" });
  });
});
