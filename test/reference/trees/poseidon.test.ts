import { readFileSync } from "node:fs";
import { join } from "node:path";
import { poseidon2 } from "poseidon-lite/poseidon2";
import { poseidon3 } from "poseidon-lite/poseidon3";
import { describe, expect, it } from "vitest";
import { Random } from "../../../reference/random.js";
import {
  base58ToBigint,
  bigintToBase58,
  bigintToBytes,
  bigintToHex,
  bytesToBigint,
  FIELD_MODULUS,
  HIGHEST_ADDRESS_PLUS_ONE,
  hash2,
  hash3,
  hashChain,
  hashCount,
  MAX_HEIGHT,
  nullifier,
  transactionHash,
  twoInputsHashChain,
  zeroHash,
} from "../../../reference/trees/poseidon.js";
import { root } from "../../helpers/paths.js";

const fixtures = join(root, "test", "fixtures", "photon-snapshots");

/** Photon's `ZERO_BYTES` as written in its source (vendored excerpt of persisted_state_tree.rs). */
function photonZeroBytes(): Uint8Array[] {
  const text = readFileSync(join(fixtures, "zero_bytes.rs"), "utf8");
  const body = text.slice(text.indexOf("pub const ZERO_BYTES"));
  return [...body.matchAll(/\[\s*([\d,\s]+?)\s*\]/g)].map((m) =>
    Uint8Array.from(
      m[1]!
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .map(Number),
    ),
  );
}

describe("Poseidon (circom parameters over BN254)", () => {
  it("reproduces circomlib's known vectors", () => {
    // circomlibjs test/poseidon.js: poseidon([1, 2]) and poseidon([1, 2, 3]).
    expect(hash2(1n, 2n)).toBe(0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189an);
    expect(hash3(1n, 2n, 3n)).toBe(0xe7732d89e6939c0ff03d5e58dab6302f3230e269dc5b968f725df34ab36d732n);
  });

  it("is the function poseidon-lite computes, on edge values and a few hundred random field elements", () => {
    // The backend (@railgun-community/poseidon-hash-wasm) against poseidon-lite, an independent implementation (the tests' oracle).
    const edges = [0n, 1n, 2n, FIELD_MODULUS - 1n, FIELD_MODULUS - 2n, HIGHEST_ADDRESS_PLUS_ONE, 2n ** 253n, 0xffn];
    const rng = new Random(11, "poseidon-cross-check");
    const randomField = (): bigint => {
      const bytes = rng.bytes(32);
      if (rng.chance(0.2)) bytes.fill(0, 0, rng.below(31)); // short values: short hex text in the backend's interface
      return bytesToBigint(bytes) % FIELD_MODULUS;
    };
    const values = [...edges, ...Array.from({ length: 300 }, randomField)];
    let compared = 0;
    for (let i = 0; i < values.length; i++) {
      const a = values[i]!;
      const b = values[(i * 7 + 3) % values.length]!;
      const c = values[(i * 13 + 5) % values.length]!;
      expect(hash2(a, b), `hash2 #${i}`).toBe(poseidon2([a, b]));
      expect(hash3(a, b, c), `hash3 #${i}`).toBe(poseidon3([a, b, c]));
      compared += 2;
    }
    for (const a of edges)
      for (const b of edges) {
        expect(hash2(a, b), `hash2 ${a} ${b}`).toBe(poseidon2([a, b]));
        expect(hash3(b, a, b), `hash3 ${b} ${a} ${b}`).toBe(poseidon3([b, a, b]));
        compared += 2;
      }
    expect(compared).toBe(2 * (edges.length + 300) + 2 * edges.length ** 2);
  });

  it("counts each hash it computes", () => {
    const before = hashCount();
    hash2(1n, 2n);
    hash3(1n, 2n, 3n);
    expect(hashCount()).toBe(before + 2);
    expect(hashChain([1n, 2n, 3n, 4n])).toBe(hash2(hash2(hash2(1n, 2n), 3n), 4n));
    expect(hashCount()).toBe(before + 2 + 3 + 3);
  });

  it("has Photon's zero value at each of its 41 levels, byte for byte", () => {
    const photon = photonZeroBytes();
    expect(photon).toHaveLength(MAX_HEIGHT + 1);
    photon.forEach((bytes, level) => {
      expect(bytes, `level ${level}`).toHaveLength(32);
      expect(Buffer.from(bigintToBytes(zeroHash(level))).toString("hex"), `level ${level}`).toBe(Buffer.from(bytes).toString("hex"));
    });
  });

  it("refuses what light-poseidon refuses: an input not below the field modulus, a level beyond 40", () => {
    expect(() => hash2(FIELD_MODULUS, 1n)).toThrow(/not a BN254 field element/);
    expect(() => hash3(0n, 1n, FIELD_MODULUS + 5n)).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_DATASET_INCONSISTENT" }));
    expect(hash2(FIELD_MODULUS - 1n, 0n)).toBeLessThan(FIELD_MODULUS);
    expect(() => zeroHash(MAX_HEIGHT + 1)).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
  });

  it("converts between bigint, 32 big-endian bytes, base58 and hex", () => {
    const rng = new Random(7, "poseidon-convert");
    for (let i = 0; i < 50; i++) {
      const bytes = rng.bytes(32);
      if (i % 10 === 0) bytes.fill(0, 0, i / 5); // leading zero bytes: base58 '1's
      const value = bytesToBigint(bytes);
      expect(bigintToBytes(value)).toEqual(bytes);
      expect(base58ToBigint(bigintToBase58(value))).toBe(value);
      expect(bigintToHex(value)).toBe(`0x${Buffer.from(bytes).toString("hex")}`);
    }
    expect(bigintToBase58(0n)).toBe("11111111111111111111111111111111");
    // Photon's `HIGHEST_ADDRESS_PLUS_ONE` as its snapshots print it (higherRangeAddress of an empty V1 address tree).
    expect(bigintToBase58(HIGHEST_ADDRESS_PLUS_ONE)).toBe("14uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofL");
    expect(HIGHEST_ADDRESS_PLUS_ONE).toBe(2n ** 248n - 1n);
    expect(() => base58ToBigint("1111")).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
    expect(() => bigintToBytes(2n ** 256n)).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
  });

  it("chains hashes as light-protocol does: none → 0, one → itself, then Poseidon(chain, next)", () => {
    expect(hashChain([])).toBe(0n);
    expect(hashChain([42n])).toBe(42n);
    expect(hashChain([1n, 2n, 3n])).toBe(hash2(hash2(1n, 2n), 3n));
    expect(twoInputsHashChain([], [])).toBe(0n);
    expect(twoInputsHashChain([1n], [2n])).toBe(hash2(1n, 2n));
    expect(twoInputsHashChain([1n, 3n], [2n, 4n])).toBe(hash3(hash2(1n, 2n), 3n, 4n));
    expect(() => twoInputsHashChain([1n], [])).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
  });

  it("derives a transaction hash and a nullifier from the spending transaction", () => {
    const inputs = [11n, 12n];
    const outputs = [21n];
    const tx = transactionHash(inputs, outputs, 300_000_001);
    expect(tx).toBe(hash2(hash2(hash2(0n, hash2(11n, 12n)), 21n), 300_000_001n));
    expect(transactionHash(inputs, outputs, 300_000_002)).not.toBe(tx);
    expect(nullifier(11n, 5, tx)).toBe(hash3(11n, 5n, tx));
    expect(nullifier(11n, 6, tx)).not.toBe(nullifier(11n, 5, tx));
  });
});
