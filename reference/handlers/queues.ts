/**
 * The batched trees' queues: their elements with what a forester needs to insert them
 * (getQueueElements, HEAD:src/api/method/get_queue_elements.rs) and their sizes (getQueueInfo,
 * get_queue_info.rs), from the store's queue lists (reference/store/queues.ts: which accounts and
 * addresses wait, with their queue indexes) and the forest (leaves, proofs, nodes, roots).
 * spec/DECISIONS.md rows 71, 72.
 *
 * The reference has no queue hash cache (Photon's `queue_hash_cache`, filled by its monitor): the
 * hash chains are always computed from the elements, as Photon does on a cache miss
 * (get_queue_elements.rs:529-538, 934-964), which gives the same values.
 */
import { decodeBase58, internalError, RpcCode, RpcError } from "@photon-indexer-kit/runtime";
import { RefErrorCode } from "../errors.js";
import { type TreeType, u64 } from "../records.js";
import type { InputQueueElement, OutputQueueElement, QueueList } from "../store.js";
import { addressLeaf, ZERO_HASH } from "../trees/forest.js";
import { IndexedMerkleTree } from "../trees/indexed-tree.js";
import { base58ToBigint, bigintToBase58, hash2, hashChain } from "../trees/poseidon.js";
import type { MerkleTree } from "../trees/state-tree.js";
import type { Schemas } from "../../generated/index.js";
import { contextOf, type Family, type Reference } from "./support.js";

/** get_queue_elements.rs:28: the most elements one queue request may ask for (Photon on Postgres; 500 for the address queue on SQLite). */
export const MAX_QUEUE_ELEMENTS = 30_000;
/** light-batched-merkle-tree 0.11 constants.rs: DEFAULT_ZKP_BATCH_SIZE, the state queues' default batch. */
export const DEFAULT_ZKP_BATCH_SIZE = 500;
/** light-batched-merkle-tree 0.11 constants.rs: DEFAULT_ADDRESS_ZKP_BATCH_SIZE, the address queue's default batch. */
export const DEFAULT_ADDRESS_ZKP_BATCH_SIZE = 250;

/** Light Protocol's QueueType (program-libs/compressed-account): what getQueueInfo's `queueType` holds. */
export const QUEUE_TYPE = { inputState: 3, address: 4, outputState: 5 } as const;

/** PhotonApiError::UnexpectedError: -32000 `Internal server error` (src/api/error.rs:62-68). */
const unexpected = () => new RpcError(RpcCode.CALL_EXECUTION_FAILED, "Internal server error");

interface QueueRequest {
  limit: number;
  startIndex?: number | bigint | null;
  zkpBatchSize?: number | null;
}

type Node = Schemas["Node"];
type OutputQueueData = Schemas["OutputQueueData"];
type InputQueueData = Schemas["InputQueueData"];
type StateQueueData = Schemas["StateQueueData"];
type AddressQueueData = Schemas["AddressQueueData"];
type QueueInfo = Schemas["QueueInfo"];

/** A leaf position's proof as `get_multiple_compressed_leaf_proofs_by_indices` answers it, with the stored nodes of its path. */
interface IndexProof {
  leafIndex: number;
  leaf: string;
  proof: string[];
  root: string;
  rootSeq: number;
  /** `path[k]`: the node at level k + 1 above the leaf where the index stores one, else null. */
  path: (string | null)[];
}

/** `encode_node_index` (get_queue_elements.rs:33-45): (level << 56) | position, a u64. */
function nodeIndex(level: number, position: number): bigint {
  return (BigInt(level) << 56n) | BigInt(position);
}

/** Sorted by encoded index, as Photon sorts its node map (get_queue_elements.rs:1026-1032, 871-876). */
function sortedNodes(map: Map<bigint, string>): Node[] {
  return [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([index, hash]) => ({ index: u64(index), hash }));
}

/**
 * Proofs of leaf positions (leaf_node_proof.rs:14-90: the stored leaf or zero, siblings or the
 * zero values, the root, and the root node's sequence number, 0 without a root node) with the
 * nodes of each path the index stores (`fetch_path_nodes_from_db`, get_queue_elements.rs:1042-1104).
 */
function proofsByIndex(merkle: MerkleTree, rootSeq: number, leafIndices: readonly number[]): IndexProof[] {
  const root = bigintToBase58(merkle.root());
  const seq = merkle.size > 0 ? rootSeq : 0;
  return leafIndices.map((leafIndex) => {
    const path: (string | null)[] = [];
    let position = leafIndex;
    for (let level = 1; level <= merkle.height; level++) {
      position = Math.floor(position / 2);
      const node = merkle.node(level, position);
      path.push(node === undefined ? null : bigintToBase58(node));
    }
    return { leafIndex, leaf: bigintToBase58(merkle.leaf(leafIndex)), proof: merkle.proof(leafIndex).map(bigintToBase58), root, rootSeq: seq, path };
  });
}

