/**
 * Poseidon over BN254 with circom's parameters, as light-poseidon hashes Photon's trees
 * (`Poseidon::<Fr>::new_circom(n)`, src/ingester/persist/mod.rs:589-595 at 366a15b), via
 * `@railgun-community/poseidon-hash-wasm`, for the proofs check's folds. The folds share no code
 * with the reference's trees; tests build proofs with poseidon-lite, so they also hold the two equal.
 * The proofs check refuses siblings outside the field before folding.
 */
import { poseidon } from "@railgun-community/poseidon-hash-wasm/pkg-cjs/poseidon_hash_wasm.js";

/** Poseidon of one to sixteen field elements. */
export function poseidonHash(inputs: readonly bigint[]): bigint {
  const hex: string[] = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i++) hex[i] = inputs[i]!.toString(16);
  return BigInt(`0x${poseidon(hex)}`);
}
