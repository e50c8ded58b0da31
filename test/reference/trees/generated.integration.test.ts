/**
 * The forest of the default generated dataset (seed 1, 20,000 accounts): every tree builds (the
 * generator keeps the guarantees the trees need: unique leaves, a closing transaction for every
 * nullified batched account, addresses below 2^248 - 1 and unique per tree) and a sample of every
 * kind of proof folds to its tree's root.
 */
import { describe, expect, it } from "vitest";
import { generateDataset } from "../../../reference/dataset.js";
import { Random } from "../../../reference/random.js";
import type { AccountRecord } from "../../../reference/records.js";
import { addressLeaf, Forest, fold } from "../../../reference/trees/forest.js";
import { base58ToBigint, bigintToBase58, bytesToBigint } from "../../../reference/trees/poseidon.js";

const dataset = generateDataset({ seed: 1 });
const forest = new Forest(dataset);
const rng = new Random(15, "generated-forest");

/** Up to `n` accounts of each kind of leaf state in a tree. */
function sample(accounts: readonly AccountRecord[], n: number): AccountRecord[] {
  const kinds = new Map<string, AccountRecord[]>();
  for (const a of accounts) {
    const kind = `${a.spent}/${a.inInputQueue}/${a.inOutputQueue}`;
    const list = kinds.get(kind) ?? [];
    if (list.length < n) list.push(a);
    kinds.set(kind, list);
  }
  return [...kinds.values()].flat();
}

describe("the forest of generateDataset({ seed: 1 })", () => {
  it("builds every state tree; a sample of every leaf state proves (V1 and V2 shapes) and folds to the tree's root", { timeout: 120_000 }, () => {
    const states = dataset.trees.filter((t) => t.type === "StateV1" || t.type === "StateV2");
    expect(states.length).toBeGreaterThan(0);
    for (const tree of states) {
      const { root, rootSeq } = forest.root(tree.tree);
      expect(rootSeq).toBe(tree.seq);
      const accounts = dataset.accounts.filter((a) => a.tree === tree.tree);
      for (const a of sample(accounts, 3)) {
        const v2 = forest.accountProofV2(a.hash);
        expect(v2.proof).toHaveLength(tree.height);
        expect(v2.root).toBe(root);
        expect(fold(v2.hash, v2.leafIndex, v2.proof), a.hash).toBe(root);
        expect(v2.proveByIndex).toBe(forest.leaf(a) !== a.hash);
        if (!v2.proveByIndex) expect(forest.accountProof(a.hash)).toMatchObject({ root, rootSeq, hash: a.hash, merkleTree: tree.tree });
      }
    }
  });

  it("builds every address tree; new addresses are bracketed by a low element whose proof folds to the root", { timeout: 120_000 }, () => {
    const addressTrees = dataset.trees.filter((t) => t.type === "AddressV1" || t.type === "AddressV2");
    expect(addressTrees.length).toBeGreaterThan(0);
    for (const tree of addressTrees) {
      const { root } = forest.root(tree.tree);
      const fresh = Array.from({ length: 5 }, () => {
        const bytes = rng.bytes(32);
        bytes[0] = 0;
        return bigintToBase58(bytesToBigint(bytes));
      });
      for (const p of forest.newAddressProofs(fresh.map((address) => ({ address, tree: tree.tree })))) {
        expect(p.root).toBe(root);
        const [low, value, high] = [p.lowerRangeAddress, p.address, p.higherRangeAddress].map(base58ToBigint) as [bigint, bigint, bigint];
        expect(low < value && value < high).toBe(true);
        const leaf = addressLeaf(tree.type as "AddressV1" | "AddressV2", p.lowerRangeAddress, p.nextIndex, p.higherRangeAddress);
        expect(fold(leaf, p.lowElementLeafIndex, p.proof)).toBe(root);
      }
    }
  });
});
