/**
 * pagination, driven by the method table only: each page keeps its `limit`, has no duplicates and
 * the documented order. With `expect.paginate` the cursor is walked to a null cursor at the case's
 * size and each listed size, and every walk must yield the same items in the same order. What spans
 * pages is judged only when every page stated one slot (same-slot.ts); each walk is bounded by WALK_BOUNDS.
 */
import { isObject, stringifyJson, type MethodInfo, type OrderKey, type PaginationInfo } from "@photon-indexer-kit/runtime";
import { fail, pass, type Exchange, type Finding } from "../results.js";
import { atOneSlot, CHANGED, resultOf, unanswered, type Judged, type Try } from "../same-slot.js";
import { methodInfo } from "../spec-facts.js";
import { expectsResult, show, type Check } from "./check.js";
import { sameJson } from "./same-json.js";
import { describeOrder, firstDuplicate, firstOutOfOrder, orderWatch, pageOf, walk, WALK_BOUNDS } from "./walk.js";

export { firstOutOfOrder, walk, WALK_BOUNDS, type Walk } from "./walk.js";

const P = "pagination";

interface Found {
  at: number;
  item: string;
}

/**
 * What a walk learns page by page: the first repeated and the first out-of-order item, within a page
 * (always wrong) and across pages (judged at one slot). Items are written as JSON only once the order
 * breaks, or from the start where no order is documented.
 */
function tracker(order: readonly OrderKey[] | null) {
  const items: unknown[] = [];
  const pageOfItem: number[] = [];
  let page = -1;
  /** Each item's JSON text → the page it first came on. */
  let seen: Map<string, number> | null = order ? null : new Map();
  const watch = order ? orderWatch(order) : null;
  const within = { duplicate: null as Found | null, disorder: null as Found | null };
  const across = { duplicate: null as Found | null, disorder: null as Found | null };
  const keep = (item: unknown, index: number, opens: boolean): unknown => {
    if (opens) page++;
    items.push(item);
    pageOfItem.push(page);
    if (watch && !watch.accept(item)) {
      const found = opens ? across : within;
      found.disorder ??= { at: index, item: show(item) };
      if (seen === null) {
        seen = new Map();
        for (let i = 0; i < items.length - 1; i++) {
          const text = stringifyJson(items[i]);
          if (!seen.has(text)) seen.set(text, pageOfItem[i]!);
        }
      }
    }
    if (seen !== null) {
      const text = stringifyJson(item);
      const first = seen.get(text);
      if (first === undefined) seen.set(text, page);
      else (first === page ? within : across).duplicate ??= { at: index, item: show(item) };
    }
    return item;
  };
  return { keep, within, across };
}

/** The findings about the case's own page: its limit, its order, no repeat within it. */
function ownPage(p: PaginationInfo, items: readonly unknown[], limit: unknown): Finding[] {
  const findings: Finding[] = [];
  if (typeof limit === "number" || typeof limit === "bigint") {
    findings.push(
      items.length <= Number(limit) ? pass(P, `page within limit ${limit}`) : fail(P, "page holds more items than limit", `<= ${limit}`, String(items.length)),
    );
  }
  // Strictly ordered items are distinct (equal items have equal keys): only a page out of order is searched for repeats.
  const bad = p.order ? firstOutOfOrder(items, p.order) : -1;
  const dup = p.order && bad < 0 ? -1 : firstDuplicate(items);
  if (dup >= 0) findings.push(fail(P, `item ${dup} repeats an earlier item of the page`, undefined, show(items[dup])));
  if (p.order) {
    findings.push(
      bad < 0
        ? pass(P, `page ordered by ${describeOrder(p.order)}`)
        : fail(P, `item ${bad} is out of the documented order (${describeOrder(p.order)})`, undefined, show(items[bad])),
    );
  }
  return findings;
}

/** A later walk's keep: each item compared with the one at its place in the first walk, and with the one before it on its page. */
function laterKeep(first: readonly unknown[], order: readonly OrderKey[] | null) {
  const watch = order ? orderWatch(order) : null;
  let page = 0;
  let texts = new Set<string>();
  const fault = { found: null as (Found & { page: number; why: string }) | null };
  const keep = (item: unknown, i: number, opens: boolean): true | string => {
    if (opens) {
      page++;
      watch?.restart();
      texts = new Set();
    }
    if (fault.found === null) {
      if (watch && !watch.accept(item)) fault.found = { at: i, page, item: show(item), why: `is out of the documented order (${describeOrder(order!)})` };
      else if (!watch) {
        const text = stringifyJson(item);
        if (texts.has(text)) fault.found = { at: i, page, item: show(item), why: "repeats an earlier item of its page" };
        texts.add(text);
      }
    }
    return i < first.length && sameJson(item, first[i]) ? true : stringifyJson(item);
  };
  return { keep, fault };
}

