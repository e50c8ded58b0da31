import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isEncoded, RpcError, stringifyJson } from "../../../runtime/index.js";
import { Random } from "../../../reference/random.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TreeRecord } from "../../../reference/records.js";
import { IndexedMerkleTree } from "../../../reference/trees/indexed-tree.js";
import { accountProofJson, ADDRESS_TREE_V1, addressLeaf, Forest, fold, ZERO_HASH } from "../../../reference/trees/forest.js";
import {
  base58ToBigint,
  bigintToBase58,
  bigintToHex,
  bytesToBigint,
  hashCount,
  nullifier,
  transactionHash,
  twoInputsHashChain,
} from "../../../reference/trees/poseidon.js";
import { MerkleTree } from "../../../reference/trees/state-tree.js";
import { root } from "../../helpers/paths.js";

// Localnet keys of stateless.js (js/stateless.js/src/constants.ts).
const SMT1 = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT";
const NFQ1 = "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148";
const BMT1 = "bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU";
const OQ1 = "oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto";
const AMT1 = ADDRESS_TREE_V1;
const AQ1 = "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F";
const AMT2 = "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx";

const rng = new Random(15, "forest-test");
const fieldHash = () => {
  const bytes = rng.bytes(32);
  bytes[0] = (bytes[0] as number) % 0x30;
  return bigintToBase58(bytesToBigint(bytes));
};
const newAddress = () => {
  const bytes = rng.bytes(32);
  bytes[0] = 0;
  return bigintToBase58(bytesToBigint(bytes));
};
const signatureText = () => bigintToBase58(bytesToBigint(rng.bytes(32))) + bigintToBase58(bytesToBigint(rng.bytes(32)));

function trees(seq: { smt1: number; bmt1: number; amt1: number; amt2: number }): TreeRecord[] {
  return [
    { tree: SMT1, queue: NFQ1, type: "StateV1", height: 26, rootHistory: 2400, cpiContext: "cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4", seq: seq.smt1 },
    { tree: BMT1, queue: OQ1, type: "StateV2", height: 32, rootHistory: 200, cpiContext: "cpi15BoVPKgEPw5o8wc2T816GE7b378nMXnhH3Xbq4y", seq: seq.bmt1 },
    { tree: AMT1, queue: AQ1, type: "AddressV1", height: 26, rootHistory: 2400, cpiContext: null, seq: seq.amt1 },
    { tree: AMT2, queue: AMT2, type: "AddressV2", height: 40, rootHistory: 200, cpiContext: null, seq: seq.amt2 },
  ];
}

/** A V1 account has its seq; a batched one has seq null (as Photon sends it), `inOutputQueue` telling whether it waits in the output queue. */
function account(tree: string, leafIndex: number, seq: number | null, spent = false, inInputQueue = false, inOutputQueue = false): AccountRecord {
  return { hash: fieldHash(), address: null, data: null, owner: SMT1, lamports: 1, tree, leafIndex, seq, slotCreated: 100, spent, inInputQueue, inOutputQueue };
}

/**
 * A small dataset by hand, with every leaf state: smt1 (V1) leaves 0-5 with 1 and 4 spent; bmt1
 * (batched) leaves 0-4 in the tree (1 nullified, 2 spent but still in the input queue) and 5-7
 * in the output queue (6 spent from the queue); addresses in amt1 and amt2 (two still queued).
 */
function handDataset() {
  const v1 = [0, 1, 2, 3, 4, 5].map((i) => account(SMT1, i, i + 1, i === 1 || i === 4));
  const v2 = [
    account(BMT1, 0, null),
    account(BMT1, 1, null, true, false),
    account(BMT1, 2, null, true, true),
    account(BMT1, 3, null),
    account(BMT1, 4, null),
    account(BMT1, 5, null, false, false, true),
    account(BMT1, 6, null, true, true, true),
    account(BMT1, 7, null, false, false, true),
  ];
  const sigA: SignatureRecord = { signature: signatureText(), slot: 100, blockTime: 1, opened: [...v1, ...v2.slice(0, 5)].map((a) => a.hash), closed: [] };
  const sigB: SignatureRecord = { signature: signatureText(), slot: 101, blockTime: 2, opened: [v2[5]!.hash, v2[6]!.hash], closed: [v1[1]!.hash, v2[1]!.hash] };
  const sigC: SignatureRecord = { signature: signatureText(), slot: 102, blockTime: 3, opened: [v2[7]!.hash], closed: [v1[4]!.hash, v2[2]!.hash, v2[6]!.hash] };
  const amt1 = Array.from({ length: 5 }, newAddress);
  const amt2 = Array.from({ length: 4 }, newAddress);
  const queued = Array.from({ length: 2 }, newAddress);
  const addresses: AddressRecord[] = [
    ...amt1.map((address) => ({ address, tree: AMT1, slot: 100, queued: false })),
    ...amt2.map((address) => ({ address, tree: AMT2, slot: 100, queued: false })),
    ...queued.map((address) => ({ address, tree: AMT2, slot: 102, queued: true })),
  ];
  const dataset: Dataset = {
    seed: null,
    slot: 102,
    // smt1: 6 appends + 2 nullifications, pushed past its root history to show the modulo; amt1: 3 + 2 per address.
    trees: trees({ smt1: 2405, bmt1: 6, amt1: 3 + 2 * amt1.length, amt2: 4 }),
    accounts: [...v1, ...v2],
    tokens: [],
    signatures: [sigA, sigB, sigC],
    addresses,
  };
  return { dataset, v1, v2, sigB, sigC, amt1, amt2, queued };
}

