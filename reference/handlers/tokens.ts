/**
 * Compressed token accounts by owner and delegate, token balances by owner and a mint's holders
 * (spec/DECISIONS.md #27, #34, #35, #47, #61), each list in its documented order (`facts.pagination.order`).
 * Token account pages follow src/api/method/utils.rs:124-224 (DECISIONS rows 31, 32, 62). Where Photon is buggy,
 * getCompressedTokenBalancesByOwner(V2) applies `mint > cursor` also with `mint` (spec/DECISIONS.md row 34).
 */
import type { Schemas } from "../../generated/index.js";
import { encodeBase58, type MethodInfo, RpcError } from "@photon-indexer-kit/runtime";
import { type BalanceRow, documentedOrder, type Order, type Sorted, type TokenEntry } from "../store.js";
import {
  bytesOf,
  cachedItem,
  concat,
  contextOf,
  type Family,
  limitOf,
  nextCursor,
  type Reference,
  toAccount,
  toAccountV2,
  toTokenData,
  u64Sum,
} from "./support.js";

/** The paging params every token-account list takes besides its owner or delegate. */
type TokenListParams = Schemas["GetCompressedTokenAccountsByOwnerParams"] | Schemas["GetCompressedTokenAccountsByDelegateParams"];

/** The cursor's bytes after Photon's length check: -32000 `Invalid cursor length. Expected N. Received M.` otherwise. */
function cursorBytes(cursor: string, length: number): Buffer {
  const bytes = Buffer.from(bytesOf(cursor, "cursor"));
  if (bytes.length !== length) throw RpcError.validation(`Invalid cursor length. Expected ${length}. Received ${bytes.length}.`);
  return bytes;
}

/**
 * One page of token accounts from `listOf(order, mint)`: those after the cursor (utils.rs:138-178;
 * with `mint` only `hash > c_hash` counts, :154-157).
 */
function tokenPage(
  facts: MethodInfo,
  params: TokenListParams,
  listOf: (order: Order, mint: string | null) => Sorted<TokenEntry>,
): { rows: readonly TokenEntry[]; limit: number } {
  const mint = params.mint ?? null;
  const list = listOf(documentedOrder(facts), mint);
  let start = 0;
  if (params.cursor !== null && params.cursor !== undefined) {
    const bytes = cursorBytes(params.cursor, 64);
    const cursorMint = mint ?? encodeBase58(bytes.subarray(0, 32));
    start = list.after({ tokenData: { mint: cursorMint }, account: { hash: encodeBase58(bytes.subarray(32)) } });
  }
  const limit = limitOf(facts, params.limit);
  return { rows: list.page(start, limit), limit };
}

/** A token-account cursor: base58 of the last item's mint ‖ account hash (utils.rs:207-218, 747-755). */
const tokenCursor = (e: TokenEntry) => encodeBase58(concat(bytesOf(e.token.mint, "mint"), bytesOf(e.account.hash, "hash")));

/** The 0.50.0 shape (TokenAccount: Account and TokenData). */
const tokenAccountHandlers = ((ref) => {
  const { store } = ref;
  const context = () => contextOf(ref);
  // Each token account's item built once, its JSON kept (support.ts `cachedItem`).
  const item = cachedItem(ref, "TokenAccount", (e: TokenEntry) => ({ account: toAccount(e.account), tokenData: toTokenData(e.token) }));
  const answer = ({ rows, limit }: { rows: readonly TokenEntry[]; limit: number }) => ({
    context: context(),
    value: { items: rows.map(item), cursor: nextCursor(rows, limit, tokenCursor) },
  });
  return {
    getCompressedTokenAccountsByOwner(params, facts) {
      return answer(tokenPage(facts, params, (order, mint) => store.tokenAccountsByOwner(params.owner, order, mint)));
    },

    getCompressedTokenAccountsByDelegate(params, facts) {
      // get_compressed_token_accounts_by_delegate.rs:12-28: the owner's query with `delegate = $1`.
      return answer(tokenPage(facts, params, (order, mint) => store.tokenAccountsByDelegate(params.delegate, order, mint)));
    },
  };
}) satisfies Family;

