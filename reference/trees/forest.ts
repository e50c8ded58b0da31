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
 * The records may move (`apply`, forest-apply.ts): every answer is then the one a fresh forest over them gives.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { internalError, RpcError } from "@photon-indexer-kit/runtime";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { Touched } from "../live/apply.js";
import type { Change } from "../live/change.js";
import type { AccountRecord, Dataset, SignatureRecord, TreeRecord } from "../records.js";
import { type AddressSource, lowElementProofs, newAddressProofOf } from "./address-proofs.js";
import {
  type AccountProof,
  type AccountProofV2,
  type AddressProofOptions,
  type AddressWithTree,
  type NewAddressProof,
  type TreeRoot,
  treeContextOf,
  type ValidityProofInputsV1,
  type ValidityProofInputsV2,
  type WrittenAs,
  ZERO_HASH,
} from "./answers.js";
import { addressRowsOf, indexAccounts, nullifierRowsOf, sortAddresses, spendersOf, zeroRowsOf } from "./dataset-indexes.js";
import { applyToForest, LeafLogs, type LiveParts } from "./forest-apply.js";
import {
  type AddressTree,
  EMPTY_ADDRESS_TREE_SEQ,
  RECORDS_PER_STEP,
  holdsOwnHash,
  type LeafProof,
  type LowElementProof,
  type Row,
  type StateTree,
  version,
} from "./forest-parts.js";
import { type AddressTreeVersion, IndexedMerkleTree } from "./indexed-tree.js";
import { Lazy, Stepwise } from "./lazy.js";
import { indexProofOf, type LeafSource, leafProofsOf, storedRows } from "./leaf-lookup.js";
import { recordNotFound, unexpected } from "./photon-errors.js";
import { base58ToBigint, bigintToBase58, nullifier, transactionHash } from "./poseidon.js";
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
  private readonly txHashes = new Map<string, bigint>();
  private readonly nullifiers = new Map<string, bigint>();
  /** Leaf writes to state trees whose leaves a build is reading (`stateTreeSteps`). */
  private readonly logs = new LeafLogs();

  private readonly accounts = new Stepwise(() => indexAccounts(this.dataset));

  private readonly addresses = new Lazy(() => sortAddresses(this.dataset, this.records));

  /** The transaction that spent each account (`closed`), for nullifiers. */
  private readonly spenders = new Lazy(() => spendersOf(this.dataset));

  /** Stored leaves equal to zero: spent StateV1 accounts (Photon keeps their rows with the zero hash). */
  private readonly zeroRows = new Lazy(() => zeroRowsOf(this.dataset, this.accounts.get().byTree));

  /** Stored leaves that are nullifiers (nullified StateV2 accounts), by leaf value. */
  private readonly nullifierRows = new Lazy(() => nullifierRowsOf(this.dataset, this.accounts.get().byTree, (account) => this.nullifierValue(account)));

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
    leafValue: (record, account) => this.leafValue(record, account),
    nullifierValue: (account) => this.nullifierValue(account),
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
    return this.writtenProofs.write(proof, written);
  }

  /** Account proofs by leaf hash, V1, in request order (get_multiple_compressed_account_proofs/mod.rs:26-47); `written` as in `accountProof`. */
  accountProofs(hashes: readonly string[], written?: WrittenAs): AccountProof[] {
    const proofs = this.leafProofs(hashes);
    const out: AccountProof[] = new Array(proofs.length);
    for (let i = 0; i < proofs.length; i++) out[i] = this.writtenProofs.write(proofs[i] as LeafProof, written);
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

  /** Stored leaves equal to any of `values` (`storedRows`, leaf-lookup.ts). */
  private rows(values: readonly bigint[]): Row[] {
    return storedRows(this.leafSource, values);
  }

  /** Photon's `get_multiple_compressed_leaf_proofs`, in request order (`leafProofsOf`, leaf-lookup.ts). */
  private leafProofs(hashes: readonly string[]): LeafProof[] {
    return leafProofsOf(this.leafSource, hashes);
  }

  /** The proof of whatever leaf `leafIndex` of a tree holds (`indexProofOf`, leaf-lookup.ts). */
  private indexProof(record: TreeRecord, leafIndex: number): LeafProof {
    return indexProofOf(this.leafSource, record, leafIndex);
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
