/**
 * conformance/matchers.ts: literals compared deeply (numbers and bigints by value), each
 * matcher kind with the reason it gives, and `getPath` over dotted paths.
 */
import { describe, expect, it } from "vitest";
import type { Json } from "@photon-indexer-kit/runtime";
import { ABSENT, deepEqual, getPath, holds, match } from "../../conformance/matchers.js";

const KEY = "11111111111111111111111111111111";
const HASH = "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi";
const SIG = "1".repeat(64);

describe("getPath", () => {
  const value = { value: { items: [{ hash: "h0" }, { hash: "h1", tokenData: null }], cursor: null }, "a.b": 1 };

  it("returns the value itself for an empty path or `.`", () => {
    expect(getPath(value, "")).toBe(value);
    expect(getPath(value, ".")).toBe(value);
  });

  it("walks object keys and array indexes", () => {
    expect(getPath(value, "value.items.1.hash")).toBe("h1");
    expect(getPath(value, "value.items.0")).toEqual({ hash: "h0" });
    expect(getPath(value, "value.cursor")).toBeNull();
    expect(getPath(value, "value.items.1.tokenData")).toBeNull();
  });

  it("is ABSENT when any step is missing, out of range, not an index, or under a scalar or null", () => {
    for (const path of [
      "nope",
      "value.nope",
      "value.items.2",
      "value.items.-1",
      "value.items.x",
      "value.items.1.tokenData.mint",
      "value.items.0.hash.length",
      "a.b",
    ]) {
      expect(getPath(value, path), path).toBe(ABSENT);
    }
  });

  it("reads only own keys, never the prototype's", () => {
    expect(getPath({}, "constructor")).toBe(ABSENT);
    expect(getPath({ a: {} }, "a.toString")).toBe(ABSENT);
    expect(getPath({ a: [1] }, "a.length")).toBe(ABSENT);
  });
});

