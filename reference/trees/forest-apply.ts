/**
 * A forest following a moving dataset: once `applyChange` (live/apply.ts) has written a change into
 * the records, `applyToForest` brings the forest to what a fresh forest over the same records
 * holds. Built trees have their leaves written (hashed when next read: `MerkleTree.set`); trees not
 * built yet read the records when they are; indexes made so far are updated, or forgotten where
 * making them again hashes nothing.
 */
import type { Touched } from "../live/apply.js";
import type { Change } from "../live/change.js";
import type { AccountRecord, AddressRecord, SignatureRecord, TreeRecord } from "../records.js";
import { type AccountIndex, type AddressIndex, addRow, dequeueAddress, indexAccount, indexAddress } from "./dataset-indexes.js";
import type { AddressTree, Row, StateTree } from "./forest-parts.js";
import type { Lazy, Stepwise } from "../lazy.js";
import { base58ToBigint } from "./poseidon.js";

/** What a change updates in a forest: its indexes, its trees, and how an account's leaf is read from the records. */
export interface LiveParts {
  readonly records: ReadonlyMap<string, TreeRecord>;
  readonly accounts: Stepwise<AccountIndex>;
  readonly addresses: Lazy<AddressIndex>;
  readonly spenders: Lazy<Map<string, SignatureRecord>>;
  readonly zeroRows: Lazy<Row[]>;
  readonly nullifierRows: Lazy<Map<bigint, Row[]>>;
  readonly addressRows: Lazy<Map<bigint, Row>>;
  /** State trees built so far, and the writes to state trees whose leaves a build is reading. */
  readonly stateTrees: ReadonlyMap<string, StateTree>;
  readonly logs: LeafLogs;
  /** Address trees made so far. */
  readonly addressTrees: ReadonlyMap<string, AddressTree>;
  /** A state tree's record (a dataset error for a key of no state tree). */
  stateRecord(key: string): TreeRecord;
  /** An account's leaf in its tree, from its record (null while it waits in an output queue). */
  leafValue(record: TreeRecord, account: AccountRecord): bigint | null;
  nullifierValue(account: AccountRecord): bigint;
}

/**
 * Leaf writes made to a state tree while a build reads its leaves a slice at a time: the build
 * replays them over what it read, so that an account it read before the change holds its new leaf.
 */
export class LeafLogs {
  private readonly open = new Map<string, Set<[number, bigint][]>>();

  /** Starts logging the writes to `tree` for one build; `close` ends it. */
  start(tree: string): [number, bigint][] {
    const log: [number, bigint][] = [];
    const set = this.open.get(tree);
    if (set) set.add(log);
    else this.open.set(tree, new Set([log]));
    return log;
  }

  close(tree: string, log: [number, bigint][]): void {
    const set = this.open.get(tree);
    set?.delete(log);
    if (set?.size === 0) this.open.delete(tree);
  }

  /** Whether a build is reading `tree`'s leaves. */
  reading(tree: string): boolean {
    return this.open.has(tree);
  }

  write(tree: string, leafIndex: number, value: bigint): void {
    for (const log of this.open.get(tree) ?? []) log.push([leafIndex, value]);
  }
}

/** Brings a forest's trees and indexes up to date with `change`, which `applyChange` has written into the records (it returned `touched`). */
export function applyToForest(parts: LiveParts, change: Change, touched: Touched): void {
  // An address queued and batch-inserted by the same change is inserted once, in its batch's order.
  const moved = new Set(touched.inserted);
  const added = change.addresses.filter((a) => !moved.has(a));
  updateIndexes(parts, change, touched, added);
  for (const list of [change.opened, touched.closed, touched.appended, touched.nullified]) for (const account of list) writeLeaf(parts, account);
  for (const list of [added, touched.inserted]) for (const address of list) if (!address.queued) insertAddress(parts, address);
}

function updateIndexes(parts: LiveParts, change: Change, touched: Touched, added: readonly AddressRecord[]): void {
  // An index whose build is under way reads the records as they are when it reaches them: only a made one is updated.
  const accounts = parts.accounts.peek();
  if (accounts !== undefined) for (const account of change.opened) indexAccount(accounts, account);
  const spenders = parts.spenders.peek();
  if (spenders !== undefined) for (const hash of change.signature.closed) spenders.set(hash, change.signature);
  const addresses = parts.addresses.peek();
  if (addresses !== undefined) {
    for (const address of added) indexAddress(addresses, parts.records, address);
    for (const address of touched.inserted) dequeueAddress(addresses, parts.records, address);
  }
  // Rows of zero leaves are kept in the records' order; rows of address leaves change with the low elements' leaves: made again when read.
  if (touched.closed.length > 0) parts.zeroRows.reset();
  if (touched.inserted.length > 0 || added.some((a) => !a.queued)) parts.addressRows.reset();
  const nullifierRows = parts.nullifierRows.peek();
  if (nullifierRows !== undefined)
    for (const account of touched.nullified) {
      addRow(nullifierRows, { record: parts.stateRecord(account.tree), leafIndex: account.leafIndex, leaf: parts.nullifierValue(account) });
    }
}

/** Writes an account's leaf, as its record now has it, into its tree when the tree is built or being built. */
function writeLeaf(parts: LiveParts, account: AccountRecord): void {
  const built = parts.stateTrees.get(account.tree);
  if (built === undefined && !parts.logs.reading(account.tree)) return;
  const value = parts.leafValue(parts.stateRecord(account.tree), account);
  if (value === null) return;
  if (built !== undefined) built.merkle.set(account.leafIndex, value);
  else parts.logs.write(account.tree, account.leafIndex, value);
}

/** Inserts an address into its tree when the tree has been made (else the tree reads it from the index when made). */
function insertAddress(parts: LiveParts, address: AddressRecord): void {
  parts.addressTrees.get(address.tree)?.indexed.insert(base58ToBigint(address.address));
}
