/**
 * What the reference's handler families share: the handler shape (a method's params plus its
 * own method-table entry), result builders for the records, and Photon's paging rules.
 */
import type { Answer, Handlers, MethodName, Params, Schemas } from "../../generated/index.js";
import { type CallContext, decodeBase58, encodeOnce, type MethodInfo, RpcCode, RpcError, RpcMessage } from "@photon-indexer-kit/runtime";
import { type AccountRecord, type SignatureRecord, type TokenRecord, type U64, U64_MAX, u64 } from "../records.js";
import type { ReferenceStore } from "../store.js";
import { type Forest, merkleContextOf, ZERO_HASH } from "../trees/forest.js";

/** A handler that also gets its own method's entry of the method table (page sizes, list caps), so it never looks itself up by name. */
export type FactHandler<M extends MethodName> = (params: Params<M>, facts: MethodInfo, call: CallContext) => Answer<M>;
/**
 * A handler per method the real indexer registers; the generated `Handlers` leaves the others
 * optional (`x-registered: false`), and the reference leaves them out so they answer -32601 as
 * Photon does, whatever the params (spec/DECISIONS.md row 54).
 */
export type FactHandlers = { [M in keyof Handlers]: FactHandler<M> };

/** What every handler family serves from: the records' indexes and the Merkle trees built over them. */
export interface Reference {
  readonly store: ReferenceStore;
  readonly forest: Forest;
  readonly options: HandlerOptions;
}

/** Options of the reference's handlers (ReferenceOptions passes them through). */
export interface HandlerOptions {
  /**
   * A gnark prover's base URL (`{proverUrl}/prove`, as Photon's `--prover-url`): validity proofs
   * forward their inputs there for a real Groth16 proof. Without it they carry a placeholder proof.
   */
  readonly proverUrl?: string;
}

/** One family of handlers (a file of handlers/): some of the methods. */
export type Family = (ref: Reference) => Partial<FactHandlers>;

/**
 * The unspent account a lookup names: by `address` when given, else by `hash` (address wins,
 * src/api/method/utils.rs:298-310), or null when it is unknown or spent (`spent = false`,
 * utils.rs:266-275). Neither is -32000 `Validation Error: Either address or hash must be provided`.
 */
export function lookupAccount({ store }: Pick<Reference, "store">, params: { address?: string | null; hash?: string | null }): AccountRecord | null {
  const { address, hash } = params;
  if (address !== null && address !== undefined) return store.unspentByAddress(address);
  if (hash !== null && hash !== undefined) return store.unspentByHash(hash);
  throw RpcError.validation("Either address or hash must be provided");
}

/** A call's page size: its limit param, else the method's default (`x-default` on its limit's schema). */
export function limitOf(facts: MethodInfo, limit: number | bigint | null | undefined): number {
  return limit === null || limit === undefined ? (facts.pagination?.defaultLimit ?? Number.MAX_SAFE_INTEGER) : Number(limit);
}

/** The most entries a list param may hold (`x-max-items`): more is -32000 from the handler, not a params error. */
export function maxItems(facts: MethodInfo, param: string): number {
  return facts.maxItems[param] ?? Number.MAX_SAFE_INTEGER;
}

/** `context` of every `{context, value}` result. */
export function contextOf({ store }: Reference): { slot: number } {
  return { slot: store.slot };
}

export type Account = Schemas["Account"];

export interface Slice {
  offset: number;
  length: number;
}

/** An account's `data`, its bytes cut to `slice` when given (`dataSlice`: `dataHash` and `discriminator` unchanged). */
function dataOf(a: AccountRecord, slice: Slice | null): Account["data"] {
  if (a.data === null) return null;
  const bytes =
    slice === null
      ? a.data.data
      : Buffer.from(a.data.data, "base64")
          .subarray(slice.offset, slice.offset + slice.length)
          .toString("base64");
  return { discriminator: a.data.discriminator, data: bytes, dataHash: a.data.dataHash };
}

export function toAccount(a: AccountRecord, slice: Slice | null = null): Account {
  return {
    hash: a.hash,
    address: a.address,
    data: dataOf(a, slice),
    owner: a.owner,
    lamports: a.lamports,
    tree: a.tree,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
  };
}

export type AccountV2 = Schemas["AccountV2"];
export type MerkleContextV2 = Schemas["MerkleContextV2"];
export type TreeContextInfo = Schemas["TreeContextInfo"];

/**
 * The `merkleContext` of an account of tree `key`: that tree's, or, for a tree the index holds no
 * metadata of (a dataset without trees), tree type 0 and the zero queue, as Photon reads a row
 * whose `tree_type` and `queue` are NULL (`unwrap_or(0)`, `unwrap_or_default()`: v2.rs:100-106).
 */
export function accountMerkleContext({ store }: Pick<Reference, "store">, key: string): MerkleContextV2 {
  const tree = store.tree(key);
  return tree === undefined ? { treeType: 0, tree: key, queue: ZERO_HASH, cpiContext: null, nextTreeContext: null } : merkleContextOf(tree);
}

