/**
 * Compressed accounts: lookups and the owner's list with memcmp filters and data slices
 * (spec/DECISIONS.md #21, #22, #23, #24, #25, #78), in the 0.50.0 and V2 shapes (DECISIONS row 55);
 * a V2 method runs its V1 method's query (get_compressed_account.rs:45-62).
 * Where Photon is buggy, getCompressedAccountsByOwner pages in its documented order (leafIndex, hash);
 * a cursor that is not an unspent account of the owner is -32000 (spec/DECISIONS.md row 33).
 */
import type { Schemas } from "../../generated/index.js";
import { type MethodInfo, RpcError } from "@photon-indexer-kit/runtime";
import type { AccountRecord } from "../records.js";
import { documentedOrder, type OwnerData } from "../store.js";
import {
  type Account,
  type AccountV2,
  accountItem,
  accountV2Item,
  bytesOf,
  contextOf,
  type Family,
  limitOf,
  lookupAccount,
  maxItems,
  nextCursor,
  type Reference,
  type Slice,
  toAccount,
  toAccountV2,
} from "./support.js";

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

/** The params of both owner lists (V2 reuses the V1 request struct: get_compressed_accounts_by_owner/v2.rs:28-31). */
type ByOwnerParams = Schemas["GetCompressedAccountsByOwnerParams"];

/**
 * The accounts `keys` name, in input order, null for unknown or spent ones (duplicates repeat):
 * getMultipleCompressedAccounts(V2), get_multiple_compressed_accounts.rs:71-98. More than the
 * list's cap is -32000 (:108-124, 158-174).
 */
function lookupMany({ store }: Reference, facts: MethodInfo, kind: "hashes" | "addresses", keys: readonly string[]): (AccountRecord | null)[] {
  const most = maxItems(facts, kind);
  if (keys.length > most) throw RpcError.validation(`Too many ${kind} requested ${keys.length}. Maximum allowed: ${most}`);
  return kind === "hashes" ? keys.map((k) => store.unspentByHash(k)) : keys.map((k) => store.unspentByAddress(k));
}

/** The two lists of a multiple lookup, absent ones as null. */
function listsOf(params: { hashes?: string[] | null; addresses?: string[] | null }): { hashes: string[] | null; addresses: string[] | null } {
  return { hashes: params.hashes ?? null, addresses: params.addresses ?? null };
}

/**
 * One page of an owner's unspent accounts: getCompressedAccountsByOwner and its V2, which run
 * the same query (get_compressed_accounts_by_owner/v1.rs, v2.rs:28-59, common.rs:85-119,
 * 214-227) and differ only in the items' shape. Returns the records and the slice to apply.
 */
function ownerPage(
  { store }: Reference,
  params: ByOwnerParams,
  facts: MethodInfo,
): { rows: AccountRecord[]; slice: Slice | null; limit: number; run: { list: readonly AccountRecord[]; from: number } | null } {
  const order = documentedOrder(facts);
  const filters = params.filters ?? [];
  const mostFilters = maxItems(facts, "filters");
  // validate_filters, common.rs:230-238.
  if (filters.length > mostFilters) throw RpcError.validation(`Too many filters. The maximum number of filters allowed is ${mostFilters}`);
  // FilterSelector::into_filter_instance, common.rs:46-56.
  const memcmps = filters.map((f, i): Memcmp => {
    if (f.memcmp === null || f.memcmp === undefined) throw RpcError.validation("Filter instance cannot be null");
    return { offset: Number(f.memcmp.offset), bytes: Buffer.from(bytesOf(f.memcmp.bytes, `filters[${i}].memcmp.bytes`)) };
  });
  const slice =
    params.dataSlice === null || params.dataSlice === undefined ? null : { offset: Number(params.dataSlice.offset), length: Number(params.dataSlice.length) };
  const limit = limitOf(facts, params.limit);
  const list = store.accountsByOwner(params.owner, order).rows;
  let i = 0;
  if (params.cursor !== null && params.cursor !== undefined) {
    // The agreed next page (DECISIONS row 33): the items after the cursor's account in the documented order.
    const position = store.ownerPosition(params.owner, params.cursor, order);
    if (position < 0) throw RpcError.validation("Invalid cursor");
    i = position + 1;
  }
  if (memcmps.length === 0) {
    // No filter: the page is the run of the list from `i`.
    return { rows: list.slice(i, i + Math.max(0, limit)) as AccountRecord[], slice, limit, run: { list, from: i } };
  }
  const rows: AccountRecord[] = [];
  {
    // check_account_limits, common.rs:165-212. A filtered page scans the owner's accounts after the
    // cursor until `limit` match: at most MAX_ACCOUNTS_WITH_FILTERS of them, each a few byte
    // comparisons (no decoding).
    if (list.length >= MAX_ACCOUNTS_WITH_FILTERS) {
      throw RpcError.validation(`Owner has too many children accounts. The maximum number of accounts allowed with filters is ${MAX_ACCOUNTS_WITH_FILTERS}`);
    }
    const data = store.ownerData(params.owner, order);
    for (; i < list.length && rows.length < limit; i++) if (matches(data, i, memcmps)) rows.push(list[i] as AccountRecord);
  }
  return { rows, slice, limit, run: null };
}

