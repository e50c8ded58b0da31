/**
 * conformance/checks/pagination.ts: the order check reads `base58-bytes` keys as the bytes they
 * stand for (conformance/checks/base58-order.ts, tested beside it), repeats and order across pages.
 */
import { describe, expect, it } from "vitest";
import { base58Bytes } from "../../../conformance/checks/base58-order.js";
import type { CheckContext } from "../../../conformance/checks/check.js";
import { firstOutOfOrder, paginationCheck } from "../../../conformance/checks/pagination.js";
import type { Finding } from "../../../conformance/results.js";
import { encodeBase58 } from "../../../runtime/index.js";
import { caseOf, contextOf, exchangeOf } from "../../helpers/check-context.js";
import { bytesFrom } from "../../helpers/bytes.js";

describe("base58-bytes order", () => {
  it("orders pubkeys by their bytes, not their text", () => {
    const low = encodeBase58(new Uint8Array(32).fill(1));
    const high = encodeBase58(new Uint8Array(32).fill(200));
    const zeroLed = encodeBase58(Uint8Array.of(0, ...new Uint8Array(31).fill(255)));
    const order = [{ field: "k", direction: "asc", compare: "base58-bytes" }] as const;
    expect(firstOutOfOrder([{ k: zeroLed }, { k: low }, { k: high }], order)).toBe(-1);
    expect(firstOutOfOrder([{ k: low }, { k: zeroLed }], order)).toBe(1);
    expect(firstOutOfOrder([{ k: high }, { k: low }], [{ field: "k", direction: "desc", compare: "base58-bytes" }])).toBe(-1);
  });
});

