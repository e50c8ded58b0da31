/**
 * Writes a `Change` into a dataset's records, in place: new records are pushed, the flags of
 * existing account and address records flip, tree seqs and the slot move. The records stay
 * what a dataset file could hold at the new slot (signatures in slot order, addresses in
 * insertion order per tree), so a fresh store over them answers as the updated one does.
 */
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import type { AccountRecord, AddressRecord, Dataset } from "../records.js";
import type { Change } from "./change.js";

/** The records a change touched, for the indexes that keep them. */
export interface Touched {
  readonly closed: readonly AccountRecord[];
  readonly appended: readonly AccountRecord[];
  readonly nullified: readonly AccountRecord[];
  readonly inserted: readonly AddressRecord[];
}

/** Lookups `applyChange` needs; the store's maps serve (they index records, which stay the same objects). */
export interface RecordLookup {
  account(hash: string): AccountRecord | undefined;
  queuedAddress(tree: string, address: string): AddressRecord | undefined;
}

function broken(what: string): never {
  throw new ReferenceIndexerError(RefErrorCode.DATASET_INCONSISTENT, `live change: ${what}`);
}

export function applyChange(dataset: Dataset, change: Change, lookup: RecordLookup): Touched {
  if (change.slot <= dataset.slot) broken(`slot ${change.slot} is not after ${dataset.slot}`);
  const opened = new Map(change.opened.map((a) => [a.hash, a]));
  const account = (hash: string): AccountRecord => opened.get(hash) ?? lookup.account(hash) ?? broken(`unknown account ${hash}`);
  const closed = change.closed.map(account);
  for (const a of closed) {
    if (a.spent || a.inOutputQueue) broken(`account ${a.hash} cannot be spent`);
  }
  const appended = change.appended.flatMap((b) => b.items.map(account));
  for (const a of appended) if (!a.inOutputQueue) broken(`account ${a.hash} is not in an output queue`);
  const nullified = change.nullified.flatMap((b) => b.items.map(account));
  const queued = new Map(change.addresses.map((a) => [`${a.tree} ${a.address}`, a]));
  const inserted = change.inserted.flatMap((b) =>
    b.items.map((address) => queued.get(`${b.tree} ${address}`) ?? lookup.queuedAddress(b.tree, address) ?? broken(`address ${address} is not queued`)),
  );
  const batched = new Set(dataset.trees.filter((t) => t.type === "StateV2").map((t) => t.tree));

  dataset.accounts.push(...change.opened);
  dataset.tokens.push(...change.tokens);
  dataset.signatures.push(change.signature);
  dataset.addresses.push(...change.addresses);
  for (const a of closed) {
    a.spent = true;
    a.inInputQueue = batched.has(a.tree);
  }
  for (const a of appended) a.inOutputQueue = false;
  for (const a of nullified) {
    if (!a.inInputQueue) broken(`account ${a.hash} is not in an input queue`);
    a.inInputQueue = false;
  }
  for (const a of inserted) a.queued = false;
  for (const t of dataset.trees) {
    const seq = change.seqs.get(t.tree);
    if (seq !== undefined) t.seq = seq;
  }
  dataset.slot = change.slot;
  return { closed, appended, nullified, inserted };
}
