/**
 * runtime/formats.ts: the string formats the validators check. pubkey/hash/signature agree with
 * bs58's decoded length on fuzzed text (fast-check, fixed seed); base58 is capped at 4096
 * characters; base64 is strict.
 */
import bs58 from "bs58";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formats, isUint64, MAX_BASE58_TEXT, UINT64_MAX } from "../../runtime/formats.js";

const SEED = 20_260_314;
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const run = { seed: SEED, numRuns: 2_000 };

/** The decoded length, the slow way: undefined when bs58 refuses the text. */
const decodedLength = (text: string): number | undefined => bs58.decodeUnsafe(text)?.length;

const base58Text = (maxLength: number) => fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength });
/** Bytes of any length up to 66, with a run of leading zeros now and then (each becomes a leading '1'). */
const bytes = fc
  .tuple(fc.nat({ max: 4 }), fc.uint8Array({ maxLength: 66 }))
  .map(([zeros, rest]) => new Uint8Array([...new Array<number>(zeros).fill(0), ...rest]));

describe("formats", () => {
  const key = bs58.encode(new Uint8Array(32).fill(9));
  const sig = bs58.encode(new Uint8Array(64).fill(9));

  it("pubkey and hash: base58 of exactly 32 bytes, at most 44 characters", () => {
    for (const f of [formats.pubkey, formats.hash]) {
      expect(f(key)).toBe(true);
      expect(f("11111111111111111111111111111111")).toBe(true);
      expect(f(sig)).toBe(false);
      expect(f(key.slice(1))).toBe(false);
      expect(f(`${key}0`)).toBe(false);
      expect(f("")).toBe(false);
      // 32 bytes, but more than 44 characters (leading zero bytes as '1'): too long for a key field.
      expect(f("1".repeat(45))).toBe(false);
    }
  });

  it("signature: base58 of exactly 64 bytes, at most 88 characters", () => {
    expect(formats.signature(sig)).toBe(true);
    expect(formats.signature(key)).toBe(false);
    expect(formats.signature("1".repeat(64))).toBe(true);
    expect(formats.signature("1".repeat(89))).toBe(false);
  });

  it("pubkey, hash and signature agree with decoding on fuzzed input", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          base58Text(100),
          bytes.map((b) => bs58.encode(b)),
          fc.string({ maxLength: 50 }),
        ),
        (text) => {
          const n = decodedLength(text);
          expect(formats.pubkey(text)).toBe(n === 32 && text.length <= 44);
          expect(formats.hash(text)).toBe(n === 32 && text.length <= 44);
          expect(formats.signature(text)).toBe(n === 64 && text.length <= 88);
        },
      ),
      run,
    );
  });

  it("base58: any text of the alphabet, the empty one included, up to the 4096-character cap", () => {
    expect(MAX_BASE58_TEXT).toBe(4096);
    expect(formats.base58("")).toBe(true);
    expect(formats.base58("z".repeat(MAX_BASE58_TEXT))).toBe(true);
    expect(formats.base58("z".repeat(MAX_BASE58_TEXT + 1))).toBe(false);
    for (const bad of ["0", "O", "I", "l", "a b", "+", "abc\n"]) expect(formats.base58(bad), bad).toBe(false);
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(formats.base58(text)).toBe(bs58.decodeUnsafe(text) !== undefined);
      }),
      run,
    );
  });

  it("base64: standard alphabet, `=` padding to a multiple of four", () => {
    for (const good of ["", "AAAA", "AA==", "AAA=", "a+/9", Buffer.from("hello world").toString("base64")]) expect(formats.base64(good), good).toBe(true);
    for (const bad of ["A", "AA", "AAA", "A===", "AA=A", "a-_9", "AAAA=", "AA==AAAA", " AAA", "AA\n=="]) expect(formats.base64(bad), bad).toBe(false);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        const text = Buffer.from(b).toString("base64");
        expect(formats.base64(text)).toBe(true);
        // Padding is not optional: without it the text is refused.
        if (text.endsWith("=")) expect(formats.base64(text.replace(/=+$/, ""))).toBe(false);
      }),
      run,
    );
    // The definition, spelled out: a multiple of four characters, all of the alphabet but one or two `=` at the end.
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const definition = (s: string): boolean => {
      const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
      return s.length % 4 === 0 && [...s.slice(0, s.length - pad)].every((c) => ALPHABET.includes(c));
    };
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("A", "z", "9", "+", "/", "=", "-", "\n"), maxLength: 12 }), (s) => {
        expect(formats.base64(s), JSON.stringify(s)).toBe(definition(s));
      }),
      { ...run, numRuns: 5000 },
    );
  });
});

describe("isUint64", () => {
  it("accepts safe non-negative integers and bigints up to 2^64 - 1", () => {
    for (const v of [0, 1, Number.MAX_SAFE_INTEGER, 0n, 2n ** 53n, UINT64_MAX]) expect(isUint64(v), String(v)).toBe(true);
    expect(UINT64_MAX).toBe(2n ** 64n - 1n);
  });

  it("refuses negatives, fractions, unsafe numbers, bigints past the top and other types", () => {
    for (const v of [-1, -0.5, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Number.POSITIVE_INFINITY, -1n, UINT64_MAX + 1n, "1", null, undefined, true, [1]]) {
      expect(isUint64(v), String(v)).toBe(false);
    }
  });
});
