/**
 * Merkle proofs over HTTP (getCompressedAccountProof(V2), getMultipleCompressedAccountProofs(V2),
 * getMultipleNewAddressProofs(V2)): every proof folds to its root, roots are the trees' current
 * roots, rootSeq is the tree's sequence number, and the entries are checked against the dataset's
 * records (which leaf each account holds, the addresses each tree holds), not the handlers' code.
 * Results are checked against the generated validators; errors carry Photon's texts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { methods, methodValidators, type MethodName } from "../../generated/index.js";
import { ADDRESS_TREE_V1, addressLeaf, Forest, fold, ZERO_HASH } from "../../reference/index.js";
import type { AccountRecord, TreeRecord } from "../../reference/records.js";
import { decodeBase58, encodeBase58, parseJson, stringifyJson, validate } from "../../runtime/index.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { dataset, profile } from "./fixture.js";

const indexer = useReferenceIndexer({ data: dataset });
/** An instance of its own over the same records: the trees' current roots. */
const forest = new Forest(dataset);
// Built before the first request: a tree built in the middle of the test would block the event loop
// for seconds between two requests, past the server's keep-alive, and the next request would meet a reset.
beforeAll(() => forest.warm({ sliceMs: 50 }), 120_000);

interface Answer {
  text: string;
  json: any;
}

async function rpc(method: string, params?: unknown): Promise<Answer> {
  const res = await fetch(indexer().url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stringifyJson({ jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
  const text = await res.text();
  return { text, json: parseJson(text) };
}

/** The result of a call that must succeed, valid by the generated validator. */
async function result(method: MethodName, params?: unknown): Promise<any> {
  const { json } = await rpc(method, params);
  expect(json.error, `${method} failed`).toBeUndefined();
  expect(validate(methodValidators[method].result, json.result), `result of ${method}`).toEqual([]);
  expect(json.result.context).toEqual({ slot: dataset.slot });
  return json.result.value;
}

async function error(method: string, params?: unknown): Promise<{ code: number; message: string }> {
  const { json } = await rpc(method, params);
  expect(json.result, `${method} succeeded`).toBeUndefined();
  return json.error;
}

const treeOf = (key: string) => dataset.trees.find((t) => t.tree === key) as TreeRecord;
const accountsIn = (type: TreeRecord["type"]) => dataset.accounts.filter((a) => treeOf(a.tree).type === type);
/** A few accounts spread over the list: first, last and some between. */
const sample = <T>(list: readonly T[], n = 6): T[] =>
  Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor((i * (list.length - 1)) / Math.max(1, n - 1))] as T);
const treeType = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 } as const;

const unspentV1 = sample(
  accountsIn("StateV1").filter((a) => !a.spent),
  8,
);
const spentV1 = accountsIn("StateV1").find((a) => a.spent) as AccountRecord;
const v2 = accountsIn("StateV2");
const inTree = sample(
  v2.filter((a) => !a.spent && !a.inOutputQueue),
  6,
);
const queued = v2.filter((a) => a.inOutputQueue);
const inInputQueue = v2.filter((a) => a.spent && a.inInputQueue);
const nullified = v2.filter((a) => a.spent && !a.inInputQueue);

/** Checks a V1-shaped proof of `account` (its own hash as the leaf) against the records and the trees. */
function expectLeafProof(p: { proof: string[]; root: string; leafIndex: number; hash: string; rootSeq: number }, account: AccountRecord): void {
  const tree = treeOf(account.tree);
  expect(p.hash).toBe(account.hash);
  expect(p.leafIndex).toBe(account.leafIndex);
  expect(p.proof).toHaveLength(tree.height);
  expect(fold(p.hash, p.leafIndex, p.proof)).toBe(p.root);
  expect(p.root).toBe(forest.root(account.tree).root);
  expect(p.rootSeq).toBe(tree.seq);
}

describe("the dataset has every kind of leaf", () => {
  it("V1 accounts unspent and spent, batched ones in the tree, in the output queue, in the input queue and nullified", () => {
    expect(unspentV1.length).toBeGreaterThan(3);
    expect(spentV1).toBeDefined();
    expect([inTree.length, queued.length, inInputQueue.length, nullified.length].every((n) => n > 0)).toBe(true);
  });
});

