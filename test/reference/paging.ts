/**
 * Paging helpers of the reference tests for any paginated method: walk every page through the
 * fixture's validating `call`, reading the items and cursor fields and the default page size
 * from the method table, and check the last-page rule on every page.
 */
import { expect } from "vitest";
import type { PaginatedMethodName, Params } from "../../generated/index.js";
import { methods } from "../../generated/methods.js";
import { call } from "./fixture.js";

/** The limits every walk uses: 1, 7 and the method's default (undefined: no limit param). */
export const LIMITS = [1, 7, undefined] as const;

/**
 * Every item of a paginated method, walking its cursors with `limit` (absent: the default).
 * On every page the cursor is null exactly when the page is shorter than the effective limit
 * (DECISIONS row 30), and a page never holds more than it.
 */
export function walkAll<M extends PaginatedMethodName>(method: M, params: Params<M>, limit?: number): { items: unknown[]; pages: number } {
  const paging = methods[method].pagination;
  if (!paging || paging.limit === null) throw new Error(`${method} is not paginated with a limit`);
  const limitParam = paging.limit;
  const effective = limit ?? paging.defaultLimit ?? Number.POSITIVE_INFINITY;
  const items: unknown[] = [];
  let cursor: string | null = null;
  for (let pages = 1; pages < 50_000; pages++) {
    const p = { ...params, ...(limit === undefined ? {} : { [limitParam]: limit }), ...(cursor === null ? {} : { [paging.cursor]: cursor }) } as Params<M>;
    const value = (call(method, p) as { value: Record<string, unknown> }).value;
    const page = value[paging.items] as unknown[];
    expect(page.length).toBeLessThanOrEqual(effective);
    cursor = value[paging.cursor] as string | null;
    expect(cursor === null, `${method} page ${pages}: cursor null exactly on a short page`).toBe(page.length < effective);
    items.push(...page);
    if (cursor === null) return { items, pages };
  }
  throw new Error(`${method}: pagination did not end`);
}

/** Walks with limits 1, 7 and the default and expects each walk to give exactly `expected`. */
export function expectWalks<M extends PaginatedMethodName>(method: M, params: Params<M>, expected: readonly unknown[]): void {
  for (const limit of LIMITS) expect(walkAll(method, params, limit).items, `${method} with limit ${limit ?? "default"}`).toEqual(expected);
}
