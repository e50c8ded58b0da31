/**
 * Leaves of address trees are stored leaves too: Photon keeps each indexed element's leaf hash in
 * `state_trees` (persisted_indexed_merkle_tree.rs:233-256, 418-431) and its V1 proof lookup reads
 * every level-0 row whose hash is asked for, with no tree filter (leaf_node_proof.rs:100-107). So
 * getCompressedAccountProof, getMultipleCompressedAccountProofs and getValidityProof find such a
 * hash and prove it in its address tree; the V2 methods read accounts first and do not. The
 * elements are computed here from the dataset's addresses (sorted by value, leaf indexes in
 * insertion order after the initial elements), not from the forest.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { methodValidators, type MethodName } from "../../generated/index.js";
import { ADDRESS_TREE_V1, addressLeaf, Forest, fold } from "../../reference/index.js";
import type { AccountRecord, TreeRecord } from "../../reference/records.js";
import { decodeBase58, encodeBase58, parseJson, stringifyJson, validate } from "../../runtime/index.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { dataset, profile } from "./fixture.js";

const indexer = useReferenceIndexer({ data: dataset });
const forest = new Forest(dataset);
beforeAll(() => forest.warm({ sliceMs: 50 }), 120_000);

async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(indexer().url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stringifyJson({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return parseJson(await res.text());
}

async function result(method: MethodName, params: unknown): Promise<any> {
  const json = await rpc(method, params);
  expect(json.error, `${method} failed`).toBeUndefined();
  expect(validate(methodValidators[method].result, json.result), `result of ${method}`).toEqual([]);
  return json.result.value;
}

const treeOf = (key: string) => dataset.trees.find((t) => t.tree === key) as TreeRecord;
const bigintOf = (base58: string): bigint => (decodeBase58(base58) as Uint8Array).reduce((v, b) => (v << 8n) | BigInt(b), 0n);
const base58Of = (value: bigint): string => {
  const bytes = new Uint8Array(32);
  let v = value;
  for (let i = 31; i >= 0; i--) {
    bytes[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return encodeBase58(bytes);
};
const HIGHEST = (1n << 248n) - 1n;

interface Leaf {
  tree: string;
  leafIndex: number;
  hash: string;
}

/** Every element of an address tree as its leaf: the initial elements, then the held addresses in insertion order. */
function leavesOf(tree: string): Leaf[] {
  const type = treeOf(tree).type as "AddressV1" | "AddressV2";
  const initial = type === "AddressV1" ? [0n, HIGHEST] : [0n];
  const held = dataset.addresses.filter((a) => a.tree === tree && !a.queued).map((a) => bigintOf(a.address));
  const nodes = [...initial, ...held].map((value, leafIndex) => ({ value, leafIndex }));
  const sorted = [...nodes].sort((a, b) => (a.value < b.value ? -1 : 1));
  return nodes.map(({ value, leafIndex }) => {
    const next = sorted[sorted.findIndex((n) => n.leafIndex === leafIndex) + 1];
    // The last element: V1's highest points back to (0, 0); V2's largest keeps (0, HIGHEST).
    const [nextIndex, nextValue] = next ? [next.leafIndex, next.value] : type === "AddressV1" ? [0, 0n] : [0, HIGHEST];
    return { tree, leafIndex, hash: addressLeaf(type, base58Of(value), nextIndex, base58Of(nextValue)) };
  });
}

const v1Leaves = leavesOf(ADDRESS_TREE_V1);
const v2Leaves = leavesOf(profile.trees.addressV2);
/** The zeroth element, the V1 highest element, a held address of each tree. */
const picked = [v1Leaves[0], v1Leaves[1], v1Leaves[v1Leaves.length - 1], v2Leaves[0], v2Leaves[Math.floor(v2Leaves.length / 2)]] as Leaf[];
const account = dataset.accounts.find((a) => !a.spent && treeOf(a.tree).type === "StateV1") as AccountRecord;

function expectAddressLeafProof(p: Record<string, any>, leaf: Leaf): void {
  const tree = treeOf(leaf.tree);
  expect(Object.keys(p)).toEqual(["proof", "root", "leafIndex", "hash", "merkleTree", "rootSeq"]);
  expect([p.hash, p.leafIndex, p.merkleTree, p.rootSeq]).toEqual([leaf.hash, leaf.leafIndex, leaf.tree, tree.seq]);
  expect(p.proof).toHaveLength(tree.height);
  expect(fold(p.hash, p.leafIndex, p.proof)).toBe(p.root);
  expect(p.root).toBe(forest.root(leaf.tree).root);
}

describe("a leaf of an address tree, asked for as an account hash", () => {
  it("the dataset's address trees hold addresses", () => {
    expect(v1Leaves.length).toBeGreaterThan(2);
    expect(v2Leaves.length).toBeGreaterThan(1);
  });

  it("getCompressedAccountProof proves it in its address tree (V1 and batched)", async () => {
    for (const leaf of picked) expectAddressLeafProof(await result("getCompressedAccountProof", { hash: leaf.hash }), leaf);
  });

  it("getMultipleCompressedAccountProofs proves it beside account hashes, in request order", async () => {
    const value = await result("getMultipleCompressedAccountProofs", [picked[2]!.hash, account.hash, picked[4]!.hash]);
    expectAddressLeafProof(value[0], picked[2]!);
    expect([value[1].hash, value[1].merkleTree, value[1].leafIndex]).toEqual([account.hash, account.tree, account.leafIndex]);
    expectAddressLeafProof(value[2], picked[4]!);
  });

  it("getValidityProof takes it as an account to prove: its address tree's root, root index, leaf index and tree", async () => {
    const leaf = picked[2]!;
    const tree = treeOf(leaf.tree);
    const value = await result("getValidityProof", { hashes: [leaf.hash] });
    expect(value.roots).toEqual([forest.root(leaf.tree).root]);
    expect(value.rootIndices).toEqual([tree.seq % tree.rootHistory]);
    expect(value.leafIndices).toEqual([leaf.leafIndex]);
    expect(value.leaves).toEqual([leaf.hash]);
    expect(value.merkleTrees).toEqual([leaf.tree]);
  });

  it("the V2 proof methods read accounts first: not found, as an unknown hash", async () => {
    const unknown = await rpc("getCompressedAccountProofV2", { hash: profile.unknownHash });
    expect(unknown.error).toBeDefined();
    expect((await rpc("getCompressedAccountProofV2", { hash: picked[2]!.hash })).error).toEqual(unknown.error);
  });
});
