/**
 * Discovery for the methods added in 0.51.2: a delegate with more than a page of token
 * accounts, a mint with more than a page of holders, the delegate's second mint, and the merkle
 * context of `knownHash` as a V2 lookup states it. Every method is chosen by spec facts (its
 * pagination, its filters, its lookup keys, the sums another method's totals state), never by
 * name; every value read from the target is type-checked before use, and a key (or field) is
 * written only when the answers checked its promise (see reference/roles/index.ts DatasetProfile).
 */
import { decodeBase58, encodeBase58, isObject, type Json, type MethodInfo } from "@photon-indexer-kit/runtime";
import type { Target } from "../checks/check.js";
import { getPath } from "../matchers.js";
import { pageOf, type MethodTable } from "../spec-facts.js";

/** Pages read per list walk: a cursor that never ends stops here, and the list counts as incomplete. */
export const MAX_PAGES = 6;
/** Candidates tried per role (delegates, mints). */
const MAX_TRIES = 3;

export interface Listing {
  readonly items: Record<string, unknown>[];
  /** The cursor reached null: `items` is the whole list. */
  readonly complete: boolean;
  /** A cursor came back a second time: the items may repeat, so nothing is counted from them. */
  readonly looped?: boolean;
}

/**
 * Walks a paginated method from its first page (at most MAX_PAGES), its items and cursor read from
 * the method table. A cursor that repeats, or a page that is not an object with an items array,
 * ends the walk as incomplete; items that are not objects are dropped.
 */
export async function list(target: Target, info: MethodInfo, params: Record<string, Json>): Promise<Listing> {
  const p = info.pagination;
  const items: Record<string, unknown>[] = [];
  if (!p) return { items, complete: false };
  let cursor: unknown = null;
  const seen = new Set<string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const exchange = await target.call(info.name, cursor === null ? params : { ...params, [p.cursor]: cursor as Json });
    const value = isObject(exchange.body) ? pageOf(info, exchange.body.result) : undefined;
    const pageItems = isObject(value) ? value[p.items] : undefined;
    if (!isObject(value) || !Array.isArray(pageItems)) return { items, complete: false };
    items.push(...pageItems.filter(isObject));
    cursor = value[p.cursor] ?? null;
    if (cursor === null) return { items, complete: true };
    if (typeof cursor !== "string") return { items, complete: false };
    if (seen.has(cursor)) return { items, complete: false, looped: true };
    seen.add(cursor);
  }
  return { items, complete: false };
}

const isPubkey = (v: unknown): v is string => typeof v === "string" && v.length <= 44 && decodeBase58(v)?.length === 32;

/** A u64 as the target states it (a JSON integer, read losslessly as a number or a bigint), else null. */
function u64(v: unknown): bigint | null {
  if (typeof v === "bigint") return v >= 0n && v < 1n << 64n ? v : null;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return null;
}

const asJson = (v: bigint): Json => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : (v as unknown as Json));

/** An account item's data bytes (its `data.data`, base64), or null when it has none. */
export function dataOf(account: Record<string, unknown>): Buffer | null {
  const data = account.data;
  return isObject(data) && typeof data.data === "string" ? Buffer.from(data.data, "base64") : null;
}

/** A compressed-token account's data (borsh TokenData: mint ‖ owner ‖ amount u64 ‖ delegate Option<Pubkey> ‖ …): its delegate, or null. */
export function delegateOf(data: Buffer): string | null {
  return data.length >= 105 && data[72] === 1 ? encodeBase58(data.subarray(73, 105)) : null;
}

/**
 * The token methods the roles need, by spec facts: `tokens` (filters the token owner and a mint, summed by
 * `x-sums`), `holders` (its only required param is that mint) and `delegated` (filters its param and the mint).
 */
export function tokenMethods(table: MethodTable) {
  const all = Object.values(table);
  const totals = all.find((m) => m.pagination && m.sums !== null && table[m.sums.method]?.pagination) ?? null;
  const tokens = totals?.sums ? (table[totals.sums.method] ?? null) : null;
  if (!totals?.sums || !tokens || tokens.requiredParams.length !== 1) return null;
  const ownerParam = tokens.requiredParams[0]!;
  const mintParam = Object.keys(tokens.filters).find((k) => tokens.filters[k] === totals.sums!.key.of);
  if (!mintParam || tokens.filters[ownerParam] === undefined) return null;
  const holders = all.find((m) => m.pagination && m.requiredParams.length === 1 && m.requiredParams[0] === mintParam) ?? null;
  const delegated =
    all.find(
      (m) =>
        m.pagination &&
        m.requiredParams.length === 1 &&
        m.requiredParams[0] !== ownerParam &&
        m.filters[m.requiredParams[0]!] !== undefined &&
        m.filters[mintParam] !== undefined,
    ) ?? null;
  return {
    mintPath: tokens.filters[mintParam]!,
    /** A holder row's owner field: the leaf of the token owner's path in a token item. */
    holderOwner: tokens.filters[ownerParam]!.split(".").pop()!,
    /** A holder row's balance field: the field the totals state a mint's sum in. */
    holderBalance: totals.sums.sum.field,
    holders,
    delegated,
  };
}

type Facts = NonNullable<ReturnType<typeof tokenMethods>>;

interface DelegateWalk {
  readonly delegate: string;
  readonly listing: Listing;
  /** Mint → unspent accounts of it delegated to `delegate`. */
  readonly mints: Map<string, number>;
}