/** The walks of one try: at the case's size (its own answer as the first page where that is its request), then at each listed size. */
async function walks(t: Try, info: MethodInfo, params: Record<string, unknown>, baseSize: number | null, own: boolean): Promise<Judged | typeof CHANGED> {
  const p = info.pagination!;
  const ctx = t.ctx;
  const each: Finding[] = [];
  const across: Finding[] = [];
  let first: Exchange | undefined;
  if (own) {
    first = await t.own();
    if (!resultOf(first)) return CHANGED;
  }
  const { keep, within, across: crossed } = tracker(p.order);
  const full = await walk(ctx, p, info, params, baseSize, WALK_BOUNDS.pages, keep, first);
  if (full.problem) return unanswered(fail(P, `walking at ${baseSize ?? "the default"} page size: ${full.problem}`), full.errorAnswer);
  const size = `walk at ${baseSize ?? "default"} size`;
  if (within.duplicate) each.push(fail(P, `${size}: item ${within.duplicate.at} repeats an earlier item of its page`, undefined, within.duplicate.item));
  if (within.disorder)
    each.push(
      fail(
        P,
        `${size}: item ${within.disorder.at} is out of the documented order within its page (${describeOrder(p.order!)})`,
        undefined,
        within.disorder.item,
      ),
    );
  if (crossed.duplicate) across.push(fail(P, `${size}: item ${crossed.duplicate.at} appears twice across pages`, undefined, crossed.duplicate.item));
  if (crossed.disorder)
    across.push(
      fail(P, `across pages, item ${crossed.disorder.at} is out of the documented order (${describeOrder(p.order!)})`, undefined, crossed.disorder.item),
    );
  const fullItems = full.items;
  for (const limit of t.ctx.testCase.expect.paginate) {
    const later = laterKeep(fullItems, p.order);
    const w = await walk(ctx, p, info, params, limit, WALK_BOUNDS.pages, later.keep);
    const f = later.fault.found;
    // One fault within a page is reported once: the first walk's, else the first later walk's.
    if (f && each.length === 0) each.push(fail(P, `walking with limit ${limit}: page ${f.page}: item ${f.at} of the walk ${f.why}`, undefined, f.item));
    if (w.problem) {
      (w.errorAnswer ? across : each).push(fail(P, `walking with limit ${limit}: ${w.problem}`));
      continue;
    }
    if (w.items.length === fullItems.length && w.items.every((k) => k === true)) {
      across.push(pass(P, `limit ${limit}: ${w.pages} pages, same ${w.items.length} items`));
      continue;
    }
    const fullKeys = fullItems.map((i) => stringifyJson(i));
    const keys = w.items.map((k, i) => (k === true ? fullKeys[i]! : k));
    const at = keys.findIndex((k, i) => k !== fullKeys[i]);
    const got = new Set(keys);
    const missing = fullKeys.filter((k) => !got.has(k)).length;
    const extra = keys.length - (fullKeys.length - missing);
    across.push(
      fail(
        P,
        `walking with limit ${limit} gives other items than one walk at ${baseSize ?? "the default size"}: first difference at item ${at >= 0 ? at : Math.min(keys.length, fullKeys.length)}, ${missing} missing, ${extra} extra or repeated`,
        `${fullKeys.length} items`,
        `${keys.length} items over ${w.pages} pages`,
      ),
    );
  }
  return { each, across };
}

export const paginationCheck: Check = {
  name: P,
  applies: (c, methods) => expectsResult(c) && !!methodInfo(c.method, methods)?.pagination,
  async run(ctx) {
    const info = methodInfo(ctx.testCase.method, ctx.methods)!;
    const p = info.pagination!;
    const body = ctx.exchange.body;
    if (!isObject(body) || !("result" in body)) return [];
    const page = pageOf(info, body.result);
    const items = page?.[p.items];
    if (!Array.isArray(items)) return [fail(P, `the page has no \`${p.items}\` list`)];
    const params = isObject(ctx.testCase.params) ? (ctx.testCase.params as Record<string, unknown>) : {};
    const limit = p.limit ? params[p.limit] : undefined;
    const findings = ownPage(p, items, limit);
    const sizes = ctx.testCase.expect.paginate;
    if (sizes.length === 0) return findings;
    const baseSize = typeof limit === "number" ? limit : null;
    // The case's own request is the first walk's first (its params, no cursor, its limit): its answer is the first page, not asked twice.
    const own = !ctx.testCase.http && ctx.testCase.method === info.name && isObject(ctx.testCase.params) && !Object.hasOwn(params, p.cursor);
    const what = `the walks of ${info.name} at page sizes ${[baseSize ?? "default", ...sizes].join(", ")}`;
    return [...findings, ...(await atOneSlot(ctx, P, what, (t) => walks(t, info, params, baseSize, own)))];
  },
};
