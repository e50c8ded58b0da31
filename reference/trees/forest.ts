/**
 * The reference indexer's Merkle trees, one per `TreeRecord`, and what Photon's proof methods answer from
 * them (Photon 0.51.2 = 366a15b), with Photon's field order and `RpcError`s. Each tree is built on first use.
 * State-tree leaves come from the records (leaf-values.ts), address trees from the dataset's unqueued
 * addresses (indexed-tree.ts). Root seqs are `TreeRecord.seq` (leaf_node_proof.rs:266-281).
 * After `apply` (forest-apply.ts) every answer is the one a fresh forest over the records gives.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { internalError, RpcError } from "@photon-indexer-kit/runtime";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { Touched } from "../live/apply.js";
import type { Change } from "../live/change.js";
import type { AccountRecord, Dataset, SignatureRecord, TreeRecord } from "../records.js";
import { accountProofsV1, accountProofsV2, accountProofV1, accountProofV2 } from "./account-proofs.js";
import { type AddressSource, lowElementProofs, newAddressProofOf } from "./address-proofs.js";
import type {
  AccountProof,
  AccountProofV2,
  AddressProofOptions,
  AddressWithTree,
  NewAddressProof,
  TreeRoot,
  ValidityProofInputsV1,
  ValidityProofInputsV2,
  WrittenAs,
} from "./answers.js";
import { addressRowsOf, indexAccounts, nullifierRowsOf, sortAddresses, spendersOf, zeroRowsOf } from "./dataset-indexes.js";
import { applyToForest, LeafLogs, type LiveParts } from "./forest-apply.js";
import { type AddressTree, EMPTY_ADDRESS_TREE_SEQ, type LeafProof, type LowElementProof, RECORDS_PER_STEP, type StateTree, version } from "./forest-parts.js";
import { type AddressTreeVersion, IndexedMerkleTree } from "./indexed-tree.js";
import { Lazy, Stepwise } from "../lazy.js";
import { type LeafSource, leafProofsOf } from "./leaf-lookup.js";
import { LeafValues } from "./leaf-values.js";
import { unexpected } from "./photon-errors.js";
import { base58ToBigint, bigintToBase58 } from "./poseidon.js";
import { MerkleTree } from "./state-tree.js";
import { type ProofSource, validityInputsV1, validityInputsV2 } from "./validity-inputs.js";
import { KEPT_PROOF_BYTES, WrittenProofs } from "./written-proofs.js";

export {
  ADDRESS_TREE_V1,
  type AccountProof,
  type AccountProofInputs,
  type AccountProofV2,
  type AddressProofInputs,
  type AddressProofOptions,
  type AddressWithTree,
  accountProofJson,
  addressLeaf,
  fold,
  type MerkleContextV2,
  merkleContextOf,
  type NewAddressProof,
  type ProverRequest,
  TREE_TYPE_CODE,
  type TreeContextInfo,
  type TreeRoot,
  treeContextOf,
  type ValidityProofInputsV1,
  type ValidityProofInputsV2,
  type WrittenAs,
  ZERO_HASH,
} from "./answers.js";

export interface ForestOptions {
  /** Bytes of JSON text of written V1 account proofs kept for later answers (default 8 MiB; 0 keeps none). */
  readonly keptProofBytes?: number;
}

export class Forest {
  private readonly dataset: Dataset;
  private readonly records = new Map<string, TreeRecord>();
  private readonly byQueue = new Map<string, TreeRecord>();
  private readonly stateTrees = new Map<string, StateTree>();
  private readonly addressTrees = new Map<string, AddressTree>();
  private readonly emptyAddressTrees = new Map<string, IndexedMerkleTree>();
  /** Leaf writes to state trees whose leaves a build is reading (`stateTreeSteps`). */
  private readonly logs = new LeafLogs();

  private readonly accounts = new Stepwise(() => indexAccounts(this.dataset));

  private readonly addresses = new Lazy(() => sortAddresses(this.dataset, this.records));

  /** The transaction that spent each account (`closed`), for nullifiers. */
  private readonly spenders = new Lazy(() => spendersOf(this.dataset));

  private readonly values = new LeafValues(
    (key) => this.stateRecord(key),
    () => this.spenders.get(),
  );

  /** Stored leaves equal to zero: spent StateV1 accounts (Photon keeps their rows with the zero hash). */
  private readonly zeroRows = new Lazy(() => zeroRowsOf(this.dataset, this.accounts.get().byTree));