function rpcError(f: () => unknown): RpcError {
  try {
    f();
  } catch (err) {
    if (err instanceof RpcError) return err;
    throw err;
  }
  throw new Error("expected an RpcError");
}

const photon = (file: string) => {
  const text = readFileSync(join(root, "test", "fixtures", "photon-snapshots", file), "utf8");
  return JSON.parse(text.slice(text.indexOf("\n{"))) as { value: unknown[] };
};

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

describe("account proofs", () => {
  const { dataset, v1, v2 } = handDataset();
  const forest = new Forest(dataset);

  it("V1: proves an account by its leaf, 26 or 32 hashes that fold to the root, with the tree's sequence number", () => {
    const p = forest.accountProof(v1[2]!.hash);
    expect(Object.keys(p)).toEqual(["proof", "root", "leafIndex", "hash", "merkleTree", "rootSeq"]);
    expect(p).toMatchObject({ leafIndex: 2, hash: v1[2]!.hash, merkleTree: SMT1, rootSeq: 2405, root: forest.root(SMT1).root });
    expect(p.proof).toHaveLength(26);
    expect(fold(p.hash, p.leafIndex, p.proof)).toBe(p.root);
    // A batched account in the tree, spent or not yet nullified, proves the same way.
    for (const a of [v2[0]!, v2[2]!]) {
      const q = forest.accountProof(a.hash);
      expect(q.proof).toHaveLength(32);
      expect(q).toMatchObject({ merkleTree: BMT1, rootSeq: 6, leafIndex: a.leafIndex });
      expect(fold(q.hash, q.leafIndex, q.proof)).toBe(q.root);
    }
  });

  it("V1: answers Photon's errors for a leaf it does not hold (a nullified account, a queued one, an unknown hash)", () => {
    for (const hash of [v1[1]!.hash, v2[1]!.hash, v2[5]!.hash, fieldHash()]) {
      const err = rpcError(() => forest.accountProof(hash));
      expect(err.code).toBe(-32000);
      expect(err.message).toBe("Record Not Found: Leaf nodes not found for hashes. Got 0 hashes. Expected 1.");
    }
    expect(rpcError(() => forest.accountProofs([v1[0]!.hash, v1[1]!.hash])).message).toBe(
      "Record Not Found: Leaf nodes not found for hashes. Got 1 hashes. Expected 2.",
    );
  });

  it("V1: answers several in request order", () => {
    const hashes = [v2[3]!.hash, v1[5]!.hash, v1[0]!.hash];
    const proofs = forest.accountProofs(hashes);
    expect(proofs.map((p) => p.hash)).toEqual(hashes);
    for (const p of proofs) expect(fold(p.hash, p.leafIndex, p.proof)).toBe(p.root);
    expect(forest.accountProofs([])).toEqual([]);
  });

  it("V1: keeps each written proof with its JSON (the same answer, byte for byte), within its byte bound", () => {
    const hashes = [v1[0]!.hash, v1[2]!.hash, v1[5]!.hash, v2[3]!.hash];
    const plain = (p: unknown) => JSON.parse(JSON.stringify(p)) as unknown;
    const first = new Forest(dataset).accountProofs(hashes);
    const kept = new Forest(dataset);
    const a = kept.accountProofs(hashes);
    const b = kept.accountProofs([...hashes].reverse());
    expect(a.map(plain)).toEqual(first.map(plain));
    // The second call answers the kept objects, encoded once: their text is the plain value's text.
    expect(b).toEqual([...a].reverse());
    for (const [i, p] of a.entries()) {
      expect(b[hashes.length - 1 - i]).toBe(p);
      expect(isEncoded(p)).toBe(true);
      expect(Object.isFrozen(p.proof)).toBe(true);
      expect(stringifyJson(p)).toBe(JSON.stringify(plain(p)));
    }
    expect(kept.accountProof(v1[2]!.hash)).toBe(a[1]);
    // A bound of about two proofs of 26 levels: proving a third drops the first written, which is then written anew (equal, not the same object).
    const small = new Forest(dataset, { keptProofBytes: 3000 });
    const [p0, p1] = small.accountProofs([v1[0]!.hash, v1[2]!.hash]);
    expect(small.accountProof(v1[2]!.hash)).toBe(p1);
    small.accountProof(v1[5]!.hash);
    const again = small.accountProof(v1[0]!.hash);
    expect(again).not.toBe(p0);
    expect(again).toEqual(p0);
    // None kept: every call writes anew, the same answer.
    const none = new Forest(dataset, { keptProofBytes: 0 });
    const [n0] = none.accountProofs([v1[0]!.hash]);
    expect(none.accountProof(v1[0]!.hash)).not.toBe(n0);
    expect(none.accountProof(v1[0]!.hash)).toEqual(first[0]);
  });

  it("V1: with none kept, hands each written proof to `written` with its JSON text (stringifyJson's, byte for byte), frozen", () => {
    const hashes = [v1[0]!.hash, v1[2]!.hash, v1[5]!.hash, v2[3]!.hash];
    const none = new Forest(dataset, { keptProofBytes: 0 });
    const handed: [unknown, string][] = [];
    const written = <T extends object>(value: T, json: string): T => {
      handed.push([value, json]);
      return value;
    };
    const proofs = none.accountProofs(hashes, written);
    expect(proofs).toEqual(new Forest(dataset).accountProofs(hashes));
    expect(handed.map(([v]) => v)).toEqual(proofs);
    for (const [i, p] of proofs.entries()) {
      expect(handed[i]![1]).toBe(stringifyJson(p));
      expect(accountProofJson(p)).toBe(stringifyJson(p));
      expect(Object.isFrozen(p.proof)).toBe(true);
    }
    const one = none.accountProof(v1[5]!.hash, written);
    expect(handed.at(-1)).toEqual([one, stringifyJson(one)]);
    // Kept proofs are encoded (their text kept by encodeOnce): `written` is not called for them.
    const before = handed.length;
    new Forest(dataset).accountProofs(hashes, written);
    expect(handed.length).toBe(before);
  });

  it("V1: a request naming one leaf twice takes the general lookup and its error", () => {
    expect(rpcError(() => forest.accountProofs([v1[0]!.hash, v1[2]!.hash, v1[0]!.hash])).message).toBe(
      "Record Not Found: Leaf nodes not found for hashes. Got 2 hashes. Expected 3.",
    );
  });

  it("V2: proves by leaf when the tree holds the hash, by index otherwise, answering the leaf the index holds", () => {
    const inTree = forest.accountProofV2(v2[0]!.hash);
    expect(Object.keys(inTree)).toEqual(["proof", "root", "leafIndex", "hash", "rootSeq", "proveByIndex", "treeContext"]);
    expect(inTree).toMatchObject({
      hash: v2[0]!.hash,
      proveByIndex: false,
      rootSeq: 6,
      treeContext: { treeType: 3, tree: BMT1, queue: OQ1, cpiContext: null },
    });
    // Still in the output queue: the zero leaf at its index (Photon answers ZERO_BYTES[0] as `hash`).
    const queued = forest.accountProofV2(v2[5]!.hash);
    expect(queued).toMatchObject({ hash: ZERO_HASH, leafIndex: 5, proveByIndex: true, root: inTree.root, rootSeq: 6 });
    // Nullified in the tree: the nullifier.
    const nullified = forest.accountProofV2(v2[1]!.hash);
    expect(nullified).toMatchObject({ hash: forest.nullifier(v2[1]!), leafIndex: 1, proveByIndex: true });
    // A spent V1 account: the zero leaf, with its tree's type and nullifier queue.
    const spentV1 = forest.accountProofV2(v1[4]!.hash);
    expect(spentV1).toMatchObject({
      hash: ZERO_HASH,
      leafIndex: 4,
      proveByIndex: true,
      treeContext: { treeType: 1, tree: SMT1, queue: NFQ1, cpiContext: null },
    });
    for (const p of [inTree, queued, nullified, spentV1]) expect(fold(p.hash, p.leafIndex, p.proof)).toBe(p.root);
    expect(rpcError(() => forest.accountProofV2(fieldHash())).message).toBe("Record Not Found: Account not found");
  });

  it("V2: every account of the dataset has a proof that folds to its root", () => {
    for (const a of dataset.accounts) {
      const p = forest.accountProofV2(a.hash);
      expect(fold(p.hash, p.leafIndex, p.proof), a.hash).toBe(p.root);
      expect(p.root).toBe(forest.root(a.tree).root);
    }
  });

  it("V2, several: by-index entries carry no proof, the zero root and rootSeq 0; order and contexts follow the request", () => {
    const hashes = [v2[5]!.hash, v2[0]!.hash, v1[1]!.hash];
    const [queued, inTree, spentV1] = forest.accountProofsV2(hashes);
    expect(queued).toEqual({
      proof: [],
      root: ZERO_HASH,
      leafIndex: 5,
      hash: v2[5]!.hash,
      rootSeq: 0,
      proveByIndex: true,
      treeContext: { treeType: 3, tree: BMT1, queue: OQ1, cpiContext: null },
    });
    expect(inTree).toEqual(forest.accountProofV2(v2[0]!.hash));
    expect(spentV1).toMatchObject({ proof: [], root: ZERO_HASH, hash: v1[1]!.hash, proveByIndex: true, treeContext: { treeType: 1, tree: SMT1, queue: NFQ1 } });
    expect(rpcError(() => forest.accountProofsV2([v2[0]!.hash, v2[0]!.hash])).message).toBe("Record Not Found: Some accounts not found");
    expect(rpcError(() => forest.accountProofsV2([fieldHash()])).message).toBe("Record Not Found: Some accounts not found");
  });
});

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
