/**
 * runtime/base58.ts against bs58, the library it stands in for: the same text for any bytes, the
 * same bytes or refusal for any text, counts and comparisons on the text that agree with decoding.
 * fast-check with fixed seeds.
 */
import bs58 from "bs58";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BASE58_ALPHABET,
  base58ByteCount,
  compareBase58Numbers,
  decodeBase58,
  decodeBase58Uint256,
  encodeBase58,
  encodeBase58Uint256,
  isBase58,
  isBase58OfLength,
} from "../../runtime/base58.js";

const run = { seed: 20_260_314, numRuns: 2_000 };

/** The decoded length, the slow way: undefined when bs58 refuses the text. */
const decodedLength = (text: string): number | undefined => bs58.decodeUnsafe(text)?.length;

const base58Text = (maxLength: number) => fc.string({ unit: fc.constantFrom(...BASE58_ALPHABET), maxLength });
/** Text mostly of the alphabet, with leading '1's now and then and characters outside it (ASCII and not). */
const anyText = fc
  .tuple(
    fc.nat({ max: 4 }),
    fc.array(
      fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom(...BASE58_ALPHABET) },
        { weight: 1, arbitrary: fc.constantFrom("0", "O", "I", "l", " ", "+", "é", "\u{1F600}") },
      ),
      { maxLength: 100 },
    ),
  )
  .map(([ones, chars]) => "1".repeat(ones) + chars.join(""));
/** Bytes of any length up to 90, with a run of leading zeros now and then (each becomes a leading '1'). */
const bytes = fc
  .tuple(fc.nat({ max: 6 }), fc.uint8Array({ maxLength: 90 }))
  .map(([zeros, rest]) => new Uint8Array([...new Array<number>(zeros).fill(0), ...rest]));
/** The number a base58 text writes, leading '1's (zero digits) included. */
const numberOf = (text: string): bigint => [...text].reduce((n, c) => n * 58n + BigInt(BASE58_ALPHABET.indexOf(c)), 0n);

describe("encodeBase58", () => {
  it("gives bs58's text for any bytes, leading zero bytes included", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(encodeBase58(b)).toBe(bs58.encode(b));
      }),
      run,
    );
    expect(encodeBase58(new Uint8Array(0))).toBe("");
    expect(encodeBase58(new Uint8Array(32))).toBe("1".repeat(32));
    expect(encodeBase58(new Uint8Array(64).fill(255))).toBe(bs58.encode(new Uint8Array(64).fill(255)));
    expect(encodeBase58(new Uint8Array(300).fill(7))).toBe(bs58.encode(new Uint8Array(300).fill(7))); // past the scratch buffers
  });
});

describe("decodeBase58", () => {
  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(decodeBase58(encodeBase58(b))).toEqual(b);
      }),
      run,
    );
  });

  it("gives bs58.decodeUnsafe's bytes, or refuses where it does, for any text", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(decodeBase58(text)).toEqual(bs58.decodeUnsafe(text));
      }),
      run,
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        expect(decodeBase58(text)).toEqual(bs58.decodeUnsafe(text));
      }),
      run,
    );
  });

  it("reads leading '1's as zero bytes and refuses characters outside the alphabet", () => {
    expect(decodeBase58("")).toEqual(new Uint8Array(0));
    expect(decodeBase58("111")).toEqual(new Uint8Array(3));
    expect(decodeBase58("112")).toEqual(Uint8Array.of(0, 0, 1));
    expect(decodeBase58("z".repeat(600))).toEqual(bs58.decodeUnsafe("z".repeat(600))); // past the scratch limbs
    for (const bad of ["0", "O", "I", "l", "1 1", "abc0", "é", "11+", "\u0131"]) expect(decodeBase58(bad), bad).toBeUndefined();
  });

  it("agrees with isBase58 on what is base58", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(isBase58(text)).toBe(decodeBase58(text) !== undefined);
      }),
      run,
    );
  });
});

describe("encodeBase58Uint256 and decodeBase58Uint256", () => {
  it("write a number below 2^256 as 32 big-endian bytes and read it back", () => {
    const u256 = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
    fc.assert(
      fc.property(u256, (n) => {
        const text = encodeBase58Uint256(n);
        expect(text).toBe(bs58.encode(Buffer.from(n.toString(16).padStart(64, "0"), "hex")));
        expect(decodeBase58Uint256(text)).toBe(n);
      }),
      run,
    );
    expect(encodeBase58Uint256(0n)).toBe("1".repeat(32));
    expect(() => encodeBase58Uint256(2n ** 256n)).toThrow(/does not fit 32 bytes/);
    expect(() => encodeBase58Uint256(-1n)).toThrow(/does not fit 32 bytes/);
  });

  it("refuse text that is not base58 of exactly 32 bytes", () => {
    for (const text of ["", "1".repeat(31), "1".repeat(33), encodeBase58(new Uint8Array(64).fill(1)), "0".repeat(44), "2".repeat(10_000)])
      expect(decodeBase58Uint256(text)).toBeUndefined();
  });
});