describe("deepEqual", () => {
  it("compares numbers and bigints by value", () => {
    expect(deepEqual(1, 1n)).toBe(true);
    expect(deepEqual(18446744073709551615n, 18446744073709551615n)).toBe(true);
    expect(deepEqual(2 ** 53, 2n ** 53n + 1n)).toBe(false);
    expect(deepEqual([1, { a: 2n }], [1n, { a: 2 }])).toBe(true);
  });

  it("compares objects by keys in any order, arrays by position", () => {
    expect(deepEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
    expect(deepEqual("1", 1)).toBe(false);
  });
});

describe("match: literals", () => {
  it("matches equal values, with numbers and bigints alike", () => {
    expect(match({ slot: 5n, items: [] }, { slot: 5, items: [] })).toBeNull();
    expect(match(null, null)).toBeNull();
  });

  it("says `differs` or `is absent`", () => {
    expect(match(6, 5)).toBe("differs");
    expect(match(ABSENT, 5)).toBe("is absent");
    expect(match(ABSENT, null)).toBe("is absent");
  });

  it("reads a mapping with two keys, or one that is not a matcher's, as a literal", () => {
    expect(match({ any: true, type: "string" }, { any: true, type: "string" })).toBeNull();
    expect(match("x", { any: true, type: "string" })).toBe("differs");
    expect(match({ owner: KEY }, { owner: KEY })).toBeNull();
  });
});

describe("holds: a literal compares the fields it names", () => {
  it("ignores fields the answer adds, at any depth, and nothing else", () => {
    expect(holds({ amount: 0n, decimals: 9 }, { amount: 0 })).toBe(true);
    expect(holds({ value: { items: [{ a: 1, extra: true }] }, more: 1 }, { value: { items: [{ a: 1 }] } })).toBe(true);
    expect(holds({ amount: 1 }, { amount: 0 })).toBe(false);
    expect(holds({}, { amount: 0 })).toBe(false);
    expect(holds({ items: [{ a: 1 }, { a: 2 }] }, { items: [{ a: 1 }] })).toBe(false); // arrays keep their length
    expect(holds({ items: [{ a: 2 }] }, { items: [{ a: 1 }] })).toBe(false);
    expect(holds(null, {})).toBe(false);
    expect(holds([], {})).toBe(false);
    expect(holds({ a: null }, { a: null })).toBe(true);
  });
});

describe("match: matcher kinds", () => {
  it("any: anything present, null included", () => {
    for (const v of [null, 0, "", [], {}]) expect(match(v, { any: true })).toBeNull();
    expect(match(ABSENT, { any: true })).toBe("is absent");
  });

  it("absent: only a missing value", () => {
    expect(match(ABSENT, { absent: true })).toBeNull();
    expect(match(null, { absent: true })).toBe("is present");
    expect(match(undefined, { absent: true })).toBe("is present");
  });

  it.each<[string, unknown[], unknown[]]>([
    ["pubkey", [KEY], ["abc", 5, `${KEY}1`, SIG]],
    ["hash", [KEY, HASH], ["0", HASH.slice(0, 20)]],
    ["signature", [SIG], [KEY]],
    ["base58", ["", "abc"], ["0OIl", 1]],
    ["base64", ["", "AAAA", "AA=="], ["A", "a-_9"]],
    ["uint64", [0, 18446744073709551615n], [-1, 1.5, 18446744073709551616n, "1"]],
    ["string", ["", "x"], [1, null]],
    ["number", [1, 1.5, 2n], ["1", null]],
    ["boolean", [true, false], [0, "true"]],
    ["null", [null], [undefined, 0, ABSENT]],
    ["array", [[], [1]], [{}, "[]"]],
    ["object", [{}, { a: 1 }], [[], null]],
  ])("type %s", (type, good, bad) => {
    for (const v of good) expect(match(v, { type }), String(v)).toBeNull();
    for (const v of bad) expect(match(v, { type }), String(v)).toBe(`is not ${type}`);
  });

  it("minItems, maxItems and length: arrays only", () => {
    expect(match([1, 2], { minItems: 2 })).toBeNull();
    expect(match([1], { minItems: 2 })).toBe("has fewer than 2 items");
    expect(match([1, 2], { maxItems: 2 })).toBeNull();
    expect(match([1, 2, 3], { maxItems: 2 })).toBe("has more than 2 items");
    expect(match([1, 2], { length: 2 })).toBeNull();
    expect(match([1], { length: 2 })).toBe("does not have 2 items");
    expect(match("ab", { length: 2 })).toBe("does not have 2 items");
    expect(match({ length: 0 }, { minItems: 0 })).toBe("has fewer than 0 items");
    expect(match(ABSENT, { maxItems: 5 })).toBe("has more than 5 items");
  });

  it("oneOf: any option, literal or matcher", () => {
    expect(match(null, { oneOf: [{ type: "pubkey" }, null] })).toBeNull();
    expect(match(KEY, { oneOf: [{ type: "pubkey" }, null] })).toBeNull();
    expect(match(3n, { oneOf: [1, 2, 3] })).toBeNull();
    expect(match("x", { oneOf: [{ type: "pubkey" }, null] })).toBe("matches none of the options");
    expect(match(1, { oneOf: [] })).toBe("matches none of the options");
  });

  it("matches: a regular expression over strings only", () => {
    expect(match("Validation Error: bad", { matches: "^Validation Error" })).toBeNull();
    expect(match("Invalid params", { matches: "^Validation Error" })).toBe("does not match /^Validation Error/");
    expect(match(5, { matches: "5" })).toBe("does not match /5/");
  });

  it("not: inverts any matcher, literals included", () => {
    expect(match(1, { not: null })).toBeNull();
    expect(match(null, { not: null })).toBe("matches what it must not");
    expect(match([1], { not: { length: 0 } })).toBeNull();
    expect(match([], { not: { length: 0 } })).toBe("matches what it must not");
    expect(match(ABSENT, { not: { absent: true } })).toBe("matches what it must not");
    expect(match(5, { not: { not: { type: "number" } } })).toBeNull();
  });

  it("nests: a literal holds no matchers (matchers apply at the top only)", () => {
    const expected: Json = { a: { any: true } };
    expect(match({ a: 5 }, expected)).toBe("differs");
    expect(match({ a: { any: true } }, expected)).toBeNull();
  });
});
