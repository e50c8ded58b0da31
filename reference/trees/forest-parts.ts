/** The forest's internal parts: its trees, stored leaves and proofs before they are written out, and small pure helpers. */
import type { AccountRecord, TreeRecord, TreeType } from "../records.js";
import type { AddressTreeVersion, IndexedElement, IndexedMerkleTree } from "./indexed-tree.js";
import type { MerkleTree } from "./state-tree.js";

export interface StateTree {
  record: TreeRecord;
  merkle: MerkleTree;
}

export interface AddressTree {
  record: TreeRecord;
  indexed: IndexedMerkleTree;
}

/** A stored leaf (Photon: a `state_trees` row at level 0). */
export interface Row {
  record: TreeRecord;
  leafIndex: number;
  leaf: bigint;
}

/**
 * A leaf to prove (stored or empty): its tree and index. Nothing of the proof is computed until it
 * is written out, and then from the tree's kept base58 texts (`MerkleTree.proofBase58`); the
 * bigint siblings are read only for a prover's request.
 */
export interface LeafProof {
  record: TreeRecord;
  leafIndex: number;
  merkle: MerkleTree;
  rootSeq: number;
}

/** A non-inclusion proof before it is written out; `merkleTree` is the key the request named, `tree` the Merkle tree of the low element's leaf. */
export interface LowElementProof {
  address: bigint;
  merkleTree: string;
  low: IndexedElement;
  tree: MerkleTree;
  rootSeq: number;
}

/**
 * The root sequence number Photon reports for an address tree it holds no element of
 * (indexed_merkle_tree/proof.rs:99-116 and 441-453): 3 for AddressV1 (init appends the zero
 * leaf, updates it and appends the highest element), 0 otherwise.
 */
export const EMPTY_ADDRESS_TREE_SEQ: Readonly<Record<TreeType, number>> = { StateV1: 0, AddressV1: 3, StateV2: 0, AddressV2: 0 };

export function version(type: TreeType): AddressTreeVersion | null {
  return type === "AddressV1" ? 1 : type === "AddressV2" ? 2 : null;
}

/** Whether an account of state tree `record` holds its own hash as its leaf (`Forest.leafValue` without hashing anything). */
export function holdsOwnHash(record: TreeRecord, account: AccountRecord): boolean {
  if (record.type === "StateV1") return !account.spent;
  // Not in the output queue (`Forest.isInOutputQueue`), and not spent out of the input queue.
  return !account.inOutputQueue && !(account.spent && !account.inInputQueue);
}

/** Whether two of `accounts` name the same leaf (tree and index). */
export function namesLeafTwice(accounts: readonly AccountRecord[]): boolean {
  const n = accounts.length;
  if (n <= 16) {
    for (let i = 1; i < n; i++) {
      const a = accounts[i] as AccountRecord;
      for (let j = 0; j < i; j++) {
        const b = accounts[j] as AccountRecord;
        if (a.leafIndex === b.leafIndex && a.tree === b.tree) return true;
      }
    }
    return false;
  }
  const seen = new Set<string>();
  for (const a of accounts) {
    const key = `${a.tree}/${a.leafIndex}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** Records indexed or leaves decoded per slice of a background build (about a millisecond). */
export const RECORDS_PER_STEP = 512;