/** `deduplicate_nodes_from_refs` (get_queue_elements.rs:983-1033): each leaf, its siblings, and the stored nodes of its path. */
function stateNodes(proofs: readonly IndexProof[]): Node[] {
  const map = new Map<bigint, string>();
  for (const p of proofs) {
    let position = p.leafIndex;
    map.set(nodeIndex(0, position), p.leaf);
    p.proof.forEach((sibling, level) => {
      map.set(nodeIndex(level, position % 2 === 0 ? position + 1 : position - 1), sibling);
      position = Math.floor(position / 2);
      const parent = p.path[level];
      if (parent !== null && parent !== undefined) map.set(nodeIndex(level + 1, position), parent);
    });
  }
  return sortedNodes(map);
}

/** The hash chains of each whole batch of `values` (`create_hash_chain_from_slice`, get_queue_elements.rs:610-684, 942-963). */
function batchHashChains(values: readonly string[], batchSize: number): string[] {
  const out: string[] = [];
  if (batchSize <= 0) return out;
  for (let start = 0; start + batchSize <= values.length; start += batchSize)
    out.push(bigintToBase58(hashChain(values.slice(start, start + batchSize).map(base58ToBigint))));
  return out;
}

/**
 * `EMPTY_SUBTREES` (persisted_state_tree.rs:381): the subtrees Photon answers for a tree it stores
 * no node of, which are the left path of a batched address tree holding only its initial element.
 */
let emptySubtrees: string[] | null = null;
function emptySubtreesOf(height: number): string[] {
  if (emptySubtrees === null) {
    const merkle = new IndexedMerkleTree(2, 40, []).merkleTree();
    emptySubtrees = Array.from({ length: 40 }, (_, level) => bigintToBase58(merkle.node(level, 0) as bigint));
  }
  return emptySubtrees.slice(0, height);
}

/**
 * `get_subtrees` (persisted_state_tree.rs:132-209): per level below the root, the stored node a
 * next append would pair with, the last stored one when a level stores an odd count, else the
 * one before it; the zero bytes for a level storing nothing; EMPTY_SUBTREES when nothing is stored.
 */
function subtreesOf(merkle: MerkleTree | null, height: number): string[] {
  if (merkle === null || merkle.size === 0) return emptySubtreesOf(height);
  return Array.from({ length: height }, (_, level) => {
    const width = merkle.width(level);
    if (width === 0) return ZERO_HASH;
    const node = merkle.node(level, width % 2 === 1 ? width - 1 : width - 2);
    return node === undefined ? ZERO_HASH : bigintToBase58(node);
  });
}

type StateKind = "output" | "input";

interface StateFetch<D> {
  data: D;
  proofs: IndexProof[];
}

/** A requested queue with no whole batch: Photon's `Default` value (402-408, 450-459). */
const EMPTY_OUTPUT = (): OutputQueueData => ({ leafIndices: [], accountHashes: [], leaves: [], firstQueueIndex: 0, nextIndex: 0, leavesHashChains: [] });
const EMPTY_INPUT = (): InputQueueData => ({
  leafIndices: [],
  accountHashes: [],
  leaves: [],
  txHashes: [],
  nullifiers: [],
  firstQueueIndex: 0,
  leavesHashChains: [],
});