/**
 * An account in the V2 shape (src/common/typedefs/account/v2.rs:16-38, 57-111): Account without `tree`,
 * plus `proveByIndex` (still in its output queue, v2.rs:98) and its tree's `merkleContext`.
 */
export function toAccountV2(ref: Pick<Reference, "store">, a: AccountRecord, slice: Slice | null = null): AccountV2 {
  // Photon's key order: the V1 keys without `tree`, then the two V2 keys.
  const { tree: _tree, ...account } = toAccount(a, slice);
  return { ...account, proveByIndex: a.inOutputQueue, merkleContext: accountMerkleContext(ref, a.tree) };
}

export function toTokenData(t: TokenRecord): Schemas["TokenData"] {
  return { mint: t.mint, owner: t.owner, amount: t.amount, delegate: t.delegate, state: t.state, tlv: t.tlv };
}

/** The most items kept per shape (a few hundred bytes of JSON each); a full cache is emptied and filled again. */
const ITEM_CACHE_MAX = 200_000;

/** A record's item, built once (`cachedItem`); `page` gives the items of a run of a list's rows. */
export interface CachedItem<R, T> {
  (row: R): T;
  /**
   * The items of `rows[from, to)`, for `rows` a list that never changes (a store index): the
   * list's items are kept in an array beside it as they are built, so a page is one slice of it
   * instead of one cache lookup per row.
   */
  page(rows: readonly R[], from: number, to: number): T[];
}

/** Per item cache: the items of each list, by position (emptied with the cache). */
const listItems = new WeakMap<Map<object, object>, WeakMap<readonly object[], object[]>>();

/**
 * A record's item, built once and kept frozen with its JSON (`encodeOnce`), so a page is written as
 * its items' kept text; answers are byte for byte those of freshly built items. Call per row, or `page`.
 */
export function cachedItem<R extends object, T extends object>({ store }: Pick<Reference, "store">, shape: string, build: (row: R) => T): CachedItem<R, T> {
  let cache = store.itemCache.get(shape);
  if (cache === undefined) store.itemCache.set(shape, (cache = new Map()));
  const kept = cache;
  const item = (row: R): T => {
    let it = kept.get(row) as T | undefined;
    if (it === undefined) {
      if (kept.size >= ITEM_CACHE_MAX) {
        kept.clear();
        listItems.delete(kept);
      }
      it = encodeOnce(build(row));
      kept.set(row, it);
    }
    return it;
  };
  const page = (rows: readonly R[], from: number, to: number): T[] => {
    let lists = listItems.get(kept);
    if (lists === undefined) listItems.set(kept, (lists = new WeakMap()));
    let items = lists.get(rows) as T[] | undefined;
    if (items === undefined) lists.set(rows, (items = new Array<T>(rows.length)));
    const end = Math.min(to, rows.length);
    for (let i = from; i < end; i++) if (items[i] === undefined) items[i] = item(rows[i] as R);
    // A cache emptied while this page was built leaves the list's array behind: the items stay right (records never change).
    return items.slice(from, end);
  };
  return Object.assign(item, { page });
}

/** An account as an item (`toAccount`, no slice), built once. */
export const accountItem = (ref: Pick<Reference, "store">) => cachedItem(ref, "Account", (a: AccountRecord) => toAccount(a));

/** An account as a V2 item (`toAccountV2`, no slice), built once. */
export const accountV2Item = (ref: Pick<Reference, "store">) => cachedItem(ref, "AccountV2", (a: AccountRecord) => toAccountV2(ref, a));

export function toSignatureInfo(s: SignatureRecord): Schemas["SignatureInfo"] {
  return { signature: s.signature, slot: s.slot, blockTime: s.blockTime };
}

/** Photon's last-page rule: a cursor exactly when the page is full. */
export function nextCursor<T>(items: readonly T[], limit: number, encode: (last: T) => string): string | null {
  const last = items[items.length - 1];
  return last === undefined || items.length < limit ? null : encode(last);
}

/** Decodes base58 that the params validator already accepted (a direct caller may still pass junk). */
export function bytesOf(text: string, field: string): Uint8Array {
  const bytes = decodeBase58(text);
  if (bytes === undefined) throw RpcError.invalidParams(`invalid base58 in ${field}`);
  return bytes;
}

/**
 * Photon's answer to an unexpected error (`PhotonApiError::UnexpectedError` and database errors):
 * -32000 `Internal server error`, the detail only logged (src/api/error.rs:55-68, 91-93).
 */
export function internalServerError(): RpcError {
  return new RpcError(RpcCode.CALL_EXECUTION_FAILED, RpcMessage.CALL_EXECUTION_FAILED);
}

/**
 * A sum Photon stores as a decimal and reads back as a u64 (`parse_decimal`,
 * src/api/method/utils.rs:31-36): above u64::MAX the parse fails, an unexpected error, so the
 * whole call answers -32000 `Internal server error`.
 */
export function u64Sum(value: bigint): U64 {
  if (value > U64_MAX) throw internalServerError();
  return u64(value);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}
