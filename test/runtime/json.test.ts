import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonSyntaxError, parseJson, stringifyJson } from "../../runtime/json.js";

describe("lossless JSON", () => {
  it("keeps integers above 2^53 as bigint and small ones as number", () => {
    expect(parseJson('{"a":18446744073709551615,"b":9007199254740991,"c":-9007199254740993,"d":1.5}')).toEqual({
      a: 18446744073709551615n,
      b: 9007199254740991,
      c: -9007199254740993n,
      d: 1.5,
    });
  });

  it("writes bigint as bare integers and round-trips u64 exactly", () => {
    const value = { amount: 18446744073709551615n, nested: [3n * 2n ** 56n, 1], s: "18446744073709551615" };
    const text = stringifyJson(value);
    expect(text).toBe('{"amount":18446744073709551615,"nested":[216172782113783808,1],"s":"18446744073709551615"}');
    expect(parseJson(text)).toEqual(value);
  });

  it("round-trips any uint64 and any JSON value", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (n) => {
        expect(parseJson(stringifyJson({ n }))).toEqual({ n: n > 9007199254740991n ? n : Number(n) });
      }),
    );
    // Integers written without an exponent (|n| < 1e21) beyond ±(2^53 - 1) come back as bigint.
    const asParsed = (_k: string, x: unknown) =>
      typeof x === "number" && Number.isInteger(x) && !Number.isSafeInteger(x) && Math.abs(x) < 1e21 ? BigInt(String(x)) : x;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(parseJson(stringifyJson(v))).toEqual(JSON.parse(JSON.stringify(v), asParsed));
      }),
      { seed: 20261122, numRuns: 500 },
    );
  });

  it("cannot be fooled by strings that look like its bigint marker", () => {
    const tricky = { s: "\u0000abc:123", big: 2n ** 60n };
    expect(parseJson(stringifyJson(tricky))).toEqual(tricky);
  });

  it("reports bad and too-deep JSON as JsonSyntaxError", () => {
    expect(() => parseJson("{")).toThrow(JsonSyntaxError);
    expect(() => parseJson(`${"[".repeat(200_000)}1${"]".repeat(200_000)}12345678901234567`)).toThrow(JsonSyntaxError);
  });

  it("keeps __proto__ as an own key, never a prototype", () => {
    const v = parseJson('{"__proto__":{"polluted":1},"n":12345678901234567890}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toContain("__proto__");
  });

  it("writes bigints at any place without touching the value: a __proto__ key kept, shared and frozen parts left alone", () => {
    const text = '{"a":{"__proto__":{"n":18446744073709551615},"m":[1,{"k":-9007199254740993}],"s":"x"},"b":[{"c":1}],"__proto__":2}';
    const v = parseJson(text) as Record<string, unknown>;
    const before = structuredClone(v);
    expect(stringifyJson(v)).toBe(text);
    expect(v).toStrictEqual(before);
    const shared = Object.freeze({ deep: Object.freeze([1, 2]) });
    expect(stringifyJson({ x: shared, y: 1n << 70n, z: [shared, 3n] })).toBe(`{"x":{"deep":[1,2]},"y":${1n << 70n},"z":[{"deep":[1,2]},3]}`);
  });
});
