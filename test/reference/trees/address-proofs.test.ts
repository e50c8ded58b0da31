/** New-address (non-inclusion) proofs of the forest. */
import { describe, expect, it } from "vitest";
import { IndexedMerkleTree } from "../../../reference/trees/indexed-tree.js";
import { addressLeaf, Forest, fold, ZERO_HASH } from "../../../reference/trees/forest.js";
import { base58ToBigint, bigintToBase58 } from "../../../reference/trees/poseidon.js";
import { SMT1, OQ1, AMT1, AQ1, AMT2, newAddress, handDataset, rpcError } from "./hand-dataset.js";

describe("new-address (non-inclusion) proofs", () => {
  const { dataset, amt1, amt2, queued } = handDataset();
  const forest = new Forest(dataset);

  it("brackets an absent address with its low element, whose leaf's proof folds to the root (V1 and V2)", () => {
    for (const [tree, type, seq, height] of [
      [AMT1, "AddressV1", 13, 26],
      [AMT2, "AddressV2", 4, 40],
    ] as const) {
      const addresses = Array.from({ length: 6 }, newAddress);
      const proofs = forest.newAddressProofs(addresses.map((address) => ({ address, tree })));
      proofs.forEach((p, i) => {
        expect(Object.keys(p)).toEqual([
          "root",
          "address",
          "lowerRangeAddress",
          "higherRangeAddress",
          "nextIndex",
          "proof",
          "merkleTree",
          "rootSeq",
          "lowElementLeafIndex",
        ]);
        expect(p).toMatchObject({ address: addresses[i], merkleTree: tree, rootSeq: seq, root: forest.root(tree).root });
        expect(p.proof).toHaveLength(height);
        const [lower, value, higher] = [p.lowerRangeAddress, p.address, p.higherRangeAddress].map(base58ToBigint) as [bigint, bigint, bigint];
        expect(lower < value && value < higher).toBe(true);
        expect(fold(addressLeaf(type, p.lowerRangeAddress, p.nextIndex, p.higherRangeAddress), p.lowElementLeafIndex, p.proof)).toBe(p.root);
      });
    }
  });

  it("answers an address already in the tree with its predecessor, as Photon does (no error); refuses one still queued", () => {
    const [p] = forest.newAddressProofs([{ address: amt1[2]!, tree: AMT1 }]);
    expect(p!.higherRangeAddress).toBe(amt1[2]);
    const [q] = forest.newAddressProofs([{ address: amt2[1]!, tree: AMT2 }]);
    expect(q!.higherRangeAddress).toBe(amt2[1]);
    const err = rpcError(() =>
      forest.newAddressProofs([
        { address: newAddress(), tree: AMT2 },
        { address: queued[1]!, tree: AMT2 },
      ]),
    );
    expect(err.code).toBe(-32000);
    expect(err.message).toBe(`Validation Error: Address ${queued[1]} already exists`);
  });

  it("answers Photon's errors: no address, an unknown tree, a state tree", () => {
    expect(rpcError(() => forest.newAddressProofs([])).message).toBe("Validation Error: No addresses provided");
    const unknown = newAddress();
    expect(rpcError(() => forest.newAddressProofs([{ address: newAddress(), tree: unknown }])).message).toBe(`Invalid Public Key: field '${unknown}'`);
    expect(rpcError(() => forest.newAddressProofs([{ address: newAddress(), tree: SMT1 }])).message).toBe("Internal server error");
    expect(rpcError(() => forest.newAddressProofs([{ address: newAddress(), tree: OQ1 }])).message).toBe("Internal server error");
  });

  it("answers the empty tree's proof where Photon finds no element below the address: address 0, or a tree named by its queue", () => {
    const empty = new IndexedMerkleTree(1, 26, []);
    for (const [address, tree] of [
      [ZERO_HASH, AMT1],
      [newAddress(), AQ1],
    ] as const) {
      const [p] = forest.newAddressProofs([{ address, tree }]);
      expect(p).toMatchObject({
        merkleTree: tree,
        rootSeq: 3,
        lowElementLeafIndex: 0,
        nextIndex: 1,
        lowerRangeAddress: ZERO_HASH,
        root: bigintToBase58(empty.root()),
      });
      expect(p!.higherRangeAddress).toBe("14uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofL");
    }
  });

  it("keeps the request's order across trees", () => {
    const items = [
      { address: newAddress(), tree: AMT2 },
      { address: newAddress(), tree: AMT1 },
      { address: newAddress(), tree: AMT2 },
    ];
    expect(forest.newAddressProofs(items).map((p) => [p.address, p.merkleTree])).toEqual(items.map((i) => [i.address, i.tree]));
  });
});
