/**
 * The reference indexer's Merkle trees, one per `TreeRecord` of a dataset, and everything
 * Photon's proof methods answer from them (Photon 0.51.2 = 366a15b): account proofs (V1 and V2),
 * new-address (non-inclusion) proofs, and the inputs of validity proofs (roots, root indexes,
 * leaves, contexts, and the request Photon sends its prover).
 *
 * Nothing is hashed, grouped or sorted by the constructor: each tree is built on first use, so
 * starting the reference stays quick. Results are plain objects with Photon's field names and
 * field order, base58 strings and numbers, for a JSON-RPC handler to send as they are. Errors
 * Photon answers are thrown as `RpcError`s with Photon's codes and messages.
 *
 * The tree model (what each leaf is):
 * - StateV1: an account's hash at its leaf index; a spent account's leaf is zero, as Photon
 *   stores it once the forester nullifies it (`LeafNullification` → `ZERO_BYTES[0]`,
 *   src/ingester/persist/leaf_node.rs:56-65).
 * - StateV2 (batched): an account enters the tree only when a batch appends it (Photon adds no
 *   leaf for StateV2 outputs, persist/mod.rs:140-160; persisted_batch_event/append.rs); here an
 *   account with `inOutputQueue` is still in the output queue and has no leaf. A spent account keeps
 *   its hash while it waits in the input queue (`inInputQueue`), and is replaced by its nullifier
 *   Poseidon(hash, leafIndex, txHash) once a batch nullifies it (persisted_batch_event/nullify.rs,
 *   helpers.rs:43-82); txHash is that of the transaction whose `closed` lists it.
 * - AddressV1 / AddressV2: indexed Merkle trees of the dataset's addresses of that tree, in
 *   insertion order, without the `queued` ones (see indexed-tree.ts). Their leaves are stored
 *   leaves too: the V1 lookups by leaf hash (account proofs, validity proofs) find them.
 * Root sequence numbers are `TreeRecord.seq` (Photon: the root node's seq, the highest of its
 * leaves', leaf_node_proof.rs:266-281 and persisted_batch_event/sequence.rs:40-47).
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { encodeOnce, internalError, RpcCode, RpcError } from "@photon-indexer-kit/runtime";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TreeRecord, TreeType } from "../records.js";
import { type AddressTreeVersion, type IndexedElement, IndexedMerkleTree, indexedLeafHash } from "./indexed-tree.js";
import { base58ToBigint, bigintToBase58, bigintToHex, isFieldElement, nullifier, transactionHash, twoInputsHashChain } from "./poseidon.js";
import { foldProof, MerkleTree } from "./state-tree.js";

/** Photon's `TreeType` as the u16 it sends (`treeType`): light-compressed-account's TreeType. */
export const TREE_TYPE_CODE: Readonly<Record<TreeType, number>> = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 };

/**
 * The V1 address tree Photon proves new addresses against when a request names no tree
 * (light-sdk-types `ADDRESS_TREE_V1`, used by get_multiple_new_address_proofs.rs:177-193 and
 * get_validity_proof/v1.rs:77-87).
 */
export const ADDRESS_TREE_V1 = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2";

/** Base58 of 32 zero bytes: the zero leaf, and `Hash::default()` / `Pubkey::default()` in Photon's answers. */
export const ZERO_HASH = "11111111111111111111111111111111";

/**
 * The root sequence number Photon reports for an address tree it holds no element of
 * (indexed_merkle_tree/proof.rs:99-116 and 441-453): 3 for AddressV1 (init appends the zero
 * leaf, updates it and appends the highest element), 0 otherwise.
 */
const EMPTY_ADDRESS_TREE_SEQ: Readonly<Record<TreeType, number>> = { StateV1: 0, AddressV1: 3, StateV2: 0, AddressV2: 0 };

// --- Answers, with Photon's field names in Photon's order -------------------------------------

/** An account proof as the V1 methods answer it (get_compressed_account_proof/v1.rs:18-41). */
export interface AccountProof {
  proof: string[];
  root: string;
  leafIndex: number;
  hash: string;
  merkleTree: string;
  rootSeq: number;
}

/** `TreeContextInfo` (get_validity_proof/v2.rs:61-69). */
export interface TreeContextInfo {
  treeType: number;
  tree: string;
  queue: string;
  cpiContext: string | null;
}

/** An account proof as the V2 methods answer it (get_compressed_account_proof/v2.rs:24-54). */
export interface AccountProofV2 {
  proof: string[];
  root: string;
  leafIndex: number;
  hash: string;
  rootSeq: number;
  proveByIndex: boolean;
  treeContext: TreeContextInfo;
}

export interface AddressWithTree {
  address: string;
  tree: string;
}

/**
 * How `get_multiple_new_address_proofs_helper` is called (get_multiple_new_address_proofs.rs:50-71):
 * the most addresses it takes (`max_addresses`: more is `Validation Error: Too many addresses
 * requested N. Maximum allowed: M`, checked after emptiness; no cap when absent) and whether an
 * address still in a batched address tree's queue is refused (`check_queue`, default true;
 * getQueueElements proves the queued addresses themselves, get_queue_elements.rs:783-789).
 */
export interface AddressProofOptions {
  maxAddresses?: number;
  checkQueue?: boolean;
}

/** A new-address (non-inclusion) proof (`MerkleContextWithNewAddressProof`, get_multiple_new_address_proofs.rs:28-41). */
export interface NewAddressProof {
  root: string;
  address: string;
  lowerRangeAddress: string;
  higherRangeAddress: string;
  nextIndex: number;
  proof: string[];
  merkleTree: string;
  rootSeq: number;
  lowElementLeafIndex: number;
}

/** `MerkleContextV2` (get_validity_proof/v2.rs:49-59). */
export interface MerkleContextV2 {
  treeType: number;
  tree: string;
  queue: string;
  cpiContext: string | null;
  nextTreeContext: TreeContextInfo | null;
}

/**
 * `TreeContextInfo` of a tree (get_validity_proof/v2.rs:61-69): its TreeType as the u16 Photon
 * sends, its queue (the nullifier queue of a StateV1 tree, the output queue of a StateV2 tree:
 * v2.rs:55), and `cpiContext` null, as Photon 0.51.2 always sends it (no code fills it:
 * src/common/typedefs/account/v2.rs:107, 130; spec/DECISIONS.md row 55).
 */
