/** The default dataset indexed: accounts by hash, trees by key, the transaction that opened or closed each hash. */
import type { AccountRecord, SignatureRecord } from "../../reference/records.js";
import { dataset } from "./fixture.js";

export const accounts = dataset.accounts;
export const byHash = new Map(accounts.map((a) => [a.hash, a]));
export const treeOf = new Map(dataset.trees.map((t) => [t.tree, t]));
export const typeOf = (a: AccountRecord) => treeOf.get(a.tree)?.type;
/** The transaction that opened / closed each hash (the first one, if a hash were opened twice). */
export const openedBy = new Map<string, SignatureRecord>();
export const closedBy = new Map<string, SignatureRecord>();
for (const s of dataset.signatures) {
  for (const h of s.opened) if (!openedBy.has(h)) openedBy.set(h, s);
  for (const h of s.closed) if (!closedBy.has(h)) closedBy.set(h, s);
}
