import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeOnce, isEncoded } from "../../../runtime/json/encoded.js";
import { parseJson } from "../../../runtime/json/parse.js";
import { stringifyJson } from "../../../runtime/json/stringify.js";

/** A deep copy with only plain data (bigints kept, the kept JSON text dropped): what the plain path serialises. */
const plain = <T>(value: T): T => structuredClone(value);

describe("encoded values (encodeOnce)", () => {
  it("are written as their own serialisation, byte for byte, u64 above 2^53 included", () => {
    const item = (i: number) => ({
      hash: `h${i}`,
      data: i % 2 === 0 ? null : { discriminator: 18446744073709551615n, data: "AQID", dataHash: 'x"\\\u2028' },
      lamports: i === 3 ? 2n ** 53n + 1n : i,
      seq: null,
      gone: undefined,
    });
    const items = [0, 1, 2, 3].map((i) => encodeOnce(item(i)));
    const page = { context: { slot: 9007199254740993n }, value: { items: [...items, null], cursor: "h3", skipped: undefined, when: new Date(0) } };
    const expected = stringifyJson(plain(page));
    expect(stringifyJson(page)).toBe(expected);
    expect(expected).toContain('"discriminator":18446744073709551615');
    expect(expected).toContain('"lamports":9007199254740993');
    expect(expected).toContain('"slot":9007199254740993');
    expect(parseJson(stringifyJson(page))).toEqual(parseJson(expected));
  });

  it("stay the plain values they were: equal, frozen through and through, text not enumerable", () => {
    const value = encodeOnce({ a: 1, nested: { b: [1, { c: 2n }] } });
    expect(isEncoded(value)).toBe(true);
    expect(value).toEqual({ a: 1, nested: { b: [1, { c: 2n }] } });
    expect(Object.keys(value)).toEqual(["a", "nested"]);
    expect(Object.isFrozen(value) && Object.isFrozen(value.nested) && Object.isFrozen(value.nested.b) && Object.isFrozen(value.nested.b[1])).toBe(true);
    expect(() => {
      (value.nested as { b: unknown }).b = 3;
    }).toThrow(TypeError);
    expect(JSON.stringify({ ...value, nested: 0 })).toBe('{"a":1,"nested":0}');
  });

  it("match the plain path for any JSON value, wherever encoded values sit", () => {
    const withBig = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.oneof(
          fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
          fc.integer(),
          fc.double(),
          fc.string(),
          fc.boolean(),
          fc.constant(null),
          fc.constant(undefined),
        ),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(withBig, fc.infiniteStream(fc.boolean()), (value, coins) => {
        const expected = stringifyJson(value);
        // Encode some of the objects and arrays, innermost first (an encoded value is frozen).
        const copy = plain(value);
        const encodeSome = (v: unknown): void => {
          if (typeof v !== "object" || v === null) return;
          for (const child of Object.values(v)) encodeSome(child);
          if (coins.next().value) encodeOnce(v);
        };
        encodeSome(copy);
        expect(stringifyJson(copy)).toBe(expected);
      }),
      { seed: 20261124, numRuns: 400 },
    );
  });

  it("are only ever made by encodeOnce: parsed or look-alike input is walked as data", () => {
    const parsed = parseJson('{"encoded JSON":"]}","Symbol(encoded JSON)":"x","items":[{"a":1}]}') as Record<string, unknown>;
    expect(isEncoded(parsed)).toBe(false);
    expect(stringifyJson(parsed)).toBe('{"encoded JSON":"]}","Symbol(encoded JSON)":"x","items":[{"a":1}]}');
    const forged = { [Symbol.for("encoded JSON")]: '"forged"', [Symbol("encoded JSON")]: '"forged"', a: 1 };
    expect(isEncoded(forged)).toBe(false);
    expect(stringifyJson([forged])).toBe('[{"a":1}]');
    // A value that cannot take its text is left as it is, and still written right.
    const frozen = Object.freeze({ big: 2n ** 64n });
    expect(encodeOnce(frozen)).toBe(frozen);
    expect(isEncoded(frozen)).toBe(false);
    expect(stringifyJson({ frozen })).toBe('{"frozen":{"big":18446744073709551616}}');
  });

  it("still refuse a cycle as JSON.stringify does", () => {
    const cyclic: Record<string, unknown> = { item: encodeOnce({ a: 1 }) };
    cyclic.self = cyclic;
    expect(() => stringifyJson(cyclic)).toThrow(TypeError);
  });
});
