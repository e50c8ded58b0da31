/**
 * The reference indexer's method handlers: Photon's behaviour (shared/photon-behaviour.md
 * §1, §3–§5) as settled in spec/DECISIONS.md, over a ReferenceStore. Params arrive
 * validated by the generated listener, so only semantic rules are checked here.
 *
 * Reference choices where Photon is buggy or silent:
 * - getCompressedAccountsByOwner pages in its documented order (leafIndex, hash): the next
 *   page holds the items after the cursor's account; a cursor that is not an unspent account
 *   of the owner is -32000 `Validation Error: Invalid cursor`.
 * - getCompressedTokenBalancesByOwner applies `mint > cursor` also when `mint` is given.
 */
import type { Answer, Handlers, MethodName, Params, Schemas } from "../generated/index.js";
import { methods } from "../generated/methods.js";
import { type CallContext, decodeBase58, encodeBase58, type MethodInfo, RpcError } from "@photon-indexer-kit/runtime";
import { encodeBase58Fast } from "./base58.js";
import { u64 } from "./records.js";
import type { AccountRecord, SignatureRecord, TokenRecord } from "./records.js";
import type { OwnerData, ReferenceStore, TokenEntry } from "./store.js";

/**
 * The largest default page size of the spec's paginated methods (Photon's PAGE_LIMIT), read
 * from the method table (`x-default` on Limit). Kept for the package's API; the handlers read
 * each method's own figures.
 */
export const PAGE_LIMIT: number = Math.max(...Object.values(methods).map((m) => m.pagination?.defaultLimit ?? 0));

/** A call's page size: its limit param, else the method's default (`x-default` on its limit's schema). */
function limitOf(facts: MethodInfo, limit: number | bigint | null | undefined): number {
  return limit === null || limit === undefined ? (facts.pagination?.defaultLimit ?? Number.MAX_SAFE_INTEGER) : Number(limit);
}

/** The most entries a list param may hold (`x-max-items`): more is -32000 from the handler, not a params error. */
function maxItems(facts: MethodInfo, param: string): number {
  return facts.maxItems[param] ?? Number.MAX_SAFE_INTEGER;
}

/** A handler that also gets its own method's entry of the method table (page sizes, list caps), so it never looks itself up by name. */
type FactHandlers = { [M in MethodName]: (params: Params<M>, facts: MethodInfo, call: CallContext) => Answer<M> };

/** The listener's handlers: each implementation called with its method's table entry. */
function withFacts(impl: FactHandlers): Handlers {
  const out: Record<string, (params: unknown, call: CallContext) => unknown> = {};
  for (const name of Object.keys(impl) as MethodName[]) {
    const fn = impl[name] as (params: unknown, facts: MethodInfo, call: CallContext) => unknown;
    const facts: MethodInfo = methods[name];
    out[name] = (params, call) => fn(params, facts, call);
  }
  return out as unknown as Handlers;
}

type Account = Schemas["Account"];
interface Slice {
  offset: number;
  length: number;
}

function toAccount(a: AccountRecord, slice: Slice | null = null): Account {
  let data: Account["data"] = null;
  if (a.data !== null) {
    const bytes =
      slice === null
        ? a.data.data
        : Buffer.from(a.data.data, "base64")
            .subarray(slice.offset, slice.offset + slice.length)
            .toString("base64");
    data = { discriminator: a.data.discriminator, data: bytes, dataHash: a.data.dataHash };
  }
  return {
    hash: a.hash,
    address: a.address,
    data,
    owner: a.owner,
    lamports: a.lamports,
    tree: a.tree,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
  };
}

function toTokenData(t: TokenRecord): Schemas["TokenData"] {
  return { mint: t.mint, owner: t.owner, amount: t.amount, delegate: t.delegate, state: t.state, tlv: t.tlv };
}

function toSignatureInfo(s: SignatureRecord): Schemas["SignatureInfo"] {
  return { signature: s.signature, slot: s.slot, blockTime: s.blockTime };
}

/** Photon's last-page rule: a cursor exactly when the page is full. */
function nextCursor<T>(items: readonly T[], limit: number, encode: (last: T) => string): string | null {
  const last = items[items.length - 1];
  return last === undefined || items.length < limit ? null : encode(last);
}

/** Decodes base58 that the params validator already accepted (a direct caller may still pass junk). */
function bytesOf(text: string, field: string): Uint8Array {
  const bytes = decodeBase58(text);
  if (bytes === undefined) throw RpcError.invalidParams(`invalid base58 in ${field}`);
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

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

export function createReferenceHandlers(store: ReferenceStore): Handlers {
  const context = () => ({ slot: store.slot });
  const accountOrNull = (a: AccountRecord | null) => (a === null ? null : toAccount(a));

  return withFacts({
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

    getCompressionSignaturesForTokenOwner(params, facts) {
      const limit = limitOf(facts, params.limit);
      let start = 0;
      if (params.cursor !== null && params.cursor !== undefined) {
        // 72 bytes encode to at most 99 characters. Longer text is never a cursor, and decoding it
        // would cost time quadratic in its length (a request could stall the server), so it is not decoded.
        if (params.cursor.length > 99) throw RpcError.validation("Invalid cursor length. Expected 72. Received more than 72.");
        const bytes = decodeBase58(params.cursor);
        if (bytes === undefined) throw RpcError.validation(`Invalid cursor ${params.cursor}`);
        if (bytes.length !== 72) throw RpcError.validation(`Invalid cursor length. Expected 72. Received ${bytes.length}.`);
        const slot = Buffer.from(bytes).readBigUInt64LE(0);
        start = store.signaturesAfter(params.owner, slot, encodeBase58Fast(bytes.subarray(8)));
      }
      const page = store.signatures(params.owner).slice(start, start + limit);
      const encode = (s: SignatureRecord) => {
        const slot = Buffer.alloc(8);
        slot.writeBigUInt64LE(BigInt(s.slot));
        return encodeBase58(concat(slot, bytesOf(s.signature, "signature")));
      };
      return { context: context(), value: { items: page.map(toSignatureInfo), cursor: nextCursor(page, limit, encode) } };
    },

    getIndexerSlot() {
      return store.slot;
    },
  });
}
