/**
 * Checks a store list against the brute-force answer: the same rows in the oracle's order,
 * and every cursor position (`after`, `atOrAfter`, `indexOf`) as a count over the rows.
 */
import { expect } from "vitest";
import { methods } from "../../../generated/methods.js";
import type { MethodInfo, OrderKey } from "../../../runtime/index.js";
import type { Sorted } from "../../../reference/store.js";
import { oracle } from "./build.js";

/** A method's documented order from the table, or `fallback` while the table lacks the method (the spec bump adds it). */
export function tableOrder(method: string, fallback: readonly OrderKey[]): readonly OrderKey[] {
  return (methods as unknown as Record<string, MethodInfo | undefined>)[method]?.pagination?.order ?? fallback;
}

export const order = (...keys: [string, "asc" | "desc", OrderKey["compare"]][]): readonly OrderKey[] =>
  keys.map(([field, direction, compare]) => ({ field, direction, compare }));

/**
 * `list` holds exactly `expected` (the same rows, or rows of the same `identity`) in `keys` order; for every row and every extra probe,
 * `after` is the number of rows at or before it, `atOrAfter` the number strictly before it.
 */
export function expectSorted<T>(
  list: Sorted<T>,
  expected: readonly T[],
  keys: readonly OrderKey[],
  probes: readonly unknown[] = [],
  identity: (row: T) => unknown = (row) => row,
): void {
  const compare = oracle(keys);
  const want = [...expected].sort(compare);
  expect(list.length).toBe(want.length);
  // Same rows (by identity where the order has no ties; by order position otherwise).
  for (let i = 0; i < want.length; i++) expect(compare(list.rows[i], want[i])).toBe(0);
  const held = new Set(list.rows.map(identity));
  expect(want.every((r) => held.has(identity(r)))).toBe(true);
  for (const probe of [...want, ...probes]) {
    expect(list.after(probe as never)).toBe(want.filter((r) => compare(r, probe) <= 0).length);
    expect(list.atOrAfter(probe as never)).toBe(want.filter((r) => compare(r, probe) < 0).length);
  }
  list.rows.forEach((row, i) => expect(list.indexOf(row)).toBe(i));
}