  /** Stored leaves that are nullifiers (nullified StateV2 accounts), by leaf value. */
  private readonly nullifierRows = new Lazy(() => nullifierRowsOf(this.dataset, this.accounts.get().byTree, (account) => this.values.nullifier(account)));

  /** Stored leaves of address trees, by leaf value (`addressRowsOf`). */
  private readonly addressRows = new Lazy(() => addressRowsOf(this.dataset, this.addresses.get().inserted, (record) => this.addressTree(record)));

  private readonly writtenProofs: WrittenProofs;

  /** What a change updates (forest-apply.ts). */
  private readonly live: LiveParts = {
    records: this.records,
    accounts: this.accounts,
    addresses: this.addresses,
    spenders: this.spenders,
    zeroRows: this.zeroRows,
    nullifierRows: this.nullifierRows,
    addressRows: this.addressRows,
    stateTrees: this.stateTrees,
    logs: this.logs,
    addressTrees: this.addressTrees,
    stateRecord: (key) => this.stateRecord(key),
    leafValue: (record, account) => this.values.leaf(record, account),
    nullifierValue: (account) => this.values.nullifier(account),
  };

  /** Indexes the dataset's trees by key; builds nothing. */
  constructor(dataset: Dataset, options: ForestOptions = {}) {
    this.dataset = dataset;
    this.writtenProofs = new WrittenProofs(options.keptProofBytes ?? KEPT_PROOF_BYTES);
    for (const record of dataset.trees) {
      if (this.records.has(record.tree)) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `tree ${record.tree} is listed twice`);
      this.records.set(record.tree, record);
    }
    for (const record of dataset.trees) if (!this.records.has(record.queue) && !this.byQueue.has(record.queue)) this.byQueue.set(record.queue, record);
  }

  /**
   * Builds every tree in the background, at most `sliceMs` of hashing per event-loop turn, so a server
   * answers at once. Stops early, without error, when `signal` aborts.
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
        // Ended, not dropped: a build reading a state tree's leaves stops logging the changes made to it.
        if (options.signal?.aborted) return void steps.return();
      }
    }
  }

  /**
   * Brings every tree and index up to date with a change that `applyChange` (live/apply.ts) has
   * written into the dataset's records, which returned `touched`: built trees are written (hashed
   * when next read), the others read the records when built (forest-apply.ts).
   */
  apply(change: Change, touched: Touched): void {
    applyToForest(this.live, change, touched);
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
          this.values.nullifier(account);
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
   * The Merkle tree stored under `key` (built on first use), as Photon's `state_trees` rows hold it;
   * null for an address tree with no inserted address and for keys of no tree.
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

  /** Whether an account is still in its batched tree's output queue (`LeafValues.isInOutputQueue`). */
  isInOutputQueue(account: AccountRecord): boolean {
    return this.values.isInOutputQueue(account);
  }

  /** An account's leaf in its tree as base58 (its hash, zero, or its nullifier), or null while it is not in the tree. */
  leaf(account: AccountRecord): string | null {
    const leaf = this.values.leaf(this.stateRecord(account.tree), account);
    return leaf === null ? null : bigintToBase58(leaf);
  }

  /** The nullifier of a spent account of a batched state tree (in the input queue or in the tree). */
  nullifier(account: AccountRecord): string {
    return bigintToBase58(this.values.nullifier(account));
  }

  /** The transaction hash the system program gives a transaction (base58): the `txHash` of its nullifiers. */
  transactionHash(signature: SignatureRecord): string {
    return bigintToBase58(this.values.txHash(signature));
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

  /** One account proof, V1 (`accountProofV1`, account-proofs.ts). */
  accountProof(hash: string, written?: WrittenAs): AccountProof {
    return accountProofV1(this.leafSource, this.writtenProofs, hash, written);
  }

  /** Account proofs by leaf hash, V1, in request order (`accountProofsV1`, account-proofs.ts). */
  accountProofs(hashes: readonly string[], written?: WrittenAs): AccountProof[] {
    return accountProofsV1(this.leafSource, this.writtenProofs, hashes, written);
  }

  /** One account proof, V2, by leaf or by index (`accountProofV2`, account-proofs.ts). */
  accountProofV2(hash: string): AccountProofV2 {
    return accountProofV2(this.leafSource, hash);
  }

  /** Account proofs, V2, in request order (`accountProofsV2`, account-proofs.ts). */
  accountProofsV2(hashes: readonly string[]): AccountProofV2[] {
    return accountProofsV2(this.leafSource, hashes);
  }

  // --- new-address proofs ---

  /**
   * Non-inclusion proofs of addresses, in request order (get_multiple_new_address_proofs.rs:50-172): an
   * address already in the tree is not refused, as in Photon; one still in a batched queue is
   * `Validation Error: Address <address> already exists` unless `checkQueue` is false.
   */
  newAddressProofs(items: readonly AddressWithTree[], options: AddressProofOptions = {}): NewAddressProof[] {
    return this.lowElementProofs(items, options).map(newAddressProofOf);
  }

  // --- validity proofs ---

  /** Everything of a V1 validity proof but the Groth16 proof (`validityInputsV1`, validity-inputs.ts). */
  validityProofV1(request: {
    hashes?: readonly string[];
    newAddresses?: readonly string[];
    newAddressesWithTrees?: readonly AddressWithTree[];
    /** Photon's MAX_ADDRESSES for the address proofs (v1.rs:100-110), checked after the account proofs. */
    maxAddresses?: number;
  }): ValidityProofInputsV1 {
    return validityInputsV1(this.source, request);
  }

  /** Everything of a V2 validity proof but the Groth16 proof, or null for an empty request (`validityInputsV2`, validity-inputs.ts). */
  validityProofV2(request: {
    hashes?: readonly string[];
    newAddressesWithTrees?: readonly AddressWithTree[];
    /** Photon's MAX_ADDRESSES for the address proofs (v2.rs:224-234), checked after the account proofs. */
    maxAddresses?: number;
  }): ValidityProofInputsV2 | null {
    return validityInputsV2(this.source, request);
  }

  /** What the validity and address proofs read of this forest. */
  private readonly source: ProofSource & AddressSource = {
    accountsByHash: () => this.accounts.get().byHash,
    stateRecord: (key) => this.stateRecord(key),
    isInOutputQueue: (account) => this.isInOutputQueue(account),
    leafProofs: (hashes) => this.leafProofs(hashes),
    lowElementProofs: (items, options) => this.lowElementProofs(items, options),
    requireMetadata: (tree) => this.requireMetadata(tree),
    rootIndex: (rootSeq, tree, fallbackTree) => this.rootIndex(rootSeq, tree, fallbackTree),
    treeInfo: (key) => this.treeInfo(key),
    queued: (key) => this.addresses.get().queued.get(key),
    addressTree: (record) => this.addressTree(record),
    emptyAddressTree: (v, height) => this.emptyAddressTree(v, height),
  };

  /** Photon's `get_multiple_new_address_proofs_helper` with the queue check (`lowElementProofs`, address-proofs.ts). */
  private lowElementProofs(items: readonly AddressWithTree[], options: AddressProofOptions = {}): LowElementProof[] {
    return lowElementProofs(this.source, items, options);
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

  private stateTree(record: TreeRecord): StateTree {
    const tree = this.stateTrees.get(record.tree);
    if (tree) return tree;
    const steps = this.stateTreeSteps(record);
    for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
  }

  /**
   * A state tree's leaves read (decoded) a slice at a time, then its tree (unbuilt) kept. When the
   * tree was made meanwhile (a proof needed it), that one is kept and answered. Changes applied
   * between slices are logged and replayed over the leaves read (accounts they add are read too).
   */
  private *stateTreeSteps(record: TreeRecord): Generator<void, StateTree, undefined> {
    const leaves: bigint[] = [];
    const filled: boolean[] = [];
    let done = 0;
    const log = this.logs.start(record.tree);
    try {
      for (const account of this.accounts.get().byTree.get(record.tree) ?? []) {
        const leaf = this.values.leaf(record, account);
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
    } finally {
      this.logs.close(record.tree, log);
    }
    for (const [leafIndex, leaf] of log) leaves[leafIndex] = leaf;
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

  /** Photon's `get_multiple_compressed_leaf_proofs`, in request order (`leafProofsOf`, leaf-lookup.ts). */
  private leafProofs(hashes: readonly string[]): LeafProof[] {
    return leafProofsOf(this.leafSource, hashes);
  }

  /** What the leaf lookups read of this forest. */
  private readonly leafSource: LeafSource = {
    accountsByHash: () => this.accounts.get().byHash,
    zeroRows: () => this.zeroRows.get(),
    nullifierRows: () => this.nullifierRows.get(),
    addressRows: () => this.addressRows.get(),
    stateRecord: (key) => this.stateRecord(key),
    stateTree: (record) => this.stateTree(record),
    addressTree: (record) => this.addressTree(record),
  };
}
