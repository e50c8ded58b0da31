/** Builders of the store's whole-dataset indexes: lamports per owner, the transactions that opened and closed each account. */
import type { AccountRecord, SignatureRecord } from "../records.js";

/** The lamports of each owner's unspent accounts, summed. */
export function lamportsByOwner(accounts: readonly AccountRecord[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const a of accounts) if (!a.spent) out.set(a.owner, (out.get(a.owner) ?? 0n) + BigInt(a.lamports));
  return out;
}

/** The first transaction that opened and that closed each account hash. */
export function openers(signatures: readonly SignatureRecord[]): { opened: Map<string, SignatureRecord>; closed: Map<string, SignatureRecord> } {
  const opened = new Map<string, SignatureRecord>();
  const closed = new Map<string, SignatureRecord>();
  for (const s of signatures) {
    for (const hash of s.opened) if (!opened.has(hash)) opened.set(hash, s);
    for (const hash of s.closed) if (!closed.has(hash)) closed.set(hash, s);
  }
  return { opened, closed };
}
