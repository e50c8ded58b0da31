/** The inputs of validity proofs the forest gathers. */
import { describe, expect, it } from "vitest";
import { Forest, ZERO_HASH } from "../../../reference/trees/forest.js";
import { base58ToBigint, bigintToHex, hashCount, twoInputsHashChain } from "../../../reference/trees/poseidon.js";
import { SMT1, NFQ1, BMT1, OQ1, AMT1, AQ1, AMT2, newAddress, handDataset, rpcError } from "./hand-dataset.js";

describe("validity-proof inputs", () => {
  const { dataset, v1, v2 } = handDataset();
  const forest = new Forest(dataset);

  it("computes root indexes as rootSeq % the proof's own tree's root history", () => {
    expect(forest.rootIndex(2405, SMT1)).toBe(5);
    expect(forest.rootIndex(2405, NFQ1)).toBe(5);
    expect(forest.rootIndex(206, BMT1)).toBe(6);
    expect(rpcError(() => forest.rootIndex(1, "unknown")).message).toBe("Internal server error");
  });

  it("V1: roots, root indexes, leaf indexes, leaves and trees of accounts then addresses, and the prover's request", () => {
    const address = newAddress();
    const r = forest.validityProofV1({ hashes: [v1[3]!.hash, v1[0]!.hash], newAddresses: [address] });
    const [a, b] = forest.accountProofs([v1[3]!.hash, v1[0]!.hash]);
    const [n] = forest.newAddressProofs([{ address, tree: AMT1 }]);
    expect(r).toMatchObject({
      roots: [a!.root, b!.root, n!.root],
      rootIndices: [5, 5, 13],
      leafIndices: [3, 0, n!.lowElementLeafIndex],
      leaves: [v1[3]!.hash, v1[0]!.hash, address],
      merkleTrees: [SMT1, SMT1, AMT1],
    });
    expect(r.prover).toMatchObject({ circuitType: "combined", stateTreeHeight: 26, addressTreeHeight: 26 });
    expect(r.prover.publicInputHash).toBeUndefined();
    expect(r.prover.inputCompressedAccounts?.[0]).toEqual({
      root: bigintToHex(base58ToBigint(a!.root)),
      pathIndex: 3,
      pathElements: a!.proof.map((h) => bigintToHex(base58ToBigint(h))),
      leaf: bigintToHex(base58ToBigint(v1[3]!.hash)),
    });
    expect(r.prover.newAddresses?.[0]).toMatchObject({
      value: bigintToHex(base58ToBigint(address)),
      nextIndex: n!.nextIndex,
      pathIndex: n!.lowElementLeafIndex,
    });
  });

  it("V1: answers Photon's validation errors", () => {
    expect(rpcError(() => forest.validityProofV1({})).message).toBe("Validation Error: No hashes or new addresses provided for proof generation");
    expect(
      rpcError(() => forest.validityProofV1({ newAddresses: [newAddress()], newAddressesWithTrees: [{ address: newAddress(), tree: AMT1 }] })).message,
    ).toBe("Validation Error: Cannot provide both newAddresses and newAddressesWithTree");
    expect(rpcError(() => forest.validityProofV1({ hashes: [v1[0]!.hash, v2[0]!.hash] })).message).toBe(
      "Validation Error: All state trees for account proofs must have the same height",
    );
    expect(
      rpcError(() =>
        forest.validityProofV1({
          newAddressesWithTrees: [
            { address: newAddress(), tree: AMT1 },
            { address: newAddress(), tree: AMT2 },
          ],
        }),
      ).message,
    ).toBe("Validation Error: All address trees for new address proofs must have the same height");
    expect(rpcError(() => forest.validityProofV1({ newAddressesWithTrees: [{ address: newAddress(), tree: AQ1 }] })).message).toBe(
      `Validation Error: Tree metadata not found for ${AQ1}. Please ensure tree metadata sync has been run.`,
    );
  });

  it("V2: accounts in request order, queued ones by index; contexts of each proof's tree; the public input hash for batched heights", () => {
    const r = forest.validityProofV2({ hashes: [v2[5]!.hash, v2[3]!.hash] })!;
    expect(r.accounts[0]).toEqual({
      hash: v2[5]!.hash,
      root: ZERO_HASH,
      rootIndex: { rootIndex: 0, proveByIndex: true },
      leafIndex: 5,
      merkleContext: { treeType: 3, tree: BMT1, queue: OQ1, cpiContext: null, nextTreeContext: null },
    });
    const bmtRoot = forest.root(BMT1).root;
    expect(r.accounts[1]).toEqual({
      hash: v2[3]!.hash,
      root: bmtRoot,
      rootIndex: { rootIndex: 6, proveByIndex: false },
      leafIndex: 3,
      merkleContext: { treeType: 3, tree: BMT1, queue: OQ1, cpiContext: null, nextTreeContext: null },
    });
    expect(r.addresses).toEqual([]);
    expect(r.prover).toMatchObject({ circuitType: "inclusion", stateTreeHeight: 32 });
    expect(r.prover?.publicInputHash).toBe(bigintToHex(twoInputsHashChain([base58ToBigint(bmtRoot)], [base58ToBigint(v2[3]!.hash)])));
    // Only queued accounts: no proof to make (Photon's compressedProof is null).
    expect(forest.validityProofV2({ hashes: [v2[7]!.hash] })?.prover).toBeNull();
    // Neither hashes nor addresses: Photon's default answer.
    expect(forest.validityProofV2({})).toBeNull();
    const address = newAddress();
    const withAddress = forest.validityProofV2({ newAddressesWithTrees: [{ address, tree: AMT2 }] })!;
    expect(withAddress.addresses[0]).toEqual({
      address,
      root: forest.root(AMT2).root,
      rootIndex: 4,
      merkleContext: { treeType: 4, tree: AMT2, queue: AMT2, cpiContext: null, nextTreeContext: null },
    });
    expect(withAddress.prover).toMatchObject({ circuitType: "non-inclusion", addressTreeHeight: 40 });
    // The request's values are computed when it is read (a forwarding reference sends it): no Poseidon call before, the same keys in order after.
    const combined = forest.validityProofV2({ hashes: [v2[3]!.hash], newAddressesWithTrees: [{ address: newAddress(), tree: AMT2 }] })!;
    const before = hashCount();
    const keys = Object.keys(combined.prover!);
    expect(keys).toEqual(["circuitType", "stateTreeHeight", "addressTreeHeight", "publicInputHash", "inputCompressedAccounts", "newAddresses"]);
    expect(hashCount()).toBe(before);
    const sent = JSON.parse(JSON.stringify(combined.prover)) as { inputCompressedAccounts: { root: string; pathElements: string[]; leaf: string }[] };
    expect(hashCount()).toBe(before + 3);
    expect(Object.keys(sent)).toEqual(keys);
    expect(sent.inputCompressedAccounts[0]!.root).toBe(bigintToHex(base58ToBigint(bmtRoot)));
    expect(sent.inputCompressedAccounts[0]!.leaf).toBe(bigintToHex(base58ToBigint(v2[3]!.hash)));
    expect(sent.inputCompressedAccounts[0]!.pathElements).toHaveLength(32);
  });

  it("V2: refuses spent or unknown accounts with Photon's message", () => {
    const spent = v2[2]!.hash;
    const live = v2[0]!.hash;
    expect(rpcError(() => forest.validityProofV2({ hashes: [live, spent] })).message).toBe(
      `Validation Error: Not all requested account hashes exist or are available (might be spent). Requested: ["${live}", "${spent}"], Found in DB: ["${live}"]`,
    );
  });
});
