/**
 * The proofs check's Poseidon (poseidon-hash-wasm) is the function poseidon-lite computes, an
 * independent implementation: on edge values of the field, on values past it (both reduce them
 * modulo the field), and on a few hundred pseudo-random inputs of two and three elements.
 */
import { describe, expect, it } from "vitest";
import { poseidon2 } from "poseidon-lite/poseidon2";
import { poseidon3 } from "poseidon-lite/poseidon3";
import { poseidonHash } from "../../../conformance/checks/poseidon.js";

const FIELD = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** A deterministic stream of 256-bit values (xorshift on BigInt). */
function* values(seed: bigint, count: number): Generator<bigint> {
  let x = seed;
  for (let i = 0; i < count; i++) {
    x ^= (x << 13n) & ((1n << 256n) - 1n);
    x ^= x >> 7n;
    x ^= (x << 17n) & ((1n << 256n) - 1n);
    yield x;
  }
}

describe("the proofs check's Poseidon", () => {
  it("equals poseidon-lite on edge values, including values past the field", () => {
    const edges = [0n, 1n, 2n, FIELD - 1n, FIELD, FIELD + 1n, (1n << 248n) - 1n, (1n << 256n) - 1n];
    for (const a of edges) {
      for (const b of edges) {
        expect(poseidonHash([a, b]), `${a}, ${b}`).toBe(poseidon2([a, b]));
        expect(poseidonHash([a, b, a]), `${a}, ${b}, ${a}`).toBe(poseidon3([a, b, a]));
      }
    }
  });

  it("equals poseidon-lite on 300 pseudo-random inputs of two and three elements", () => {
    const xs = [...values(0x9e3779b97f4a7c15n, 300)];
    for (let i = 0; i + 2 < xs.length; i += 3) {
      const [a, b, c] = [xs[i]! % FIELD, xs[i + 1]! % FIELD, xs[i + 2]! % FIELD];
      expect(poseidonHash([a, b])).toBe(poseidon2([a, b]));
      expect(poseidonHash([a, b, c])).toBe(poseidon3([a, b, c]));
    }
  });
});
