/**
 * Trees that move: leaves written into a built Merkle tree (folded when read), addresses inserted
 * into a built indexed tree, and written proofs that never outlive the tree state they were read from.
 * Each is compared with a tree built from scratch over the same leaves or addresses.
 */
import { describe, expect, it } from "vitest";
import { Random } from "../../../reference/random.js";
import type { TreeRecord } from "../../../reference/records.js";
import { IndexedMerkleTree } from "../../../reference/trees/indexed-tree.js";
import { bigintToBase58, bytesToBigint, hashCount, zeroHash } from "../../../reference/trees/poseidon.js";
import { MerkleTree } from "../../../reference/trees/state-tree.js";
import { WrittenProofs } from "../../../reference/trees/written-proofs.js";

function leafFrom(rng: Random): bigint {
  const bytes = rng.bytes(32);
  bytes[0] = (bytes[0] as number) % 0x30;
  return bytesToBigint(bytes);
}

function addressFrom(rng: Random): bigint {
  const bytes = rng.bytes(32);
  bytes[0] = 0;
  return bytesToBigint(bytes);
}

/** Everything a tree answers, to compare with a tree built from scratch. */
function answers(tree: MerkleTree): unknown {
  const levels = Array.from({ length: tree.height + 1 }, (_, k) => Array.from({ length: tree.width(k) }, (_, j) => tree.node(k, j)));
  const indexes = [0, 1, tree.size - 1, tree.size, tree.size + 1].filter((i) => i >= 0 && i < 2 ** tree.height);
  return {
    size: tree.size,
    root: tree.root(),
    rootBase58: tree.rootBase58(),
    levels,
    proofs: indexes.map((i) => [tree.proof(i), tree.proofBase58(i), tree.leafBase58(i)]),
  };
}

describe("MerkleTree.set: leaves written after the build, folded on read", () => {
  it("answers as a tree built over the same leaves, after appends, overwrites, zeroes and gaps, read or not in between", () => {
    const rng = new Random(30, "set");
    for (let round = 0; round < 8; round++) {
      const height = rng.between(3, 8);
      const leaves = Array.from({ length: rng.between(0, 2 ** (height - 1)) }, () => leafFrom(rng));
      const tree = new MerkleTree(height, [...leaves]);
      if (rng.chance(0.7)) tree.root();
      for (let write = 0; write < 30; write++) {
        const roll = rng.below(4);
        const last = 2 ** height - 1;
        const index =
          roll === 0 || leaves.length === 0
            ? Math.min(last, leaves.length)
            : roll === 1
              ? Math.min(last, leaves.length + rng.between(1, 3))
              : rng.below(leaves.length);
        const value = roll === 3 ? 0n : leafFrom(rng);
        while (leaves.length < index) leaves.push(0n);
        leaves[index] = value;
        tree.set(index, value);
        if (rng.chance(0.3)) expect(answers(tree), `round ${round}, write ${write}`).toEqual(answers(new MerkleTree(height, [...leaves])));
      }
      expect(answers(tree), `round ${round}`).toEqual(answers(new MerkleTree(height, [...leaves])));
    }
  });

  it("hashes nothing when written, and folds writes between two reads into the union of their paths", () => {
    const rng = new Random(30, "fold");
    zeroHash(26);
    const tree = new MerkleTree(
      26,
      Array.from({ length: 100 }, () => leafFrom(rng)),
    );
    tree.root();
    const before = hashCount();
    for (let i = 0; i < 64; i++) tree.set(100 + i, leafFrom(rng));
    expect(hashCount()).toBe(before);
    tree.root();
    const folded = hashCount() - before;
    // 64 appends read one at a time cost 26 hashes each; read together they share every level above the sixth.
    expect(folded).toBeLessThan(64 * 26);
    expect(folded).toBeLessThanOrEqual(64 + 32 + 16 + 8 + 4 + 2 + 26);
    const leaves = Array.from({ length: 164 }, (_, i) => tree.leaf(i));
    expect(tree.root()).toBe(new MerkleTree(26, leaves).root());
  });

  it("takes writes made while a build is under way (steps) and folds them once it ends", () => {
    const rng = new Random(30, "pending");
    const leaves = Array.from({ length: 300 }, () => leafFrom(rng));
    const tree = new MerkleTree(26, [...leaves]);
    const steps = tree.steps();
    let slices = 0;
    for (; !steps.next().done; slices++) {
      const index = slices % 3 === 0 ? leaves.length : rng.below(leaves.length);
      leaves[index] = slices % 5 === 0 ? 0n : leafFrom(rng);
      tree.set(index, leaves[index] as bigint);
    }
    expect(slices).toBeGreaterThan(5);
    expect(answers(tree)).toEqual(answers(new MerkleTree(26, [...leaves])));
  });

  it("counts its writes (generation), not those that write the value a leaf holds", () => {
    const tree = new MerkleTree(4, [5n, 6n]);
    expect(tree.generation).toBe(0);
    tree.set(1, 6n);
    expect(tree.generation).toBe(0);
    tree.set(1, 7n);
    tree.set(5, 0n);
    expect(tree.generation).toBe(2);
    expect(tree.size).toBe(6);
  });
});

