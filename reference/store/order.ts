/**
 * Documented orders as comparators, and the sorted lists the store pages from.
 *
 * An order is a method's `pagination.order` from the generated method table (its
 * `x-pagination.order`): keys naming item paths (`tokenData.mint`, `slot`, …). The store's
 * rows carry their fields at those same paths (a token entry has `tokenData`; signature,
 * balance and holder rows have the item's fields), so a handler passes its method's order
 * and the store needs no method names. Base58 values compare as their bytes
 * (`compareBase58Numbers`: the values of one field have one byte length), integers as integers
 * (`number` or `bigint`, mixed freely).
 */
import { methods } from "../../generated/methods.js";
import { compareBase58Numbers, internalError, type MethodInfo, type OrderKey } from "@photon-indexer-kit/runtime";
import { RefErrorCode } from "../errors.js";

/** A documented order: a method's `pagination.order`. */
export type Order = readonly OrderKey[];

/**
 * A cursor position: a partial row holding (at least) the fields its order reads, at their
 * item paths, e.g. `{ slot: 5n, signature: "…" }` or `{ tokenData: { mint }, account: { hash } }`.
 * Integers may be `number` or `bigint`.
 */
export type Probe<T> = {
  readonly [K in keyof T]?: T[K] extends number | bigint ? number | bigint : T[K] extends object | null ? Probe<NonNullable<T[K]>> : T[K];
};

/**
 * The order for a method: its own `pagination.order`, else the one every paginated method with the
 * same item `identity` documents. Throws INTERNAL when there is none or they disagree.
 */
export function documentedOrder(facts: MethodInfo): Order {
  const own = facts.pagination?.order;
  if (own) return own;
  const identity = facts.identity;
  const shared = new Map<string, Order>();
  if (identity !== null) {
    for (const m of Object.values(methods) as MethodInfo[]) {
      const order = m.pagination?.order;
      if (m.identity === identity && order) shared.set(orderSignature(order), order);
    }
  }
  const [only, ...more] = shared.values();
  if (only === undefined || more.length > 0)
    throw internalError(
      RefErrorCode.INTERNAL,
      `${facts.name} has no documented order, and the lists of its items document ${shared.size === 0 ? "none" : "several"}`,
    );
  return only;
}

