/**
 * conformance/checks/base58-order.ts: the `base58-bytes` order's comparison on the text agrees
 * with comparing the decoded bytes (Buffer.compare over the runtime's decoder) on every pair,
 * including the pairs where the text cannot tell (leading zero bytes, numbers either side of a
 * byte count, text that is not base58, keys too long to decode).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base58Bytes, base58Rank, compareBase58Bytes, compareRankedBase58, MAX_KEY_TEXT } from "../../../conformance/checks/base58-order.js";
import { decodeBase58, encodeBase58 } from "../../../runtime/index.js";
import { bytesFrom } from "../../helpers/bytes.js";

describe("base58Bytes", () => {
  it("gives no bytes for text that is not base58, as the order check always read it", () => {
    for (const text of ["0", "l", "I", "O", "abc0", "é", "1 1"]) expect(base58Bytes(text)).toEqual(new Uint8Array());
    expect(base58Bytes("")).toEqual(new Uint8Array());
    expect([...base58Bytes("111")]).toEqual([0, 0, 0]);
  });
});

const sign = (n: number) => Math.sign(n);
/** The oracle, independent of the module: the runtime's decoder (empty bytes for text that is not base58) and Buffer.compare (bytea order). */
const reference = (a: string, b: string) => sign(Buffer.compare(decodeBase58(a) ?? new Uint8Array(), decodeBase58(b) ?? new Uint8Array()));

describe("compareBase58Bytes", () => {
  it("agrees with comparing the decoded bytes: 32- and 64-byte keys, leading zeros, mixed lengths", () => {
    const texts: string[] = [];
    for (let n = 0; n < 400; n++) {
      const b = bytesFrom(n, [32, 64, 31, 33, 1, 2, 5][n % 7]!);
      for (let i = 0; i < Math.min(b.length, n % 3); i++) b[i] = 0;
      texts.push(encodeBase58(b));
    }
    const wrong: string[] = [];
    for (const a of texts) for (const b of texts.slice(0, 120)) if (sign(compareBase58Bytes(a, b)) !== reference(a, b)) wrong.push(`${a} ${b}`);
    expect(wrong).toEqual([]);
  });

  it("agrees at the byte-count crossings: 256^k and its neighbours, written with as many digits", () => {
    const texts: string[] = [];
    for (let k = 1; k <= 66; k++) {
      const edge = 256n ** BigInt(k);
      for (const v of [edge - 2n, edge - 1n, edge, edge + 1n, (edge * 3n) / 2n]) {
        const hex = v.toString(16);
        const bytes = Uint8Array.from(Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex"));
        texts.push(encodeBase58(bytes), encodeBase58(Uint8Array.of(0, ...bytes)));
      }
    }
    // Each against its neighbours (the same and the next crossings, with and without a zero byte).
    const wrong: string[] = [];
    for (let i = 0; i < texts.length; i++)
      for (let j = Math.max(0, i - 25); j < Math.min(texts.length, i + 25); j++)
        if (sign(compareBase58Bytes(texts[i]!, texts[j]!)) !== reference(texts[i]!, texts[j]!)) wrong.push(`${texts[i]} ${texts[j]}`);
    expect(wrong).toEqual([]);
  });

  it("agrees on any text, base58 or not (property)", () => {
    const digits = fc.constantFrom(..."123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl é".split(""));
    const text = fc.array(digits, { maxLength: 50 }).map((cs) => cs.join(""));
    const key = fc.oneof(
      text,
      fc.uint8Array({ maxLength: 66 }).map((b) => encodeBase58(b)),
    );
    fc.assert(
      fc.property(key, key, (a, b) => sign(compareBase58Bytes(a, b)) === reference(a, b)),
      { numRuns: 5000, seed: 17 },
    );
  });

  it("compared with ranks read once per key (the walks' way), agrees on any text (property)", () => {
    const digits = fc.constantFrom(..."123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl é".split(""));
    const text = fc.array(digits, { maxLength: 50 }).map((cs) => cs.join(""));
    // Keys of one byte count with and without leading zero bytes, as a page's keys are.
    const key = fc.oneof(
      text,
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => encodeBase58(b)),
      fc.uint8Array({ maxLength: 66 }).map((b) => encodeBase58(b)),
    );
    fc.assert(
      fc.property(key, key, (a, b) => sign(compareRankedBase58(a, base58Rank(a), b, base58Rank(b))) === reference(a, b)),
      { numRuns: 5000, seed: 23 },
    );
    expect(base58Rank("111")).toBe(-1); // only zero bytes: decoded to compare
    expect(base58Rank("0abc")).toBe(-1); // not base58
    expect(base58Rank("11z")).toBe(2 * 2 ** 20 + 3); // two leading zero bytes, three bytes in all
  });

  it("compares a key longer than any Photon orders by as no bytes, without decoding it (a target's hostile page)", () => {
    const signature = encodeBase58(bytesFrom(5, 64)); // the longest real key: 64 bytes, at most 88 characters
    expect(signature.length).toBeLessThanOrEqual(MAX_KEY_TEXT);
    const long = "2".repeat(100_000);
    const longer = "3".repeat(100_001);
    expect(base58Bytes(long)).toEqual(new Uint8Array());
    expect(base58Rank(long)).toBe(-1);
    expect(compareBase58Bytes(long, longer)).toBe(0);
    expect(sign(compareBase58Bytes(long, signature))).toBe(-1);
    expect(sign(compareRankedBase58(signature, base58Rank(signature), longer, base58Rank(longer)))).toBe(1);
    // Just past the bound: no bytes; at it: decoded as usual.
    expect(base58Bytes("2".repeat(MAX_KEY_TEXT + 1))).toEqual(new Uint8Array());
    expect([...base58Bytes("2".repeat(MAX_KEY_TEXT))]).toEqual([...decodeBase58("2".repeat(MAX_KEY_TEXT))!]);
  });
});
