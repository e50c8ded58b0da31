/**
 * Poseidon over BN254 with circom's parameters, as light-poseidon hashes Photon's trees
 * (`Poseidon::<Fr>::new_circom(n)`, src/ingester/persist/mod.rs:589-595 at 366a15b), for the
 * proof folds of the proofs check. The hash itself comes from `@railgun-community/poseidon-hash-wasm`
 * (Rust compiled to WebAssembly, shipped in the package, instantiated synchronously on import):
 * about 1.7× poseidon-lite's speed, and its WebAssembly memory leaves no BigInt garbage per round
 * (a suite run folds ~175 distinct hashes: ~24 ms and ~25 MB of garbage with poseidon-lite). The
 * folds, the tree rules and the checks around them are ours and share no code with the reference
 * indexer's trees; the tests build their proofs with poseidon-lite, an independent implementation,
 * so every proofs test also holds the two libraries equal.
 *
 * Inputs are below 2^256 (32-byte values); the library reduces them modulo the field, as
 * poseidon-lite's arithmetic does. The proofs check refuses siblings outside the field before folding.
 */
import { poseidon } from "@railgun-community/poseidon-hash-wasm/pkg-cjs/poseidon_hash_wasm.js";

/** Poseidon of one to sixteen field elements. */
export function poseidonHash(inputs: readonly bigint[]): bigint {
  const hex: string[] = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) hex[i] = inputs[i]!.toString(16);
  return BigInt(`0x${poseidon(hex)}`);
}