/** The first index in [lo, hi) at which `after(item)` holds, for a predicate that is false then true. */
export function firstIndex<T>(items: readonly T[], after: (item: T) => boolean, lo = 0, hi = items.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(items[mid] as T)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const signatures = new WeakMap<Order, string>();

/** A text naming an order (equal orders, equal text): the key of the store's per-order caches. */
export function orderSignature(order: Order): string {
  let text = signatures.get(order);
  if (text === undefined) {
    text = order.map((k) => `${k.field} ${k.direction} ${k.compare}`).join(",");
    signatures.set(order, text);
  }
  return text;
}

function compareIntegers(x: unknown, y: unknown): number {
  if (typeof x === "number" && typeof y === "number") return x < y ? -1 : x > y ? 1 : 0;
  const a = BigInt(x as number | bigint);
  const b = BigInt(y as number | bigint);
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareStrings(x: unknown, y: unknown): number {
  const a = String(x);
  const b = String(y);
  return a < b ? -1 : a > b ? 1 : 0;
}

type Compare = (a: unknown, b: unknown) => number;
const comparators = new Map<string, Compare>();

/**
 * A comparator of rows in a documented order. Keys are item paths; `rename` maps an item's
 * first path segment to the row's (for rows that keep a field under another name). A row
 * without a field the order reads is a broken invariant (INTERNAL), not a silent tie.
 */
export function orderComparator<T>(order: Order, rename: Readonly<Record<string, string>> = {}): (a: T, b: T) => number {
  const renames = Object.entries(rename);
  const cacheKey = renames.length === 0 ? orderSignature(order) : `${orderSignature(order)}|${JSON.stringify(renames)}`;
  const cached = comparators.get(cacheKey);
  if (cached !== undefined) return cached;
  const keys = order.map((key) => {
    const parts = key.field.split(".").map((p, i) => (i === 0 ? (rename[p] ?? p) : p));
    const [first, second] = parts as [string, string | undefined];
    const missing = () => internalError(RefErrorCode.INTERNAL, `a row has no ${key.field}, which its order reads`);
    const get: (row: unknown) => unknown =
      parts.length === 1
        ? (row) => {
            const v = (row as Record<string, unknown>)[first];
            if (v === undefined) throw missing();
            return v;
          }
        : parts.length === 2
          ? (row) => {
              const v = ((row as Record<string, unknown>)[first] as Record<string, unknown> | undefined)?.[second as string];
              if (v === undefined) throw missing();
              return v;
            }
          : (row) => {
              const v = parts.reduce<unknown>((node, p) => (node as Record<string, unknown> | undefined)?.[p], row);
              if (v === undefined) throw missing();
              return v;
            };
    const compare: Compare =
      key.compare === "integer" ? compareIntegers : key.compare === "base58-bytes" ? (x, y) => compareBase58Numbers(x as string, y as string) : compareStrings;
    return { get, compare, sign: key.direction === "asc" ? 1 : -1 };
  });
  const comparator: Compare = (a, b) => {
    for (const k of keys) {
      const c = k.compare(k.get(a), k.get(b));
      if (c !== 0) return k.sign * c;
    }
    return 0;
  };
  comparators.set(cacheKey, comparator);
  return comparator;
}

/**
 * Rows sorted in one documented order, with the binary searches a page needs: a page is
 * `rows.slice(start, start + limit)`, so it costs O(log n + limit).
 */
export class Sorted<T> {
  /** The rows in order. */
  readonly rows: readonly T[];
  readonly compare: (a: T | Probe<T>, b: T | Probe<T>) => number;

  /** Sorts `rows` in place (the caller hands over a fresh array). */
  constructor(rows: T[], order: Order) {
    this.compare = orderComparator(order);
    this.rows = rows.sort(this.compare);
  }

  get length(): number {
    return this.rows.length;
  }

  /** The index of the first row strictly after `probe` in the order (rows.length when none is). */
  after(probe: Probe<T>): number {
    return firstIndex(this.rows, (row) => this.compare(row, probe) > 0);
  }

  /** The index of the first row at or after `probe` in the order. */
  atOrAfter(probe: Probe<T>): number {
    return firstIndex(this.rows, (row) => this.compare(row, probe) >= 0);
  }

  /** The index of this very row (by identity), or -1 when it is not in the list. */
  indexOf(row: T): number {
    for (let i = this.atOrAfter(row as Probe<T>); i < this.rows.length && this.compare(this.rows[i] as T, row) === 0; i++) if (this.rows[i] === row) return i;
    return -1;
  }

  /** Up to `limit` rows from `start`. */
  page(start: number, limit: number): readonly T[] {
    return this.rows.slice(start, start + limit);
  }

  /** A new list with `row` added at its place (this one is left as it is for the pages reading it). */
  with(row: T): Sorted<T> {
    const rows = this.rows.slice();
    rows.splice(this.after(row as Probe<T>), 0, row);
    return presorted(rows, this.compare);
  }

  /** A new list without `row` (by identity); this one when it is not here. */
  without(row: T): Sorted<T> {
    const at = this.indexOf(row);
    if (at < 0) return this;
    const rows = this.rows.slice();
    rows.splice(at, 1);
    return presorted(rows, this.compare);
  }
}

/** A list over rows already in `compare`'s order. */
function presorted<T>(rows: T[], compare: (a: T | Probe<T>, b: T | Probe<T>) => number): Sorted<T> {
  return Object.assign(Object.create(Sorted.prototype) as Sorted<T>, { rows, compare });
}

const NO_ROWS: readonly never[] = [];

/** An empty list in any order (not cached per key, so unknown keys cost no memory). */
export const EMPTY: Sorted<never> = Object.freeze(
  Object.assign(Object.create(Sorted.prototype) as Sorted<never>, { rows: NO_ROWS, compare: () => 0 }),
) as Sorted<never>;

/**
 * Rows grouped by a key (an owner, a mint, …), each group sorted on first use per order.
 * The grouping itself is built on the first query of any key (one pass over the records),
 * so a store whose queries are never asked pays nothing for them.
 */
export class SortedGroups<K, T> {
  private groups: Map<K, readonly T[]> | null = null;
  private readonly byOrder = new Map<string, Map<K, Sorted<T>>>();

  constructor(
    /** Named in `ReferenceStore.builtIndexes()`. */
    readonly name: string,
    private readonly build: () => Map<K, readonly T[]>,
  ) {}

  /** Whether the grouping has been built. */
  get built(): boolean {
    return this.groups !== null;
  }

  /** The unsorted rows of `key` (in record order), building the grouping if needed. */
  rowsOf(key: K): readonly T[] {
    this.groups ??= this.build();
    return this.groups.get(key) ?? NO_ROWS;
  }

  /** The rows of `key` in `order`; the empty list for a key without rows. */
  get(key: K, order: Order): Sorted<T> {
    const signature = orderSignature(order);
    let sorted = this.byOrder.get(signature);
    if (sorted === undefined) this.byOrder.set(signature, (sorted = new Map()));
    const hit = sorted.get(key);
    if (hit !== undefined) return hit;
    const rows = this.rowsOf(key);
    if (rows.length === 0) return EMPTY as Sorted<never> as unknown as Sorted<T>;
    const list = new Sorted(rows.slice(), order);
    sorted.set(key, list);
    return list;
  }

  /** Adds `row` to `key`'s group: sorted lists of the key are replaced, never changed under a reader. Nothing before the grouping is built. */
  add(key: K, row: T): void {
    if (this.groups === null) return;
    // Group arrays are this object's own (readers get sorted copies): grown in place.
    const rows = this.groups.get(key) as T[] | undefined;
    if (rows === undefined) this.groups.set(key, [row]);
    else rows.push(row);
    for (const lists of this.byOrder.values()) {
      const list = lists.get(key);
      if (list !== undefined) lists.set(key, list.with(row));
    }
  }

  /** Removes `row` (by identity) from `key`'s group, as `add`. */
  remove(key: K, row: T): void {
    const rows = this.groups?.get(key) as T[] | undefined;
    const at = rows === undefined ? -1 : rows.indexOf(row);
    if (at < 0) return;
    (rows as T[]).splice(at, 1);
    for (const lists of this.byOrder.values()) {
      const list = lists.get(key);
      if (list !== undefined) lists.set(key, list.without(row));
    }
  }

  /** Forgets every sorted list of `key` (a row changed in place; they are sorted again on next use). */
  touch(key: K): void {
    for (const lists of this.byOrder.values()) lists.delete(key);
  }

  /** Forgets the grouping and every list: built again from the records on next use. */
  reset(): void {
    this.groups = null;
    this.byOrder.clear();
  }
}

/** Pushes `row` onto `key`'s group unless it is already that group's last row (DISTINCT over consecutive inserts). */
export function pushDistinct<K, T>(groups: Map<K, T[]>, key: K, row: T): void {
  const list = groups.get(key);
  if (list === undefined) groups.set(key, [row]);
  else if (list[list.length - 1] !== row) list.push(row);
}
