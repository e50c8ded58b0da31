/**
 * One step of the live stream: what one slot does to a dataset's records. `applyChange`
 * (live/apply.ts) writes it into the records (the one source of truth); the store and the
 * forest then bring their indexes up to date from the same value (`ReferenceStore.apply`,
 * `Forest.apply`), so that every answer after it is what a fresh store over the records gives.
 */
import type { AccountRecord, AddressRecord, SignatureRecord, TokenRecord } from "../records.js";

/** Accounts a forester batch moves, oldest queue entry first. */
export interface BatchOf<T> {
  /** The tree (a StateV2 tree, or an AddressV2 tree for addresses). */
  readonly tree: string;
  readonly items: readonly T[];
}

export interface Change {
  /** The indexed slot after this change (one more than before). */
  readonly slot: number;
  /** The user transaction of this slot: appended to `signatures`; its `opened`/`closed` name the accounts below. */
  readonly signature: SignatureRecord;
  /**
   * New accounts, in output order. A StateV1 account is appended to its tree at `leafIndex`
   * (the tree's next index) with `seq` = the tree's seq after the append; a StateV2 account
   * enters the tree's output queue (`inOutputQueue: true`, `seq: null`, `leafIndex` = its queue index).
   */
  readonly opened: readonly AccountRecord[];
  /** The token records of the opened token accounts (owner TOKEN_PROGRAM). */
  readonly tokens: readonly TokenRecord[];
  /**
   * Hashes of unspent accounts this transaction spends, in input order: a StateV1 leaf becomes
   * zero (one seq step); a StateV2 account in the tree enters the input queue (`inInputQueue`).
   * An account still in an output queue is never spent.
   */
  readonly closed: readonly string[];
  /** New addresses: into an AddressV1 tree at once (two seq steps each), into an AddressV2 queue (`queued: true`). */
  readonly addresses: readonly AddressRecord[];
  /** Batch appends: these output-queue account hashes enter their tree (`inOutputQueue: false`), one seq step each. */
  readonly appended: readonly BatchOf<string>[];
  /** Batch nullifications: these input-queue account hashes are nullified in the tree (`inInputQueue: false`), one seq step each. */
  readonly nullified: readonly BatchOf<string>[];
  /** Batch address insertions: these queued addresses enter their AddressV2 tree (`queued: false`), one seq step each. */
  readonly inserted: readonly BatchOf<string>[];
  /** Every tree whose `seq` this change moves, with its seq after the change. */
  readonly seqs: ReadonlyMap<string, number>;
}
