import { describe, expect, it } from "vitest";
import { Random } from "../../../reference/random.js";
import { type AddressTreeVersion, IndexedMerkleTree, indexedLeafHash } from "../../../reference/trees/indexed-tree.js";
import { bytesToBigint, HIGHEST_ADDRESS_PLUS_ONE, hash2, hash3, hashCount } from "../../../reference/trees/poseidon.js";
import { foldProof } from "../../../reference/trees/state-tree.js";

/** An address as light-protocol derives them: 32 bytes whose first is 0 (below 2^248 - 1). */
function addressFrom(rng: Random): bigint {
  const bytes = rng.bytes(32);
  bytes[0] = 0;
  return bytesToBigint(bytes);
}

/**
 * The tree built the way Photon's `multi_append` and the on-chain update build it: one insertion at
 * a time, the new element taking its low element's pointer and the low element pointing to it.
 */
function insertOneByOne(version: AddressTreeVersion, values: readonly bigint[]) {
  const elements =
    version === 1
      ? [
          { leafIndex: 0, value: 0n, nextIndex: 1, nextValue: HIGHEST_ADDRESS_PLUS_ONE },
          { leafIndex: 1, value: HIGHEST_ADDRESS_PLUS_ONE, nextIndex: 0, nextValue: 0n },
        ]
      : [{ leafIndex: 0, value: 0n, nextIndex: 0, nextValue: HIGHEST_ADDRESS_PLUS_ONE }];
  for (const value of values) {
    const low = elements.filter((e) => e.value < value).reduce((a, b) => (b.value > a.value ? b : a));
    elements.push({ leafIndex: elements.length, value, nextIndex: low.nextIndex, nextValue: low.nextValue });
    low.nextIndex = elements.length - 1;
    low.nextValue = value;
  }
  return elements;
}

describe("IndexedMerkleTree: address trees as Photon and light-protocol build them", () => {
  it("starts a V1 tree with (0 → 1, HIGHEST) and (HIGHEST → 0, 0), a V2 tree with (0 → 0, HIGHEST)", () => {
    expect(new IndexedMerkleTree(1, 26, []).elements()).toEqual(insertOneByOne(1, []));
    expect(new IndexedMerkleTree(2, 40, []).elements()).toEqual(insertOneByOne(2, []));
  });

  it("has light-protocol's initial root for a batched address tree (ADDRESS_TREE_INIT_ROOT_40)", () => {
    // light-protocol program-libs/batched-merkle-tree/src/constants.rs (Apache-2.0), ADDRESS_TREE_INIT_ROOT_40.
    const init = Uint8Array.from([
      28, 65, 107, 255, 208, 234, 51, 3, 131, 95, 62, 130, 202, 177, 176, 26, 216, 81, 64, 184, 200, 25, 95, 124, 248, 129, 44, 109, 229, 146, 106, 76,
    ]);
    expect(new IndexedMerkleTree(2, 40, []).root()).toBe(bytesToBigint(init));
  });

  it("hashes leaves as Photon does: V1 Poseidon(value, nextIndex, nextValue), V2 Poseidon(value, nextValue)", () => {
    const e = { leafIndex: 3, value: 5n, nextIndex: 7, nextValue: 9n };
    expect(indexedLeafHash(1, e)).toBe(hash3(5n, 7n, 9n));
    expect(indexedLeafHash(2, e)).toBe(hash2(5n, 9n));
  });

  for (const version of [1, 2] as const) {
    it(`V${version}: links the same elements as inserting one address at a time, whatever the order`, () => {
      const rng = new Random(15, `indexed-order-${version}`);
      const values = Array.from({ length: 40 }, () => addressFrom(rng));
      const tree = new IndexedMerkleTree(version, version === 1 ? 26 : 40, values);
      expect(tree.elements()).toEqual(insertOneByOne(version, values));
      expect(tree.inserted).toBe(40);
    });

    it(`V${version}: finds the low element of an absent address, which brackets it, and its proof folds to the root`, () => {
      const rng = new Random(15, `indexed-low-${version}`);
      const height = version === 1 ? 26 : 40;
      const values = Array.from({ length: 60 }, () => addressFrom(rng));
      const tree = new IndexedMerkleTree(version, height, values);
      const root = tree.root();
      for (let i = 0; i < 15; i++) {
        const address = addressFrom(rng);
        const low = tree.lowElement(address);
        expect(low).toBeDefined();
        expect(tree.has(address)).toBe(false);
        expect(low!.value < address).toBe(true);
        expect(address < low!.nextValue).toBe(true);
        const proof = tree.proof(low!.leafIndex);
        expect(proof).toHaveLength(height);
        expect(foldProof(tree.leafHash(low!), low!.leafIndex, proof)).toBe(root);
      }
      // Every stored element folds too.
      for (const e of tree.elements()) expect(foldProof(tree.leafHash(e), e.leafIndex, tree.proof(e.leafIndex))).toBe(root);
    });

    it(`V${version}: answers an address already in the tree with its predecessor (nextValue = the address), and 0 with none`, () => {
      const rng = new Random(15, `indexed-member-${version}`);
      const values = Array.from({ length: 10 }, () => addressFrom(rng));
      const tree = new IndexedMerkleTree(version, version === 1 ? 26 : 40, values);
      for (const value of values) {
        expect(tree.has(value)).toBe(true);
        expect(tree.lowElement(value)?.nextValue).toBe(value);
      }
      expect(tree.lowElement(0n)).toBeUndefined();
      expect(tree.has(0n)).toBe(true);
    });
  }

  it("hashes nothing until asked, and builds through steps() as root() does", () => {
    const rng = new Random(15, "indexed-lazy");
    const values = Array.from({ length: 300 }, () => addressFrom(rng));
    const before = hashCount();
    const tree = new IndexedMerkleTree(1, 26, values);
    tree.lowElement(values[0]!);
    expect(hashCount()).toBe(before);
    const steps = tree.steps();
    expect(steps.next().done).toBe(false);
    expect(hashCount()).toBeGreaterThan(before);
    while (!steps.next().done);
    const built = hashCount();
    expect(tree.root()).toBe(new IndexedMerkleTree(1, 26, values).root());
    expect(tree.proof(5)).toHaveLength(26);
    expect(built - before).toBeLessThanOrEqual(2 * (values.length + 2) + 26);
  });

  it("refuses addresses an address tree cannot hold: twice, 0, or not below 2^248 - 1", () => {
    const rng = new Random(15, "indexed-refuse");
    const a = addressFrom(rng);
    const code = expect.objectContaining({ code: "PHOTON_REF_ERR_DATASET_INCONSISTENT" });
    expect(() => new IndexedMerkleTree(2, 40, [a, a]).elements()).toThrow(code);
    expect(() => new IndexedMerkleTree(1, 26, [0n]).elements()).toThrow(code);
    expect(() => new IndexedMerkleTree(1, 26, [HIGHEST_ADDRESS_PLUS_ONE]).elements()).toThrow(code);
    expect(() => new IndexedMerkleTree(2, 40, [2n ** 250n]).root()).toThrow(/first byte must be 0/);
  });
});
