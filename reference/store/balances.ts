/**
 * Photon's `token_owner_balances` rows (token owner, mint): built once from the records, then
 * kept as token accounts are opened and spent. A row exists once some change was non-zero (the
 * creation of an account with a non-zero amount; persist/mod.rs:388-403 skips zero net changes)
 * and is never deleted; its balance is the sum of the unspent amounts.
 */
import type { AccountRecord, TokenRecord } from "../records.js";

export interface BalanceRow {
  /** The token owner. */
  readonly owner: string;
  readonly mint: string;
  /** Sum of the unspent amounts: 0 once every account is spent; may exceed u64 (Photon then fails to parse it). */
  readonly balance: bigint;
}

/** A row replaced by a change: `old` is undefined for a row the change created. */
export interface RowChange {
  readonly old: BalanceRow | undefined;
  readonly next: BalanceRow;
}

const keyOf = (owner: string, mint: string) => `${owner} ${mint}`;

export class BalanceTable {
  private rows: BalanceRow[] | null = null;
  private readonly at = new Map<string, number>();

  constructor(
    readonly name: string,
    private readonly tokens: () => readonly TokenRecord[],
    private readonly accountOf: (hash: string) => AccountRecord,
  ) {}

  get built(): boolean {
    return this.rows !== null;
  }

  /** Every row (built on first use). */
  all(): readonly BalanceRow[] {
    if (this.rows === null) {
      this.rows = balanceRows(this.tokens(), this.accountOf);
      this.rows.forEach((r, i) => this.at.set(keyOf(r.owner, r.mint), i));
    }
    return this.rows;
  }

  /** Brings the rows up to tokens `opened` and `spent` (nothing before the rows are built); returns each row replaced. */
  apply(opened: readonly TokenRecord[], spent: readonly TokenRecord[]): RowChange[] {
    const rows = this.rows;
    if (rows === null) return [];
    const moves = new Map<string, { owner: string; mint: string; delta: bigint; creates: boolean }>();
    const move = (t: TokenRecord, delta: bigint, creates: boolean) => {
      const key = keyOf(t.owner, t.mint);
      const m = moves.get(key) ?? { owner: t.owner, mint: t.mint, delta: 0n, creates: false };
      moves.set(key, { ...m, delta: m.delta + delta, creates: m.creates || creates });
    };
    for (const t of opened) move(t, BigInt(t.amount), BigInt(t.amount) !== 0n);
    for (const t of spent) move(t, -BigInt(t.amount), false);
    const out: RowChange[] = [];
    for (const [key, m] of moves) {
      const at = this.at.get(key);
      const old = at === undefined ? undefined : rows[at];
      if (old === undefined && !m.creates) continue;
      const next = { owner: m.owner, mint: m.mint, balance: (old?.balance ?? 0n) + m.delta };
      if (at === undefined) this.at.set(key, rows.push(next) - 1);
      else rows[at] = next;
      out.push({ old, next });
    }
    return out;
  }
}

/** The rows of `tokens` as they stand. */
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
