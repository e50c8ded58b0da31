/**
 * Cursor walks, driven by the method table only (no method names): the pages of one list from
 * the first until the cursor is null, within fixed bounds (WALK_BOUNDS: pages, items and bytes of
 * pages; a repeated cursor or an empty page that carries a cursor ends the walk), and the
 * documented order of items. Every bound is fixed, never taken from another walk: a list that
 * grows while it is walked still ends within them.
 */
import { isObject, stringifyJson, type MethodInfo, type OrderKey, type PaginationInfo } from "@photon-indexer-kit/runtime";
import { getPath } from "../matchers.js";
import type { Exchange } from "../results.js";
import { pageOf as pageOfResult } from "../spec-facts.js";
import { base58Rank, compareRankedBase58 } from "./base58-order.js";
import { show, type CheckContext } from "./check.js";

/** The most one cursor walk may take (README, Safety). */
export const WALK_BOUNDS = {
  /** Pages requested. */
  pages: 5000,
  /** Items received, over all pages. */
  items: 100_000,
  /** Characters of the pages received (their bodies as sent), over all pages. */
  bytes: 64 * 1024 * 1024,
} as const;

export function pageOf(info: MethodInfo, result: unknown): Record<string, unknown> | null {
  const page = pageOfResult(info, result);
  return isObject(page) ? page : null;
}

/**
 * An item with its order keys as comparable values, each read once and only when a comparison
 * needs it. A walk compares every item with the one before it, so two rows are reused in turn
 * (`take` the next item into the spare row; the rows change places once it is compared) rather than one allocated per item.
 */
class Keyed {
  item: unknown = undefined;
  readonly keys: unknown[];
  /** Each base58 key's `base58Rank`, read with the key. */
  readonly ranks: number[];
  constructor(size: number) {
    this.keys = new Array<unknown>(size).fill(undefined);
    this.ranks = new Array<number>(size).fill(-1);
  }
  /** This row now holds `item`, its keys not yet read (cleared in place: truncating would drop the array's storage). */
  take(item: unknown): this {
    this.item = item;
    this.keys.fill(undefined);
    return this;
  }
}

/**
 * The item's `i`th order key as compared: an integer (a number or a bigint: `<` compares the two
 * kinds exactly) or text (base58 text is compared as the bytes it stands for). A value that is no
 * integer where one is documented throws, as `BigInt` does, and the check says it could not run.
 */
function keyAt(k: Keyed, i: number, key: OrderKey): unknown {
  let v = k.keys[i];
  if (v === undefined) {
    const raw = getPath(k.item, key.field);
    v = k.keys[i] =
      key.compare === "integer" ? (typeof raw === "bigint" || (typeof raw === "number" && Number.isInteger(raw)) ? raw : BigInt(raw as number)) : String(raw);
    if (key.compare === "base58-bytes") k.ranks[i] = base58Rank(v as string);
  }
  return v;
}

function compareKey(a: Keyed, b: Keyed, i: number, key: OrderKey): number {
  const x = keyAt(a, i, key);
  const y = keyAt(b, i, key);
  const c =
    key.compare === "base58-bytes"
      ? compareRankedBase58(x as string, a.ranks[i]!, y as string, b.ranks[i]!)
      : (x as string | number | bigint) < (y as string | number | bigint)
        ? -1
        : (x as string | number | bigint) > (y as string | number | bigint)
          ? 1
          : 0;
  return key.direction === "asc" ? c : -c;
}

/** Whether `next` may follow `prev` in the documented order (strictly after it on the keys). */
function follows(prev: Keyed, next: Keyed, order: readonly OrderKey[]): boolean {
  for (let i = 0; i < order.length; i++) {
    const c = compareKey(prev, next, i, order[i]!);
    if (c < 0) return true;
    if (c > 0) return false;
  }
  return false; // equal on every key: not strictly ordered
}

/** Compares each item with the one before it: `accept(item)` is false where it does not follow it. `restart()` forgets the one before. */
export function orderWatch(order: readonly OrderKey[]): { accept(item: unknown): boolean; restart(): void } {
  let prev: Keyed | null = null;
  let spare = new Keyed(order.length);
  return {
    accept(item) {
      const next = spare.take(item);
      const ok = prev === null || follows(prev, next, order);
      spare = prev ?? new Keyed(order.length);
      prev = next;
      return ok;
    },
    restart() {
      if (prev !== null) spare = prev;
      prev = null;
    },
  };
}

