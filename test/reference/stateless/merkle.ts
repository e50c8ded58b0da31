/**
 * Poseidon over BN254 (circom parameters, `poseidon-lite`) as Light Protocol and Photon hash
 * Merkle trees: a parent is H(left, right) of 32-byte big-endian field elements
 * (photon src/ingester/persist/persisted_state_tree.rs `compute_parent_hash`), an empty
 * subtree of height k is ZERO_BYTES[k] (same file, `ZERO_BYTES`, 41 levels), and a V1 address
 * tree leaf hashes its range element as H(value, nextIndex, nextValue)
 * (src/ingester/persist/indexed_merkle_tree/helpers.rs `compute_range_node_hash_v1`; V2 trees hash
 * H(value, nextValue), which no client method exposes a path for).
 *
 * Deliberately independent of reference/trees (which has its own fold): the test checks the
 * reference's proofs with other code than the one that made them.
 */
import { poseidon2, poseidon3 } from "poseidon-lite";

/** BN254's scalar field modulus: every hash, root and address is below it. */
export const FIELD_SIZE = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** The value of an address tree's top element (2^248 - 1): every address is below it (stateless.js `HIGHEST_ADDRESS_PLUS_ONE`). */
export const HIGHEST_ADDRESS_PLUS_ONE = (1n << 248n) - 1n;

/** Photon's ZERO_BYTES at a few levels (persisted_state_tree.rs at 366a15b), as hex: poseidon-lite must reproduce them. */
export const PHOTON_ZERO_BYTES: Readonly<Record<number, string>> = {
  1: "2098f5fb9e239eab3ceac3f27b81e481dc3124d55ffed523a839ee8446b64864",
  2: "1069673dcdb12263df301a6ff584a7ec261a44cb9dc68df067a4774460b1f1e1",
  26: "120c58f143d491e95902f7f5277778a2e0ad5168f6add75669932630ce611518",
  32: "2f68a1c58e257e42a17a6c61dff5551ed560b9922ab119d5ac8e184c9734ead9",
  40: "1334fa4b552f00ef403361c935c1abcf896851003c40daa93bb0fd0a0bb9a881",
};

export function parentHash(left: bigint, right: bigint): bigint {
  return poseidon2([left, right]);
}

const zeros: bigint[] = [0n];

/** The root of an empty subtree of `height` levels (ZERO_BYTES[height]). */
export function zeroHash(height: number): bigint {
  while (zeros.length <= height) {
    const z = zeros[zeros.length - 1] as bigint;
    zeros.push(parentHash(z, z));
  }
  return zeros[height] as bigint;
}

/** Folds a leaf up its proof path: bit `level` of `index` says whether the node is a right child. */
export function fold(leaf: bigint, path: readonly bigint[], index: number): bigint {
  let node = leaf;
  let i = BigInt(index);
  for (const sibling of path) {
    node = (i & 1n) === 0n ? parentHash(node, sibling) : parentHash(sibling, node);
    i >>= 1n;
  }
  return node;
}

/**
 * The nullifier of an account spent in a batched state tree: H(hash, leafIndex, txHash) (photon
 * src/common/typedefs/account/context.rs, `AccountContext.nullifier`; light-protocol's batched input queue).
 */
export function batchedNullifier(hash: bigint, leafIndex: number, txHash: bigint): bigint {
  return poseidon3([hash, BigInt(leafIndex), txHash]);
}

/** An address V1 tree leaf: H(value, nextIndex, nextValue). */
export function addressLeafV1(value: bigint, nextIndex: number, nextValue: bigint): bigint {
  return poseidon3([value, BigInt(nextIndex), nextValue]);
}