/** The V2 shape (TokenAccountV2: AccountV2 and TokenData; fetch_token_accounts_v2, utils.rs:664-764). */
const tokenAccountV2Handlers = ((ref) => {
  const { store } = ref;
  const context = () => contextOf(ref);
  const item = cachedItem(ref, "TokenAccountV2", (e: TokenEntry) => ({ account: toAccountV2(ref, e.account), tokenData: toTokenData(e.token) }));
  const answer = ({ rows, limit }: { rows: readonly TokenEntry[]; limit: number }) => ({
    context: context(),
    value: {
      items: rows.map(item),
      cursor: nextCursor(rows, limit, tokenCursor),
    },
  });
  return {
    getCompressedTokenAccountsByOwnerV2(params, facts) {
      return answer(tokenPage(facts, params, (order, mint) => store.tokenAccountsByOwner(params.owner, order, mint)));
    },

    getCompressedTokenAccountsByDelegateV2(params, facts) {
      // get_compressed_token_accounts_by_delegate.rs:30-46.
      return answer(tokenPage(facts, params, (order, mint) => store.tokenAccountsByDelegate(params.delegate, order, mint)));
    },
  };
}) satisfies Family;

/**
 * One page of an owner's balance rows by mint (get_compressed_token_balances_by_owner.rs:44-105): next page
 * `mint > cursor`, also with `mint` (DECISIONS row 34); with `mint`, at most that mint's row.
 */
function balancePage(
  { store }: Reference,
  facts: MethodInfo,
  params: Schemas["GetCompressedTokenBalancesByOwnerParams"],
): { items: Schemas["TokenBalance"][]; cursor: string | null } {
  const rows = store.tokenBalancesByOwner(params.owner, documentedOrder(facts));
  const after = params.cursor === null || params.cursor === undefined ? null : encodeBase58(cursorBytes(params.cursor, 32));
  const limit = limitOf(facts, params.limit);
  const mint = params.mint ?? null;
  let page: readonly BalanceRow[];
  if (mint === null) page = rows.page(after === null ? 0 : rows.after({ mint: after }), limit);
  else {
    const at = rows.atOrAfter({ mint });
    const row = rows.rows[at];
    const afterCursor = after === null || at >= rows.after({ mint: after });
    page = row !== undefined && row.mint === mint && afterCursor ? rows.page(at, Math.min(1, limit)) : [];
  }
  // Each balance is read back as a u64 (`parse_decimal`, :88-93).
  const items = page.map((r) => ({ mint: r.mint, balance: u64Sum(r.balance) }));
  return { items, cursor: nextCursor(page, limit, (last) => last.mint) };
}

/** A holders cursor: base58 of the balance as u64 LE ‖ owner (get_compressed_mint_token_holders.rs:97-105). */
function holderCursor(row: BalanceRow): string {
  const balance = Buffer.alloc(8);
  balance.writeBigUInt64LE(row.balance);
  return encodeBase58(concat(balance, bytesOf(row.owner, "owner")));
}

/** Balances by owner (0.50.0 `token_balances`, V2 `items`) and a mint's holders. */
const balanceListHandlers = ((ref) => {
  const { store } = ref;
  const context = () => contextOf(ref);
  return {
    getCompressedTokenBalancesByOwner(params, facts) {
      const { items, cursor } = balancePage(ref, facts, params);
      return { context: context(), value: { token_balances: items, cursor } };
    },

    getCompressedTokenBalancesByOwnerV2(params, facts) {
      // The V1 answer with its items under `items` (get_compressed_token_balances_by_owner.rs:130-146).
      return { context: context(), value: balancePage(ref, facts, params) };
    },

    getCompressedMintTokenHolders(params, facts) {
      // get_compressed_mint_token_holders.rs:44-114 (DECISIONS row 61): the mint's balance rows,
      // zero balances included, by (balance desc, owner desc); next page after the cursor's
      // (balance, owner): `balance < b OR (balance = b AND owner < o)` (:71-77).
      const rows = store.mintHolders(params.mint, documentedOrder(facts));
      let start = 0;
      if (params.cursor !== null && params.cursor !== undefined) {
        const bytes = cursorBytes(params.cursor, 40);
        start = rows.after({ balance: bytes.readBigUInt64LE(0), owner: encodeBase58(bytes.subarray(8)) });
      }
      const limit = limitOf(facts, params.limit);
      const page = rows.page(start, limit);
      // Each balance is read back as a u64 (:89-94) before the cursor is made from it.
      const items = page.map((r) => ({ owner: r.owner, balance: u64Sum(r.balance) }));
      return { context: context(), value: { items, cursor: nextCursor(page, limit, holderCursor) } };
    },
  };
}) satisfies Family;

/** The token methods: token accounts (both shapes), balances and holders. */
export const tokenHandlers = (ref: Reference) => ({ ...tokenAccountHandlers(ref), ...tokenAccountV2Handlers(ref), ...balanceListHandlers(ref) });
