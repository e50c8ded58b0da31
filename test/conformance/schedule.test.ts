/** The pool's start order: the longest estimated request chain first, case order among equals. */
import { describe, expect, it } from "vitest";
import type { ConformanceCase } from "../../conformance/case-format.js";
import { chainLength, startOrder } from "../../conformance/schedule.js";

const make = (expectation: Record<string, unknown>): ConformanceCase =>
  ({ id: "x", method: "m", expect: { paginate: [], ...expectation } }) as unknown as ConformanceCase;

describe("chainLength", () => {
  it("is one request for a single call", () => {
    expect(chainLength(make({}))).toBe(1);
  });

  it("weighs a walk by its page size: the smaller the pages, the longer the chain", () => {
    const byOne = chainLength(make({ paginate: [1] }));
    const byTen = chainLength(make({ paginate: [10] }));
    const byHundred = chainLength(make({ paginate: [100] }));
    expect(byOne).toBeGreaterThan(byTen);
    expect(byTen).toBeGreaterThan(byHundred);
    expect(byHundred).toBeGreaterThan(1);
    expect(chainLength(make({ paginate: [1, 2] }))).toBeGreaterThan(byOne);
  });

  it("counts relations: a walked agreement more than a one-page one, a sum, each follow-up", () => {
    const one = chainLength(make({ agrees: [{ walk: false }] }));
    const walked = chainLength(make({ agrees: [{ walk: true }] }));
    expect(walked).toBeGreaterThan(one);
    expect(chainLength(make({ sum: { field: "amount" } }))).toBe(2);
    expect(chainLength(make({ follow: [{ max: 5 }, { max: 2 }] }))).toBe(8);
  });
});

describe("startOrder", () => {
  it("puts longer chains first and keeps case order among equal ones", () => {
    const items = [make({}), make({ paginate: [7] }), make({}), make({ follow: [{ max: 3 }] }), make({ paginate: [1] }), make({})];
    expect(startOrder(items)).toEqual([4, 1, 3, 0, 2, 5]);
  });

  it("is every index once", () => {
    const items = Array.from({ length: 50 }, (_, i) => make(i % 7 === 0 ? { paginate: [1 + (i % 5)] } : {}));
    expect([...startOrder(items)].sort((a, b) => a - b)).toEqual(items.map((_, i) => i));
  });
});
