/** The forest's indexes of a dataset's records: accounts by hash and tree, addresses by tree, spenders, and stored leaves (rows) by value. */
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TreeRecord } from "../records.js";
import { type AddressTree, RECORDS_PER_STEP, type Row, version } from "./forest-parts.js";

/** The dataset's accounts by hash and by tree. */
export interface AccountIndex {
  byHash: Map<string, AccountRecord>;
  byTree: Map<string, AccountRecord[]>;
}

/** The dataset's addresses by tree: inserted (in order) and still queued. */
export interface AddressIndex {
  inserted: Map<string, AddressRecord[]>;
  queued: Map<string, Set<string>>;
}

export function* indexAccounts(dataset: Dataset): Generator<void, AccountIndex, undefined> {
  const byHash = new Map<string, AccountRecord>();
  const byTree = new Map<string, AccountRecord[]>();
  let done = 0;
  for (const account of dataset.accounts) {
    if (byHash.has(account.hash)) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `account ${account.hash} appears twice`);
    byHash.set(account.hash, account);
    const list = byTree.get(account.tree);
    if (list) list.push(account);
    else byTree.set(account.tree, [account]);
    if (++done % RECORDS_PER_STEP === 0) yield;
  }
  return { byHash, byTree };
}

export function sortAddresses(dataset: Dataset, records: ReadonlyMap<string, TreeRecord>): AddressIndex {
  const inserted = new Map<string, AddressRecord[]>();
  const queued = new Map<string, Set<string>>();
  for (const record of dataset.addresses) {
    const tree = records.get(record.tree);
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
}

/** The transaction that spent each account (`closed`), for nullifiers. */
export function spendersOf(dataset: Dataset): Map<string, SignatureRecord> {
  const by = new Map<string, SignatureRecord>();
  for (const signature of dataset.signatures) for (const hash of signature.closed) by.set(hash, signature);
  return by;
}

/** Stored leaves equal to zero: spent StateV1 accounts (Photon keeps their rows with the zero hash). */
export function zeroRowsOf(dataset: Dataset, byTree: ReadonlyMap<string, AccountRecord[]>): Row[] {
  const rows: Row[] = [];
  for (const record of dataset.trees) {
    if (record.type !== "StateV1") continue;
    for (const account of byTree.get(record.tree) ?? []) if (account.spent) rows.push({ record, leafIndex: account.leafIndex, leaf: 0n });
  }
  return rows;
}

/** Stored leaves that are nullifiers (nullified StateV2 accounts), by leaf value. */
export function nullifierRowsOf(
  dataset: Dataset,
  byTree: ReadonlyMap<string, AccountRecord[]>,
  nullifierValue: (account: AccountRecord) => bigint,
): Map<bigint, Row[]> {
  const rows = new Map<bigint, Row[]>();
  for (const record of dataset.trees) {
    if (record.type !== "StateV2") continue;
    for (const account of byTree.get(record.tree) ?? []) {
      if (!account.spent || account.inInputQueue) continue;
      const leaf = nullifierValue(account);
      const row = { record, leafIndex: account.leafIndex, leaf };
      const list = rows.get(leaf);
      if (list) list.push(row);
      else rows.set(leaf, [row]);
    }
  }
  return rows;
}

/**
 * Stored leaves of address trees, by leaf value: Photon writes each indexed element's leaf hash to
 * `state_trees` as well (persisted_indexed_merkle_tree.rs:233-256, 418-431), from the first
 * address appended on (a tree that holds none has no rows; the initial elements come with it).
 */
export function addressRowsOf(
  dataset: Dataset,
  inserted: ReadonlyMap<string, AddressRecord[]>,
  addressTree: (record: TreeRecord) => AddressTree,
): Map<bigint, Row> {
  const rows = new Map<bigint, Row>();
  for (const record of dataset.trees) {
    if (version(record.type) === null || !inserted.has(record.tree)) continue;
    const merkle = addressTree(record).indexed.merkleTree();
    for (let leafIndex = 0; leafIndex < merkle.size; leafIndex++) {
      const leaf = merkle.leaf(leafIndex);
      rows.set(leaf, { record, leafIndex, leaf });
    }
  }
  return rows;
}
