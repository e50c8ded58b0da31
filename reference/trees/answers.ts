/**
 * The answers of the forest's proof methods (Photon 0.51.2 = 366a15b): their types, with Photon's
 * field names in Photon's order, the constants they carry, and the small pure functions that
 * build or check them.
 */
import type { TreeRecord, TreeType } from "../records.js";
import { indexedLeafHash } from "./indexed-tree.js";
import { base58ToBigint, bigintToBase58 } from "./poseidon.js";
import { foldProof } from "./state-tree.js";

/** Photon's `TreeType` as the u16 it sends (`treeType`): light-compressed-account's TreeType. */
export const TREE_TYPE_CODE: Readonly<Record<TreeType, number>> = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 };

/**
 * The V1 address tree Photon proves new addresses against when a request names no tree
 * (light-sdk-types `ADDRESS_TREE_V1`, used by get_multiple_new_address_proofs.rs:177-193 and
 * get_validity_proof/v1.rs:77-87).
 */
export const ADDRESS_TREE_V1 = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2";

/** Base58 of 32 zero bytes: the zero leaf, and `Hash::default()` / `Pubkey::default()` in Photon's answers. */
export const ZERO_HASH = "11111111111111111111111111111111";

// --- Answers, with Photon's field names in Photon's order -------------------------------------

/** An account proof as the V1 methods answer it (get_compressed_account_proof/v1.rs:18-41). */
export interface AccountProof {
  proof: string[];
  root: string;
  leafIndex: number;
  hash: string;
  merkleTree: string;
  rootSeq: number;
}

/** `TreeContextInfo` (get_validity_proof/v2.rs:61-69). */
export interface TreeContextInfo {
  treeType: number;
  tree: string;
  queue: string;
  cpiContext: string | null;
}

/** An account proof as the V2 methods answer it (get_compressed_account_proof/v2.rs:24-54). */
export interface AccountProofV2 {
  proof: string[];
  root: string;
  leafIndex: number;
  hash: string;
  rootSeq: number;
  proveByIndex: boolean;
  treeContext: TreeContextInfo;
}

export interface AddressWithTree {
  address: string;
  tree: string;
}

/**
 * How `get_multiple_new_address_proofs_helper` is called (get_multiple_new_address_proofs.rs:50-71):
 * `maxAddresses` (more is `Validation Error: Too many addresses requested N. Maximum allowed: M`) and
 * `checkQueue` (default true: refuse an address still in a batched queue; get_queue_elements.rs:783-789).
 */
export interface AddressProofOptions {
  maxAddresses?: number;
  checkQueue?: boolean;
}

/** A new-address (non-inclusion) proof (`MerkleContextWithNewAddressProof`, get_multiple_new_address_proofs.rs:28-41). */
export interface NewAddressProof {
  root: string;
  address: string;
  lowerRangeAddress: string;
  higherRangeAddress: string;
  nextIndex: number;
  proof: string[];
  merkleTree: string;
  rootSeq: number;
  lowElementLeafIndex: number;
}

/** `MerkleContextV2` (get_validity_proof/v2.rs:49-59). */
export interface MerkleContextV2 {
  treeType: number;
  tree: string;
  queue: string;
  cpiContext: string | null;
  nextTreeContext: TreeContextInfo | null;
}

/**
 * A tree's `TreeContextInfo` (get_validity_proof/v2.rs:61-69): its type code, its queue (v2.rs:55), and
 * `cpiContext` null as Photon 0.51.2 always sends it (src/common/typedefs/account/v2.rs:107, 130; spec/DECISIONS.md row 55).
 */
export function treeContextOf(tree: TreeRecord): TreeContextInfo {
  return { treeType: TREE_TYPE_CODE[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null };
}

/** `MerkleContextV2` of a tree (get_validity_proof/v2.rs:49-59): its TreeContextInfo plus `nextTreeContext`, always null at 0.51.2 (v2.rs:108, 131). */
export function merkleContextOf(tree: TreeRecord): MerkleContextV2 {
  return { ...treeContextOf(tree), nextTreeContext: null };
}

/** `AccountProofInputs` (get_validity_proof/v2.rs:79-104). */
export interface AccountProofInputs {
  hash: string;
  root: string;
  rootIndex: { rootIndex: number; proveByIndex: boolean };
  leafIndex: number;
  merkleContext: MerkleContextV2;
}

/** `AddressProofInputs` (get_validity_proof/v2.rs:89-96). */
export interface AddressProofInputs {
  address: string;
  root: string;
  rootIndex: number;
  merkleContext: MerkleContextV2;
}

/** What Photon posts to `{prover_url}/prove` (`HexBatchInputsForProver`, prover/structs.rs), absent fields omitted as Photon omits them. */
export interface ProverRequest {
  circuitType: "inclusion" | "non-inclusion" | "combined";
  stateTreeHeight?: number;
  addressTreeHeight?: number;
  publicInputHash?: string;
  inputCompressedAccounts?: { root: string; pathIndex: number; pathElements: string[]; leaf: string }[];
  newAddresses?: {
    root: string;
    value: string;
    pathIndex: number;
    pathElements: string[];
    leafLowerRangeValue: string;
    leafHigherRangeValue: string;
    nextIndex: number;
  }[];
}

/** A V1 validity proof without its `compressedProof` (`CompressedProofWithContext`, get_validity_proof/v1.rs:19-28), and the prover's request. */
export interface ValidityProofInputsV1 {
  roots: string[];
  rootIndices: number[];
  leafIndices: number[];
  leaves: string[];
  merkleTrees: string[];
  prover: ProverRequest;
}

/**
 * A V2 validity proof without its `compressedProof` (`CompressedProofWithContextV2`): `prover`
 * is null when every account proves by index and there is no address, and then Photon's
 * `compressedProof` is null (get_validity_proof/v2.rs:274-321).
 */
export interface ValidityProofInputsV2 {
  accounts: AccountProofInputs[];
  addresses: AddressProofInputs[];
  prover: ProverRequest | null;
}

/** The root of a tree as Photon reports it with proofs. */
export interface TreeRoot {
  root: string;
  rootSeq: number;
}

/**
 * The root a proof folds to (base58 in, base58 out): Poseidon up the tree, the leaf on the left
 * where the index bit is 0. Every proof this module returns folds to its `root`.
 */
export function fold(leaf: string, leafIndex: number, proof: readonly string[]): string {
  return bigintToBase58(foldProof(base58ToBigint(leaf), leafIndex, proof.map(base58ToBigint)));
}

export type WrittenAs = <T extends object>(value: T, json: string) => T;

/**
 * `stringifyJson(proof)` for a proof `WrittenProofs.write` wrote: its keys in their order, and its node
 * texts (`proof`, `root`, `hash`: base58 from `bigintToBase58`, nothing to escape) joined without
 * the serialiser's per-character escape scan; the tree's key is written by JSON.stringify.
 */
export function accountProofJson(proof: AccountProof): string {
  return `{"proof":["${proof.proof.join('","')}"],"root":"${proof.root}","leafIndex":${proof.leafIndex},"hash":"${proof.hash}","merkleTree":${JSON.stringify(proof.merkleTree)},"rootSeq":${proof.rootSeq}}`;
}

/** The leaf hash of an indexed element, for tests and for a conformance suite that folds address proofs. */
export function addressLeaf(type: "AddressV1" | "AddressV2", value: string, nextIndex: number, nextValue: string): string {
  return bigintToBase58(
    indexedLeafHash(type === "AddressV1" ? 1 : 2, { leafIndex: 0, value: base58ToBigint(value), nextIndex, nextValue: base58ToBigint(nextValue) }),
  );
}
