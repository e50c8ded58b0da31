/** Account (inclusion) proofs of the forest. */
import { describe, expect, it } from "vitest";
import { isEncoded, stringifyJson } from "../../../runtime/index.js";
import { accountProofJson, Forest, fold, ZERO_HASH } from "../../../reference/trees/forest.js";
import { SMT1, NFQ1, BMT1, OQ1, fieldHash, handDataset, rpcError } from "./hand-dataset.js";

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