describe("getCompressedAccountProof", () => {
  it("proves each account by its leaf: the siblings fold the hash to the tree's current root, rootSeq is the tree's", async () => {
    for (const account of [...unspentV1, ...inTree, ...inInputQueue.slice(0, 2)]) {
      const value = await result("getCompressedAccountProof", { hash: account.hash });
      expect(Object.keys(value)).toEqual(["proof", "root", "leafIndex", "hash", "merkleTree", "rootSeq"]);
      expect(value.merkleTree).toBe(account.tree);
      expectLeafProof(value, account);
    }
  });

  it("answers Record Not Found for a hash that is no leaf: unknown, spent V1, nullified, still in the output queue", async () => {
    for (const hash of [profile.unknownHash, spentV1.hash, (nullified[0] as AccountRecord).hash, (queued[0] as AccountRecord).hash]) {
      expect(await error("getCompressedAccountProof", { hash })).toEqual({
        code: -32000,
        message: "Record Not Found: Leaf nodes not found for hashes. Got 0 hashes. Expected 1.",
      });
    }
  });

  it("ignores unknown params keys (HashRequest does not deny them)", async () => {
    const account = unspentV1[0] as AccountRecord;
    expectLeafProof(await result("getCompressedAccountProof", { hash: account.hash, extra: 1 }), account);
  });
});

