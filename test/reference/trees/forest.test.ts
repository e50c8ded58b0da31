/** The Forest: the reference's trees built lazily, and Photon's own snapshots reproduced. */
import { describe, expect, it } from "vitest";
import { Forest, fold, ZERO_HASH } from "../../../reference/trees/forest.js";
import { base58ToBigint, bigintToBase58, hashCount, nullifier, transactionHash } from "../../../reference/trees/poseidon.js";
import { MerkleTree } from "../../../reference/trees/state-tree.js";
import { SMT1, BMT1, AMT1, AMT2, trees, handDataset, photon } from "./hand-dataset.js";

describe("Forest: the reference's trees, built lazily", () => {
  it("hashes nothing when constructed, and builds only the tree a proof needs", () => {
    const { dataset, v1 } = handDataset();
    const before = hashCount();
    const forest = new Forest(dataset);
    expect(hashCount()).toBe(before);
    expect(forest.built()).toEqual([]);
    forest.accountProof(v1[0]!.hash);
    expect(forest.built()).toEqual([SMT1]);
    expect(hashCount()).toBeGreaterThan(before);
  });

  it("builds every tree in the background with warm(), then answers without hashing", async () => {
    const { dataset, v1 } = handDataset();
    const forest = new Forest(dataset);
    await forest.warm({ sliceMs: 1 });
    expect(forest.built().sort()).toEqual([AMT1, AMT2, BMT1, SMT1].sort());
    const before = hashCount();
    forest.accountProof(v1[0]!.hash);
    forest.root(AMT2);
    expect(hashCount()).toBe(before);
    const aborted = new Forest(dataset);
    await aborted.warm({ signal: AbortSignal.abort() });
    expect(aborted.built()).toEqual([]);
  });

  it("stores each account's leaf as Photon does: hash; zero once a V1 account is spent; nullifier once a batch nullifies it; nothing while queued", () => {
    const { dataset, v1, v2, sigB } = handDataset();
    const forest = new Forest(dataset);
    const tx = transactionHash(sigB.closed.map(base58ToBigint), sigB.opened.map(base58ToBigint), sigB.slot);
    expect(forest.transactionHash(sigB)).toBe(bigintToBase58(tx));
    const nullified = bigintToBase58(nullifier(base58ToBigint(v2[1]!.hash), 1, tx));
    expect(forest.nullifier(v2[1]!)).toBe(nullified);
    expect(v1.map((a) => forest.leaf(a))).toEqual([v1[0]!.hash, ZERO_HASH, v1[2]!.hash, v1[3]!.hash, ZERO_HASH, v1[5]!.hash]);
    expect(v2.map((a) => forest.leaf(a))).toEqual([v2[0]!.hash, nullified, v2[2]!.hash, v2[3]!.hash, v2[4]!.hash, null, null, null]);
    expect(v2.map((a) => forest.isInOutputQueue(a))).toEqual([false, false, false, false, false, true, true, true]);
    expect(forest.isInOutputQueue(v1[0]!)).toBe(false);
    // The roots are those of the plain trees of those leaves.
    const v1Leaves = v1.map((a) => (a.spent ? 0n : base58ToBigint(a.hash)));
    expect(forest.root(SMT1)).toEqual({ root: bigintToBase58(new MerkleTree(26, v1Leaves).root()), rootSeq: 2405 });
    const v2Leaves = [v2[0]!.hash, nullified, v2[2]!.hash, v2[3]!.hash, v2[4]!.hash].map(base58ToBigint);
    expect(forest.root(BMT1)).toEqual({ root: bigintToBase58(new MerkleTree(32, v2Leaves).root()), rootSeq: 6 });
  });
});

describe("Photon's own snapshots", () => {
  it("state-tree proofs of Photon's integration tests fold to their roots with our fold", () => {
    for (const file of [
      "integration_tests__e2e_tests__lamport_transfers-receiver-proofs.snap",
      "integration_tests__e2e_tests__e2e_mint_and_transfer_transactions-bob-proofs.snap",
    ]) {
      const proofs = photon(file).value as { proof: string[]; root: string; leafIndex: number; hash: string }[];
      expect(proofs.length).toBeGreaterThan(0);
      for (const p of proofs) {
        expect(p.proof).toHaveLength(26);
        expect(fold(p.hash, p.leafIndex, p.proof), file).toBe(p.root);
      }
    }
  });

  it("new-address proofs on an empty V1 address tree: the forest answers what Photon answered, field for field", () => {
    const expected = photon("integration_tests__mock_tests__get_multiple_new_address_proofs.snap").value as { address: string }[];
    const forest = new Forest({
      seed: null,
      slot: 0,
      trees: trees({ smt1: 0, bmt1: 0, amt1: 3, amt2: 0 }),
      accounts: [],
      tokens: [],
      signatures: [],
      addresses: [],
    });
    expect(forest.newAddressProofs(expected.map((p) => ({ address: p.address, tree: AMT1 })))).toEqual(expected);
  });

  it("a new-address proof on a V1 address tree holding one address: the forest, given that address, answers it field for field", () => {
    const expected = photon("integration_tests__e2e_tests__nullfiier_and_address_queue_transactions-proof-address.snap").value as {
      address: string;
      higherRangeAddress: string;
      rootSeq: number;
    }[];
    const inserted = expected[0]!.higherRangeAddress;
    const forest = new Forest({
      seed: null,
      slot: 0,
      trees: trees({ smt1: 0, bmt1: 0, amt1: expected[0]!.rootSeq, amt2: 0 }),
      accounts: [],
      tokens: [],
      signatures: [],
      addresses: [{ address: inserted, tree: AMT1, slot: 0, queued: false }],
    });
    expect(forest.newAddressProofs(expected.map((p) => ({ address: p.address, tree: AMT1 })))).toEqual(expected);
  });
});