/** The 0.50.0 shapes (Account). */
const v1Handlers = ((ref) => {
  const context = () => contextOf(ref);
  // Each account's item built once, its JSON kept (support.ts `cachedItem`); sliced data is built per call.
  const item = accountItem(ref);
  const accountOrNull = (a: AccountRecord | null) => (a === null ? null : item(a));
  return {
    getCompressedAccount(params) {
      return { context: context(), value: accountOrNull(lookupAccount(ref, params)) };
    },

    getMultipleCompressedAccounts(params, facts) {
      const { hashes, addresses } = listsOf(params);
      // get_multiple_compressed_accounts.rs:106-137.
      if (hashes !== null && addresses !== null) throw RpcError.validation("Cannot provide both hashes and addresses");
      if (hashes === null && addresses === null) throw RpcError.validation("Either hashes or addresses must be provided");
      const found = hashes !== null ? lookupMany(ref, facts, "hashes", hashes) : lookupMany(ref, facts, "addresses", addresses as string[]);
      return { context: context(), value: { items: found.map(accountOrNull) } };
    },

    getCompressedAccountsByOwner(params, facts) {
      const { rows, slice, limit, run } = ownerPage(ref, params, facts);
      const items: Account[] =
        slice !== null ? rows.map((a) => toAccount(a, slice)) : run !== null ? item.page(run.list, run.from, run.from + rows.length) : rows.map(item);
      return { context: context(), value: { items, cursor: nextCursor(items, limit, (last) => last.hash) } };
    },
  };
}) satisfies Family;

/** The V2 shapes (AccountV2, with `proveByIndex` and `merkleContext`): the same queries as the V1 methods. */
const v2Handlers = ((ref) => {
  const context = () => contextOf(ref);
  const item = accountV2Item(ref);
  return {
    getCompressedAccountV2(params) {
      // get_compressed_account.rs:45-62: the same lookup as V1.
      const a = lookupAccount(ref, params);
      return { context: context(), value: a === null ? null : item(a) };
    },

    getMultipleCompressedAccountsV2(params, facts) {
      const { hashes, addresses } = listsOf(params);
      // get_multiple_compressed_accounts.rs:156-180: V2 answers both and neither with one message.
      if ((hashes === null) === (addresses === null)) throw RpcError.validation("Either hashes or addresses must be provided");
      const found = hashes !== null ? lookupMany(ref, facts, "hashes", hashes) : lookupMany(ref, facts, "addresses", addresses as string[]);
      return { context: context(), value: { items: found.map((a) => (a === null ? null : item(a))) } };
    },

    getCompressedAccountsByOwnerV2(params, facts) {
      const { rows, slice, limit, run } = ownerPage(ref, params, facts);
      const items: AccountV2[] =
        slice !== null ? rows.map((a) => toAccountV2(ref, a, slice)) : run !== null ? item.page(run.list, run.from, run.from + rows.length) : rows.map(item);
      // v2.rs:61-64: the last item's hash, null on a short page.
      return { context: context(), value: { items, cursor: nextCursor(items, limit, (last) => last.hash) } };
    },
  };
}) satisfies Family;

/** The account methods, V1 and V2. */
export const accountHandlers = (ref: Reference) => ({ ...v1Handlers(ref), ...v2Handlers(ref) });