describe("isBase58OfLength agrees with decoding", () => {
  it("on the encoding of any bytes, for every length asked", () => {
    fc.assert(
      fc.property(bytes, fc.integer({ min: 0, max: 66 }), (b, n) => {
        const text = bs58.encode(b);
        expect(isBase58OfLength(text, n)).toBe(b.length === n);
      }),
      run,
    );
  });

  it("on arbitrary base58 text (not necessarily a canonical encoding)", () => {
    fc.assert(
      fc.property(base58Text(100), fc.integer({ min: 0, max: 64 }), (text, n) => {
        expect(isBase58OfLength(text, n)).toBe(decodedLength(text) === n);
      }),
      run,
    );
  });

  it("on text with characters outside the alphabet", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), fc.constantFrom(32, 64), (text, n) => {
        expect(isBase58OfLength(text, n)).toBe(decodedLength(text) === n);
      }),
      run,
    );
  });

  it("at the edges of 32 bytes", () => {
    const max = bs58.encode(new Uint8Array(32).fill(255)); // 256^32 - 1
    const min = bs58.encode(new Uint8Array([1, ...new Array<number>(31).fill(0)])); // 256^31
    expect(isBase58OfLength(max, 32)).toBe(true);
    expect(isBase58OfLength(min, 32)).toBe(true);
    expect(isBase58OfLength("1".repeat(32), 32)).toBe(true); // 32 zero bytes
    expect(isBase58OfLength(bs58.encode(new Uint8Array(31).fill(255)), 32)).toBe(false);
    expect(isBase58OfLength(bs58.encode(new Uint8Array(33).fill(1)), 32)).toBe(false);
    expect(isBase58OfLength("", 0)).toBe(true);
    expect(isBase58OfLength("", 32)).toBe(false);
    expect(isBase58OfLength("0OIl", 3)).toBe(false);
  });

  it("refuses lengths past 64 bytes, which it does not decide", () => {
    const text = bs58.encode(new Uint8Array(65).fill(7));
    expect(isBase58OfLength(text, 65)).toBe(false);
  });
});

describe("base58ByteCount agrees with decoding", () => {
  it("on the encoding of any bytes, and on arbitrary base58 text", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(base58ByteCount(bs58.encode(b))).toBe(b.length);
      }),
      run,
    );
    fc.assert(
      fc.property(base58Text(120), (text) => {
        const n = decodedLength(text)!;
        expect(base58ByteCount(text)).toBe(n <= 96 ? n : undefined);
      }),
      run,
    );
  });

  it("at every byte-count crossing up to 96 bytes, with and without leading zero bytes", () => {
    for (let k = 1; k <= 95; k++) {
      const edge = 256n ** BigInt(k);
      for (const v of [edge - 1n, edge, edge + 1n]) {
        const hex = v.toString(16);
        const number = Uint8Array.from(Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex"));
        for (const zeros of [0, 1]) {
          const b = new Uint8Array([...new Array<number>(zeros).fill(0), ...number]);
          expect(base58ByteCount(bs58.encode(b)), `${k} ${v - edge} ${zeros}`).toBe(b.length <= 96 ? b.length : undefined);
        }
      }
    }
  });

  it("is undefined for text that is not base58 and for more than 96 bytes, however long the text", () => {
    for (const text of ["0", "I", "O", "l", "abc0", "é", "1 1"]) expect(base58ByteCount(text)).toBeUndefined();
    expect(base58ByteCount("")).toBe(0);
    expect(base58ByteCount("111")).toBe(3);
    expect(base58ByteCount(bs58.encode(new Uint8Array(97).fill(9)))).toBeUndefined();
    expect(base58ByteCount("1".repeat(96))).toBe(96);
    expect(base58ByteCount("1".repeat(97))).toBeUndefined();
    expect(base58ByteCount("2".repeat(100_000))).toBeUndefined();
  });
});

describe("compareBase58Numbers", () => {
  it("orders any two base58 texts as the numbers they write", () => {
    fc.assert(
      fc.property(fc.nat({ max: 3 }), base58Text(60), fc.nat({ max: 3 }), base58Text(60), (za, a, zb, b) => {
        const [x, y] = ["1".repeat(za) + a, "1".repeat(zb) + b];
        const want = numberOf(x) < numberOf(y) ? -1 : numberOf(x) > numberOf(y) ? 1 : 0;
        expect(Math.sign(compareBase58Numbers(x, y))).toBe(want);
      }),
      run,
    );
    expect(compareBase58Numbers("", "")).toBe(0);
    expect(compareBase58Numbers("12", "2")).toBe(0);
    expect(compareBase58Numbers("111", "")).toBe(0);
  });

  it("orders values of one byte length like their bytes", () => {
    const value = (len: number) =>
      fc.tuple(fc.nat({ max: 3 }), fc.uint8Array({ minLength: len, maxLength: len })).map(([z, b]) => b.fill(0, 0, Math.min(z, len)));
    for (const len of [32, 64]) {
      fc.assert(
        fc.property(value(len), value(len), (a, b) => {
          expect(Math.sign(compareBase58Numbers(encodeBase58(a), encodeBase58(b)))).toBe(Math.sign(Buffer.compare(a, b)));
        }),
        run,
      );
    }
    // Byte order is not text order: a 43-character hash sorts before a 44-character one although "J" > "2".
    expect(compareBase58Numbers("JReC6U8ULAVX8unBHp5vpAUC3wFhu3qWyVJpZ9nUtPZ", "2R46nNw7vjTRbVjY8FDfUMGmUXLY2vgSn7EEe2zVwvcN")).toBeLessThan(0);
  });
});
