/**
 * The batched trees' queues over HTTP (getQueueElements, getQueueInfo), checked against the
 * dataset's records by brute force: which accounts wait in each queue and in what order, their
 * queue indexes, leaves, transaction hashes and nullifiers (hashed here with poseidon-lite), the
 * hash chains of whole batches, and the proof nodes, which must rebuild each element's path up to
 * the tree's current root. Photon's rules: HEAD:src/api/method/get_queue_elements.rs and
 * get_queue_info.rs (spec/DECISIONS.md rows 71, 72).
 */
import { poseidon2, poseidon3 } from "poseidon-lite";
import { beforeAll, describe, expect, it } from "vitest";
import { methodValidators } from "../../generated/index.js";
import { Forest, ZERO_HASH } from "../../reference/index.js";
import type { AccountRecord, SignatureRecord, TreeRecord } from "../../reference/records.js";
import { decodeBase58, encodeBase58, parseJson, stringifyJson, validate } from "../../runtime/index.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { dataset, profile } from "./fixture.js";

const indexer = useReferenceIndexer({ data: dataset });
const forest = new Forest(dataset);
// Built before the first request: a tree built in the middle of the test would block the event loop
// for seconds between two requests, past the server's keep-alive, and the next request would meet a reset.
beforeAll(() => forest.warm({ sliceMs: 50 }), 120_000);