/** The first of up to MAX_TRIES delegates (most seen first) with more than a page of accounts, every one naming it as delegate. */
async function delegateWithManyAccounts(target: Target, facts: Facts, seen: Map<string, number>): Promise<DelegateWalk | null> {
  const m = facts.delegated;
  if (!m?.pagination) return null;
  const param = m.requiredParams[0]!;
  const path = m.filters[param]!;
  const page = m.pagination.defaultLimit ?? Infinity;
  const candidates = [...seen.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [delegate] of candidates.slice(0, MAX_TRIES)) {
    const listing = await list(target, m, { [param]: delegate });
    if (listing.looped || listing.items.length <= page || !listing.items.every((t) => getPath(t, path) === delegate)) continue;
    const mints = new Map<string, number>();
    for (const t of listing.items) {
      const mint = getPath(t, facts.mintPath);
      if (isPubkey(mint)) mints.set(mint, (mints.get(mint) ?? 0) + 1);
    }
    return { delegate, listing, mints };
  }
  return null;
}

/**
 * The first of up to MAX_TRIES mints with more than a page of holders, each row an owner pubkey and
 * a u64 balance, in balance-descending order across pages. On a complete walk: the count, the
 * holders at balance 0 and the top holder.
 */
async function mintWithManyHolders(target: Target, facts: Facts, candidates: readonly string[]): Promise<Record<string, Json> | null> {
  const m = facts.holders;
  if (!m?.pagination) return null;
  const page = m.pagination.defaultLimit ?? Infinity;
  for (const mint of candidates.slice(0, MAX_TRIES)) {
    const listing = await list(target, m, { [m.requiredParams[0]!]: mint });
    const rows = listing.items.map((h) => ({ owner: h[facts.holderOwner], balance: u64(h[facts.holderBalance]) }));
    if (listing.looped || rows.length <= page || !rows.every((r) => isPubkey(r.owner) && r.balance !== null)) continue;
    if (!rows.every((r, i) => i === 0 || rows[i - 1]!.balance! >= r.balance!)) continue;
    const found: Record<string, Json> = { mint };
    if (listing.complete) {
      found.holders = rows.length;
      found.zeroBalanceHolders = rows.filter((r) => r.balance === 0n).length;
      found.topHolder = { owner: rows[0]!.owner as string, balance: asJson(rows[0]!.balance!) };
    }
    return found;
  }
  return null;
}

/**
 * delegateWithManyAccounts, mintWithManyHolders and delegatedMint from the token accounts seen. The holders
 * mint is tried among the delegate's mints first; delegatedMint only when the delegate holds exactly two mints.
 */
export async function discoverTokenRoles(
  target: Target,
  table: MethodTable,
  seenDelegates: Map<string, number>,
  seenMints: Map<string, number>,
): Promise<Record<string, Json>> {
  const facts = tokenMethods(table);
  const out: Record<string, Json> = {};
  if (!facts) return out;
  const walk = await delegateWithManyAccounts(target, facts, seenDelegates);
  if (walk) {
    out.delegateWithManyAccounts = walk.listing.complete
      ? { delegate: walk.delegate, unspent: walk.listing.items.length, mints: walk.mints.size }
      : { delegate: walk.delegate };
  }
  const byCount = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
  const candidates = [...new Set([...(walk ? byCount(walk.mints) : []), ...byCount(seenMints)])];
  const holders = await mintWithManyHolders(target, facts, candidates);
  if (holders) out.mintWithManyHolders = holders;
  if (walk?.listing.complete && holders && walk.mints.size === 2 && walk.mints.has(holders.mint as string)) {
    const [mint, unspent] = [...walk.mints].find(([k]) => k !== holders.mint)!;
    out.delegatedMint = { delegate: walk.delegate, mint, unspent };
  }
  return out;
}

/** Light Protocol's TreeType code of a V1 state tree (spec TreeContextInfo: 1 V1 state, 2 V1 address, 3 V2 state, 4 V2 address). */
const STATE_V1 = 1;

/**
 * `merkleContexts.knownHash`: the merkle context a single lookup states for `hash`, checked against the
 * other single lookups; written only for a V1 state tree, as the cases read it (26 siblings).
 */
export async function discoverMerkleContext(target: Target, table: MethodTable, hashField: string, hash: string): Promise<Json | undefined> {
  const lookups = Object.values(table).filter((m) => m.lookup && m.lookup.items === null && !m.pagination);
  let context: { treeType: number; tree: string; queue: string } | undefined;
  const trees: unknown[] = [];
  for (const m of lookups) {
    const key = m.lookup!.by.find((k) => k.field === hashField);
    if (!key) continue;
    const exchange = await target.call(m.name, { [key.param]: hash });
    const value = isObject(exchange.body) ? pageOf(m, exchange.body.result) : undefined;
    if (!isObject(value) || getPath(value, key.field) !== hash) continue;
    const mc = value.merkleContext;
    if (isObject(mc)) {
      if (!Number.isInteger(mc.treeType) || !isPubkey(mc.tree) || !isPubkey(mc.queue)) return undefined;
      context = { treeType: mc.treeType as number, tree: mc.tree, queue: mc.queue };
    } else if (value.tree !== undefined) trees.push(value.tree);
  }
  if (!context || context.treeType !== STATE_V1 || !trees.every((t) => t === context!.tree)) return undefined;
  return context;
}
