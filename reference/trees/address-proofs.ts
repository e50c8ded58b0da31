/** Non-inclusion proofs of new addresses: each address's low element in its address tree. */
import { RpcError } from "@photon-indexer-kit/runtime";
import type { TreeRecord } from "../records.js";
import type { AddressProofOptions, AddressWithTree, NewAddressProof } from "./answers.js";
import { type AddressTree, EMPTY_ADDRESS_TREE_SEQ, type LowElementProof, version } from "./forest-parts.js";
import type { AddressTreeVersion, IndexedMerkleTree } from "./indexed-tree.js";
import { invalidPubkey, unexpected } from "./photon-errors.js";
import { base58ToBigint, bigintToBase58 } from "./poseidon.js";

/** What the address proofs read of a forest. */
export interface AddressSource {
  /** A tree by its key or by its queue's key. */
  treeInfo(key: string): TreeRecord | undefined;
  /** The addresses still in a batched address tree's queue. */
  queued(key: string): ReadonlySet<string> | undefined;
  addressTree(record: TreeRecord): AddressTree;
  /** The tree Photon answers for an address tree it holds nothing of. */
  emptyAddressTree(v: AddressTreeVersion, height: number): IndexedMerkleTree;
}

/** Photon's `get_multiple_new_address_proofs_helper` with the queue check (get_multiple_new_address_proofs.rs:50-172). */
export function lowElementProofs(source: AddressSource, items: readonly AddressWithTree[], options: AddressProofOptions = {}): LowElementProof[] {
  if (items.length === 0) throw RpcError.validation("No addresses provided");
  const most = options.maxAddresses;
  if (most !== undefined && items.length > most) throw RpcError.validation(`Too many addresses requested ${items.length}. Maximum allowed: ${most}`);
  const byTree = new Map<string, { index: number; address: string }[]>();
  items.forEach(({ address, tree }, index) => {
    const list = byTree.get(tree);
    if (list) list.push({ index, address });
    else byTree.set(tree, [{ index, address }]);
  });
  const out: LowElementProof[] = new Array(items.length);
  for (const [key, list] of byTree) {
    const info = source.treeInfo(key);
    if (!info) throw invalidPubkey(key);
    if (info.type === "AddressV2" && options.checkQueue !== false) {
      const queued = source.queued(key);
      if (queued) {
        const asked = new Set(list.map((e) => e.address));
        const hit = [...queued].find((a) => asked.has(a));
        if (hit !== undefined) throw RpcError.validation(`Address ${hit} already exists`);
      }
    }
    const v = version(info.type);
    // A state tree (or a state queue) named as an address tree: Photon finds no indexed element and
    // fails to hash the initial element for that tree type (indexed_merkle_tree/helpers.rs:27-31).
    if (v === null) throw unexpected();
    // Elements are looked up under the key the request named: a queue's key holds none.
    const tree = key === info.tree ? source.addressTree(info).indexed : null;
    for (const { index, address } of list) {
      const value = base58ToBigint(address);
      const low = tree && tree.inserted > 0 ? tree.lowElement(value) : undefined;
      if (tree && low) {
        out[index] = { address: value, merkleTree: key, low, tree: tree.merkleTree(), rootSeq: info.seq };
      } else {
        // No element below the address (the tree holds nothing, or the address is 0): Photon
        // answers the proof of the zeroeth element of a freshly initialised tree (proof.rs:118-172).
        const empty = source.emptyAddressTree(v, info.height);
        const zeroth = empty.element(0);
        out[index] = { address: value, merkleTree: key, low: zeroth, tree: empty.merkleTree(), rootSeq: EMPTY_ADDRESS_TREE_SEQ[info.type] };
      }
    }
  }
  return out;
}

/** A non-inclusion proof written out (`MerkleContextWithNewAddressProof`). */
export function newAddressProofOf(p: LowElementProof): NewAddressProof {
  return {
    root: p.tree.rootBase58(),
    address: bigintToBase58(p.address),
    lowerRangeAddress: bigintToBase58(p.low.value),
    higherRangeAddress: bigintToBase58(p.low.nextValue),
    nextIndex: p.low.nextIndex,
    proof: p.tree.proofBase58(p.low.leafIndex),
    merkleTree: p.merkleTree,
    rootSeq: p.rootSeq,
    lowElementLeafIndex: p.low.leafIndex,
  };
}
