/**
 * Brute-force oracles over a dataset's records, shared by the reference tests. They follow the
 * rules as spec/DECISIONS.md settles them from Photon's source, never the store's code, and depend on the
 * records only (no store, no handlers), so tests over hand-built datasets use them too.
 */
import { decodeBase58 } from "../../runtime/index.js";
import type { Dataset, U64 } from "../../reference/records.js";

/** One row of Photon's `token_owner_balances`. */
export interface ExpectedBalance {
  /** The token owner. */
  owner: string;
  mint: string;
  balance: bigint;
}

const rowsOf = new WeakMap<Dataset, ExpectedBalance[]>();

/**
 * Photon's token balance rows (spec/DECISIONS.md #35, #47): one per (token owner, mint)
 * that ever had an account created with a non-zero amount, since the ingester skips zero net changes
 * and never deletes a row (photon HEAD:src/ingester/persist/mod.rs:387-403). Its balance is the sum of
 * the pair's unspent amounts: 0 once every account is spent; may exceed u64. In no particular order.
 */
export function expectedBalanceRows(dataset: Dataset): readonly ExpectedBalance[] {
  const known = rowsOf.get(dataset);
  if (known !== undefined) return known;
  const spent = new Set(dataset.accounts.filter((a) => a.spent).map((a) => a.hash));
  const cells = new Map<string, ExpectedBalance & { everNonZero: boolean }>();
  for (const t of dataset.tokens) {
    const key = `${t.owner} ${t.mint}`;
    const cell = cells.get(key) ?? { owner: t.owner, mint: t.mint, balance: 0n, everNonZero: false };
    cells.set(key, cell);
    if (BigInt(t.amount) !== 0n) cell.everNonZero = true;
    if (!spent.has(t.hash)) cell.balance += BigInt(t.amount);
  }
  const rows = [...cells.values()].filter((c) => c.everNonZero).map(({ owner, mint, balance }) => ({ owner, mint, balance }));
  rowsOf.set(dataset, rows);
  return rows;
}

const bytes = (base58: string): Buffer => Buffer.from(decodeBase58(base58) as Uint8Array);

/** A bigint as the wire (and `parseJson`) gives a u64: a number when safe, a bigint above 2^53 - 1. */
export const asU64 = (value: bigint): U64 => (value > BigInt(Number.MAX_SAFE_INTEGER) ? value : Number(value));

/** getCompressedTokenBalancesByOwner's items for `owner`: its balance rows by mint bytes, `{ mint, balance }` with u64 balances. */
export function expectedBalances(dataset: Dataset, owner: string): { mint: string; balance: U64 }[] {
  return expectedBalanceRows(dataset)
    .filter((r) => r.owner === owner)
    .sort((a, b) => Buffer.compare(bytes(a.mint), bytes(b.mint)))
    .map((r) => ({ mint: r.mint, balance: asU64(r.balance) }));
}

/** getCompressedMintTokenHolders' rows for `mint`: balance descending, then owner bytes descending (spec/DECISIONS.md #61). */
export function expectedHolders(dataset: Dataset, mint: string): ExpectedBalance[] {
  return expectedBalanceRows(dataset)
    .filter((r) => r.mint === mint)
    .sort((a, b) => (a.balance === b.balance ? Buffer.compare(bytes(b.owner), bytes(a.owner)) : a.balance > b.balance ? -1 : 1));
}
