/** Builders of the store's whole-dataset indexes: balance rows, lamports per owner, the transactions that opened and closed each account. */
import type { AccountRecord, SignatureRecord, TokenRecord } from "../records.js";

/**
 * One row of Photon's `token_owner_balances` (token owner, mint): the rows of
 * getCompressedTokenBalancesByOwner(V2) (by owner) and getCompressedMintTokenHolders (by mint).
 */
export interface BalanceRow {
  /** The token owner. */
  readonly owner: string;
  readonly mint: string;
  /** Sum of the unspent amounts: 0 once every account is spent; may exceed u64 (Photon then fails to parse it). */
  readonly balance: bigint;
}

/**
 * Photon's `token_owner_balances` rows: a row exists once some change was non-zero (the creation
 * of an account with a non-zero amount); its balance is the sum of the unspent amounts.
 */
export function balanceRows(tokens: readonly TokenRecord[], accountOf: (hash: string) => AccountRecord): BalanceRow[] {
  const sums = new Map<string, Map<string, { balance: bigint; row: boolean }>>();
  for (const t of tokens) {
    const amount = BigInt(t.amount);
    const spent = accountOf(t.hash).spent;
    let perMint = sums.get(t.owner);
    if (perMint === undefined) sums.set(t.owner, (perMint = new Map()));
    let cell = perMint.get(t.mint);
    if (cell === undefined) perMint.set(t.mint, (cell = { balance: 0n, row: false }));
    if (amount !== 0n) cell.row = true;
    if (!spent) cell.balance += amount;
  }
  const rows: BalanceRow[] = [];
  for (const [owner, perMint] of sums) for (const [mint, cell] of perMint) if (cell.row) rows.push({ owner, mint, balance: cell.balance });
  return rows;
}

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
