/** The store's lookups by hash, address and tree: built and checked at construction, kept current by `apply`. */
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { Touched } from "../live/apply.js";
import type { Change } from "../live/change.js";
import type { AccountRecord, Dataset, TokenRecord, TreeRecord } from "../records.js";

export class RecordLookups {
  readonly byHash = new Map<string, AccountRecord>();
  /** The unspent account holding each address. */
  readonly byAddress = new Map<string, AccountRecord>();
  readonly tokenByHash = new Map<string, TokenRecord>();
  readonly treeByKey = new Map<string, TreeRecord>();
  readonly treeByQueueKey = new Map<string, TreeRecord>();
  readonly treeList: readonly TreeRecord[];
  /** StateV2 tree keys: the trees with output and input queues. */
  readonly batchedState = new Set<string>();

  /**
   * A hash twice, an address held by two unspent accounts, a token record of no account or two token
   * records of one account, a tree or queue key twice are DATASET_INCONSISTENT.
   */
  constructor(dataset: Dataset) {
    // Duplicates are detected by a map that does not grow (one lookup per insert).
    for (const a of dataset.accounts) {
      const size = this.byHash.size;
      if (this.byHash.set(a.hash, a).size === size) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `duplicate account hash ${a.hash}`);
      if (a.spent || a.address === null) continue;
      const held = this.byAddress.size;
      if (this.byAddress.set(a.address, a).size === held)
        throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `address ${a.address} is held by two unspent accounts`);
    }
    for (const t of dataset.tokens) {
      if (!this.byHash.has(t.hash)) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `token record for unknown account ${t.hash}`);
      const size = this.tokenByHash.size;
      if (this.tokenByHash.set(t.hash, t).size === size)
        throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `two token records for account ${t.hash}`);
    }
    // Dataset files of format version 1 predate trees and addresses.
    this.treeList = dataset.trees ?? [];
    for (const t of this.treeList) {
      const size = this.treeByKey.size;
      if (this.treeByKey.set(t.tree, t).size === size) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `tree ${t.tree} listed twice`);
      const queues = this.treeByQueueKey.size;
      if (this.treeByQueueKey.set(t.queue, t).size === queues)
        throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `queue ${t.queue} belongs to two trees`);
      if (t.type === "StateV2") this.batchedState.add(t.tree);
    }
  }

  /** Adds the opened accounts and their token records; a closed account no longer holds its address. */
  apply(change: Change, touched: Touched): void {
    for (const a of change.opened) {
      this.byHash.set(a.hash, a);
      if (a.address !== null) this.byAddress.set(a.address, a);
    }
    for (const t of change.tokens) this.tokenByHash.set(t.hash, t);
    for (const a of touched.closed) if (a.address !== null && this.byAddress.get(a.address) === a) this.byAddress.delete(a.address);
  }
}