describe("IndexedMerkleTree.insert: addresses inserted after the tree was made", () => {
  for (const version of [1, 2] as const) {
    it(`V${version}: answers as a tree made with every address, whether built, hashed, half-hashed or not made yet`, () => {
      const rng = new Random(30, `insert-${version}`);
      const initial = Array.from({ length: 40 }, () => addressFrom(rng));
      const later = Array.from({ length: 25 }, () => addressFrom(rng));
      // Above every address: the V2 tree's last element changes (its (0, HIGHEST) passes to the new one).
      later.push((1n << 247n) + 5n);
      const fresh = new IndexedMerkleTree(version, 26, [...initial, ...later]);
      const stages: [string, (t: IndexedMerkleTree) => void][] = [
        ["not made", () => undefined],
        ["elements made", (t) => t.elements()],
        ["leaves half hashed", (t) => t.steps().next()],
        ["built", (t) => t.root()],
      ];
      for (const [stage, prepare] of stages) {
        const tree = new IndexedMerkleTree(version, 26, initial);
        prepare(tree);
        for (const [i, value] of later.entries()) {
          tree.insert(value);
          if (i % 7 === 0) tree.root();
        }
        expect(tree.elements(), stage).toEqual(fresh.elements());
        expect(tree.inserted).toBe(fresh.inserted);
        expect(answers(tree.merkleTree()), stage).toEqual(answers(fresh.merkleTree()));
        for (const value of [addressFrom(rng), later[3] as bigint]) expect(tree.lowElement(value), stage).toEqual(fresh.lowElement(value));
      }
    });
  }

  it("refuses an address inserted twice or out of range, as a tree made with it does", () => {
    const tree = new IndexedMerkleTree(1, 26, [5n]);
    tree.root();
    expect(() => tree.insert(5n)).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_DATASET_INCONSISTENT" }));
    expect(() => tree.insert(0n)).toThrow(expect.objectContaining({ code: "PHOTON_REF_ERR_DATASET_INCONSISTENT" }));
    expect(tree.inserted).toBe(1);
  });
});

describe("WrittenProofs: kept proofs follow their tree", () => {
  it("answers a new proof once a leaf of its tree is written, even at the same rootSeq", () => {
    const rng = new Random(30, "written");
    const merkle = new MerkleTree(
      26,
      Array.from({ length: 10 }, () => leafFrom(rng)),
    );
    const record: TreeRecord = {
      tree: "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT",
      queue: "q",
      type: "StateV1",
      height: 26,
      rootHistory: 2400,
      cpiContext: null,
      seq: 7,
    };
    const written = new WrittenProofs(1 << 20);
    const proof = { record, leafIndex: 3, merkle, rootSeq: 7 };
    const first = written.write(proof);
    expect(written.write(proof)).toBe(first);
    merkle.set(10, leafFrom(rng));
    const second = written.write(proof);
    expect(second).not.toBe(first);
    expect(second.root).toBe(bigintToBase58(merkle.root()));
    expect(second.root).not.toBe(first.root);
    expect(written.write(proof)).toBe(second);
  });
});