/** Index of the first item out of the documented order, or -1. */
export function firstOutOfOrder(items: readonly unknown[], order: readonly OrderKey[]): number {
  const { accept } = orderWatch(order);
  for (let i = 0; i < items.length; i++) if (!accept(items[i])) return i;
  return -1;
}

export function describeOrder(order: readonly OrderKey[]): string {
  return order.map((k) => `${k.field} ${k.direction}`).join(", ");
}

/** Index of the first item equal to an earlier one (as JSON text), or -1. */
export function firstDuplicate(items: readonly unknown[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const key = stringifyJson(items[i]);
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

const MiB = 1024 * 1024;
const formatBytes = (n: number) => (n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`);

export interface Walk<T = unknown> {
  /** What `keep` returned for each item, in walk order (the items themselves by default). */
  readonly items: T[];
  readonly pages: number;
  readonly problem: string | null;
  /**
   * The problem is a JSON-RPC error answer to a page: right or wrong only at the slot it was read
   * at (a relation judges it with the walk's other answers). Every other problem is wrong whatever the slot.
   */
  readonly errorAnswer?: true;
}

/**
 * Walks the cursor from the first page at `size` (null: the server's default) to a null cursor, at most
 * `bound` pages. `keep` decides what is retained of each item; `first` is the answer already received to the first page.
 */
export async function walk<T = unknown>(
  ctx: CheckContext,
  p: PaginationInfo,
  info: MethodInfo,
  params: Record<string, unknown>,
  size: number | null,
  bound: number,
  keep: (item: unknown, index: number, opens: boolean) => T = (item) => item as T,
  first?: Exchange,
): Promise<Walk<T>> {
  const items: T[] = [];
  const cursors = new Set<string>();
  const maxPages = Math.min(bound, WALK_BOUNDS.pages);
  let bytes = 0;
  let cursor: unknown = null;
  for (let pages = 0; pages < maxPages; pages++) {
    const call: Record<string, unknown> = { ...params };
    delete call[p.cursor];
    if (cursor !== null) call[p.cursor] = cursor;
    if (size !== null && p.limit) call[p.limit] = size;
    const exchange = pages === 0 && first ? first : await ctx.target.call(info.name, call);
    const body = exchange.body;
    if (exchange.error || !isObject(body) || !("result" in body)) {
      const answered = !exchange.error && isObject(body) && isObject(body.error);
      const why = exchange.error ?? (answered ? `error ${show(body.error)}` : `HTTP ${exchange.status}`);
      return { items, pages, problem: `page ${pages + 1} failed: ${why}`, ...(answered ? { errorAnswer: true as const } : {}) };
    }
    const page = pageOf(info, body.result);
    const list = page?.[p.items];
    if (!page || !Array.isArray(list)) return { items, pages, problem: `page ${pages + 1} has no \`${p.items}\` list` };
    if (size !== null && list.length > size) return { items, pages, problem: `page ${pages + 1} holds ${list.length} items, over limit ${size}` };
    if (items.length + list.length > WALK_BOUNDS.items) {
      return { items, pages, problem: `page ${pages + 1} passes the bound of ${WALK_BOUNDS.items} items per walk: the walk was stopped` };
    }
    // The body's own length where the target told it; otherwise (an exchange built elsewhere) the page's JSON.
    bytes += exchange.bytes ?? stringifyJson(page).length;
    if (bytes > WALK_BOUNDS.bytes)
      return { items, pages, problem: `page ${pages + 1} passes the bound of ${formatBytes(WALK_BOUNDS.bytes)} of pages per walk: the walk was stopped` };
    for (let i = 0; i < list.length; i++) items.push(keep(list[i], items.length, i === 0));
    const next = page[p.cursor];
    if (next === null || next === undefined) return { items, pages: pages + 1, problem: null };
    const key = typeof next === "string" ? next : stringifyJson(next);
    if (cursors.has(key)) return { items, pages, problem: `cursor ${show(key, 100)} repeated on page ${pages + 1}: the walk would never end` };
    cursors.add(key);
    if (list.length === 0) return { items, pages, problem: `page ${pages + 1} is empty but carries cursor ${show(key, 100)}` };
    cursor = next;
  }
  const which = maxPages === WALK_BOUNDS.pages ? `the bound of ${WALK_BOUNDS.pages} pages per walk` : `${maxPages} pages`;
  return { items, pages: maxPages, problem: `the cursor did not reach null within ${which}` };
}
