/** The store's token lists: unspent token accounts by owner and delegate (with or without mint), balance rows by owner and holders by mint. */
import type { Touched } from "../live/apply.js";
import type { Change } from "../live/change.js";
import { Lazy } from "../lazy.js";
import type { AccountRecord, Dataset, TokenRecord } from "../records.js";
import { type BalanceRow, BalanceTable } from "./balances.js";
import { group } from "./group.js";
import { SortedGroups } from "./order.js";

/** An unspent token account: its account and token records (`tokenData` is `token`, at the item's path). */
export interface TokenEntry {
  readonly account: AccountRecord;
  readonly token: TokenRecord;
  /** The same record as `token`, where token-account items keep it (so orders read `tokenData.mint`). */
  readonly tokenData: TokenRecord;
}

export class TokenLists {
  readonly unspent = new Lazy(() => this.buildEntries(), "tokenEntries");
  readonly byOwner = new SortedGroups<string, TokenEntry>("tokenAccountsByOwner", () => group(this.unspent.get(), (e) => e.token.owner));
  readonly byOwnerMint = new SortedGroups<string, TokenEntry>("tokenAccountsByOwnerAndMint", () =>
    group(this.unspent.get(), (e) => `${e.token.owner} ${e.token.mint}`),
  );
  readonly byDelegate = new SortedGroups<string, TokenEntry>("tokenAccountsByDelegate", () => group(this.unspent.get(), (e) => e.token.delegate));
  readonly byDelegateMint = new SortedGroups<string, TokenEntry>("tokenAccountsByDelegateAndMint", () =>
    group(this.unspent.get(), (e) => (e.token.delegate === null ? null : `${e.token.delegate} ${e.token.mint}`)),
  );
  readonly balanceRows: BalanceTable;
  readonly balancesByOwner = new SortedGroups<string, BalanceRow>("balancesByOwner", () => group(this.balanceRows.all(), (r) => r.owner));
  readonly holdersByMint = new SortedGroups<string, BalanceRow>("holdersByMint", () => group(this.balanceRows.all(), (r) => r.mint));
  /** Token entries by account hash: one object per account, so its item is found again. */
  private readonly entries = new Map<string, TokenEntry>();

  constructor(
    private readonly dataset: Dataset,
    private readonly account: (hash: string) => AccountRecord,
    private readonly token: (hash: string) => TokenRecord | undefined,
  ) {
    this.balanceRows = new BalanceTable("tokenOwnerBalances", () => dataset.tokens, account);
  }

  /** The entry of an account already indexed as a token account, if it has one. */
  entry(hash: string): TokenEntry | undefined {
    return this.entries.get(hash);
  }

  /** Opened token accounts join their lists, closed ones leave them, appended ones get their lists built again; balance rows follow. */
  apply(change: Change, touched: Touched): void {
    for (const a of change.opened) this.forToken(a, (g, key, entry) => g.add(key, entry));
    for (const a of touched.closed) this.forToken(a, (g, key, entry) => g.remove(key, entry));
    for (const a of touched.appended) this.forToken(a, (g, key) => g.touch(key));
    const spentTokens = touched.closed.flatMap((a) => this.token(a.hash) ?? []);
    if (change.tokens.length > 0 || spentTokens.length > 0) this.unspent.reset();
    for (const { old, next } of this.balanceRows.apply(change.tokens, spentTokens)) {
      if (old !== undefined) {
        this.balancesByOwner.remove(old.owner, old);
        this.holdersByMint.remove(old.mint, old);
      }
      this.balancesByOwner.add(next.owner, next);
      this.holdersByMint.add(next.mint, next);
    }
  }

  /** Calls `f` with each list of a token account, its key there and its entry (nothing for other accounts). */
  private forToken(account: AccountRecord, f: (groups: SortedGroups<string, TokenEntry>, key: string, entry: TokenEntry) => void): void {
    const token = this.token(account.hash);
    if (token === undefined) return;
    const entry = this.entryOf(account, token);
    f(this.byOwner, token.owner, entry);
    f(this.byOwnerMint, `${token.owner} ${token.mint}`, entry);
    if (token.delegate !== null) {
      f(this.byDelegate, token.delegate, entry);
      f(this.byDelegateMint, `${token.delegate} ${token.mint}`, entry);
    }
  }

  /** The one token entry of an account (items are cached by entry). */
  private entryOf(account: AccountRecord, token: TokenRecord): TokenEntry {
    let entry = this.entries.get(account.hash);
    if (entry === undefined) this.entries.set(account.hash, (entry = { account, token, tokenData: token }));
    return entry;
  }

  private buildEntries(): TokenEntry[] {
    const out: TokenEntry[] = [];
    for (const token of this.dataset.tokens) {
      const account = this.account(token.hash);
      if (!account.spent) out.push(this.entryOf(account, token));
    }
    return out;
  }
}
