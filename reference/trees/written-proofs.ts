/** Written V1 account proofs, frozen with their JSON text and kept (bounded) for later answers. */
import { encodeOnce } from "@photon-indexer-kit/runtime";
import { type AccountProof, accountProofJson, type WrittenAs } from "./answers.js";
import type { LeafProof } from "./forest-parts.js";
import type { MerkleTree } from "./state-tree.js";

/**
 * Written V1 account proofs kept (`WrittenProofs.write`), by default: about this many bytes of
 * JSON text at most, the first written dropped first. A proof of 26 levels is about 1.4 KB of text,
 * kept twice (the text and the listener's UTF-8 bytes): about 5,800 proofs, some 17 MB.
 */
export const KEPT_PROOF_BYTES = 8 << 20;

/** A written proof's text beyond its base58 strings: keys, quotes, commas, numbers. */
const PROOF_FRAME_BYTES = 128;

/** The written proofs a forest keeps. */
export class WrittenProofs {
  /** Written V1 proofs (`write`) by Merkle tree and leaf index; each answers while its tree (and its generation), and rootSeq are the ones it was written from. */
  private readonly written = new Map<MerkleTree, Map<number, AccountProof>>();
  /** The kept proofs in the order they were written (dropped from the front): each one's text size, the leaf map holding it and the tree's generation it was written at. */
  private readonly writtenOrder = new Map<AccountProof, { readonly size: number; readonly byLeaf: Map<number, AccountProof>; readonly generation: number }>();
  private writtenBytes = 0;

  constructor(private readonly keptProofBytes: number) {}

  /**
   * A proof written from the tree's texts and frozen with its JSON (`encodeOnce`), kept while its tree,
   * rootSeq and leaves are unchanged (bounded: `ForestOptions.keptProofBytes`).
   */
  write(p: LeafProof, mark?: WrittenAs): AccountProof {
    const { merkle, leafIndex } = p;
    let byLeaf = this.written.get(merkle);
    const kept = byLeaf?.get(leafIndex);
    if (kept !== undefined && kept.rootSeq === p.rootSeq && kept.merkleTree === p.record.tree && this.writtenOrder.get(kept)?.generation === merkle.generation)
      return kept;
    const proof = merkle.proofBase58(leafIndex);
    const plain: AccountProof = {
      proof,
      root: merkle.rootBase58(),
      leafIndex,
      hash: merkle.leafBase58(leafIndex),
      merkleTree: p.record.tree,
      rootSeq: p.rootSeq,
    };
    if (this.keptProofBytes === 0) {
      // Nothing kept: written for this answer only, its JSON text (for the listener) joined from the node texts.
      if (mark === undefined) return plain;
      // The text first: joining a frozen array takes V8's slow path (about twice the time).
      const json = accountProofJson(plain);
      Object.freeze(proof);
      return mark(plain, json);
    }
    const written = encodeOnce(plain);
    if (byLeaf === undefined) {
      byLeaf = new Map();
      this.written.set(merkle, byLeaf);
    }
    if (kept !== undefined) this.forget(kept);
    let size = PROOF_FRAME_BYTES + written.root.length + written.hash.length + written.merkleTree.length;
    for (const text of proof) size += text.length + 3;
    byLeaf.set(leafIndex, written);
    this.writtenOrder.set(written, { size, byLeaf, generation: merkle.generation });
    this.writtenBytes += size;
    for (const [old] of this.writtenOrder) {
      if (this.writtenBytes <= this.keptProofBytes) break;
      this.forget(old);
    }
    return written;
  }

  /** Drops a kept written proof. */
  private forget(proof: AccountProof): void {
    const kept = this.writtenOrder.get(proof);
    if (kept === undefined) return;
    this.writtenBytes -= kept.size;
    this.writtenOrder.delete(proof);
    if (kept.byLeaf.get(proof.leafIndex) === proof) kept.byLeaf.delete(proof.leafIndex);
  }
}