export function treeContextOf(tree: TreeRecord): TreeContextInfo {
  return { treeType: TREE_TYPE_CODE[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null };
}

/** `MerkleContextV2` of a tree (get_validity_proof/v2.rs:49-59): its TreeContextInfo plus `nextTreeContext`, always null at 0.51.2 (v2.rs:108, 131). */
export function merkleContextOf(tree: TreeRecord): MerkleContextV2 {
  return { ...treeContextOf(tree), nextTreeContext: null };
}

/** `AccountProofInputs` (get_validity_proof/v2.rs:79-104). */
export interface AccountProofInputs {
  hash: string;
  root: string;
  rootIndex: { rootIndex: number; proveByIndex: boolean };
  leafIndex: number;
  merkleContext: MerkleContextV2;
}

/** `AddressProofInputs` (get_validity_proof/v2.rs:89-96). */
export interface AddressProofInputs {
  address: string;
  root: string;
  rootIndex: number;
  merkleContext: MerkleContextV2;
}

/** What Photon posts to `{prover_url}/prove` (`HexBatchInputsForProver`, prover/structs.rs), absent fields omitted as Photon omits them. */
export interface ProverRequest {
  circuitType: "inclusion" | "non-inclusion" | "combined";
  stateTreeHeight?: number;
  addressTreeHeight?: number;
  publicInputHash?: string;
  inputCompressedAccounts?: { root: string; pathIndex: number; pathElements: string[]; leaf: string }[];
  newAddresses?: {
    root: string;
    value: string;
    pathIndex: number;
    pathElements: string[];
    leafLowerRangeValue: string;
    leafHigherRangeValue: string;
    nextIndex: number;
  }[];
}

/** A V1 validity proof without its `compressedProof` (`CompressedProofWithContext`, get_validity_proof/v1.rs:19-28), and the prover's request. */
export interface ValidityProofInputsV1 {
  roots: string[];
  rootIndices: number[];
  leafIndices: number[];
  leaves: string[];
  merkleTrees: string[];
  prover: ProverRequest;
}

/**
 * A V2 validity proof without its `compressedProof` (`CompressedProofWithContextV2`): `prover`
 * is null when every account proves by index and there is no address, and then Photon's
 * `compressedProof` is null (get_validity_proof/v2.rs:274-321).
 */
export interface ValidityProofInputsV2 {
  accounts: AccountProofInputs[];
  addresses: AddressProofInputs[];
  prover: ProverRequest | null;
}

/** The root of a tree as Photon reports it with proofs. */
export interface TreeRoot {
  root: string;
  rootSeq: number;
}

/**
 * The root a proof folds to (base58 in, base58 out): Poseidon up the tree, the leaf on the left
 * where the index bit is 0. Every proof this module returns folds to its `root`.
 */
export function fold(leaf: string, leafIndex: number, proof: readonly string[]): string {
  return bigintToBase58(foldProof(base58ToBigint(leaf), leafIndex, proof.map(base58ToBigint)));
}

// --- Photon's errors ----------------------------------------------------------------------------
// PhotonApiError → jsonrpsee CallError (src/api/error.rs:26-74): every variant answers -32000 with
// the error's Display text, except database and unexpected errors ("Internal server error").

const recordNotFound = (detail: string) => new RpcError(RpcCode.CALL_EXECUTION_FAILED, `Record Not Found: ${detail}`);
const invalidPubkey = (field: string) => new RpcError(RpcCode.CALL_EXECUTION_FAILED, `Invalid Public Key: field '${field}'`);
const unexpected = () => new RpcError(RpcCode.CALL_EXECUTION_FAILED, "Internal server error");
/** Rust's `{:?}` of a `Vec<String>` of base58 texts. */
const debugList = (values: readonly string[]) => `[${values.map((v) => `"${v}"`).join(", ")}]`;

// --- The forest -----------------------------------------------------------------------------------

interface StateTree {
  record: TreeRecord;
  merkle: MerkleTree;
}

interface AddressTree {
  record: TreeRecord;
  indexed: IndexedMerkleTree;
}

/** A stored leaf (Photon: a `state_trees` row at level 0). */
interface Row {
  record: TreeRecord;
  leafIndex: number;
  leaf: bigint;
}

/**
 * A leaf to prove (stored or empty): its tree and index. Nothing of the proof is computed until it
 * is written out, and then from the tree's kept base58 texts (`MerkleTree.proofBase58`); the
 * bigint siblings are read only for a prover's request.
 */
interface LeafProof {
  record: TreeRecord;
  leafIndex: number;
  merkle: MerkleTree;
  rootSeq: number;
}

/** A non-inclusion proof before it is written out; `merkleTree` is the key the request named, `tree` the Merkle tree of the low element's leaf. */
interface LowElementProof {
  address: bigint;
  merkleTree: string;
  low: IndexedElement;
  tree: MerkleTree;
  rootSeq: number;
}

/**
 * Defines `key` on `target` as an enumerable property computed on first read (then kept, in the
 * same key position): JSON.stringify and deep equality see a plain value.
 */
function defineLazy<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): T[K] {
      const value = make();
      Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
      return value;
    },
  });
}

class Lazy<T> {
  private value: T | undefined;
  private done = false;
  constructor(private readonly make: () => T) {}
  get(): T {
    if (!this.done) {
      this.value = this.make();
      this.done = true;
    }
    return this.value as T;
  }
}

/** A value built a slice at a time (`steps`, one `next()` per slice) or at once (`get`), by the same single build. */
class Stepwise<T> {
  private build: Generator<void, T, undefined> | null = null;
  private value: T | undefined;
  private done = false;
  constructor(private readonly make: () => Generator<void, T, undefined>) {}
  get(): T {
    while (!this.done) this.step();
    return this.value as T;
  }
  *steps(): Generator<void, void, undefined> {
    while (!this.done) {
      this.step();
      if (!this.done) yield;
    }
  }
  private step(): void {
    this.build ??= this.make();
    let r: IteratorResult<void, T>;
    try {
      r = this.build.next();
    } catch (err) {
      // A build that fails fails again, with the same error, on the next use.
      this.build = null;
      throw err;
    }
    if (r.done) {
      this.value = r.value;
      this.done = true;
      this.build = null;
    }
  }
}

/** Records indexed or leaves decoded per slice of a background build (about a millisecond). */
const RECORDS_PER_STEP = 512;

/**
 * Written V1 account proofs kept (`Forest.writeAccountProof`), by default: about this many bytes of
 * JSON text at most, the first written dropped first. A proof of 26 levels is about 1.4 KB of text,
 * kept twice (the text and the listener's UTF-8 bytes): about 5,800 proofs, some 17 MB.
 */
const KEPT_PROOF_BYTES = 8 << 20;

export interface ForestOptions {
  /** Bytes of JSON text of written V1 account proofs kept for later answers (default 8 MiB; 0 keeps none). */
  readonly keptProofBytes?: number;
}
/** A listener's `CallContext.written`: marks a value with its JSON text (exactly `stringifyJson(value)`). */
export type WrittenAs = <T extends object>(value: T, json: string) => T;

/**
 * `stringifyJson(proof)` for a proof `writeAccountProof` wrote: its keys in their order, and its node
 * texts (`proof`, `root`, `hash`: base58 from `bigintToBase58`, nothing to escape) joined without
 * the serialiser's per-character escape scan; the tree's key is written by JSON.stringify.
 */
export function accountProofJson(proof: AccountProof): string {
  return `{"proof":["${proof.proof.join('","')}"],"root":"${proof.root}","leafIndex":${proof.leafIndex},"hash":"${proof.hash}","merkleTree":${JSON.stringify(proof.merkleTree)},"rootSeq":${proof.rootSeq}}`;
}

