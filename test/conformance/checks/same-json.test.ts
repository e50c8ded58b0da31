/**
 * conformance/checks/same-json.ts: comparing two parsed values says what comparing their JSON
 * texts says, on any JSON (property, with integers past 2^53, exponents, -0 and 1e400) and on
 * the cases that tempt a shortcut (key order, number against bigint, string against number).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameJson } from "../../../conformance/checks/same-json.js";
import { parseJson, stringifyJson } from "../../../runtime/index.js";

const byText = (a: string, b: string) => stringifyJson(parseJson(a)) === stringifyJson(parseJson(b));
const byValue = (a: string, b: string) => sameJson(parseJson(a), parseJson(b));

describe("sameJson", () => {
  it("agrees with comparing texts on the tempting cases", () => {
    const pairs: [string, string][] = [
      ['{"a":1,"b":2}', '{"b":2,"a":1}'],
      ['{"a":1}', '{"a":1,"b":null}'],
      ["[1,2]", "[1,2,3]"],
      ["100", "1e2"],
      ["-0", "0"],
      ["1e400", "null"],
      ["-1e400", "1e400"],
      ["18446744073709551615", "1.8446744073709551615e19"],
      ["9007199254740993", "9007199254740992"],
      ['"5"', "5"],
      ['"null"', "null"],
      ["true", '"true"'],
      ["[]", "{}"],
      ['{"0":1}', "[1]"],
      ['[{"x":[1,{"y":"z"}]}]', '[{"x":[1,{"y":"z"}]}]'],
      ['{"__proto__":{"a":1}}', '{"__proto__":{"a":2}}'],
      ["[null]", "[0]"],
    ];
    for (const [a, b] of pairs) {
      expect(byValue(a, b), `${a} ${b}`).toBe(byText(a, b));
      expect(byValue(b, a), `${b} ${a}`).toBe(byText(b, a));
      expect(byValue(a, a)).toBe(true);
    }
  });

  it("agrees with comparing texts on any JSON (property)", () => {
    const big = fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String);
    const num = fc.oneof(big, fc.constantFrom("0", "-0", "1e2", "100", "1.5", "1e400", "2.0"), fc.integer().map(String));
    const leaf = fc.oneof(num, fc.constantFrom("null", "true", "false", '"a"', '"1"', '"null"'));
    const tree: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((t) => ({
      value: fc.oneof({ depthSize: "small" }, leaf, t("array"), t("object")),
      array: fc.array(t("value"), { maxLength: 4 }).map((xs) => `[${xs.join(",")}]`),
      object: fc
        .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c", "__proto__"), t("value")), { maxLength: 3, selector: ([k]) => k })
        .map((kvs) => `{${kvs.map(([k, v]) => `"${k}":${v}`).join(",")}}`),
    })).value;
    fc.assert(
      fc.property(tree, tree, (a, b) => byValue(a, b) === byText(a, b)),
      { numRuns: 3000, seed: 11 },
    );
    // Equal texts on both sides often enough to exercise the equal path.
    fc.assert(
      fc.property(tree, (a) => byValue(a, a) && byValue(a, stringifyJson(parseJson(a)))),
      { numRuns: 500, seed: 12 },
    );
  });
});
