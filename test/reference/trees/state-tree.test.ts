import { describe, expect, it } from "vitest";
import { Random } from "../../../reference/random.js";
import { bigintToBase58, bytesToBigint, hash2, hashCount, zeroHash } from "../../../reference/trees/poseidon.js";
import { foldProof, MerkleTree, WORK_PER_STEP } from "../../../reference/trees/state-tree.js";

/** A field element from the stream (first byte below 0x30, as the dataset makes hashes). */
function leafFrom(rng: Random): bigint {
  const bytes = rng.bytes(32);
  bytes[0] = (bytes[0] as number) % 0x30;
  return bytesToBigint(bytes);
}

/** The root by definition: every leaf of the full tree, zero past the stored ones, hashed pairwise up. */
function naiveRoot(height: number, leaves: readonly bigint[]): bigint {
  let level = Array.from({ length: 2 ** height }, (_, i) => leaves[i] ?? 0n);
  while (level.length > 1) level = Array.from({ length: level.length / 2 }, (_, j) => hash2(level[2 * j] as bigint, level[2 * j + 1] as bigint));
  return level[0] as bigint;
}

describe("MerkleTree: append-only sparse tree over a dense leaf array", () => {
  it("has the root of the full tree, and every leaf's proof folds to it (random small trees)", () => {
    const rng = new Random(15, "state-tree");
    for (let round = 0; round < 12; round++) {
      const height = rng.between(1, 5);
      const n = rng.between(0, 2 ** height);
      const leaves = Array.from({ length: n }, () => (rng.chance(0.2) ? 0n : leafFrom(rng)));
      const tree = new MerkleTree(height, leaves);
      const root = tree.root();
      expect(root, `height ${height}, ${n} leaves`).toBe(naiveRoot(height, leaves));
      for (let i = 0; i < 2 ** height; i++) {
        const proof = tree.proof(i);
        expect(proof).toHaveLength(height);
        expect(tree.leaf(i)).toBe(leaves[i] ?? 0n);
        expect(foldProof(tree.leaf(i), i, proof), `leaf ${i}`).toBe(root);
      }
    }
  });

  it("proves leaves of a deep tree, stored or not, against the same root", () => {
    const rng = new Random(15, "deep");
    const leaves = Array.from({ length: 37 }, () => leafFrom(rng));
    const tree = new MerkleTree(26, leaves);
    const root = tree.root();
    for (const i of [0, 1, 17, 36, 37, 1000, 2 ** 26 - 1]) expect(foldProof(tree.leaf(i), i, tree.proof(i)), `leaf ${i}`).toBe(root);
    // A proof of an index past the stored leaves is a proof of the zero leaf there.
    expect(tree.leaf(1000)).toBe(0n);
    expect(foldProof(leafFrom(rng), 1000, tree.proof(1000))).not.toBe(root);
  });

  it("writes proofs, leaves and the root in base58 as their values encode, stored nodes or zero values, twice alike", () => {
    const rng = new Random(11);
    const leaves = Array.from({ length: 13 }, () => leafFrom(rng));
    const tree = new MerkleTree(5, leaves);
    for (const index of [0, 1, 6, 12, 13, 20, 31]) {
      const expected = tree.proof(index).map(bigintToBase58);
      expect(tree.proofBase58(index)).toEqual(expected);
      expect(tree.proofBase58(index)).toEqual(expected);
      expect(tree.leafBase58(index)).toBe(bigintToBase58(tree.leaf(index)));
    }
    expect(tree.rootBase58()).toBe(bigintToBase58(tree.root()));
    expect(new MerkleTree(4, []).rootBase58()).toBe(bigintToBase58(zeroHash(4)));
  });

  it("gives an empty tree the zero value of its height", () => {
    for (const height of [1, 26, 32, 40]) {
      const tree = new MerkleTree(height, []);
      expect(tree.root()).toBe(zeroHash(height));
      expect(tree.proof(0)).toEqual(Array.from({ length: height }, (_, k) => zeroHash(k)));
    }
  });

  it("costs about one hash per leaf to build, not one per leaf and level", () => {
    for (const height of [26, 32]) zeroHash(height); // cached zero values, hashed once per process
    const rng = new Random(15, "cost");
    for (const [height, n] of [
      [26, 1000],
      [32, 777],
      [40, 64],
    ] as const) {
      const leaves = Array.from({ length: n }, () => leafFrom(rng));
      const tree = new MerkleTree(height, leaves);
      const before = hashCount();
      tree.root();
      const hashes = hashCount() - before;
      // Level k holds ceil(n / 2^k) nodes: about n in all, plus one per level above the filled part.
      expect(hashes, `height ${height}, ${n} leaves`).toBeLessThanOrEqual(n + height);
      expect(hashes).toBeGreaterThanOrEqual(n - 1);
      // Proofs read the built levels: no hashing.
      const afterBuild = hashCount();
      tree.proof(n - 1);
      tree.proof(0);
      expect(hashCount()).toBe(afterBuild);
    }
  });

  it("hashes nothing when constructed, and builds incrementally through steps()", () => {
    const rng = new Random(15, "steps");
    const leaves = Array.from({ length: 3 * WORK_PER_STEP }, () => leafFrom(rng));
    zeroHash(26);
    const before = hashCount();
    const tree = new MerkleTree(26, leaves);
    expect(hashCount()).toBe(before);
    const steps = tree.steps();
    expect(steps.next().done).toBe(false);
    const afterOne = hashCount() - before;
    expect(afterOne).toBeGreaterThan(0);
    expect(afterOne).toBeLessThanOrEqual(WORK_PER_STEP);
    // A root asked for mid-build finishes the same build; the generator then ends at once.
    const root = tree.root();
    expect(steps.next().done).toBe(true);
    expect(hashCount() - before).toBeLessThanOrEqual(leaves.length + 26);
    expect(root).toBe(new MerkleTree(26, leaves).root());
  });

  it("refuses heights, sizes and indexes outside the tree", () => {
    expect(() => new MerkleTree(0, [])).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
    expect(() => new MerkleTree(41, [])).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
    expect(() => new MerkleTree(2, [1n, 2n, 3n, 4n, 5n])).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
    const tree = new MerkleTree(3, [1n]);
    expect(() => tree.proof(8)).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
    expect(() => tree.proof(-1)).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
    expect(() => foldProof(1n, 4, [0n, 0n])).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_INTERNAL" }));
  });
});
