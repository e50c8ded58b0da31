import { describe, expect, it } from "vitest";
import { encodeOnce } from "../../../runtime/json/encoded.js";
import { stringifyJson } from "../../../runtime/json/stringify.js";
import { envelopeBytes, holdsEncoded, writtenAs, writtenText } from "../../../runtime/server/bytes.js";

const textOf = (value: unknown, idText: string) => envelopeBytes(value, idText)?.toString("utf8");

/** The envelope as the string path writes it. */
const viaText = (value: unknown, idText: string) => `{"jsonrpc":"2.0","result":${stringifyJson(value)},"id":${idText}}`;

const item = (i: number) => ({
  hash: `h${i}`,
  lamports: i === 2 ? 18446744073709551615n : i,
  data: i % 2 === 0 ? null : { data: "AQID", note: "é ✓ 😀 \u2028", lone: "\ud800" },
  skipped: undefined,
  seq: i === 3 ? null : i,
});

describe("success envelopes written to bytes (bytes.ts)", () => {
  it("writes pages of encoded items byte for byte as stringifyJson does, whatever the id", () => {
    const items = [0, 1, 2, 3, 4].map((i) => encodeOnce(item(i)));
    const value = { context: { slot: 12 }, value: { items, cursor: 'Ab\u00e9"\\', big: 2n ** 70n, gone: undefined, f: () => 1 } };
    for (const idText of ["1", '"x\\"y"', "null", "18446744073709551615"]) {
      const bytes = envelopeBytes(value, idText);
      expect(bytes?.toString("utf8")).toBe(viaText(value, idText));
      expect(bytes?.length).toBe(Buffer.byteLength(viaText(value, idText)));
    }
  });

  it("writes arrays as JSON does (holes, undefined, functions and symbols as null) and a top-level undefined as null", () => {
    // biome-ignore lint/suspicious/noSparseArray: a hole is the case
    const value = [encodeOnce({ a: 1 }), , undefined, () => 1, Symbol("s"), Number.NaN, -0, 1e21, true, "", [], {}, Object.create(null)];
    expect(textOf(value, "7")).toBe(viaText(value, "7"));
    expect(textOf(undefined, "7")).toBe(viaText(undefined, "7"));
    expect(textOf(null, "7")).toBe(viaText(null, "7"));
  });

  it("gives up (undefined) on what it leaves to the string path: toJSON, class instances, dates, deep nesting", () => {
    const e = encodeOnce({ a: 1 });
    expect(envelopeBytes({ e, d: new Date(0) }, "1")).toBeUndefined();
    expect(envelopeBytes({ e, t: { toJSON: () => 5 } }, "1")).toBeUndefined();
    // An array's own toJSON too (JSON.stringify calls it): the bytes path wrote the elements before.
    expect(envelopeBytes({ e, t: Object.assign([1, 2], { toJSON: () => "two" }) }, "1")).toBeUndefined();
    expect(envelopeBytes({ e, m: new (class Thing {})() }, "1")).toBeUndefined();
    let deep: unknown = e;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(envelopeBytes(deep, "1")).toBeUndefined();
  });

  it("answers from different calls do not share bytes once written (each is its own slice)", () => {
    const a = envelopeBytes([encodeOnce({ a: 1 })], "1")!;
    const b = envelopeBytes([encodeOnce({ b: 2 })], "2")!;
    expect(a.toString()).toBe('{"jsonrpc":"2.0","result":[{"a":1}],"id":1}');
    expect(b.toString()).toBe('{"jsonrpc":"2.0","result":[{"b":2}],"id":2}');
    // A large answer (beyond a slab's share) is written whole too.
    const big = Array.from({ length: 3000 }, (_, i) => encodeOnce({ i, pad: "x".repeat(100) }));
    expect(textOf(big, "3")).toBe(viaText(big, "3"));
  });

  it("pages over the same items in any order and overlap are written right (kept bytes copied in runs)", () => {
    const all = Array.from({ length: 300 }, (_, i) => encodeOnce({ i, s: i % 7 === 0 ? "ü" : "a" }));
    const pages = [all.slice(0, 100), all.slice(50, 150), all.slice(99, 300), [...all].reverse().slice(0, 120), [all[5], all[5], all[4], all[200]], []];
    for (const items of pages) {
      const value = { context: { slot: 1 }, value: { items, cursor: null } };
      expect(textOf(value, "1")).toBe(viaText(value, "1"));
    }
  });

  it("looks for encoded values near the top only", () => {
    expect(holdsEncoded({ context: { slot: 1 }, value: { items: [encodeOnce({ a: 1 })] } })).toBe(true);
    expect(holdsEncoded({ context: { slot: 1 }, value: { items: [{ a: 1 }] } })).toBe(false);
    expect(holdsEncoded([[[[[[encodeOnce({ a: 1 })]]]]]])).toBe(false);
    expect(holdsEncoded(5)).toBe(false);
  });

  it("writes a value a handler marked with its text (writtenAs) as that text, and nothing else changes", () => {
    const proof = () => ({ proof: ["a1", "b2"], root: "r", leafIndex: 3, big: 2n ** 64n });
    const marked = [0, 1, 2].map(() => {
      const p = proof();
      return writtenAs(p, stringifyJson(p));
    });
    const value = { context: { slot: 9 }, value: marked };
    expect(holdsEncoded(value)).toBe(true);
    expect(textOf(value, "4")).toBe(viaText(value, "4"));
    // The text is what the byte path writes: a marker the value does not match shows it is used as given.
    const odd = writtenAs({ a: 1 }, '{"a":"given"}');
    expect(textOf([odd, odd], "1")).toBe('{"jsonrpc":"2.0","result":[{"a":"given"},{"a":"given"}],"id":1}');
    // The string path still serialises the value itself; the mark is neither a key nor enumerable.
    expect(stringifyJson(odd)).toBe('{"a":1}');
    expect(Object.keys(odd)).toEqual(["a"]);
    expect(Object.isFrozen(odd)).toBe(true);
    expect(writtenText(odd)).toBe('{"a":"given"}');
    // A frozen or encoded value is left unmarked.
    const frozen = Object.freeze({ b: 1 });
    expect(writtenText(writtenAs(frozen, "{}"))).toBeUndefined();
    const encoded = encodeOnce({ c: 1 });
    expect(writtenText(writtenAs(encoded, "{}"))).toBeUndefined();
    expect(textOf([encoded], "1")).toBe('{"jsonrpc":"2.0","result":[{"c":1}],"id":1}');
  });
});
