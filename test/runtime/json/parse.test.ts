import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { duplicatedKeysOf, duplicateKeyIn } from "../../../runtime/json/marks.js";
import { JsonSyntaxError, MAX_NUMBER_CHARS, parseJson } from "../../../runtime/json/parse.js";
import { stringifyJson } from "../../../runtime/json/stringify.js";

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

  it(`refuses a number literal longer than MAX_NUMBER_CHARS (${MAX_NUMBER_CHARS}) before parsing it, naming its length and place; digits in strings are data`, () => {
    const refused = (text: string, options?: { duplicateKeys: true }) => {
      try {
        parseJson(text, options);
      } catch (err) {
        expect(err).toBeInstanceOf(JsonSyntaxError);
        return (err as Error).message;
      }
      return "parsed";
    };
    const huge = "9".repeat(15_000_000);
    const message = `a number literal of 15000000 characters at character 47: longer than the ${MAX_NUMBER_CHARS} any valid value needs (u64: 20, f64: 24); not parsed`;
    expect(refused(`{"jsonrpc":"2.0","id":1,"result":{"slot":1,"v":${huge}}}`)).toBe(message);
    expect(refused(`{"jsonrpc":"2.0","id":1,"result":{"slot":1,"v":${huge}}}`, { duplicateKeys: true })).toBe(message);
    // Negative, with a fraction or an exponent, and bare.
    const over = `1${"0".repeat(MAX_NUMBER_CHARS)}`;
    for (const literal of [`-${over}`, `1.${over}`, `1e${over}`, `${over}.5e-7`])
      expect(refused(`[${literal}]`)).toMatch(new RegExp(`^a number literal of ${literal.length} characters at character 1: `));
    expect(refused(over)).toMatch(/^a number literal of 41 characters at character 0: /);
    // The longest valid literals, and one of exactly MAX_NUMBER_CHARS characters, are read.
    expect(parseJson("[18446744073709551615,-9223372036854775808,-1.7976931348623157e308,-2.2250738585072014e-308]")).toEqual([
      18446744073709551615n,
      -9223372036854775808n,
      -1.7976931348623157e308,
      -2.2250738585072014e-308,
    ]);
    expect(parseJson(`[${"9".repeat(MAX_NUMBER_CHARS)}]`)).toEqual([BigInt("9".repeat(MAX_NUMBER_CHARS))]);
    expect(parseJson(`{"s":"${huge}"}`)).toEqual({ s: huge });
  });

  it("records every key written twice in an object, also where a later key wrote over a big integer", () => {
    const v = parseJson('{"a":1,"b":{"c":1,"c":2},"a":2,"b":3,"a":4}', { duplicateKeys: true }) as Record<string, unknown>;
    expect(v).toEqual({ a: 4, b: 3 });
    expect(duplicatedKeysOf(v)).toEqual(["a", "b"]);
    expect(duplicateKeyIn(v)).toEqual({ pointer: "", key: "a" });
    const over = parseJson('{"p":{"x":99999999999999999999},"p":1,"q":18446744073709551615}', { duplicateKeys: true }) as Record<string, unknown>;
    expect(over).toEqual({ p: 1, q: 18446744073709551615n });
    expect(duplicatedKeysOf(over)).toEqual(["p"]);
    expect(duplicatedKeysOf(parseJson('{"a":1}', { duplicateKeys: true }) as object)).toEqual([]);
  });

  it("keeps __proto__ as an own key, never a prototype", () => {
    const v = parseJson('{"__proto__":{"polluted":1},"n":12345678901234567890}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toContain("__proto__");
  });
});
