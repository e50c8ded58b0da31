/**
 * Proof assertions: account proofs fold to their root, new-address proofs bracket the address
 * and fold from the low element's leaf, validity-proof contexts carry the roots, root indices,
 * leaf indices and trees the dataset's trees say. Roots are remembered per tree (`Roots`), so
 * every method that reports a tree's current root must report the same one.
 */
import { type MerkleContextWithMerkleProof, type MerkleContextWithNewAddressProof, TreeType, type ValidityProofWithContext } from "@lightprotocol/stateless.js";
import { expect } from "vitest";
import type { AccountRecord, TreeRecord } from "../../../reference/records.js";
import { b58, big, expectTreeInfo } from "./check.js";
import { type DatasetView, TREE_TYPE, base58OfField, fieldOf } from "./expected.js";
import { FIELD_SIZE, addressLeafV1, fold, zeroHash } from "./merkle.js";

/** stateless.js computes every root index it reports from a proof's `rootSeq` as `rootSeq % 2400` (rpc.ts getCompressedAccountProof, getMultipleNewAddressProofs). */
export const CLIENT_ROOT_HISTORY = 2400;

/** The current root of each tree, as the first method to report it said. */
export class Roots {
  private readonly roots = new Map<string, bigint>();

  same(tree: string, root: bigint, what: string): void {
    expect(root < FIELD_SIZE, `${what}: root below the field modulus`).toBe(true);
    const known = this.roots.get(tree);
    if (known === undefined) this.roots.set(tree, root);
    else expect(base58OfField(root), `${what}: the current root of ${tree}, as other methods reported it`).toBe(base58OfField(known));
  }
}

/**
 * A proof path against what the records fix: the level-0 sibling where `leafAt` knows it, and
 * ZERO_BYTES[level] for every sibling subtree entirely above the tree's last leaf.
 */
export function expectPathAgainstRecords(view: DatasetView, tree: TreeRecord, path: readonly bigint[], leafIndex: number, what: string): void {
  const sibling = view.leafAt(tree.tree, leafIndex % 2 === 0 ? leafIndex + 1 : leafIndex - 1);
  if (sibling !== undefined) expect(base58OfField(path[0] ?? -1n), `${what}: level-0 sibling`).toBe(base58OfField(sibling));
  const last = view.maxLeaf(tree.tree);
  for (let level = 1; level < path.length; level++) {
    const span = 2 ** level;
    const start = (Math.floor(leafIndex / span) ^ 1) * span;
    if (start > last)
      expect(base58OfField(path[level] as bigint), `${what}: sibling at level ${level} is an empty subtree`).toBe(base58OfField(zeroHash(level)));
  }
}

/**
 * An account proof from getCompressedAccountProof or getMultipleCompressedAccountProofs (V2) and
 * the raw value the reference sent. An account in a batched tree's output queue proves by index:
 *  - getCompressedAccountProofV2 answers the path of its leaf position with the zero leaf as `hash`
 *    (photon get_compressed_account_proof/v2.rs + persist/leaf_node_proof.rs
 *    `get_multiple_compressed_leaf_proofs_by_indices`: a missing leaf is ZERO_BYTES[0]);
 *  - getMultipleCompressedAccountProofsV2 answers the account's hash with an empty proof, root and
 *    rootSeq 0 (get_multiple_compressed_account_proofs/v2.rs: `..Default::default()`).
 */
