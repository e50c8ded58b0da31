/** Photon's balance rows: a (token owner, mint) row exists once a non-zero amount was added to it and is never deleted. */
import type { U64 } from "../records.js";

/** One (token owner, mint) pair: the sum of its unspent amounts, whether it ever had a non-zero amount, its accounts. */
export interface BalanceCell {
  balance: bigint;
  row: boolean;
  accounts: number;
}

export function addToCell(cells: Map<string, BalanceCell>, key: string, amount: U64, spent: boolean): void {
  let cell = cells.get(key);
  if (cell === undefined) cells.set(key, (cell = { balance: 0n, row: false, accounts: 0 }));
  cell.accounts++;
  // Photon's ingester adds only non-zero changes to `token_owner_balances` and never deletes a row (persist/mod.rs:387-403).
  if (BigInt(amount) !== 0n) cell.row = true;
  if (!spent) cell.balance += BigInt(amount);
}

/** The cells Photon keeps a balance row for, with their balances. */
export function balanceRows(cells: Map<string, BalanceCell>): Map<string, bigint> {
  const rows = new Map<string, bigint>();
  for (const [key, cell] of cells) if (cell.row) rows.set(key, cell.balance);
  return rows;
}