async function post(method: string, params: unknown) {
  const res = await fetch(indexer().url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stringifyJson({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return parseJson(await res.text()) as { result?: any; error?: { code: number; message: string } };
}

async function elements(params: unknown): Promise<any> {
  const json = await post("getQueueElements", params);
  expect(json.error, "getQueueElements failed").toBeUndefined();
  expect(validate(methodValidators.getQueueElements.result, json.result)).toEqual([]);
  expect(json.result.context).toEqual({ slot: dataset.slot });
  return json.result;
}

async function info(params: unknown): Promise<any> {
  const json = await post("getQueueInfo", params);
  expect(json.error, "getQueueInfo failed").toBeUndefined();
  expect(validate(methodValidators.getQueueInfo.result, json.result)).toEqual([]);
  return json.result;
}

async function error(method: string, params: unknown) {
  const json = await post(method, params);
  expect(json.result, `${method} succeeded`).toBeUndefined();
  return json.error as { code: number; message: string };
}

// --- brute force over the records ---------------------------------------------------------------

const big = (b58: string): bigint => (decodeBase58(b58) as Uint8Array).reduce((v, b) => (v << 8n) | BigInt(b), 0n);
const b58 = (v: bigint): string => {
  const bytes = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0; i--) {
    bytes[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return encodeBase58(bytes);
};
const h2 = (a: bigint, b: bigint) => poseidon2([a, b]);
const chain = (values: readonly bigint[]) => values.slice(1).reduce((c, v) => h2(c, v), values[0] ?? 0n);
const zeros: bigint[] = [0n];
const zero = (level: number) => {
  while (zeros.length <= level) zeros.push(h2(zeros[zeros.length - 1] as bigint, zeros[zeros.length - 1] as bigint));
  return zeros[level] as bigint;
};

const treeOf = (key: string) => dataset.trees.find((t) => t.tree === key) as TreeRecord;
const batchedState = dataset.trees.filter((t) => t.type === "StateV2");
const AMT2 = profile.trees.addressV2;
/** The batched state tree with the longest output queue. */
const BUSY = [...batchedState].sort((a, b) => outputOf(b.tree).length - outputOf(a.tree).length)[0] as TreeRecord;

function outputOf(tree: string): AccountRecord[] {
  return dataset.accounts.filter((a) => a.tree === tree && a.inOutputQueue).sort((a, b) => a.leafIndex - b.leafIndex);
}

/** Input queue: spent accounts still waiting, in the order they were spent (each tree's nullifier queue index counts every spent account of it). */
function inputOf(tree: string): { account: AccountRecord; queueIndex: number; closedBy: SignatureRecord }[] {
  const byHash = new Map(dataset.accounts.map((a) => [a.hash, a]));
  const out: { account: AccountRecord; queueIndex: number; closedBy: SignatureRecord }[] = [];
  let next = 0;
  for (const s of dataset.signatures)
    for (const hash of s.closed) {
      const account = byHash.get(hash);
      if (account?.tree !== tree) continue;
      if (account.inInputQueue) out.push({ account, queueIndex: next, closedBy: s });
      next++;
    }
  return out;
}

/** The system program's transaction hash and the nullifier of a spent batched account (light-protocol tx_hash.rs, nullifier.rs). */
function nullifierOf(e: { account: AccountRecord; closedBy: SignatureRecord }): { txHash: string; nullifier: string } {
  const tx = chain([0n, chain(e.closedBy.closed.map(big)), chain(e.closedBy.opened.map(big)), BigInt(e.closedBy.slot)]);
  return { txHash: b58(tx), nullifier: b58(poseidon3([big(e.account.hash), BigInt(e.account.leafIndex), tx])) };
}

const decodeIndex = (index: number | bigint) => {
  const i = BigInt(index);
  return { level: Number(i >> 56n), position: Number(i & ((1n << 56n) - 1n)) };
};

/** Rebuilds the path of leaf `leafIndex` from the answer's nodes: every sibling is there, every stored parent agrees; returns the root. */
function rootFromNodes(nodes: { index: number | bigint; hash: string }[], leafIndex: number, leaf: string, height: number): string {
  const at = new Map(
    nodes.map((n) => {
      const { level, position } = decodeIndex(n.index);
      return [`${level}/${position}`, n.hash];
    }),
  );
  expect(at.get(`0/${leafIndex}`)).toBe(leaf);
  let node = big(leaf);
  let position = leafIndex;
  for (let level = 0; level < height; level++) {
    const sibling = at.get(`${level}/${position ^ 1}`);
    expect(sibling, `sibling at level ${level}`).toBeDefined();
    node = position % 2 === 0 ? h2(node, big(sibling as string)) : h2(big(sibling as string), node);
    position = Math.floor(position / 2);
    const stored = at.get(`${level + 1}/${position}`);
    if (stored !== undefined) expect(stored).toBe(b58(node));
  }
  return b58(node);
}

describe("the dataset's queues", () => {
  it("hold elements in output, input and address queues", () => {
    expect(outputOf(BUSY.tree).length).toBeGreaterThanOrEqual(20);
    expect(batchedState.some((t) => inputOf(t.tree).length >= 4)).toBe(true);
    expect(dataset.addresses.filter((a) => a.tree === AMT2 && a.queued).length).toBeGreaterThanOrEqual(10);
  });
});

describe("getQueueInfo", () => {
  const expected = () =>
    dataset.trees.flatMap((t) => {
      if (t.type === "StateV2")
        return [
          { tree: t.tree, queue: t.queue, queueType: 3, queueSize: inputOf(t.tree).length },
          { tree: t.tree, queue: t.queue, queueType: 5, queueSize: outputOf(t.tree).length },
        ];
      if (t.type === "AddressV2")
        return [{ tree: t.tree, queue: t.queue, queueType: 4, queueSize: dataset.addresses.filter((a) => a.tree === t.tree && a.queued).length }];
      return [];
    });

  it("sizes every queue of the batched trees, in the dataset's tree order, with the slot and no context", async () => {
    const r = await info({});
    expect(Object.keys(r)).toEqual(["queues", "slot"]);
    expect(r).toEqual({ queues: expected(), slot: dataset.slot });
    expect(await info({ trees: null })).toEqual(r);
  });

  it("keeps the trees asked for, leaving out V1 and unknown ones", async () => {
    const one = batchedState[0] as TreeRecord;
    expect((await info({ trees: [one.tree, profile.trees.stateV1[0], profile.ownerWithNoAccounts] })).queues).toEqual(
      expected().filter((q) => q.tree === one.tree),
    );
    expect((await info({ trees: [] })).queues).toEqual([]);
  });

  it("refuses a tree that is not a public key with solana-pubkey's texts", async () => {
    expect(await error("getQueueInfo", { trees: ["0OIl"] })).toEqual({ code: -32000, message: "Validation Error: Invalid pubkey: Invalid Base58 string" });
    expect(await error("getQueueInfo", { trees: ["abc"] })).toEqual({ code: -32000, message: "Validation Error: Invalid pubkey: String is the wrong size" });
    expect(await error("getQueueInfo", { trees: ["1".repeat(45)] })).toEqual({
      code: -32000,
      message: "Validation Error: Invalid pubkey: String is the wrong size",
    });
  });
});

describe("getQueueElements: state queues", () => {
  it("answers the output queue in whole batches by leaf index, zero leaves (not yet appended), hash chains per batch", async () => {
    const queue = outputOf(BUSY.tree);
    const batch = 7;
    const taken = queue.slice(0, Math.floor(Math.min(queue.length, 100) / batch) * batch);
    const r = await elements({ tree: BUSY.tree, outputQueue: { limit: 100, zkpBatchSize: batch } });
    expect(Object.keys(r)).toEqual(["context", "stateQueue"]);
    const out = r.stateQueue.outputQueue;
    expect(out).toEqual({
      leafIndices: taken.map((a) => a.leafIndex),
      accountHashes: taken.map((a) => a.hash),
      leaves: taken.map(() => ZERO_HASH),
      firstQueueIndex: taken[0]?.leafIndex,
      nextIndex: taken[0]?.leafIndex,
      leavesHashChains: Array.from({ length: taken.length / batch }, (_, i) => b58(chain(taken.slice(i * batch, (i + 1) * batch).map((a) => big(a.hash))))),
    });
    expect(r.stateQueue.inputQueue).toBeUndefined();
    expect(r.stateQueue.initialRoot).toBe(forest.root(BUSY.tree).root);
    expect(r.stateQueue.rootSeq).toBe(BUSY.seq);
    for (const a of taken) expect(rootFromNodes(r.stateQueue.nodes, a.leafIndex, ZERO_HASH, BUSY.height)).toBe(r.stateQueue.initialRoot);
  });

  it("answers the input queue by nullifier queue index with leaves, transaction hashes and nullifiers", async () => {
    const tree = batchedState.find((t) => inputOf(t.tree).length >= 4) as TreeRecord;
    const queue = inputOf(tree.tree);
    const taken = queue.slice(0, 4);
    const r = await elements({ tree: tree.tree, inputQueue: { limit: 4, zkpBatchSize: 2 } });
    const derived = taken.map(nullifierOf);
    expect(r.stateQueue.inputQueue).toEqual({
      leafIndices: taken.map((e) => e.account.leafIndex),
      accountHashes: taken.map((e) => e.account.hash),
      leaves: taken.map((e) => e.account.hash),
      txHashes: derived.map((d) => d.txHash),
      nullifiers: derived.map((d) => d.nullifier),
      firstQueueIndex: taken[0]?.queueIndex,
      leavesHashChains: [0, 1].map((i) => b58(chain(derived.slice(i * 2, i * 2 + 2).map((d) => big(d.nullifier))))),
    });
    expect(r.stateQueue.initialRoot).toBe(forest.root(tree.tree).root);
    for (const e of taken) expect(rootFromNodes(r.stateQueue.nodes, e.account.leafIndex, e.account.hash, tree.height)).toBe(r.stateQueue.initialRoot);
  });

  it("starts at startIndex when an element is queued there, and refuses a start before the first queued one", async () => {
    const queue = outputOf(BUSY.tree);
    const third = queue[2] as AccountRecord;
    const r = await elements({ tree: BUSY.tree, outputQueue: { limit: 2, startIndex: third.leafIndex, zkpBatchSize: 1 } });
    expect(r.stateQueue.outputQueue.leafIndices).toEqual(queue.slice(2, 4).map((a) => a.leafIndex));
    const first = (queue[0] as AccountRecord).leafIndex;
    expect(await error("getQueueElements", { tree: BUSY.tree, outputQueue: { limit: 2, startIndex: first - 1 } })).toEqual({
      code: -32000,
      message: `Validation Error: Requested start_index ${first - 1} but first_queue_index ${first} is later (possible pruning)`,
    });
  });

  it("leaves stateQueue out without a whole batch (default batch 500), and answers an empty queue that was asked for beside a full one", async () => {
    expect(Object.keys(await elements({ tree: BUSY.tree, outputQueue: { limit: 100 } }))).toEqual(["context"]);
    expect(Object.keys(await elements({ tree: profile.ownerWithNoAccounts, outputQueue: { limit: 10, zkpBatchSize: 1 } }))).toEqual(["context"]);
    const empty = batchedState.find((t) => inputOf(t.tree).length === 0 && outputOf(t.tree).length > 0) as TreeRecord;
    expect(empty).toBeDefined();
    const r = await elements({ tree: empty.tree, outputQueue: { limit: 10, zkpBatchSize: 1 }, inputQueue: { limit: 10, zkpBatchSize: 1 } });
    expect(r.stateQueue.inputQueue).toEqual({
      leafIndices: [],
      accountHashes: [],
      leaves: [],
      txHashes: [],
      nullifiers: [],
      firstQueueIndex: 0,
      leavesHashChains: [],
    });
    expect(r.stateQueue.outputQueue.leafIndices).toEqual(
      outputOf(empty.tree)
        .slice(0, 10)
        .map((a) => a.leafIndex),
    );
  });

  it("answers Photon's validation errors", async () => {
    expect(await error("getQueueElements", { tree: BUSY.tree })).toEqual({ code: -32000, message: "Validation Error: At least one queue must be requested" });
    expect(await error("getQueueElements", { tree: BUSY.tree, outputQueue: null, inputQueue: null, addressQueue: null })).toEqual({
      code: -32000,
      message: "Validation Error: At least one queue must be requested",
    });
    expect(await error("getQueueElements", { tree: BUSY.tree, inputQueue: { limit: 30_001 } })).toEqual({
      code: -32000,
      message: "Validation Error: Too many queue elements requested 30001. Maximum allowed: 30000",
    });
    expect(await error("getQueueElements", { tree: AMT2, addressQueue: { limit: 30_001 } })).toEqual({
      code: -32000,
      message: "Validation Error: Too many addresses requested 30001. Maximum allowed: 30000",
    });
    expect((await error("getQueueElements", { tree: BUSY.tree, outputQueue: { limit: 1, extra: 1 } })).code).toBe(-32602);
  });
});

describe("getQueueElements: the address queue", () => {
  const held = dataset.addresses.filter((a) => a.tree === AMT2 && !a.queued);
  const waiting = dataset.addresses.map((a, i) => ({ a, i })).filter(({ a }) => a.tree === AMT2);

  it("lists the queued addresses with their queue indexes, low elements that bracket them, and proof nodes up to the root", async () => {
    const queuedAll = waiting.map(({ a }, queueIndex) => ({ a, queueIndex })).filter(({ a }) => a.queued);
    const r = await elements({ tree: AMT2, addressQueue: { limit: 1000, zkpBatchSize: 4 } });
    expect(Object.keys(r)).toEqual(["context", "addressQueue"]);
    const q = r.addressQueue;
    expect(q.addresses).toEqual(queuedAll.map(({ a }) => a.address));
    expect(q.queueIndices).toEqual(queuedAll.map(({ queueIndex }) => queueIndex));
    const values = held.map((a) => big(a.address)).sort((x, y) => (x < y ? -1 : 1));
    q.addresses.forEach((address: string, i: number) => {
      const v = big(address);
      const below = values.filter((x) => x < v);
      expect(big(q.lowElementValues[i])).toBe(below.at(-1) ?? 0n);
      expect(big(q.lowElementNextValues[i])).toBe(values.find((x) => x > v) ?? (1n << 248n) - 1n);
      const leaf = b58(h2(big(q.lowElementValues[i]), big(q.lowElementNextValues[i])));
      expect(rootFromNodes(q.nodes, q.lowElementIndices[i], leaf, 40)).toBe(q.initialRoot);
    });
    expect(q.initialRoot).toBe(forest.root(AMT2).root);
    expect(q.rootSeq).toBe(treeOf(AMT2).seq);
    expect(q.leavesHashChains).toEqual(
      Array.from({ length: Math.floor(q.addresses.length / 4) }, (_, i) => b58(chain(q.addresses.slice(i * 4, i * 4 + 4).map(big)))),
    );
    // startIndex: the elements the tree holds (its initial element and the inserted addresses).
    expect(q.startIndex).toBe(held.length + 1);
    // subtrees: appending a zero leaf at startIndex with them as left siblings leaves the root as it is.
    expect(q.subtrees).toHaveLength(40);
    let node = 0n;
    for (let level = 0; level < 40; level++) node = Math.floor(q.startIndex / 2 ** level) % 2 === 1 ? h2(big(q.subtrees[level]), node) : h2(node, zero(level));
    expect(b58(node)).toBe(q.initialRoot);
  });

  it("starts at startIndex and takes no hash chain for a batch size of 0", async () => {
    const queuedAll = waiting.map(({ a }, queueIndex) => ({ a, queueIndex })).filter(({ a }) => a.queued);
    const from = queuedAll[3] as { queueIndex: number };
    const q = (await elements({ tree: AMT2, addressQueue: { limit: 2, startIndex: from.queueIndex, zkpBatchSize: 0 } })).addressQueue;
    expect(q.queueIndices).toEqual(queuedAll.slice(3, 5).map((e) => e.queueIndex));
    expect(q.leavesHashChains).toEqual([]);
  });

  it("answers an empty queue with the start index and subtrees only (Photon's EMPTY_SUBTREES where the tree stores nothing)", async () => {
    const q = (await elements({ tree: BUSY.queue, addressQueue: { limit: 10 } })).addressQueue;
    expect({ ...q, subtrees: undefined }).toEqual({
      addresses: [],
      queueIndices: [],
      nodes: [],
      lowElementIndices: [],
      lowElementValues: [],
      lowElementNextIndices: [],
      lowElementNextValues: [],
      leavesHashChains: [],
      initialRoot: ZERO_HASH,
      startIndex: 1,
      subtrees: undefined,
      rootSeq: 0,
    });
    // persisted_state_tree.rs:381-389 at 366a15b, EMPTY_SUBTREES[0] and [1].
    expect(q.subtrees).toHaveLength(BUSY.height);
    expect(Array.from(decodeBase58(q.subtrees[0]) as Uint8Array)).toEqual([
      20, 60, 11, 236, 225, 135, 154, 131, 147, 160, 45, 8, 88, 53, 104, 12, 211, 241, 51, 6, 246, 74, 149, 120, 67, 52, 190, 125, 51, 177, 204, 231,
    ]);
    expect(Array.from(decodeBase58(q.subtrees[1]) as Uint8Array)).toEqual([
      31, 158, 23, 142, 99, 175, 62, 243, 89, 151, 175, 72, 239, 185, 225, 179, 167, 48, 176, 66, 195, 189, 200, 52, 107, 214, 155, 69, 247, 250, 226, 202,
    ]);
    expect(await error("getQueueElements", { tree: profile.ownerWithNoAccounts, addressQueue: { limit: 10 } })).toEqual({
      code: -32000,
      message: "Internal server error",
    });
  });
});