describe("getCompressedAccountProofV2", () => {
  it("proves a leaf by hash with its tree context", async () => {
    for (const account of [...unspentV1.slice(0, 3), ...inTree.slice(0, 3)]) {
      const value = await result("getCompressedAccountProofV2", { hash: account.hash });
      const tree = treeOf(account.tree);
      expect(Object.keys(value)).toEqual(["proof", "root", "leafIndex", "hash", "rootSeq", "proveByIndex", "treeContext"]);
      expect(value.proveByIndex).toBe(false);
      expect(value.treeContext).toEqual({ treeType: treeType[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null });
      expectLeafProof(value, account);
    }
  });

  it("proves an output-queue account by its position: the zero leaf it holds there folds to the current root", async () => {
    for (const account of sample(queued, 4)) {
      const value = await result("getCompressedAccountProofV2", { hash: account.hash });
      const tree = treeOf(account.tree);
      expect(value.proveByIndex).toBe(true);
      expect(value.hash).toBe(ZERO_HASH);
      expect(value.leafIndex).toBe(account.leafIndex);
      expect(value.proof).toHaveLength(tree.height);
      expect(fold(ZERO_HASH, account.leafIndex, value.proof)).toBe(value.root);
      expect(value.root).toBe(forest.root(account.tree).root);
      expect(value.rootSeq).toBe(tree.seq);
      expect(value.treeContext).toEqual({ treeType: 3, tree: tree.tree, queue: tree.queue, cpiContext: null });
    }
  });

  it("proves a spent V1 account by position too (its leaf is zero now), and refuses a hash of no account", async () => {
    const value = await result("getCompressedAccountProofV2", { hash: spentV1.hash });
    expect([value.proveByIndex, value.hash, value.leafIndex]).toEqual([true, ZERO_HASH, spentV1.leafIndex]);
    expect(fold(ZERO_HASH, spentV1.leafIndex, value.proof)).toBe(forest.root(spentV1.tree).root);
    expect(await error("getCompressedAccountProofV2", { hash: profile.unknownHash })).toEqual({ code: -32000, message: "Record Not Found: Account not found" });
  });
});

describe("getMultipleCompressedAccountProofs", () => {
  const cap = methods.getMultipleCompressedAccountProofs.maxItems[""] as number;

  it("takes a JSON array and answers one proof per hash, in request order", async () => {
    const accounts = [...inTree.slice(0, 2), ...unspentV1.slice(0, 3), ...inTree.slice(2, 3)].reverse();
    const value = await result(
      "getMultipleCompressedAccountProofs",
      accounts.map((a) => a.hash),
    );
    expect(value).toHaveLength(accounts.length);
    value.forEach((p: { merkleTree: string; proof: string[]; root: string; leafIndex: number; hash: string; rootSeq: number }, i: number) => {
      expect(p.merkleTree).toBe((accounts[i] as AccountRecord).tree);
      expectLeafProof(p, accounts[i] as AccountRecord);
    });
    expect(await result("getMultipleCompressedAccountProofs", [])).toEqual([]);
  });

  it("counts leaves found: a repeated hash or one that is no leaf fails the whole call", async () => {
    const a = (unspentV1[0] as AccountRecord).hash;
    const b = (unspentV1[1] as AccountRecord).hash;
    expect(await error("getMultipleCompressedAccountProofs", [a, a])).toEqual({
      code: -32000,
      message: "Record Not Found: Leaf nodes not found for hashes. Got 1 hashes. Expected 2.",
    });
    expect(await error("getMultipleCompressedAccountProofs", [a, (queued[0] as AccountRecord).hash, b])).toEqual({
      code: -32000,
      message: "Record Not Found: Leaf nodes not found for hashes. Got 2 hashes. Expected 3.",
    });
  });

  it(`refuses more than the table's cap (${cap}) before anything else, and an object as params`, async () => {
    const hashes = Array.from({ length: cap + 1 }, () => profile.unknownHash);
    expect(await error("getMultipleCompressedAccountProofs", hashes)).toEqual({
      code: -32000,
      message: `Validation Error: Too many hashes requested ${cap + 1}. Maximum allowed: ${cap}`,
    });
    expect((await error("getMultipleCompressedAccountProofs", { hashes: [] })).code).toBe(-32602);
  });
});

describe("getMultipleCompressedAccountProofsV2", () => {
  it("gives leaves full proofs and output-queue accounts no proof, the zero root and rootSeq 0, in request order", async () => {
    const accounts = [queued[0], inTree[0], unspentV1[0], queued[1], inInputQueue[0]] as AccountRecord[];
    const value = await result(
      "getMultipleCompressedAccountProofsV2",
      accounts.map((a) => a.hash),
    );
    value.forEach((p: Record<string, unknown> & { proof: string[]; root: string; leafIndex: number; hash: string; rootSeq: number }, i: number) => {
      const account = accounts[i] as AccountRecord;
      const tree = treeOf(account.tree);
      expect(p.treeContext).toEqual({ treeType: treeType[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null });
      if (account.inOutputQueue) {
        expect(p).toMatchObject({ proof: [], root: ZERO_HASH, leafIndex: account.leafIndex, hash: account.hash, rootSeq: 0, proveByIndex: true });
      } else {
        expect(p.proveByIndex).toBe(false);
        expectLeafProof(p, account);
      }
    });
  });

  it("needs every hash in the index once", async () => {
    const a = (inTree[0] as AccountRecord).hash;
    for (const hashes of [
      [a, a],
      [a, profile.unknownHash],
    ]) {
      expect(await error("getMultipleCompressedAccountProofsV2", hashes)).toEqual({ code: -32000, message: "Record Not Found: Some accounts not found" });
    }
    const cap = methods.getMultipleCompressedAccountProofsV2.maxItems[""] as number;
    expect(
      (
        await error(
          "getMultipleCompressedAccountProofsV2",
          Array.from({ length: cap + 1 }, () => a),
        )
      ).message,
    ).toBe(`Validation Error: Too many hashes requested ${cap + 1}. Maximum allowed: ${cap}`);
  });
});

// --- new addresses ------------------------------------------------------------------------------

const bigintOf = (base58: string): bigint => {
  const bytes = decodeBase58(base58) as Uint8Array;
  return bytes.reduce((v, b) => (v << 8n) | BigInt(b), 0n);
};
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

/** The addresses a tree holds (inserted, not queued), as values, with their leaf indexes (after the initial elements). */
function heldAddresses(tree: string): { value: bigint; leafIndex: number }[] {
  const first = treeOf(tree).type === "AddressV1" ? 2 : 1;
  return dataset.addresses.filter((a) => a.tree === tree && !a.queued).map((a, i) => ({ value: bigintOf(a.address), leafIndex: first + i }));
}

/** The low element of `address` by brute force: the largest held value below it, or the zeroth element. */
function lowElementOf(tree: string, address: string): { value: bigint; leafIndex: number; next: bigint } {
  const held = heldAddresses(tree).sort((a, b) => (a.value < b.value ? -1 : 1));
  const v = bigintOf(address);
  let low = { value: 0n, leafIndex: 0 };
  let next = held[0]?.value ?? HIGHEST;
  for (const h of held) {
    if (h.value < v) {
      low = h;
      next = HIGHEST;
    } else {
      next = h.value;
      break;
    }
  }
  return { ...low, next };
}

/** New addresses between the held ones (first byte 0, as Light derives them): midpoints of random gaps. */
function newAddresses(tree: string, n: number): string[] {
  const held = heldAddresses(tree)
    .map((h) => h.value)
    .sort((a, b) => (a < b ? -1 : 1));
  return Array.from({ length: n }, (_, i) => {
    const at = Math.floor((i * held.length) / n);
    const lo = at === 0 ? 0n : (held[at - 1] as bigint);
    const hi = held[at] as bigint;
    return base58Of((lo + hi) / 2n);
  });
}

function expectNewAddressProof(p: Record<string, unknown>, address: string, tree: string): void {
  const record = treeOf(tree);
  const low = lowElementOf(tree, address);
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
  expect(p.address).toBe(address);
  expect(p.merkleTree).toBe(tree);
  expect(bigintOf(p.lowerRangeAddress as string)).toBe(low.value);
  expect(bigintOf(p.higherRangeAddress as string)).toBe(low.next);
  expect(bigintOf(p.lowerRangeAddress as string) < bigintOf(address)).toBe(true);
  expect(bigintOf(address) < bigintOf(p.higherRangeAddress as string)).toBe(true);
  expect(p.lowElementLeafIndex).toBe(low.leafIndex);
  expect(p.proof as string[]).toHaveLength(record.height);
  const leaf = addressLeaf(record.type as "AddressV1" | "AddressV2", p.lowerRangeAddress as string, p.nextIndex as number, p.higherRangeAddress as string);
  expect(fold(leaf, p.lowElementLeafIndex as number, p.proof as string[])).toBe(p.root);
  expect(p.root).toBe(forest.root(tree).root);
  expect(p.rootSeq).toBe(record.seq);
}

const AMT2 = profile.trees.addressV2;

describe("getMultipleNewAddressProofs", () => {
  it("proves each address absent from the V1 address tree: its low element brackets it and folds to the root", async () => {
    const addresses = [...newAddresses(ADDRESS_TREE_V1, 5), profile.unknownAddress];
    const value = await result("getMultipleNewAddressProofs", addresses);
    expect(value).toHaveLength(addresses.length);
    value.forEach((p: Record<string, unknown>, i: number) => expectNewAddressProof(p, addresses[i] as string, ADDRESS_TREE_V1));
  });

  it("refuses an empty list and more than the table's cap", async () => {
    const cap = methods.getMultipleNewAddressProofs.maxItems[""] as number;
    expect(await error("getMultipleNewAddressProofs", [])).toEqual({ code: -32000, message: "Validation Error: No addresses provided" });
    expect(
      await error(
        "getMultipleNewAddressProofs",
        Array.from({ length: cap + 1 }, () => profile.unknownAddress),
      ),
    ).toEqual({
      code: -32000,
      message: `Validation Error: Too many addresses requested ${cap + 1}. Maximum allowed: ${cap}`,
    });
  });
});

describe("getMultipleNewAddressProofsV2", () => {
  it("proves each address in the tree it names (V1 and batched), in request order", async () => {
    const items = [
      ...newAddresses(AMT2, 4).map((address) => ({ address, tree: AMT2 })),
      ...newAddresses(ADDRESS_TREE_V1, 2).map((address) => ({ address, tree: ADDRESS_TREE_V1 })),
    ];
    const value = await result("getMultipleNewAddressProofsV2", items);
    value.forEach((p: Record<string, unknown>, i: number) => expectNewAddressProof(p, items[i]?.address as string, items[i]?.tree as string));
  });

  it("refuses an address still in a batched tree's queue, and a tree it does not know", async () => {
    const waiting = dataset.addresses.find((a) => a.tree === AMT2 && a.queued);
    expect(waiting).toBeDefined();
    const address = waiting?.address as string;
    expect(await error("getMultipleNewAddressProofsV2", [{ address, tree: AMT2 }])).toEqual({
      code: -32000,
      message: `Validation Error: Address ${address} already exists`,
    });
    const unknownTree = profile.ownerWithNoAccounts;
    expect(await error("getMultipleNewAddressProofsV2", [{ address: profile.unknownAddress, tree: unknownTree }])).toEqual({
      code: -32000,
      message: `Invalid Public Key: field '${unknownTree}'`,
    });
  });
});
