/** conformance/checks/semantics.ts: how its findings name paths and absent values. */
import { describe, expect, it } from "vitest";
import type { ConformanceCase } from "../../../conformance/case-format.js";
import { semanticsCheck } from "../../../conformance/checks/semantics.js";
import { contextOf, exchangeOf } from "../../helpers/check-context.js";

/** A semantics context for a case expecting `result` matchers, answered with `body`. */
function semanticsOf(result: Record<string, unknown>, body: unknown) {
  const testCase = { id: "x", method: "getIndexerSlot", params: undefined, expect: { result, every: null, semantics: [] } } as unknown as ConformanceCase;
  return contextOf(testCase, exchangeOf({ json: body }));
}

describe("semantics findings", () => {
  it("a matcher on the whole result says `result`, not `result.`; an absent field's actual is `absent`", async () => {
    const whole = await semanticsCheck.run(semanticsOf({ ".": 5 }, { result: 3 }));
    expect(whole.map((f) => f.message)).toEqual(["result differs"]);
    const missing = await semanticsCheck.run(semanticsOf({ "value.slot": 5 }, { result: { value: {} } }));
    expect(missing.map((f) => [f.message, f.actual])).toEqual([["result.value.slot is absent", "absent"]]);
  });
});
