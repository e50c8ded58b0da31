/**
 * pagination: driven by the method table only (no method names). On the case's own page:
 * no more items than `limit`, no duplicates, the documented order. With `expect.paginate`:
 * walk the cursor to the end at the case's page size and at each listed size, and require
 * every walk to yield exactly the same items in the same order, ending with a null cursor
 * (a full last page then an empty page is allowed).
 *
 * A walk is bounded (WALK_BOUNDS: pages, items and bytes of items; a repeated cursor fails)
 * and keeps one digest per item, not the item: duplicates and the order are checked as the
 * pages arrive, and walks are compared by their digests. Passing a bound is a failing
 * finding naming it.
 */
import { createHash } from "node:crypto";
import { decodeBase58, isObject, stringifyJson, type MethodInfo, type OrderKey, type PaginationInfo } from "@photon-indexer-kit/runtime";
import { getPath } from "../matchers.js";
import { fail, pass, type Finding } from "../model.js";
import { methodInfo, pageOf as pageOfResult } from "../spec-facts.js";
import { expectsResult, show, type Check, type CheckContext } from "./check.js";

/** The most one cursor walk may take (README, Safety). */
export const WALK_BOUNDS = {
  /** Pages requested. */
  pages: 5000,
  /** Items received, over all pages. */
  items: 100_000,
  /** Bytes of the items received (their JSON), over all pages. */
  bytes: 64 * 1024 * 1024,
} as const;

function pageOf(info: MethodInfo, result: unknown): Record<string, unknown> | null {
  const page = pageOfResult(info, result);
  return isObject(page) ? page : null;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Decoded base58 by text, so that each value is decoded once, not once per comparison (kept small). */
const decoded = new Map<string, Uint8Array>();
function bytesOf(text: string): Uint8Array {
  let bytes = decoded.get(text);
  if (bytes === undefined) {
    if (decoded.size >= 4096) decoded.clear();
    decoded.set(text, (bytes = decodeBase58(text) ?? new Uint8Array()));
  }
  return bytes;
}

function compareKey(a: unknown, b: unknown, key: OrderKey): number {
  let c: number;
  if (key.compare === "integer") {
    const x = BigInt(a as number | bigint);
    const y = BigInt(b as number | bigint);
    c = x < y ? -1 : x > y ? 1 : 0;
  } else if (key.compare === "base58-bytes") {
    c = compareBytes(bytesOf(String(a)), bytesOf(String(b)));
  } else {
    c = String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  }
  return key.direction === "asc" ? c : -c;
}

/** Whether `next` may follow `prev` in the documented order (strictly after it on the keys). */
function follows(prev: unknown, next: unknown, order: readonly OrderKey[]): boolean {
  for (const key of order) {
    const c = compareKey(getPath(prev, key.field), getPath(next, key.field), key);
    if (c < 0) return true;
    if (c > 0) return false;
  }
  return false; // equal on every key: not strictly ordered
}

/** Index of the first item out of the documented order, or -1. */
export function firstOutOfOrder(items: readonly unknown[], order: readonly OrderKey[]): number {
  decoded.clear();
  for (let i = 1; i < items.length; i++) if (!follows(items[i - 1], items[i], order)) return i;
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

/** 128 bits of the item's SHA-256: what a walk keeps of an item to compare walks. */
function digest(json: string): string {
  return createHash("sha256").update(json).digest().toString("base64", 0, 16);
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
 * null, at most `bound` pages (and never past WALK_BOUNDS). `keep(item, json, index)` decides
 * what is retained of each item (the item itself by default; keep less for long walks).
 */
export async function walk<T = unknown>(
  ctx: CheckContext,
  p: PaginationInfo,
  info: MethodInfo,
  params: Record<string, unknown>,
  size: number | null,
  bound: number,
  keep: (item: unknown, json: string, index: number) => T = (item) => item as T,
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
    const exchange = await ctx.target.call(info.name, call);
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
    for (const item of list) {
      const json = stringifyJson(item);
      bytes += json.length;
      if (bytes > WALK_BOUNDS.bytes)
        return { items, pages, problem: `page ${pages + 1} passes the bound of ${formatBytes(WALK_BOUNDS.bytes)} of items per walk: the walk was stopped` };
      items.push(keep(item, json, items.length));
    }
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

/** What a walk learns as its items go by: a digest per item, the first repeated item and the first one out of order. */
function tracker(order: readonly OrderKey[] | null) {
  const seen = new Set<string>();
  let prev: unknown;
  const found = { duplicate: null as { at: number; item: string } | null, disorder: null as { at: number; item: string } | null };
  const keep = (item: unknown, json: string, index: number): string => {
    const key = digest(json);
    if (found.duplicate === null && seen.has(key)) found.duplicate = { at: index, item: show(item) };
    seen.add(key);
    if (order && index > 0 && found.disorder === null && !follows(prev, item, order)) found.disorder = { at: index, item: show(item) };
    prev = item;
    return key;
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
    const dup = firstDuplicate(items);
    if (dup >= 0) findings.push(fail("pagination", `item ${dup} repeats an earlier item of the page`, undefined, show(items[dup])));
    if (p.order) {
      const bad = firstOutOfOrder(items, p.order);
      findings.push(
        bad < 0
          ? pass("pagination", `page ordered by ${describeOrder(p.order)}`)
          : fail("pagination", `item ${bad} is out of the documented order (${describeOrder(p.order)})`, undefined, show(items[bad])),
      );
    }
    if (ctx.testCase.expect.paginate.length === 0) return findings;

    const baseSize = typeof limit === "number" ? limit : null;
    const { keep, found } = tracker(p.order);
    const full = await walk(ctx, p, info, params, baseSize, WALK_BOUNDS.pages, keep);
    if (full.problem) return [...findings, fail("pagination", `walking at ${baseSize ?? "the default"} page size: ${full.problem}`)];
    const fullKeys = full.items;
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
      const bound = Math.ceil(fullKeys.length / size) + 2;
      const w = await walk(ctx, p, info, params, size, bound, (_item, json) => digest(json));
      if (w.problem) {
        findings.push(fail("pagination", `walking with limit ${size}: ${w.problem}`));
        continue;
      }
      const keys = w.items;
      const at = keys.findIndex((k, i) => k !== fullKeys[i]);
      if (at >= 0 || keys.length !== fullKeys.length) {
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
      } else {
        findings.push(pass("pagination", `limit ${size}: ${w.pages} pages, same ${keys.length} items`));
      }
    }
    return findings;
  },
};
