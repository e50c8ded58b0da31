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
  const index: AccountIndex = { byHash: new Map(), byTree: new Map() };
  let done = 0;
  // Accounts pushed to the dataset while this build is under way are indexed too (the loop reads the array's length).
  for (const account of dataset.accounts) {
    indexAccount(index, account);
    if (++done % RECORDS_PER_STEP === 0) yield;
  }
  return index;
}

/** Adds an account to the index, after the accounts of its tree. */
export function indexAccount(index: AccountIndex, account: AccountRecord): void {
  if (index.byHash.has(account.hash)) throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `account ${account.hash} appears twice`);
  index.byHash.set(account.hash, account);
  const list = index.byTree.get(account.tree);
  if (list) list.push(account);
  else index.byTree.set(account.tree, [account]);
}

export function sortAddresses(dataset: Dataset, records: ReadonlyMap<string, TreeRecord>): AddressIndex {
  const index: AddressIndex = { inserted: new Map(), queued: new Map() };
  for (const record of dataset.addresses) indexAddress(index, records, record);
  return index;
}

/** Adds an address to the index: to its tree's queue when `queued`, else after its tree's inserted addresses. */
export function indexAddress(index: AddressIndex, records: ReadonlyMap<string, TreeRecord>, record: AddressRecord): void {
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
    const set = index.queued.get(record.tree);
    if (set) set.add(record.address);
    else index.queued.set(record.tree, new Set([record.address]));
  } else {
    const list = index.inserted.get(record.tree);
    if (list) list.push(record);
    else index.inserted.set(record.tree, [record]);
  }
}

/** Moves a queued address that a batch inserted (its record no longer `queued`) from its tree's queue to its inserted addresses. */
export function dequeueAddress(index: AddressIndex, records: ReadonlyMap<string, TreeRecord>, record: AddressRecord): void {
  index.queued.get(record.tree)?.delete(record.address);
  indexAddress(index, records, record);
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
      addRow(rows, { record, leafIndex: account.leafIndex, leaf: nullifierValue(account) });
    }
  }
  return rows;
}

/** Adds a stored leaf to rows kept by leaf value. */
export function addRow(rows: Map<bigint, Row[]>, row: Row): void {
  const list = rows.get(row.leaf);
  if (list) list.push(row);
  else rows.set(row.leaf, [row]);
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
