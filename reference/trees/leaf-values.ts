/**
 * What each state-tree leaf is, read from the records (Photon 0.51.2 = 366a15b):
 * - StateV1: an account's hash at its leaf index; a spent account's leaf is zero, as Photon
 *   stores it once the forester nullifies it (`LeafNullification` → `ZERO_BYTES[0]`,
 *   src/ingester/persist/leaf_node.rs:56-65).
 * - StateV2 (batched): an account enters the tree only when a batch appends it (Photon adds no
 *   leaf for StateV2 outputs, persist/mod.rs:140-160; persisted_batch_event/append.rs); an account
 *   with `inOutputQueue` has no leaf. A spent account keeps its hash while it waits in the input
 *   queue (`inInputQueue`), and is replaced by its nullifier Poseidon(hash, leafIndex, txHash) once a
 *   batch nullifies it (persisted_batch_event/nullify.rs, helpers.rs:43-82); txHash is that of the
 *   transaction whose `closed` lists it.
 */
import { internalError } from "@photon-indexer-kit/runtime";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { AccountRecord, SignatureRecord, TreeRecord } from "../records.js";
import { base58ToBigint, nullifier, transactionHash } from "./poseidon.js";

/** Leaf values of a forest's state trees, with their nullifiers and transaction hashes made once each. */
export class LeafValues {
  private readonly txHashes = new Map<string, bigint>();
  private readonly nullifiers = new Map<string, bigint>();

  constructor(
    private readonly stateRecord: (key: string) => TreeRecord,
    /** The transaction that spent each account (`closed`). */
    private readonly spenders: () => ReadonlyMap<string, SignatureRecord>,
  ) {}

  /**
   * Whether an account is still in its batched tree's output queue (proves by index): in the
   * record model, a StateV2 account with `inOutputQueue` (Photon keeps it as the `in_output_queue`
   * column, set false by the batch append).
   */
  isInOutputQueue(account: AccountRecord): boolean {
    return this.stateRecord(account.tree).type === "StateV2" && account.inOutputQueue;
  }

  /** The transaction hash the system program gives a transaction: the `txHash` of its nullifiers. */
  txHash(signature: SignatureRecord): bigint {
    let value = this.txHashes.get(signature.signature);
    if (value === undefined) {
      value = transactionHash(signature.closed.map(base58ToBigint), signature.opened.map(base58ToBigint), signature.slot);
      this.txHashes.set(signature.signature, value);
    }
    return value;
  }

  /** The nullifier of a spent account of a batched state tree (in the input queue or in the tree). */
  nullifier(account: AccountRecord): bigint {
    let value = this.nullifiers.get(account.hash);
    if (value === undefined) {
      if (!account.spent || this.stateRecord(account.tree).type !== "StateV2")
        throw internalError(RefErrorCode.INTERNAL, `account ${account.hash} has no nullifier: only spent accounts of batched trees have one`);
      const spender = this.spenders().get(account.hash);
      if (!spender) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `spent account ${account.hash} is closed by no transaction`);
      value = nullifier(base58ToBigint(account.hash), account.leafIndex, this.txHash(spender));
      this.nullifiers.set(account.hash, value);
    }
    return value;
  }

  /** The leaf an account holds in its tree, or null when it has none (still in the output queue). */
  leaf(record: TreeRecord, account: AccountRecord): bigint | null {
    if (record.type === "StateV1") return account.spent ? 0n : base58ToBigint(account.hash);
    if (account.spent && !account.inInputQueue) return this.nullifier(account);
    return this.isInOutputQueue(account) ? null : base58ToBigint(account.hash);
  }
}
