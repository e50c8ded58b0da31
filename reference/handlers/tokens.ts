/**
 * Compressed token accounts and balances by token owner (photon-behaviour.md §1.4, §1.5).
 *
 * Reference choice where Photon is buggy: getCompressedTokenBalancesByOwner applies
 * `mint > cursor` also when `mint` is given (spec/DECISIONS.md row 34).
 */
import { encodeBase58, RpcError } from "@photon-indexer-kit/runtime";
import { encodeBase58Fast } from "../base58.js";
import { u64 } from "../records.js";
import type { TokenEntry } from "../store.js";
import { bytesOf, concat, contextOf, type Family, limitOf, nextCursor, toAccount, toTokenData } from "./support.js";

export const tokenHandlers = ((store) => {
  const context = () => contextOf(store);
  return {
    getCompressedTokenAccountsByOwner(params, facts) {
      let cursor: { mint: string; hash: string } | null = null;
      if (params.cursor !== null && params.cursor !== undefined) {
        const bytes = bytesOf(params.cursor, "cursor");
        if (bytes.length !== 64) throw RpcError.validation(`Invalid cursor length. Expected 64. Received ${bytes.length}.`);
        cursor = { mint: encodeBase58Fast(bytes.subarray(0, 32)), hash: encodeBase58Fast(bytes.subarray(32)) };
      }
      const limit = limitOf(facts, params.limit);
      const entries = store.tokenAccounts(params.owner);
      const [start, end] = store.tokenAccountRange(params.owner, params.mint ?? null, cursor);
      const page = entries.slice(start, Math.min(end, start + limit));
      const items = page.map((e) => ({ account: toAccount(e.account), tokenData: toTokenData(e.token) }));
      const encode = (e: TokenEntry) => encodeBase58(concat(bytesOf(e.token.mint, "mint"), bytesOf(e.account.hash, "hash")));
      return { context: context(), value: { items, cursor: nextCursor(page, limit, encode) } };
    },

    getCompressedTokenBalancesByOwner(params, facts) {
      let after: string | null = null;
      if (params.cursor !== null && params.cursor !== undefined) {
        const bytes = bytesOf(params.cursor, "cursor");
        if (bytes.length !== 32) throw RpcError.validation(`Invalid cursor length. Expected 32. Received ${bytes.length}.`);
        after = encodeBase58Fast(bytes);
      }
      const limit = limitOf(facts, params.limit);
      const rows = store.balances(params.owner);
      const start = after === null ? 0 : store.balancesAfter(params.owner, after);
      const mint = params.mint ?? null;
      let page = rows.slice(start, start + limit);
      if (mint !== null) {
        const at = store.balancesAfter(params.owner, mint) - 1;
        page = at >= start && rows[at]?.mint === mint ? rows.slice(at, at + Math.min(1, limit)) : [];
      }
      const tokenBalances = page.map((r) => ({ mint: r.mint, balance: u64(r.balance) }));
      return { context: context(), value: { token_balances: tokenBalances, cursor: nextCursor(page, limit, (last) => last.mint) } };
    },
  };
}) satisfies Family<"getCompressedTokenAccountsByOwner" | "getCompressedTokenBalancesByOwner">;
