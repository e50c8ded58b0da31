/**
 * pagination: driven by the method table only (no method names). On the case's own page:
 * no more items than `limit`, no duplicates, the documented order. With `expect.paginate`:
 * walk the cursor to the end at the case's page size and at each listed size, and require
 * every walk to yield exactly the same items in the same order, ending with a null cursor
 * (a full last page then an empty page is allowed).
 *
 * A walk is bounded (WALK_BOUNDS: pages, items and bytes of pages; a repeated cursor fails).
 * The walk at the case's size keeps its items (the bounds cap what it holds); duplicates and the
 * order are checked as the pages arrive, and each later walk's items are compared with them as
 * JSON (`sameJson`: the same as comparing their texts), written out only to report a difference.
 * Passing a bound is a failing finding naming it.
 */
import { isObject, stringifyJson, type MethodInfo, type OrderKey, type PaginationInfo } from "@photon-indexer-kit/runtime";
import { getPath } from "../matchers.js";
import { fail, pass, type Exchange, type Finding } from "../model.js";
import { methodInfo, pageOf as pageOfResult } from "../spec-facts.js";
import { base58Rank, compareRankedBase58 } from "./base58-order.js";
import { expectsResult, show, type Check, type CheckContext } from "./check.js";
import { sameJson } from "./same-json.js";

/** The most one cursor walk may take (README, Safety). */
export const WALK_BOUNDS = {
  /** Pages requested. */
  pages: 5000,
  /** Items received, over all pages. */
  items: 100_000,
  /** Characters of the pages received (their bodies as sent), over all pages. */
  bytes: 64 * 1024 * 1024,
} as const;

function pageOf(info: MethodInfo, result: unknown): Record<string, unknown> | null {
  const page = pageOfResult(info, result);
  return isObject(page) ? page : null;
}

/**
 * An item with its order keys as comparable values, each read once and only when a comparison
 * needs it. A walk compares every item with the one before it, so two rows are reused in turn
 * (`take` the next item into the spare row; the rows change places once it is accepted) rather than one allocated per item.
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

/** Compares each item with the one before it: `accept(item)` is false for the first out of order (which does not become the one before). */
function orderWatch(order: readonly OrderKey[]): (item: unknown) => boolean {
  let prev: Keyed | null = null;
  let spare = new Keyed(order.length);
  return (item) => {
    const next = spare.take(item);
    if (prev !== null && !follows(prev, next, order)) return false;
    spare = prev ?? new Keyed(order.length);
    prev = next;
    return true;
  };
}

/** Index of the first item out of the documented order, or -1. */
export function firstOutOfOrder(items: readonly unknown[], order: readonly OrderKey[]): number {
  const accept = orderWatch(order);
  for (let i = 0; i < items.length; i++) if (!accept(items[i])) return i;
  return -1;
}

function describeOrder(order: readonly OrderKey[]): string {
  return order.map((k) => `${k.field} ${k.direction}`).join(", ");
}

/** Index of the first key equal to an earlier one, or -1. */
function firstDuplicateKey(keys: readonly string[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < keys.length; i++) {
    if (seen.has(keys[i]!)) return i;
    seen.add(keys[i]!);
  }
  return -1;
}

function firstDuplicate(items: readonly unknown[]): number {
  return firstDuplicateKey(items.map((i) => stringifyJson(i)));
}

