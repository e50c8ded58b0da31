/**
 * Compressed accounts: single and multiple lookups, and the owner's list with memcmp filters
 * and data slices (photon-behaviour.md §1.1–§1.3, §5).
 *
 * Reference choice where Photon is buggy: getCompressedAccountsByOwner pages in its documented
 * order (leafIndex, hash): the next page holds the items after the cursor's account; a cursor
 * that is not an unspent account of the owner is -32000 `Validation Error: Invalid cursor`
 * (spec/DECISIONS.md row 33).
 */
import { RpcError } from "@photon-indexer-kit/runtime";
import type { AccountRecord } from "../records.js";
import type { OwnerData } from "../store.js";
import { type Account, bytesOf, contextOf, type Family, limitOf, maxItems, nextCursor, toAccount } from "./support.js";

interface Memcmp {
  offset: number;
  bytes: Buffer;
}

/**
 * Photon refuses filters for an owner with this many unspent accounts or more
 * (MAX_CHILD_ACCOUNTS_WITH_FILTERS): a filtered call scans at most this many accounts.
 */
export const MAX_ACCOUNTS_WITH_FILTERS = 1_000_000;

/**
 * Photon's SQL for account `i` of the owner: SUBSTRING(data FROM offset+1 FOR len(bytes)) =
 * bytes for every filter; data null never matches; a slice shorter than `bytes` never matches,
 * empty `bytes` match any data. Compared in place on the owner's decoded bytes.
 */
function matches(data: OwnerData, i: number, filters: readonly Memcmp[]): boolean {
  if (data.hasData[i] === 0) return false;
  const from = data.start[i] as number;
  const length = (data.start[i + 1] as number) - from;
  const bytes = data.bytes;
  for (const f of filters) {
    const want = f.bytes;
    const k = want.length;
    if (k === 0) continue;
    if (f.offset + k > length) return false;
    const at = from + f.offset;
    if (bytes[at] !== want[0]) return false;
    for (let j = 1; j < k; j++) if (bytes[at + j] !== want[j]) return false;
  }
  return true;
}

const accountOrNull = (a: AccountRecord | null) => (a === null ? null : toAccount(a));

export const accountHandlers = ((store) => {
  const context = () => contextOf(store);
  return {
    getCompressedAccount(params) {
      const { address, hash } = params;
      if (address !== null && address !== undefined) return { context: context(), value: accountOrNull(store.unspentByAddress(address)) };
      if (hash !== null && hash !== undefined) return { context: context(), value: accountOrNull(store.unspentByHash(hash)) };
      throw RpcError.validation("Either address or hash must be provided");
    },

    getMultipleCompressedAccounts(params, facts) {
      const { hashes, addresses } = params;
      const hasHashes = hashes !== null && hashes !== undefined;
      const hasAddresses = addresses !== null && addresses !== undefined;
      if (hasHashes && hasAddresses) throw RpcError.validation("Cannot provide both hashes and addresses");
      const [kind, keys] = hasHashes ? ["hashes", hashes] : hasAddresses ? ["addresses", addresses] : [null, null];
      if (kind === null || keys === null) throw RpcError.validation("Either hashes or addresses must be provided");
      const most = maxItems(facts, kind);
      if (keys.length > most) throw RpcError.validation(`Too many ${kind} requested ${keys.length}. Maximum allowed: ${most}`);
      const find = kind === "hashes" ? (k: string) => store.unspentByHash(k) : (k: string) => store.unspentByAddress(k);
      return { context: context(), value: { items: keys.map((k) => accountOrNull(find(k))) } };
    },

    getCompressedAccountsByOwner(params, facts) {
      const filters = params.filters ?? [];
      const mostFilters = maxItems(facts, "filters");
      if (filters.length > mostFilters) throw RpcError.validation(`Too many filters. The maximum number of filters allowed is ${mostFilters}`);
      const memcmps = filters.map((f, i): Memcmp => {
        if (f.memcmp === null || f.memcmp === undefined) throw RpcError.validation("Filter instance cannot be null");
        return { offset: Number(f.memcmp.offset), bytes: Buffer.from(bytesOf(f.memcmp.bytes, `filters[${i}].memcmp.bytes`)) };
      });
      const slice =
        params.dataSlice === null || params.dataSlice === undefined
          ? null
          : { offset: Number(params.dataSlice.offset), length: Number(params.dataSlice.length) };
      const limit = limitOf(facts, params.limit);
      const list = store.ownerAccounts(params.owner);
      let i = 0;
      if (params.cursor !== null && params.cursor !== undefined) {
        const position = store.ownerPosition(params.owner, params.cursor);
        if (position < 0) throw RpcError.validation("Invalid cursor");
        i = position + 1;
      }
      const items: Account[] = [];
      if (memcmps.length === 0) {
        for (; i < list.length && items.length < limit; i++) items.push(toAccount(list[i] as AccountRecord, slice));
      } else {
        // A filtered page scans the owner's accounts after the cursor until `limit` match: at most
        // MAX_ACCOUNTS_WITH_FILTERS of them, each a few byte comparisons (no decoding).
        if (list.length >= MAX_ACCOUNTS_WITH_FILTERS) {
          throw RpcError.validation(
            `Owner has too many children accounts. The maximum number of accounts allowed with filters is ${MAX_ACCOUNTS_WITH_FILTERS}`,
          );
        }
        const data = store.ownerData(params.owner);
        for (; i < list.length && items.length < limit; i++) if (matches(data, i, memcmps)) items.push(toAccount(list[i] as AccountRecord, slice));
      }
      return { context: context(), value: { items, cursor: nextCursor(items, limit, (last) => last.hash) } };
    },
  };
}) satisfies Family<"getCompressedAccount" | "getMultipleCompressedAccounts" | "getCompressedAccountsByOwner">;