/** A written proof's text beyond its base58 strings: keys, quotes, commas, numbers. */
const PROOF_FRAME_BYTES = 128;

function version(type: TreeType): AddressTreeVersion | null {
  return type === "AddressV1" ? 1 : type === "AddressV2" ? 2 : null;
}

/** Whether an account of state tree `record` holds its own hash as its leaf (`Forest.leafValue` without hashing anything). */
function holdsOwnHash(record: TreeRecord, account: AccountRecord): boolean {
  if (record.type === "StateV1") return !account.spent;
  // Not in the output queue (`Forest.isInOutputQueue`), and not spent out of the input queue.
  return !account.inOutputQueue && !(account.spent && !account.inInputQueue);
}

/** Whether two of `accounts` name the same leaf (tree and index). */
function namesLeafTwice(accounts: readonly AccountRecord[]): boolean {
  const n = accounts.length;
  if (n <= 16) {
    for (let i = 1; i < n; i++) {
      const a = accounts[i] as AccountRecord;
      for (let j = 0; j < i; j++) {
        const b = accounts[j] as AccountRecord;
        if (a.leafIndex === b.leafIndex && a.tree === b.tree) return true;
      }
    }
    return false;
  }
  const seen = new Set<string>();
  for (const a of accounts) {
    const key = `${a.tree}/${a.leafIndex}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

export class Forest {
  private readonly dataset: Dataset;
  private readonly records = new Map<string, TreeRecord>();
  private readonly byQueue = new Map<string, TreeRecord>();
  private readonly stateTrees = new Map<string, StateTree>();
  /** Written V1 proofs (`writeAccountProof`) by Merkle tree and leaf index; each answers while its tree and rootSeq are the ones it was written from. */
  private readonly written = new Map<MerkleTree, Map<number, AccountProof>>();
  /** The kept proofs in the order they were written (dropped from the front): each one's text size and the leaf map holding it. */
  private readonly writtenOrder = new Map<AccountProof, { readonly size: number; readonly byLeaf: Map<number, AccountProof> }>();
  private writtenBytes = 0;
  private readonly addressTrees = new Map<string, AddressTree>();
  private readonly emptyAddressTrees = new Map<string, IndexedMerkleTree>();
  private readonly txHashes = new Map<string, bigint>();
  private readonly nullifiers = new Map<string, bigint>();

  private readonly accounts = new Stepwise(
    function* (this: Forest) {
      const byHash = new Map<string, AccountRecord>();
      const byTree = new Map<string, AccountRecord[]>();
      let done = 0;
      for (const account of this.dataset.accounts) {
        if (byHash.has(account.hash)) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `account ${account.hash} appears twice`);
        byHash.set(account.hash, account);
        const list = byTree.get(account.tree);
        if (list) list.push(account);
        else byTree.set(account.tree, [account]);
        if (++done % RECORDS_PER_STEP === 0) yield;
      }
      return { byHash, byTree };
    }.bind(this),
  );

  private readonly addresses = new Lazy(() => {
    const inserted = new Map<string, AddressRecord[]>();
    const queued = new Map<string, Set<string>>();
    for (const record of this.dataset.addresses) {
      const tree = this.records.get(record.tree);
      if (!tree || version(tree.type) === null)
        throw new ReferenceIndexerError(
          RefErrorCode.DATASET_INCONSISTENT,
          `address ${record.address} is in ${record.tree}, which is not an address tree of the dataset`,
        );
      if (record.queued) {
        if (tree.type !== "AddressV2")
          throw new ReferenceIndexerError(
            RefErrorCode.DATASET_INCONSISTENT,
            `address ${record.address} is queued in ${record.tree}, which is not a batched address tree`,
          );
        const set = queued.get(record.tree);
        if (set) set.add(record.address);
        else queued.set(record.tree, new Set([record.address]));
      } else {
        const list = inserted.get(record.tree);
        if (list) list.push(record);
        else inserted.set(record.tree, [record]);
      }
    }
    return { inserted, queued };
  });

  /** The transaction that spent each account (`closed`), for nullifiers. */
  private readonly spenders = new Lazy(() => {
    const by = new Map<string, SignatureRecord>();
    for (const signature of this.dataset.signatures) for (const hash of signature.closed) by.set(hash, signature);
    return by;
  });

  /** Stored leaves equal to zero: spent StateV1 accounts (Photon keeps their rows with the zero hash). */
  private readonly zeroRows = new Lazy(() => {
    const rows: Row[] = [];
    for (const record of this.dataset.trees) {
      if (record.type !== "StateV1") continue;
      for (const account of this.accounts.get().byTree.get(record.tree) ?? []) if (account.spent) rows.push({ record, leafIndex: account.leafIndex, leaf: 0n });
    }
    return rows;
  });

  /** Stored leaves that are nullifiers (nullified StateV2 accounts), by leaf value. */
  private readonly nullifierRows = new Lazy(() => {
    const rows = new Map<bigint, Row[]>();
    for (const record of this.dataset.trees) {
      if (record.type !== "StateV2") continue;
      for (const account of this.accounts.get().byTree.get(record.tree) ?? []) {
        if (!account.spent || account.inInputQueue) continue;
        const leaf = this.nullifierValue(account);
        const row = { record, leafIndex: account.leafIndex, leaf };
        const list = rows.get(leaf);
        if (list) list.push(row);
        else rows.set(leaf, [row]);
      }
    }
    return rows;
  });

  /**
   * Stored leaves of address trees, by leaf value: Photon writes each indexed element's leaf hash to
   * `state_trees` as well (persisted_indexed_merkle_tree.rs:233-256, 418-431), from the first
   * address appended on (a tree that holds none has no rows; the initial elements come with it).
   */
  private readonly addressRows = new Lazy(() => {
    const rows = new Map<bigint, Row>();
    const inserted = this.addresses.get().inserted;
    for (const record of this.dataset.trees) {
      if (version(record.type) === null || !inserted.has(record.tree)) continue;
      const merkle = this.addressTree(record).indexed.merkleTree();
      for (let leafIndex = 0; leafIndex < merkle.size; leafIndex++) {
        const leaf = merkle.leaf(leafIndex);
        rows.set(leaf, { record, leafIndex, leaf });
      }
    }
    return rows;
  });

  /** Indexes the dataset's trees by key; builds nothing. */
  private readonly keptProofBytes: number;

  constructor(dataset: Dataset, options: ForestOptions = {}) {
    this.dataset = dataset;
    this.keptProofBytes = options.keptProofBytes ?? KEPT_PROOF_BYTES;
    for (const record of dataset.trees) {
      if (this.records.has(record.tree)) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `tree ${record.tree} is listed twice`);
      this.records.set(record.tree, record);
    }
    for (const record of dataset.trees) if (!this.records.has(record.queue) && !this.byQueue.has(record.queue)) this.byQueue.set(record.queue, record);
  }

  /**
   * Builds every tree in the background, a slice of at most `sliceMs` of hashing per turn of the
   * event loop, so that a server can start answering at once and find its trees built by the time
   * proofs are asked for (a proof asked for earlier finishes its own tree's build). Stops early,
   * without error, when `signal` aborts.
   */
  async warm(options: { signal?: AbortSignal; sliceMs?: number } = {}): Promise<void> {
    const sliceMs = options.sliceMs ?? 10;
    // Nothing before the caller's next turn: a server started with warm() answers its first request
    // without a slice of the build (or the indexing below, also in slices) ahead of it.
    await nextTurn();
    const builds: (() => Generator<void, void, undefined>)[] = [
      () => this.accounts.steps(),
      ...this.dataset.trees.map((record) => () => this.buildSteps(record)),
    ];
    for (const build of builds) {
      if (options.signal?.aborted) return;
      const steps = build();
      for (let done = false; !done; ) {
        const end = performance.now() + sliceMs;
        while (!done && performance.now() < end) done = steps.next().done === true;
        await nextTurn();
        if (options.signal?.aborted) return;
      }
    }
  }

  /** A tree's build in slices: a batched state tree's nullifiers one at a time, then its levels. */
  private *buildSteps(record: TreeRecord): Generator<void, void, undefined> {
    if (version(record.type) !== null) {
      yield* this.addressTree(record).indexed.steps();
      return;
    }
    if (record.type === "StateV2")
      for (const account of this.accounts.get().byTree.get(record.tree) ?? [])
        if (account.spent && !account.inInputQueue) {
          this.nullifierValue(account);
          yield;
        }
    const tree = this.stateTrees.get(record.tree) ?? (yield* this.stateTreeSteps(record));
    yield* tree.merkle.steps();
  }

  /** The trees whose Merkle tree has been started so far (state and address), in that order. */
  built(): string[] {
    return [...this.stateTrees.keys(), ...this.addressTrees.keys()];
  }

  /** The dataset's record of a tree, by the tree's key. */
  tree(key: string): TreeRecord | undefined {
    return this.records.get(key);
  }

  /**
   * The Merkle tree the index stores under `key` (built on first use): a state tree's, or an
   * address tree's indexed leaves once it holds an inserted address; null for an address tree
   * that holds none (Photon stores no row for it) and for keys of no tree. Its stored part
   * (`MerkleTree.node`, `width`) is what Photon's `state_trees` rows hold for that tree.
   */
  merkleTree(key: string): MerkleTree | null {
    const record = this.records.get(key);
    if (!record) return null;
    if (version(record.type) === null) return this.stateTree(record).merkle;
    const { indexed } = this.addressTree(record);
    return indexed.inserted > 0 ? indexed.merkleTree() : null;
  }

  /**
   * A tree by its key or by its queue's key, as Photon's `TreeInfo::get` finds tree metadata
   * (src/ingester/parser/tree_info.rs:21-66).
   */
  treeInfo(key: string): TreeRecord | undefined {
    return this.records.get(key) ?? this.byQueue.get(key);
  }

  /**
   * Whether an account is still in its batched tree's output queue (proves by index): in the
   * record model, a StateV2 account whose `seq` is null. The one place that reads this from the
   * records (Photon keeps it as the `in_output_queue` column, set false by the batch append).
   */
  isInOutputQueue(account: AccountRecord): boolean {
    return this.stateRecord(account.tree).type === "StateV2" && account.inOutputQueue;
  }

  /** An account's leaf in its tree as base58 (its hash, zero, or its nullifier), or null while it is not in the tree. */
  leaf(account: AccountRecord): string | null {
    const leaf = this.leafValue(this.stateRecord(account.tree), account);
    return leaf === null ? null : bigintToBase58(leaf);
  }

  /** The nullifier of a spent account of a batched state tree (in the input queue or in the tree). */
  nullifier(account: AccountRecord): string {
    return bigintToBase58(this.nullifierValue(account));
  }

  /** The transaction hash the system program gives a transaction (base58): the `txHash` of its nullifiers. */
  transactionHash(signature: SignatureRecord): string {
    return bigintToBase58(this.txHashValue(signature));
  }

  /** The current root of a tree (state or address) and its sequence number. */
  root(key: string): TreeRoot {
    const record = this.records.get(key);
    if (!record) throw internalError(RefErrorCode.INTERNAL, `no tree ${key} in the dataset`);
    if (version(record.type) === null) return { root: this.stateTree(record).merkle.rootBase58(), rootSeq: record.seq };
    const { indexed } = this.addressTree(record);
    const root = indexed.merkleTree().rootBase58();
    return indexed.inserted === 0 ? { root, rootSeq: EMPTY_ADDRESS_TREE_SEQ[record.type] } : { root, rootSeq: record.seq };
  }

  /**
   * A proof's index into its tree's root history: `rootSeq % rootHistory` of the proof's own
   * tree, falling back to `fallbackTree`'s capacity when the tree has none (prover/prove.rs:21-50).
   * The same rule serves V1 and V2 trees (V2 answers it as a u16 for addresses, v2.rs:311).
   */
  rootIndex(rootSeq: number, tree: string, fallbackTree?: string): number {
    const own = this.treeInfo(tree)?.rootHistory ?? 0;
    const fallback = fallbackTree === undefined ? 0 : (this.treeInfo(fallbackTree)?.rootHistory ?? 0);
    const capacity = own > 0 ? own : fallback;
    if (capacity <= 0) throw unexpected();
    return rootSeq % capacity;
  }

  // --- account proofs ---

  /**
   * One account proof, V1 (get_compressed_account_proof/v1.rs:43-64). `written` (a listener's
   * `CallContext.written`) is handed each proof written for this answer with its JSON text.
   */
  accountProof(hash: string, written?: WrittenAs): AccountProof {
    const [proof] = this.leafProofs([hash]);
    if (!proof) throw recordNotFound("Account not found");
    return this.writeAccountProof(proof, written);
  }

  /** Account proofs by leaf hash, V1, in request order (get_multiple_compressed_account_proofs/mod.rs:26-47); `written` as in `accountProof`. */
  accountProofs(hashes: readonly string[], written?: WrittenAs): AccountProof[] {
    const proofs = this.leafProofs(hashes);
    const out: AccountProof[] = new Array(proofs.length);
    for (let i = 0; i < proofs.length; i++) out[i] = this.writeAccountProof(proofs[i] as LeafProof, written);
    return out;
  }

  /**
   * One account proof, V2 (get_compressed_account_proof/v2.rs:56-133): by its leaf when a stored
   * leaf equals the hash, else by the account's leaf index (`proveByIndex: true`), which proves
   * whatever the tree holds there (the zero leaf while the account waits in the output queue, its
   * nullifier or zero once spent) and answers that leaf as `hash`.
   */
  accountProofV2(hash: string): AccountProofV2 {
    const account = this.accounts.get().byHash.get(hash);
    if (!account) throw recordNotFound("Account not found");
    // A stored leaf equal to the hash: the account's own leaf when it holds its hash (no decoding), else
    // whatever row holds that value (rows(), the general lookup).
    const byLeaf = this.holdsOwnHash(account) || this.rows([base58ToBigint(hash)]).length > 0;
    const proof = byLeaf ? this.leafProofs([hash])[0] : this.indexProof(this.stateRecord(account.tree), account.leafIndex);
    if (!proof) throw recordNotFound("Account not found by hash");
    const record = this.stateRecord(account.tree);
    return {
      proof: proof.merkle.proofBase58(proof.leafIndex),
      root: proof.merkle.rootBase58(),
      leafIndex: proof.leafIndex,
      hash: proof.merkle.leafBase58(proof.leafIndex),
      rootSeq: proof.rootSeq,
      proveByIndex: !byLeaf,
      treeContext: treeContextOf(record),
    };
  }

  /**
   * Account proofs, V2, in request order (get_multiple_compressed_account_proofs/v2.rs:24-159):
   * every hash must be an account (spent or not); one whose hash is not a stored leaf answers
   * `proveByIndex: true` with no proof, the zero root and rootSeq 0.
   */
  accountProofsV2(hashes: readonly string[]): AccountProofV2[] {
    const byHash = this.accounts.get().byHash;
    const found = new Set(hashes.filter((h) => byHash.has(h)));
    if (found.size !== hashes.length) throw recordNotFound("Some accounts not found");
    const stored = new Set(this.rows(hashes.map(base58ToBigint)).map((row) => row.leaf));
    const byLeaf = hashes.filter((h) => stored.has(base58ToBigint(h)));
    const proofs = new Map(this.leafProofs(byLeaf).map((p) => [p.merkle.leafBase58(p.leafIndex), p]));
    return hashes.map((hash) => {
      const account = byHash.get(hash) as AccountRecord;
      const record = this.stateRecord(account.tree);
      const treeContext = treeContextOf(record);
      const proof = proofs.get(hash);
      return proof
        ? {
            proof: proof.merkle.proofBase58(proof.leafIndex),
            root: proof.merkle.rootBase58(),
            leafIndex: proof.leafIndex,
            hash,
            rootSeq: proof.rootSeq,
            proveByIndex: false,
            treeContext,
          }
        : { proof: [], root: ZERO_HASH, leafIndex: account.leafIndex, hash, rootSeq: 0, proveByIndex: true, treeContext };
    });
  }

  // --- new-address proofs ---

  /**
   * Non-inclusion proofs of addresses, in request order (get_multiple_new_address_proofs.rs:50-172,
   * with the queue check of the V2 method). For each address: its low element (the element with the
   * largest value below it), that element's proof, and the tree's root. An address already in the
   * tree is not refused (its low element is its predecessor, whose `higherRangeAddress` is the
   * address itself), as Photon does not refuse it; an address still in a batched address tree's
   * queue is: `Validation Error: Address <address> already exists` (unless `checkQueue` is false).
   * Emptiness is checked first, then `maxAddresses`.
   */
  newAddressProofs(items: readonly AddressWithTree[], options: AddressProofOptions = {}): NewAddressProof[] {
    return this.lowElementProofs(items, options).map((p) => ({
      root: p.tree.rootBase58(),
      address: bigintToBase58(p.address),
      lowerRangeAddress: bigintToBase58(p.low.value),
      higherRangeAddress: bigintToBase58(p.low.nextValue),
      nextIndex: p.low.nextIndex,
      proof: p.tree.proofBase58(p.low.leafIndex),
      merkleTree: p.merkleTree,
      rootSeq: p.rootSeq,
      lowElementLeafIndex: p.low.leafIndex,
    }));
  }

  // --- validity proofs ---

  /**
   * Everything of a V1 validity proof but the Groth16 proof, in Photon's order of checks
   * (get_validity_proof/v1.rs:58-221): account proofs by leaf hash (spent accounts included, as
   * Photon does not filter them), then new-address proofs (`newAddresses` prove against
   * ADDRESS_TREE_V1), then the first tree's metadata, then the circuit's height checks.
   */
  validityProofV1(request: {
    hashes?: readonly string[];
    newAddresses?: readonly string[];
    newAddressesWithTrees?: readonly AddressWithTree[];
    /** Photon's MAX_ADDRESSES for the address proofs (v1.rs:100-110), checked after the account proofs. */
    maxAddresses?: number;
  }): ValidityProofInputsV1 {
    const hashes = request.hashes ?? [];
    const newAddresses = request.newAddresses ?? [];
    let withTrees = request.newAddressesWithTrees ?? [];
    if (hashes.length === 0 && newAddresses.length === 0 && withTrees.length === 0)
      throw RpcError.validation("No hashes or new addresses provided for proof generation");
    if (withTrees.length > 0 && newAddresses.length > 0) throw RpcError.validation("Cannot provide both newAddresses and newAddressesWithTree");
    if (newAddresses.length > 0) withTrees = newAddresses.map((address) => ({ address, tree: ADDRESS_TREE_V1 }));
    const accounts = hashes.length > 0 ? this.leafProofs(hashes) : [];
    const addresses = withTrees.length > 0 ? this.lowElementProofs(withTrees, { maxAddresses: request.maxAddresses }) : [];
    const first = accounts[0]?.record.tree ?? (addresses[0] as LowElementProof).merkleTree;
    this.requireMetadata(first);
    const prover = this.proverRequest(accounts, addresses);
    return {
      roots: [...accounts.map((a) => a.merkle.rootBase58()), ...addresses.map((a) => a.tree.rootBase58())],
      rootIndices: [
        ...accounts.map((a) => this.rootIndex(a.rootSeq, a.record.tree, first)),
        ...addresses.map((a) => this.rootIndex(a.rootSeq, a.merkleTree, first)),
      ],
      leafIndices: [...accounts.map((a) => a.leafIndex), ...addresses.map((a) => a.low.leafIndex)],
      leaves: [...accounts.map((a) => a.merkle.leafBase58(a.leafIndex)), ...addresses.map((a) => bigintToBase58(a.address))],
      merkleTrees: [...accounts.map((a) => a.record.tree), ...addresses.map((a) => a.merkleTree)],
      prover,
    };
  }

  /**
   * Everything of a V2 validity proof but the Groth16 proof (get_validity_proof/v2.rs:130-344), or
   * null for a request with neither hashes nor addresses, which Photon answers with its default
   * response (`compressedProof: null`, empty lists, and `context.slot` 0). Accounts must be
   * unspent; those still in an output queue prove by index (root zero, root index 0).
   */
  validityProofV2(request: {
    hashes?: readonly string[];
    newAddressesWithTrees?: readonly AddressWithTree[];
    /** Photon's MAX_ADDRESSES for the address proofs (v2.rs:224-234), checked after the account proofs. */
    maxAddresses?: number;
  }): ValidityProofInputsV2 | null {
    const hashes = request.hashes ?? [];
    const withTrees = request.newAddressesWithTrees ?? [];
    if (hashes.length === 0 && withTrees.length === 0) return null;
    const byHash = this.accounts.get().byHash;
    const position = new Map<string, number>();
    hashes.forEach((h, i) => {
      if (!position.has(h)) position.set(h, i);
    });
    const found = [...position.keys()].filter((h) => byHash.get(h)?.spent === false);
    if (found.length !== hashes.length)
      throw RpcError.validation(
        `Not all requested account hashes exist or are available (might be spent). Requested: ${debugList(hashes)}, Found in DB: ${debugList(found)}`,
      );
    const byIndex = new Map<string, AccountProofInputs>();
    const full: string[] = [];
    for (const hash of hashes) {
      const account = byHash.get(hash) as AccountRecord;
      const record = this.stateRecord(account.tree);
      if (this.isInOutputQueue(account))
        byIndex.set(hash, {
          hash,
          root: ZERO_HASH,
          rootIndex: { rootIndex: 0, proveByIndex: true },
          leafIndex: account.leafIndex,
          merkleContext: merkleContextOf(record),
        });
      else full.push(hash);
    }
    const accounts = full.length > 0 ? this.leafProofs(full) : [];
    const addresses = withTrees.length > 0 ? this.lowElementProofs(withTrees, { maxAddresses: request.maxAddresses }) : [];
    const first = accounts[0]?.record.tree ?? addresses[0]?.merkleTree ?? withTrees[0]?.tree ?? (byHash.get(hashes[0] as string) as AccountRecord).tree;
    this.requireMetadata(first);
    if (accounts.length === 0 && addresses.length === 0)
      return { accounts: hashes.map((h) => byIndex.get(h) as AccountProofInputs), addresses: [], prover: null };
    const prover = this.proverRequest(accounts, addresses);
    const context = (key: string): MerkleContextV2 => {
      const info = this.treeInfo(key);
      if (!info) throw unexpected();
      return merkleContextOf(info);
    };
    const proved = new Map<string, AccountProofInputs>();
    full.forEach((hash, i) => {
      const a = accounts[i] as LeafProof;
      proved.set(hash, {
        hash: a.merkle.leafBase58(a.leafIndex),
        root: a.merkle.rootBase58(),
        rootIndex: { rootIndex: this.rootIndex(a.rootSeq, a.record.tree, first), proveByIndex: false },
        leafIndex: a.leafIndex,
        merkleContext: context(a.record.tree),
      });
    });
    return {
      accounts: hashes.map((h) => (byIndex.get(h) ?? proved.get(h)) as AccountProofInputs),
      addresses: addresses.map((a) => ({
        address: bigintToBase58(a.address),
        root: a.tree.rootBase58(),
        rootIndex: this.rootIndex(a.rootSeq, a.merkleTree, first) % 65536,
        merkleContext: context(a.merkleTree),
      })),
      prover,
    };
  }

  // --- internals ---

  private stateRecord(key: string): TreeRecord {
    const record = this.records.get(key);
    if (!record || version(record.type) !== null)
      throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `accounts are in ${key}, which is not a state tree of the dataset`);
    return record;
  }

  private requireMetadata(tree: string): void {
    if (!this.records.has(tree)) throw RpcError.validation(`Tree metadata not found for ${tree}. Please ensure tree metadata sync has been run.`);
  }

  private txHashValue(signature: SignatureRecord): bigint {
    let value = this.txHashes.get(signature.signature);
    if (value === undefined) {
      value = transactionHash(signature.closed.map(base58ToBigint), signature.opened.map(base58ToBigint), signature.slot);
      this.txHashes.set(signature.signature, value);
    }
    return value;
  }

  private nullifierValue(account: AccountRecord): bigint {
    let value = this.nullifiers.get(account.hash);
    if (value === undefined) {
      if (!account.spent || this.stateRecord(account.tree).type !== "StateV2")
        throw internalError(RefErrorCode.INTERNAL, `account ${account.hash} has no nullifier: only spent accounts of batched trees have one`);
      const spender = this.spenders.get().get(account.hash);
      if (!spender) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `spent account ${account.hash} is closed by no transaction`);
      value = nullifier(base58ToBigint(account.hash), account.leafIndex, this.txHashValue(spender));
      this.nullifiers.set(account.hash, value);
    }
    return value;
  }

  /** The leaf an account holds in its tree, or null when it has none (still in the output queue). */
  private leafValue(record: TreeRecord, account: AccountRecord): bigint | null {
    if (record.type === "StateV1") return account.spent ? 0n : base58ToBigint(account.hash);
    if (account.spent && !account.inInputQueue) return this.nullifierValue(account);
    return this.isInOutputQueue(account) ? null : base58ToBigint(account.hash);
  }

  /** Whether an account's leaf is its own hash, without hashing anything. */
  private holdsOwnHash(account: AccountRecord): boolean {
    return holdsOwnHash(this.stateRecord(account.tree), account);
  }

  private stateTree(record: TreeRecord): StateTree {
    const tree = this.stateTrees.get(record.tree);
    if (tree) return tree;
    const steps = this.stateTreeSteps(record);
    for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
  }

  /**
   * A state tree's leaves read (decoded) a slice at a time, then its tree (unbuilt) kept. When the
   * tree was made meanwhile (a proof needed it), that one is kept and answered.
   */
  private *stateTreeSteps(record: TreeRecord): Generator<void, StateTree, undefined> {
    const leaves: bigint[] = [];
    const filled: boolean[] = [];
    let done = 0;
    for (const account of this.accounts.get().byTree.get(record.tree) ?? []) {
      const leaf = this.leafValue(record, account);
      if (leaf !== null) {
        if (filled[account.leafIndex])
          throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `two accounts hold leaf ${account.leafIndex} of ${record.tree}`);
        filled[account.leafIndex] = true;
        leaves[account.leafIndex] = leaf;
      }
      if (++done % RECORDS_PER_STEP === 0) {
        yield;
        const made = this.stateTrees.get(record.tree);
        if (made) return made;
      }
    }
    for (let i = 0; i < leaves.length; i++) if (leaves[i] === undefined) leaves[i] = 0n;
    const made = this.stateTrees.get(record.tree);
    if (made) return made;
    const tree = { record, merkle: new MerkleTree(record.height, leaves) };
    this.stateTrees.set(record.tree, tree);
    return tree;
  }

  private addressTree(record: TreeRecord): AddressTree {
    let tree = this.addressTrees.get(record.tree);
    if (!tree) {
      const values = (this.addresses.get().inserted.get(record.tree) ?? []).map((a) => base58ToBigint(a.address));
      tree = { record, indexed: new IndexedMerkleTree(version(record.type) as AddressTreeVersion, record.height, values) };
      this.addressTrees.set(record.tree, tree);
    }
    return tree;
  }

  /** The tree Photon answers for an address tree it holds nothing of: only the initial elements. */
  private emptyAddressTree(v: AddressTreeVersion, height: number): IndexedMerkleTree {
    const key = `${v}/${height}`;
    let tree = this.emptyAddressTrees.get(key);
    if (!tree) {
      tree = new IndexedMerkleTree(v, height, []);
      this.emptyAddressTrees.set(key, tree);
    }
    return tree;
  }

  /**
   * Stored leaves equal to any of `values` (Photon: `state_trees` rows at level 0 whose hash is
   * in the list, of any tree: leaf_node_proof.rs:100-107), each row once. Address trees' leaves
   * are among them.
   */
  private rows(values: readonly bigint[]): Row[] {
    const out: Row[] = [];
    const seen = new Set<string>();
    const add = (row: Row) => {
      const key = `${row.record.tree}/${row.leafIndex}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(row);
      }
    };
    const byHash = this.accounts.get().byHash;
    for (const value of new Set(values)) {
      if (value === 0n) {
        for (const row of this.zeroRows.get()) add(row);
        continue;
      }
      const account = byHash.get(bigintToBase58(value));
      // A nullifier equal to an account's hash would take 2^-250 luck: nullifiers (which cost hashing
      // every nullified account) are looked up only for values that are no account's hash.
      if (account) {
        if (this.holdsOwnHash(account)) add({ record: this.stateRecord(account.tree), leafIndex: account.leafIndex, leaf: value });
      } else {
        for (const row of this.nullifierRows.get().get(value) ?? []) add(row);
        const row = this.addressRows.get().get(value);
        if (row) add(row);
      }
    }
    return out;
  }

  /**
   * Photon's `get_multiple_compressed_leaf_proofs` (leaf_node_proof.rs:92-208), in request order:
   * the leaves only (tree and index); the proofs are read from the trees when written out.
   */
  private leafProofs(hashes: readonly string[]): LeafProof[] {
    if (hashes.length === 0) return [];
    const direct = this.ownLeaves(hashes);
    if (direct) return direct;
    const values = hashes.map(base58ToBigint);
    const rows = this.rows(values);
    if (rows.length !== hashes.length) throw recordNotFound(`Leaf nodes not found for hashes. Got ${rows.length} hashes. Expected ${hashes.length}.`);
    const byLeaf = new Map<bigint, Row>();
    for (const row of rows) byLeaf.set(row.leaf, row);
    return values.map((value, i) => {
      const row = byLeaf.get(value);
      if (!row) throw recordNotFound(`Leaf node not found for hash: ${hashes[i]}`);
      return this.indexProof(row.record, row.leafIndex);
    });
  }

  /**
   * The common case of `leafProofs`, looked up by text: every hash is an account that holds its own
   * hash as its leaf, and no two hashes name the same leaf. Then `rows()` would find exactly these
   * leaves (a 32-byte value has one base58 text, so the text lookup is the value lookup), one per
   * hash, and nothing is decoded. Null otherwise: the general lookup then answers (zero leaves,
   * nullifiers, duplicates and their errors).
   */
  private ownLeaves(hashes: readonly string[]): LeafProof[] | null {
    const byHash = this.accounts.get().byHash;
    const n = hashes.length;
    const accounts: AccountRecord[] = new Array(n);
    const records: TreeRecord[] = new Array(n);
    let record: TreeRecord | undefined;
    for (let i = 0; i < n; i++) {
      const account = byHash.get(hashes[i] as string);
      if (account === undefined) return null;
      // Requests name accounts of one tree or a few: the previous account's record is checked first.
      if (record === undefined || record.tree !== account.tree) record = this.stateRecord(account.tree);
      if (!holdsOwnHash(record, account)) return null;
      accounts[i] = account;
      records[i] = record;
    }
    if (n > 1 && namesLeafTwice(accounts)) return null;
    const out: LeafProof[] = new Array(n);
    let tree: StateTree | undefined;
    for (let i = 0; i < n; i++) {
      const r = records[i] as TreeRecord;
      if (tree === undefined || tree.record !== r) tree = this.stateTree(r);
      out[i] = { record: r, leafIndex: (accounts[i] as AccountRecord).leafIndex, merkle: tree.merkle, rootSeq: r.seq };
    }
    return out;
  }

  /** The proof of whatever leaf `leafIndex` of a tree holds (zero where nothing is stored); an address tree's leaves are its elements' hashes. */
  private indexProof(record: TreeRecord, leafIndex: number): LeafProof {
    const merkle = version(record.type) === null ? this.stateTree(record).merkle : this.addressTree(record).indexed.merkleTree();
    return { record, leafIndex, merkle, rootSeq: record.seq };
  }

  /**
   * A proof written out from the tree's texts (each node encoded once: the same text bigintToBase58
   * gives), frozen with its JSON text (`encodeOnce`: the listener copies its bytes into the answer
   * instead of serialising 26 levels again) and kept while its tree and rootSeq stay the ones it
   * was written from (bounded: `ForestOptions.keptProofBytes`).
   */
  private writeAccountProof(p: LeafProof, mark?: WrittenAs): AccountProof {
    const { merkle, leafIndex } = p;
    let byLeaf = this.written.get(merkle);
    const kept = byLeaf?.get(leafIndex);
    if (kept !== undefined && kept.rootSeq === p.rootSeq && kept.merkleTree === p.record.tree) return kept;
    const proof = merkle.proofBase58(leafIndex);
    const plain: AccountProof = {
      proof,
      root: merkle.rootBase58(),
      leafIndex,
      hash: merkle.leafBase58(leafIndex),
      merkleTree: p.record.tree,
      rootSeq: p.rootSeq,
    };
    if (this.keptProofBytes === 0) {
      // Nothing kept: written for this answer only, its JSON text (for the listener) joined from the node texts.
      if (mark === undefined) return plain;
      // The text first: joining a frozen array takes V8's slow path (about twice the time).
      const json = accountProofJson(plain);
      Object.freeze(proof);
      return mark(plain, json);
    }
    const written = encodeOnce(plain);
    if (byLeaf === undefined) {
      byLeaf = new Map();
      this.written.set(merkle, byLeaf);
    }
    if (kept !== undefined) this.forget(kept);
    let size = PROOF_FRAME_BYTES + written.root.length + written.hash.length + written.merkleTree.length;
    for (const text of proof) size += text.length + 3;
    byLeaf.set(leafIndex, written);
    this.writtenOrder.set(written, { size, byLeaf });
    this.writtenBytes += size;
    for (const [old] of this.writtenOrder) {
      if (this.writtenBytes <= this.keptProofBytes) break;
      this.forget(old);
    }
    return written;
  }

  /** Drops a kept written proof. */
  private forget(proof: AccountProof): void {
    const kept = this.writtenOrder.get(proof);
    if (kept === undefined) return;
    this.writtenBytes -= kept.size;
    this.writtenOrder.delete(proof);
    if (kept.byLeaf.get(proof.leafIndex) === proof) kept.byLeaf.delete(proof.leafIndex);
  }

  /** Photon's `get_multiple_new_address_proofs_helper` with the queue check (get_multiple_new_address_proofs.rs:50-172). */
  private lowElementProofs(items: readonly AddressWithTree[], options: AddressProofOptions = {}): LowElementProof[] {
    if (items.length === 0) throw RpcError.validation("No addresses provided");
    const most = options.maxAddresses;
    if (most !== undefined && items.length > most) throw RpcError.validation(`Too many addresses requested ${items.length}. Maximum allowed: ${most}`);
    const byTree = new Map<string, { index: number; address: string }[]>();
    items.forEach(({ address, tree }, index) => {
      const list = byTree.get(tree);
      if (list) list.push({ index, address });
      else byTree.set(tree, [{ index, address }]);
    });
    const out: LowElementProof[] = new Array(items.length);
    for (const [key, list] of byTree) {
      const info = this.treeInfo(key);
      if (!info) throw invalidPubkey(key);
      if (info.type === "AddressV2" && options.checkQueue !== false) {
        const queued = this.addresses.get().queued.get(key);
        if (queued) {
          const asked = new Set(list.map((e) => e.address));
          const hit = [...queued].find((a) => asked.has(a));
          if (hit !== undefined) throw RpcError.validation(`Address ${hit} already exists`);
        }
      }
      const v = version(info.type);
      // A state tree (or a state queue) named as an address tree: Photon finds no indexed element and
      // fails to hash the initial element for that tree type (indexed_merkle_tree/helpers.rs:27-31).
      if (v === null) throw unexpected();
      // Elements are looked up under the key the request named: a queue's key holds none.
      const tree = key === info.tree ? this.addressTree(info).indexed : null;
      for (const { index, address } of list) {
        const value = base58ToBigint(address);
        const low = tree && tree.inserted > 0 ? tree.lowElement(value) : undefined;
        if (tree && low) {
          out[index] = { address: value, merkleTree: key, low, tree: tree.merkleTree(), rootSeq: info.seq };
        } else {
          // No element below the address (the tree holds nothing, or the address is 0): Photon
          // answers the proof of the zeroeth element of a freshly initialised tree (proof.rs:118-172).
          const empty = this.emptyAddressTree(v, info.height);
          const zeroth = empty.element(0);
          out[index] = { address: value, merkleTree: key, low: zeroth, tree: empty.merkleTree(), rootSeq: EMPTY_ADDRESS_TREE_SEQ[info.type] };
        }
      }
    }
    return out;
  }

  /**
   * Photon's `generate_proof` up to the prover call (prover/prove.rs:52-133): the height checks and
   * the prover's request. Its checks run here, in Photon's order; its values (the public input hash,
   * prover/helpers.rs:97-177, and the hex paths, helpers.rs:44-55) are computed when the request is
   * first read, which only a forwarding reference does (./handlers/prover.ts `prove`): without a
   * prover nothing is sent and the answer does not depend on them. They read the trees as they are
   * now, which never change after the dataset is loaded.
   */
  private proverRequest(accounts: readonly LeafProof[], addresses: readonly LowElementProof[]): ProverRequest {
    const stateHeight = accounts[0]?.merkle.height ?? 0;
    if (!accounts.every((a) => a.merkle.height === stateHeight)) throw RpcError.validation("All state trees for account proofs must have the same height");
    const addressHeight = addresses[0]?.tree.height ?? 0;
    if (!addresses.every((a) => a.tree.height === addressHeight))
      throw RpcError.validation("All address trees for new address proofs must have the same height");
    const request: ProverRequest = {
      circuitType: accounts.length > 0 && addresses.length > 0 ? "combined" : accounts.length > 0 ? "inclusion" : "non-inclusion",
    };
    if (stateHeight !== 0) request.stateTreeHeight = stateHeight;
    if (addressHeight !== 0) request.addressTreeHeight = addressHeight;
    // light-batched-merkle-tree DEFAULT_BATCH_STATE_TREE_HEIGHT / DEFAULT_BATCH_ADDRESS_TREE_HEIGHT (constants.rs:5-7).
    if (stateHeight === 32 || addressHeight === 40) {
      this.checkPublicInputs(accounts, addresses);
      defineLazy(request, "publicInputHash", () => bigintToHex(this.publicInputHash(accounts, addresses)));
    }
    if (accounts.length > 0)
      defineLazy(request, "inputCompressedAccounts", () =>
        accounts.map((a) => ({
          root: bigintToHex(a.merkle.root()),
          pathIndex: a.leafIndex,
          pathElements: a.merkle.proof(a.leafIndex).map(bigintToHex),
          leaf: bigintToHex(a.merkle.leaf(a.leafIndex)),
        })),
      );
    if (addresses.length > 0)
      defineLazy(request, "newAddresses", () =>
        addresses.map((a) => ({
          root: bigintToHex(a.tree.root()),
          value: bigintToHex(a.address),
          pathIndex: a.low.leafIndex,
          pathElements: a.tree.proof(a.low.leafIndex).map(bigintToHex),
          leafLowerRangeValue: bigintToHex(a.low.value),
          leafHigherRangeValue: bigintToHex(a.low.nextValue),
          nextIndex: a.low.nextIndex,
        })),
      );
    return request;
  }

  /**
   * The errors of Photon's `get_public_input_hash` (prover/helpers.rs:97-177), before it hashes: a
   * value Poseidon refuses is its "Internal server error"; no proof at all is "No proofs provided"
   * (both hash chains 0, which a non-empty chain, a Poseidon output, is not).
   */
  private checkPublicInputs(accounts: readonly LeafProof[], addresses: readonly LowElementProof[]): void {
    for (const a of accounts) if (!isFieldElement(a.merkle.leaf(a.leafIndex)) || !isFieldElement(a.merkle.root())) throw unexpected();
    for (const a of addresses) if (!isFieldElement(a.address) || !isFieldElement(a.tree.root())) throw unexpected();
    if (accounts.length === 0 && addresses.length === 0) throw RpcError.validation("No proofs provided");
  }

  /** Photon's `get_public_input_hash` (prover/helpers.rs:97-177), once `checkPublicInputs` passed. */
  private publicInputHash(accounts: readonly LeafProof[], addresses: readonly LowElementProof[]): bigint {
    const inclusion = twoInputsHashChain(
      accounts.map((a) => a.merkle.root()),
      accounts.map((a) => a.merkle.leaf(a.leafIndex)),
    );
    const nonInclusion = twoInputsHashChain(
      addresses.map((a) => a.tree.root()),
      addresses.map((a) => a.address),
    );
    if (inclusion !== 0n && nonInclusion !== 0n) return twoInputsHashChain([inclusion], [nonInclusion]);
    if (nonInclusion !== 0n) return nonInclusion;
    return inclusion;
  }
}

/** The leaf hash of an indexed element, for tests and for a conformance suite that folds address proofs. */
export function addressLeaf(type: "AddressV1" | "AddressV2", value: string, nextIndex: number, nextValue: string): string {
  return bigintToBase58(
    indexedLeafHash(type === "AddressV1" ? 1 : 2, { leafIndex: 0, value: base58ToBigint(value), nextIndex, nextValue: base58ToBigint(nextValue) }),
  );
}