/** `fetch_queue` (get_queue_elements.rs:344-608) for the output or the input queue of `tree`. */
function fetchStateQueue(ref: Reference, tree: string, kind: "output", request: QueueRequest): StateFetch<OutputQueueData>;
function fetchStateQueue(ref: Reference, tree: string, kind: "input", request: QueueRequest): StateFetch<InputQueueData>;
function fetchStateQueue(ref: Reference, tree: string, kind: StateKind, request: QueueRequest): StateFetch<OutputQueueData | InputQueueData> {
  const { store, forest } = ref;
  if (request.limit > MAX_QUEUE_ELEMENTS)
    throw RpcError.validation(`Too many queue elements requested ${request.limit}. Maximum allowed: ${MAX_QUEUE_ELEMENTS}`);
  const empty = { data: kind === "output" ? EMPTY_OUTPUT() : EMPTY_INPUT(), proofs: [] };
  const start = request.startIndex ?? null;
  const list: QueueList<OutputQueueElement | InputQueueElement> = kind === "output" ? store.outputQueue(tree) : store.inputQueue(tree);
  let elements = list.page(start, request.limit);
  const first = elements[0];
  if (first === undefined) return empty;
  const firstQueueIndex = first.queueIndex;
  if (start !== null && BigInt(firstQueueIndex) > BigInt(start))
    throw RpcError.validation(`Requested start_index ${start} but first_queue_index ${firstQueueIndex} is later (possible pruning)`);
  const record = forest.treeInfo(tree);
  if (record === undefined) throw unexpected();
  // Output: where the elements will be appended, the first element's leaf index (432-445).
  const nextIndex = kind === "output" ? firstQueueIndex : 0;
  // Whole ZKP batches only; a hint of 0 (or none) takes the default (447-464).
  const batch = request.zkpBatchSize !== null && request.zkpBatchSize !== undefined && request.zkpBatchSize > 0 ? request.zkpBatchSize : DEFAULT_ZKP_BATCH_SIZE;
  const allowed = Math.floor(elements.length / batch) * batch;
  if (allowed === 0) return empty;
  elements = elements.slice(0, allowed);
  const merkle = forest.merkleTree(tree);
  if (merkle === null) throw unexpected();
  const leafIndices = elements.map((e) => e.account.leafIndex);
  const proofs = proofsByIndex(merkle, record.seq, leafIndices);
  const accountHashes = elements.map((e) => e.account.hash);
  const leaves = proofs.map((p) => p.leaf);
  if (kind === "output") {
    return { data: { leafIndices, accountHashes, leaves, firstQueueIndex, nextIndex, leavesHashChains: batchHashChains(accountHashes, batch) }, proofs };
  }
  const inputs = elements as readonly InputQueueElement[];
  const txHashes = inputs.map((e) => forest.transactionHash(e.closedBy));
  const nullifiers = inputs.map((e) => forest.nullifier(e.account));
  return {
    data: { leafIndices, accountHashes, leaves, txHashes, nullifiers, firstQueueIndex, leavesHashChains: batchHashChains(nullifiers, batch) },
    proofs,
  };
}

/** `fetch_address_queue_v2` (get_queue_elements.rs:686-981). */
function fetchAddressQueue(ref: Reference, tree: string, request: QueueRequest): AddressQueueData {
  const { store, forest } = ref;
  if (request.limit > MAX_QUEUE_ELEMENTS) throw RpcError.validation(`Too many addresses requested ${request.limit}. Maximum allowed: ${MAX_QUEUE_ELEMENTS}`);
  const info = forest.treeInfo(tree);
  if (info === undefined) throw unexpected();
  // `COALESCE(MAX(leaf_index + 1), 1)` over the tree's indexed elements (714-725).
  const record = forest.tree(tree);
  const merkle = forest.merkleTree(tree);
  const isAddressTree = record !== undefined && (record.type === "AddressV1" || record.type === "AddressV2");
  const startIndex = isAddressTree && merkle !== null ? merkle.size : 1;
  const elements = store.addressQueue(tree).page(request.startIndex ?? null, request.limit);
  const subtrees = subtreesOf(merkle, info.height);
  if (elements.length === 0) {
    return {
      addresses: [],
      queueIndices: [],
      nodes: [],
      lowElementIndices: [],
      lowElementValues: [],
      lowElementNextIndices: [],
      lowElementNextValues: [],
      leavesHashChains: [],
      initialRoot: ZERO_HASH,
      startIndex,
      subtrees,
      rootSeq: 0,
    };
  }
  const addresses = elements.map((e) => e.address.address);
  const queueIndices = elements.map((e) => e.queueIndex);
  // The queued addresses' own non-inclusion proofs, without the queue check (783-789).
  const proofs = forest.newAddressProofs(
    addresses.map((address) => ({ address, tree })),
    { checkQueue: false, maxAddresses: MAX_QUEUE_ELEMENTS },
  );
  const map = new Map<bigint, string>();
  const done = new Set<number>();
  for (const proof of proofs) {
    if (done.has(proof.lowElementLeafIndex)) continue;
    done.add(proof.lowElementLeafIndex);
    // The low element's leaf (Poseidon(value, nextValue), 830-833) and its path, parents hashed up (835-868).
    let position = proof.lowElementLeafIndex;
    let node = base58ToBigint(addressLeaf("AddressV2", proof.lowerRangeAddress, proof.nextIndex, proof.higherRangeAddress));
    map.set(nodeIndex(0, position), bigintToBase58(node));
    proof.proof.forEach((sibling, level) => {
      const value = base58ToBigint(sibling);
      map.set(nodeIndex(level, position % 2 === 0 ? position + 1 : position - 1), sibling);
      node = position % 2 === 0 ? hash2(node, value) : hash2(value, node);
      position = Math.floor(position / 2);
      map.set(nodeIndex(level + 1, position), bigintToBase58(node));
    });
  }
  // Hash chains of whole batches; a batch size of 0 gives none (265-268, 887-965).
  const batch = request.zkpBatchSize ?? DEFAULT_ADDRESS_ZKP_BATCH_SIZE;
  const first = proofs[0];
  if (first === undefined) throw internalError(RefErrorCode.INTERNAL, "no proof for a queued address");
  return {
    addresses,
    queueIndices,
    nodes: sortedNodes(map),
    lowElementIndices: proofs.map((p) => p.lowElementLeafIndex),
    lowElementValues: proofs.map((p) => p.lowerRangeAddress),
    lowElementNextIndices: proofs.map((p) => p.nextIndex),
    lowElementNextValues: proofs.map((p) => p.higherRangeAddress),
    leavesHashChains: batchHashChains(addresses, batch),
    initialRoot: first.root,
    startIndex,
    subtrees,
    rootSeq: first.rootSeq,
  };
}