describe("pagination check: repeats and order", () => {
  const hash = (n: number) => encodeBase58(bytesFrom(n + 1, 32));
  const item = (leafIndex: number, n = leafIndex) => ({ hash: hash(n), leafIndex, owner: "11111111111111111111111111111111" });
  /** A target serving `pages` by cursor (the cursor is the next page's index). */
  const contextFor = (first: unknown[], pages: unknown[][], paginate = "[1]") => {
    const c = caseOf(
      "method: getCompressedAccountsByOwner",
      "params: { owner: '11111111111111111111111111111111', limit: 2 }",
      `expect: { paginate: ${paginate} }`,
    );
    const answer = (items: unknown[], next: number | null) => ({ context: { slot: 1 }, value: { items, cursor: next === null ? null : String(next) } });
    // The case's own answer is the target's first page when `first` is it (its cursor then leads on, as the target's would).
    const ctx = contextOf(c, exchangeOf({ json: { jsonrpc: "2.0", id: 1, result: answer(first, first === pages[0] && pages.length > 1 ? 1 : null) } }));
    const flat = pages.flat();
    const call = async (_method: string, params: Record<string, unknown>) => {
      const limit = Number(params.limit);
      const at = params.cursor === undefined ? 0 : Number(params.cursor);
      const src = limit === 2 ? pages : flat.map((i) => [i]);
      const next = at + 1 < src.length ? at + 1 : null;
      return exchangeOf({ json: { jsonrpc: "2.0", id: 1, result: answer(src[at]!, next) } });
    };
    return { ...ctx, target: { ...ctx.target, call } } as CheckContext;
  };
  const messages = async (ctx: CheckContext) => ((await paginationCheck.run(ctx)) as Finding[]).filter((f) => f.status === "fail").map((f) => f.message);

  it("passes ordered, distinct pages and walks", async () => {
    const pages = [[item(1), item(2)], [item(3), item(4)], [item(5)]];
    expect(await messages(contextFor(pages[0]!, pages))).toEqual([]);
  });

  it("takes the case's own answer as the first page of the walk at its size, asking only for the pages after it", async () => {
    const pages = [[item(1), item(2)], [item(3), item(4)], [item(5)]];
    const ctx = contextFor(pages[0]!, pages);
    const asked: string[] = [];
    const counted = {
      ...ctx,
      target: { ...ctx.target, call: (m: string, p: Record<string, unknown>) => (asked.push(`${p.limit}@${p.cursor ?? "start"}`), ctx.target.call(m, p)) },
    } as CheckContext;
    expect(await messages(counted)).toEqual([]);
    expect(asked).toEqual(["2@1", "2@2", "1@start", "1@1", "1@2", "1@3", "1@4"]);
  });

  it("asks for the first page itself where the case's request is not that page's (a cursor given)", async () => {
    const pages = [
      [item(1), item(2)],
      [item(3), item(4)],
    ];
    const base = contextFor(pages[1]!, pages, "[]");
    const c = caseOf(
      "method: getCompressedAccountsByOwner",
      "params: { owner: '11111111111111111111111111111111', limit: 2, cursor: '1' }",
      "expect: { paginate: [2] }",
    );
    const asked: string[] = [];
    const ctx = {
      ...base,
      testCase: c,
      target: { ...base.target, call: (m: string, p: Record<string, unknown>) => (asked.push(`${p.limit}@${p.cursor ?? "start"}`), base.target.call(m, p)) },
    } as CheckContext;
    expect(await messages(ctx)).toEqual([]);
    expect(asked).toEqual(["2@start", "2@1", "2@start", "2@1"]);
  });

  it("reports a page's repeated item only where its order breaks, as before", async () => {
    const page = [item(1), item(2), item(1)];
    const got = await messages(contextFor(page, [[item(1), item(2)]], "[]"));
    expect(got).toEqual([
      "page holds more items than limit",
      "item 2 repeats an earlier item of the page",
      "item 2 is out of the documented order (leafIndex asc, hash asc)",
    ]);
  });

  it("finds an item repeated across pages before the order broke, and the break", async () => {
    const pages = [
      [item(1), item(2)],
      [item(3), item(1)],
      [item(4), item(2)],
    ];
    const got = await messages(contextFor(pages[0]!, pages, "[2]"));
    // Out of order within its page (wrong whatever the slot), repeated across pages (judged at one slot: here every page's).
    expect(got).toEqual([
      "walk at 2 size: item 3 is out of the documented order within its page (leafIndex asc, hash asc)",
      "walk at 2 size: item 3 appears twice across pages",
    ]);
  });

  it("finds the order broken between two pages (judged at one slot: here every page's)", async () => {
    const pages = [
      [item(3), item(4)],
      [item(1), item(2)],
    ];
    expect(await messages(contextFor(pages[0]!, pages, "[2]"))).toEqual(["across pages, item 2 is out of the documented order (leafIndex asc, hash asc)"]);
  });

  it("compares each later walk with the first item by item: a changed, missing or extra item is reported with counts", async () => {
    const pages = [[item(1), item(2)], [item(3), item(4)], [item(5)]];
    const base = contextFor(pages[0]!, pages);
    const call = base.target.call;
    const walkWith = (edit: (items: unknown[]) => unknown[]) =>
      ({
        ...base,
        target: {
          ...base.target,
          call: async (method: string, params: Record<string, unknown>) => {
            if (Number(params.limit) === 2) return call(method, params);
            // The limit-1 walk: the same items, edited, one a page.
            const all = edit(pages.flat());
            const at = params.cursor === undefined ? 0 : Number(params.cursor);
            const next = at + 1 < all.length ? String(at + 1) : null;
            return exchangeOf({ json: { jsonrpc: "2.0", id: 1, result: { context: { slot: 1 }, value: { items: [all[at]], cursor: next } } } });
          },
        },
      }) as CheckContext;
    expect(await messages(walkWith((all) => all))).toEqual([]);
    // Key order alone is another JSON text: reported, as comparing texts always did.
    const reordered = (all: unknown[]) => all.map((x, i) => (i === 2 ? Object.fromEntries(Object.entries(x as object).reverse()) : x));
    expect(await messages(walkWith(reordered))).toEqual([
      "walking with limit 1 gives other items than one walk at 2: first difference at item 2, 1 missing, 1 extra or repeated",
    ]);
    const changed = (all: unknown[]) => all.map((x, i) => (i === 3 ? { ...(x as object), leafIndex: 40 } : x));
    expect(await messages(walkWith(changed))).toEqual([
      "walking with limit 1 gives other items than one walk at 2: first difference at item 3, 1 missing, 1 extra or repeated",
    ]);
    expect(await messages(walkWith((all) => all.slice(0, 4)))).toEqual([
      "walking with limit 1 gives other items than one walk at 2: first difference at item 4, 1 missing, 0 extra or repeated",
    ]);
    expect(await messages(walkWith((all) => [...all, all[0]]))).toEqual([
      "walking with limit 1 gives other items than one walk at 2: first difference at item 5, 0 missing, 1 extra or repeated",
    ]);
  });

  it("orders equal leaf indexes by their hash bytes", async () => {
    const [a, b] = [item(7, 1), item(7, 2)];
    const bytesA = base58Bytes(a.hash);
    const bytesB = base58Bytes(b.hash);
    const aFirst = Buffer.compare(Buffer.from(bytesA), Buffer.from(bytesB)) < 0;
    const pages = [aFirst ? [a, b] : [b, a]];
    expect(await messages(contextFor(pages[0]!, pages, "[]"))).toEqual([]);
    const reversed = [aFirst ? [b, a] : [a, b]];
    expect(await messages(contextFor(reversed[0]!, reversed, "[]"))).toEqual(["item 1 is out of the documented order (leafIndex asc, hash asc)"]);
  });
});