const MiB = 1024 * 1024;
const formatBytes = (n: number) => (n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`);

export interface Walk<T = unknown> {
  /** What `keep` returned for each item, in walk order (the items themselves by default). */
  readonly items: T[];
  readonly pages: number;
  readonly problem: string | null;
}

/**
 * Walks the cursor from the first page at `size` (null: the server's default) until it is
 * null, at most `bound` pages (and never past WALK_BOUNDS). `keep(item, index)` decides what is
 * retained of each item (the item itself by default; keep less for long walks). `first`: the
 * answer already received to exactly the first page's request (the case's own), used as that page.
 */
export async function walk<T = unknown>(
  ctx: CheckContext,
  p: PaginationInfo,
  info: MethodInfo,
  params: Record<string, unknown>,
  size: number | null,
  bound: number,
  keep: (item: unknown, index: number) => T = (item) => item as T,
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
      const why = exchange.error ?? (isObject(body) && body.error ? `error ${show(body.error)}` : `HTTP ${exchange.status}`);
      return { items, pages, problem: `page ${pages + 1} failed: ${why}` };
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
    for (const item of list) items.push(keep(item, items.length));
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

/**
 * What a walk learns as its items go by: the first repeated item and the first one out of order;
 * it keeps the items themselves (to be compared with later walks without writing them). While the
 * items are strictly in the documented order none can repeat an earlier one (equal items have
 * equal keys), so their JSON texts are written and looked up only once the order breaks, or
 * from the start where the method documents no order.
 */
function tracker(order: readonly OrderKey[] | null) {
  let seen: Set<string> | null = order ? null : new Set();
  const items: unknown[] = [];
  const accept = order ? orderWatch(order) : null;
  const found = { duplicate: null as { at: number; item: string } | null, disorder: null as { at: number; item: string } | null };
  const keep = (item: unknown, index: number): unknown => {
    items.push(item);
    if (seen === null) {
      if (accept!(item)) return item;
      found.disorder = { at: index, item: show(item) };
      seen = new Set(items.slice(0, -1).map((i) => stringifyJson(i)));
    }
    const key = stringifyJson(item);
    if (found.duplicate === null && seen.has(key)) found.duplicate = { at: index, item: show(item) };
    seen.add(key);
    return item;
  };
  return { keep, found };
}

export const paginationCheck: Check = {
  name: "pagination",
  applies: (c, methods) => expectsResult(c) && !!methodInfo(c.method, methods)?.pagination,
  async run(ctx) {
    const info = methodInfo(ctx.testCase.method, ctx.methods)!;
    const p = info.pagination!;
    const body = ctx.exchange.body;
    if (!isObject(body) || !("result" in body)) return [];
    const page = pageOf(info, body.result);
    const items = page?.[p.items];
    if (!Array.isArray(items)) return [fail("pagination", `the page has no \`${p.items}\` list`)];
    const params = isObject(ctx.testCase.params) ? (ctx.testCase.params as Record<string, unknown>) : {};
    const findings: Finding[] = [];
    const limit = p.limit ? params[p.limit] : undefined;
    if (typeof limit === "number" || typeof limit === "bigint") {
      findings.push(
        items.length <= Number(limit)
          ? pass("pagination", `page within limit ${limit}`)
          : fail("pagination", "page holds more items than limit", `<= ${limit}`, String(items.length)),
      );
    }
    // Strictly ordered items are distinct (equal items have equal keys): only a page out of order is searched for repeats.
    const bad = p.order ? firstOutOfOrder(items, p.order) : -1;
    const dup = p.order && bad < 0 ? -1 : firstDuplicate(items);
    if (dup >= 0) findings.push(fail("pagination", `item ${dup} repeats an earlier item of the page`, undefined, show(items[dup])));
    if (p.order) {
      findings.push(
        bad < 0
          ? pass("pagination", `page ordered by ${describeOrder(p.order)}`)
          : fail("pagination", `item ${bad} is out of the documented order (${describeOrder(p.order)})`, undefined, show(items[bad])),
      );
    }
    if (ctx.testCase.expect.paginate.length === 0) return findings;

    const baseSize = typeof limit === "number" ? limit : null;
    const { keep, found } = tracker(p.order);
    // The case's own request is this walk's first (its params, no cursor, its limit): its answer is the first page, not asked twice.
    const own = !ctx.testCase.http && ctx.testCase.method === info.name && isObject(ctx.testCase.params) && !Object.hasOwn(params, p.cursor);
    const full = await walk(ctx, p, info, params, baseSize, WALK_BOUNDS.pages, keep, own ? ctx.exchange : undefined);
    if (full.problem) return [...findings, fail("pagination", `walking at ${baseSize ?? "the default"} page size: ${full.problem}`)];
    const fullItems = full.items;
    if (found.duplicate)
      findings.push(
        fail("pagination", `walk at ${baseSize ?? "default"} size: item ${found.duplicate.at} appears twice across pages`, undefined, found.duplicate.item),
      );
    if (p.order && found.disorder) {
      findings.push(
        fail(
          "pagination",
          `across pages, item ${found.disorder.at} is out of the documented order (${describeOrder(p.order)})`,
          undefined,
          found.disorder.item,
        ),
      );
    }
    for (const size of ctx.testCase.expect.paginate) {
      const bound = Math.ceil(fullItems.length / size) + 2;
      // Each item is compared with the one at its place in the first walk; only one that differs is written out.
      const w = await walk(ctx, p, info, params, size, bound, (item, i): true | string =>
        i < fullItems.length && sameJson(item, fullItems[i]) ? true : stringifyJson(item),
      );
      if (w.problem) {
        findings.push(fail("pagination", `walking with limit ${size}: ${w.problem}`));
        continue;
      }
      if (w.items.length === fullItems.length && w.items.every((k) => k === true)) {
        findings.push(pass("pagination", `limit ${size}: ${w.pages} pages, same ${w.items.length} items`));
        continue;
      }
      const fullKeys = fullItems.map((i) => stringifyJson(i));
      const keys = w.items.map((k, i) => (k === true ? fullKeys[i]! : k));
      const at = keys.findIndex((k, i) => k !== fullKeys[i]);
      const got = new Set(keys);
      const missing = fullKeys.filter((k) => !got.has(k)).length;
      const extra = keys.length - (fullKeys.length - missing);
      findings.push(
        fail(
          "pagination",
          `walking with limit ${size} gives other items than one walk at ${baseSize ?? "the default size"}: first difference at item ${at >= 0 ? at : Math.min(keys.length, fullKeys.length)}, ${missing} missing, ${extra} extra or repeated`,
          `${fullKeys.length} items`,
          `${keys.length} items over ${w.pages} pages`,
        ),
      );
    }
    return findings;
  },
};