/** `merge_state_queue_proofs` (get_queue_elements.rs:292-342): shared nodes, and the first proof's root. */
function stateQueueOf(output: StateFetch<OutputQueueData> | null, input: StateFetch<InputQueueData> | null): StateQueueData | undefined {
  const hasData = (f: StateFetch<OutputQueueData | InputQueueData> | null) => f !== null && f.data.leafIndices.length > 0;
  // stateQueue only when a requested state queue has a whole batch (237-263).
  if (!hasData(output) && !hasData(input)) return undefined;
  const proofs = [...(output?.proofs ?? []), ...(input?.proofs ?? [])];
  const nodes = stateNodes(proofs);
  const first = proofs[0];
  // `nodes` is skipped when empty, the queues when not requested (113-129).
  return {
    ...(nodes.length > 0 ? { nodes } : {}),
    initialRoot: first?.root ?? ZERO_HASH,
    rootSeq: first?.rootSeq ?? 0,
    ...(output === null ? {} : { outputQueue: output.data }),
    ...(input === null ? {} : { inputQueue: input.data }),
  };
}

/** solana-pubkey's `Pubkey::from_str` and its errors' texts (ParsePubkeyError: WrongSize, Invalid). */
function pubkeyError(text: string): string | null {
  if (text.length > 44) return "String is the wrong size";
  const bytes = decodeBase58(text);
  if (bytes === undefined) return "Invalid Base58 string";
  return bytes.length === 32 ? null : "String is the wrong size";
}

const BATCHED: readonly TreeType[] = ["StateV2", "AddressV2"];

export const queueHandlers = ((ref) => {
  const { store } = ref;
  return {
    getQueueElements(params) {
      const { tree } = params;
      const output = params.outputQueue ?? null;
      const input = params.inputQueue ?? null;
      const address = params.addressQueue ?? null;
      if (output === null && input === null && address === null) throw RpcError.validation("At least one queue must be requested");
      const context = contextOf(ref);
      const outputFetch = output === null ? null : fetchStateQueue(ref, tree, "output", output);
      const inputFetch = input === null ? null : fetchStateQueue(ref, tree, "input", input);
      const stateQueue = output === null && input === null ? undefined : stateQueueOf(outputFetch, inputFetch);
      const addressQueue = address === null ? undefined : fetchAddressQueue(ref, tree, address);
      // `stateQueue` and `addressQueue` are skipped, not null, when absent (96-100).
      return { context, ...(stateQueue === undefined ? {} : { stateQueue }), ...(addressQueue === undefined ? {} : { addressQueue }) };
    },

    getQueueInfo(params) {
      // Every tree must be a public key (get_queue_info.rs:105-117); unknown and V1 trees are left out (41-96).
      let filter: Set<string> | null = null;
      if (params.trees !== null && params.trees !== undefined) {
        for (const text of params.trees) {
          const error = pubkeyError(text);
          if (error !== null) throw RpcError.validation(`Invalid pubkey: ${error}`);
        }
        filter = new Set(params.trees);
      }
      // Photon iterates a hash map (unspecified order): here the dataset's trees in order, each
      // state tree's input queue (3) before its output queue (5).
      const queues: QueueInfo[] = [];
      for (const record of store.trees()) {
        if (!BATCHED.includes(record.type) || (filter !== null && !filter.has(record.tree))) continue;
        if (record.type === "StateV2") {
          queues.push({ tree: record.tree, queue: record.queue, queueType: QUEUE_TYPE.inputState, queueSize: store.inputQueue(record.tree).size });
          queues.push({ tree: record.tree, queue: record.queue, queueType: QUEUE_TYPE.outputState, queueSize: store.outputQueue(record.tree).size });
        } else {
          queues.push({ tree: record.tree, queue: record.queue, queueType: QUEUE_TYPE.address, queueSize: store.addressQueue(record.tree).size });
        }
      }
      // The slot is read after the queues (156).
      return { queues, slot: store.slot };
    },
  };
}) satisfies Family;