export function expectAccountProof(
  view: DatasetView,
  roots: Roots,
  proof: MerkleContextWithMerkleProof,
  raw: unknown,
  record: AccountRecord,
  method: "single" | "multiple",
): void {
  const tree = view.treeOf(record);
  const queued = view.inOutputQueue(record);
  const what = `proof of ${record.hash}`;
  const r = raw as Record<string, unknown>;
  expect(proof.leafIndex, what).toBe(record.leafIndex);
  expect(proof.proveByIndex, `${what} proveByIndex`).toBe(queued);
  expectTreeInfo(proof.treeInfo, tree);
  expect(r.treeContext, `${what} treeContext`).toEqual({ treeType: TREE_TYPE[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null });
  if (queued && method === "multiple") {
    expect(
      { hash: b58(proof.hash), proof: proof.merkleProof, root: big(proof.root), rootIndex: proof.rootIndex, rootSeq: BigInt(r.rootSeq as number) },
      what,
    ).toEqual({
      hash: record.hash,
      proof: [],
      root: 0n,
      rootIndex: 0,
      rootSeq: 0n,
    });
    return;
  }
  const leaf = queued ? 0n : fieldOf(record.hash);
  expect(b58(proof.hash), `${what} hash`).toBe(base58OfField(leaf));
  const path = proof.merkleProof.map((n) => big(n));
  expect(path, `${what} length`).toHaveLength(tree.height);
  const root = big(proof.root);
  expect(base58OfField(fold(leaf, path, record.leafIndex)), `${what} folds to its root`).toBe(base58OfField(root));
  roots.same(tree.tree, root, what);
  expect(BigInt(r.rootSeq as number), `${what} rootSeq`).toBe(BigInt(tree.seq));
  expect(proof.rootIndex, `${what} rootIndex`).toBe(tree.seq % CLIENT_ROOT_HISTORY);
  expectPathAgainstRecords(view, tree, path, record.leafIndex, what);
}

/**
 * New-address proofs of a V1 address tree (getMultipleNewAddressProofs always asks Photon for
 * ADDRESS_TREE_V1): the low element brackets the address, its leaf H(low, nextIndex, high)
 * folds to the root at `lowElementLeafIndex`, and the client labels the tree with its
 * localnet address queue.
 */
export function expectNewAddressProofs(
  view: DatasetView,
  roots: Roots,
  proofs: readonly MerkleContextWithNewAddressProof[],
  raw: readonly unknown[],
  addresses: readonly bigint[],
  tree: TreeRecord,
): void {
  expect(proofs).toHaveLength(addresses.length);
  addresses.forEach((address, i) => {
    const p = proofs[i] as MerkleContextWithNewAddressProof;
    const r = raw[i] as Record<string, unknown>;
    const what = `new-address proof of ${base58OfField(address)}`;
    const range = view.addressRangeV1(tree.tree, address);
    expect(
      {
        value: big(p.value),
        low: big(p.leafLowerRangeValue),
        high: big(p.leafHigherRangeValue),
        nextIndex: Number(big(p.nextIndex)),
        lowIndex: Number(big(p.indexHashedIndexedElementLeaf)),
        rootIndex: p.rootIndex,
        tree: p.treeInfo.tree.toBase58(),
        queue: p.treeInfo.queue.toBase58(),
        treeType: p.treeInfo.treeType,
        merkleTree: r.merkleTree,
        rootSeq: BigInt(r.rootSeq as number),
      },
      what,
    ).toEqual({
      value: address,
      low: range.low,
      high: range.high,
      nextIndex: range.nextIndex,
      lowIndex: range.lowIndex,
      rootIndex: tree.seq % CLIENT_ROOT_HISTORY,
      tree: tree.tree,
      queue: tree.queue,
      treeType: TreeType.AddressV1,
      merkleTree: tree.tree,
      rootSeq: BigInt(tree.seq),
    });
    expect(range.low < address && address < range.high, `${what}: the low element brackets it`).toBe(true);
    const path = p.merkleProofHashedIndexedElementLeaf.map((n) => big(n));
    expect(path, `${what} length`).toHaveLength(tree.height);
    const root = big(p.root);
    expect(base58OfField(fold(addressLeafV1(range.low, range.nextIndex, range.high), path, range.lowIndex)), `${what} folds to its root`).toBe(
      base58OfField(root),
    );
    roots.same(tree.tree, root, what);
  });
}

export interface ProofAddress {
  address: bigint;
  tree: TreeRecord;
}

/**
 * A validity proof's context (getValidityProofV2, photon get_validity_proof/v2.rs) as stateless.js
 * returns it: accounts first, then addresses; an account in an output queue proves by index (root
 * Pubkey::default, i.e. 0, root index 0); other roots are their trees' current roots with root
 * index `rootSeq % rootHistory` of that tree (prover/prove.rs `root_index_mod_queue`); addresses
 * have leaf index 0 and never prove by index (the client fills those in). The Groth16 proof is
 * null when every account proves by index and there is no address, else a, b, c of 32, 64, 32 bytes.
 */
export function expectValidityProof(
  view: DatasetView,
  roots: Roots,
  proof: ValidityProofWithContext,
  accounts: readonly AccountRecord[],
  addresses: readonly ProofAddress[],
): void {
  const queued = accounts.map((a) => view.inOutputQueue(a));
  const trees = accounts.map((a) => view.treeOf(a));
  const context = (tree: TreeRecord) => ({ treeType: TREE_TYPE[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null, nextTreeContext: null });
  expect({
    leaves: proof.leaves.map((l) => b58(l)),
    leafIndices: proof.leafIndices,
    rootIndices: proof.rootIndices,
    proveByIndices: proof.proveByIndices,
    treeInfos: proof.treeInfos.map((t) => {
      const info = t as unknown as Record<string, unknown>;
      const key = (k: unknown) => (k === null || k === undefined ? k : (k as { toBase58(): string }).toBase58());
      return { treeType: info.treeType, tree: key(info.tree), queue: key(info.queue), cpiContext: key(info.cpiContext), nextTreeContext: info.nextTreeContext };
    }),
  }).toEqual({
    leaves: [...accounts.map((a) => a.hash), ...addresses.map((a) => base58OfField(a.address))],
    leafIndices: [...accounts.map((a) => a.leafIndex), ...addresses.map(() => 0)],
    rootIndices: [
      ...accounts.map((a, i) => (queued[i] ? 0 : (trees[i] as TreeRecord).seq % view.treeOf(a).rootHistory)),
      ...addresses.map((a) => a.tree.seq % a.tree.rootHistory),
    ],
    proveByIndices: [...queued, ...addresses.map(() => false)],
    treeInfos: [...trees.map(context), ...addresses.map((a) => context(a.tree))],
  });
  const all = [...trees.map((t, i) => ({ tree: t, queued: queued[i] as boolean })), ...addresses.map((a) => ({ tree: a.tree, queued: false }))];
  all.forEach(({ tree, queued: byIndex }, i) => {
    const root = big(proof.roots[i] as { toString(): string });
    if (byIndex) expect(root, `root ${i} (proves by index)`).toBe(0n);
    else roots.same(tree.tree, root, `validity proof root ${i}`);
  });
  if (queued.every((q) => q) && addresses.length === 0) {
    expect(proof.compressedProof, "no Groth16 proof when every account proves by index").toBeNull();
  } else {
    const p = proof.compressedProof as { a: number[]; b: number[]; c: number[] } | null;
    expect(p, "a Groth16 proof (placeholder)").not.toBeNull();
    const byte = (n: number) => Number.isInteger(n) && n >= 0 && n <= 255;
    expect({ a: p?.a.length, b: p?.b.length, c: p?.c.length, bytes: [...(p?.a ?? []), ...(p?.b ?? []), ...(p?.c ?? [])].every(byte) }).toEqual({
      a: 32,
      b: 64,
      c: 32,
      bytes: true,
    });
  }
}
