/** Stored leaves looked up by value, and the leaf proofs Photon answers from them (leaf_node_proof.rs). */
import type { AccountRecord, TreeRecord } from "../records.js";
import { type AddressTree, holdsOwnHash, type LeafProof, namesLeafTwice, type Row, type StateTree, version } from "./forest-parts.js";
import { recordNotFound } from "./photon-errors.js";
import { base58ToBigint, bigintToBase58 } from "./poseidon.js";

/** What the leaf lookups read of a forest. */
export interface LeafSource {
  accountsByHash(): ReadonlyMap<string, AccountRecord>;
  /** Stored zero leaves (spent StateV1 accounts), in the records' order. */
  zeroRows(): readonly Row[];
  /** Stored nullifier leaves (nullified StateV2 accounts), by value. */
  nullifierRows(): ReadonlyMap<bigint, Row[]>;
  /** Stored leaves of address trees, by value. */
  addressRows(): ReadonlyMap<bigint, Row>;
  stateRecord(key: string): TreeRecord;
  stateTree(record: TreeRecord): StateTree;
  addressTree(record: TreeRecord): AddressTree;
}

/**
 * Stored leaves equal to any of `values` (Photon: `state_trees` rows at level 0 whose hash is
 * in the list, of any tree: leaf_node_proof.rs:100-107), each row once. Address trees' leaves
 * are among them.
 */
export function storedRows(source: LeafSource, values: readonly bigint[]): Row[] {
  const out: Row[] = [];
  const seen = new Set<string>();
  const add = (row: Row) => {
    const key = `${row.record.tree}/${row.leafIndex}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(row);
    }
  };
  const byHash = source.accountsByHash();
  for (const value of new Set(values)) {
    if (value === 0n) {
      for (const row of source.zeroRows()) add(row);
      continue;
    }
    const account = byHash.get(bigintToBase58(value));
    // A nullifier equal to an account's hash would take 2^-250 luck: nullifiers (which cost hashing
    // every nullified account) are looked up only for values that are no account's hash.
    if (account) {
      if (holdsOwnHash(source.stateRecord(account.tree), account)) add({ record: source.stateRecord(account.tree), leafIndex: account.leafIndex, leaf: value });
    } else {
      for (const row of source.nullifierRows().get(value) ?? []) add(row);
      const row = source.addressRows().get(value);
      if (row) add(row);
    }
  }
  return out;
}

/**
 * Photon's `get_multiple_compressed_leaf_proofs` (leaf_node_proof.rs:92-208), in request order:
 * the leaves only (tree and index); the proofs are read from the trees when written out.
 */
export function leafProofsOf(source: LeafSource, hashes: readonly string[]): LeafProof[] {
  if (hashes.length === 0) return [];
  const direct = ownLeaves(source, hashes);
  if (direct) return direct;
  const values = hashes.map(base58ToBigint);
  const rows = storedRows(source, values);
  if (rows.length !== hashes.length) throw recordNotFound(`Leaf nodes not found for hashes. Got ${rows.length} hashes. Expected ${hashes.length}.`);
  const byLeaf = new Map<bigint, Row>();
  for (const row of rows) byLeaf.set(row.leaf, row);
  return values.map((value, i) => {
    const row = byLeaf.get(value);
    if (!row) throw recordNotFound(`Leaf node not found for hash: ${hashes[i]}`);
    return indexProofOf(source, row.record, row.leafIndex);
  });
}

/**
 * `leafProofsOf`'s common case, looked up by text: every hash is an account holding its own hash as its
 * leaf, no two naming the same leaf. Null otherwise, for the general lookup to answer.
 */
function ownLeaves(source: LeafSource, hashes: readonly string[]): LeafProof[] | null {
  const byHash = source.accountsByHash();
  const n = hashes.length;
  const accounts: AccountRecord[] = new Array(n);
  const records: TreeRecord[] = new Array(n);
  let record: TreeRecord | undefined;
  for (let i = 0; i < n; i++) {
    const account = byHash.get(hashes[i] as string);
    if (account === undefined) return null;
    // Requests name accounts of one tree or a few: the previous account's record is checked first.
    if (record === undefined || record.tree !== account.tree) record = source.stateRecord(account.tree);
    if (!holdsOwnHash(record, account)) return null;
    accounts[i] = account;
    records[i] = record;
  }
  if (n > 1 && namesLeafTwice(accounts)) return null;
  const out: LeafProof[] = new Array(n);
  let tree: StateTree | undefined;
  for (let i = 0; i < n; i++) {
    const r = records[i] as TreeRecord;
    if (tree === undefined || tree.record !== r) tree = source.stateTree(r);
    out[i] = { record: r, leafIndex: (accounts[i] as AccountRecord).leafIndex, merkle: tree.merkle, rootSeq: r.seq };
  }
  return out;
}

/** The proof of whatever leaf `leafIndex` of a tree holds (zero where nothing is stored); an address tree's leaves are its elements' hashes. */
export function indexProofOf(source: LeafSource, record: TreeRecord, leafIndex: number): LeafProof {
  const merkle = version(record.type) === null ? source.stateTree(record).merkle : source.addressTree(record).indexed.merkleTree();
  return { record, leafIndex, merkle, rootSeq: record.seq };
}
