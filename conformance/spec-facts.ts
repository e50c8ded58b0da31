/**
 * The spec facts the runner reads from the method table (generated/methods.ts), so that no
 * hand-written part of it names a method, an items field, a cursor field or a limit: where a
 * result states its slot (`x-slot`), which method answers the slot itself, the cursor fields
 * of paginated methods (`x-pagination.cursor`), the fields that fix an item's content
 * (`x-identity`), and where a result's items are (`x-pagination.items`, `x-lookup.items`).
 * Every function takes the table, so that tests can feed a synthetic one.
 */
import { methods as generatedMethods } from "../generated/index.js";
import { isObject, type MethodInfo } from "@photon-indexer-kit/runtime";
import { getPath, ABSENT } from "./matchers.js";

export type MethodTable = Readonly<Record<string, MethodInfo>>;

/** The spec's own method table. */
export const specMethods: MethodTable = generatedMethods;

/** A table entry with the facts the generated table adds beside MethodInfo: `x-aliases` and `x-registered`. */
type SpecEntry = MethodInfo & { readonly aliases?: readonly string[]; readonly registered?: boolean };

/** Alias → entry, per table (built once). */
const aliasIndex = new WeakMap<MethodTable, ReadonlyMap<string, MethodInfo>>();

function aliasesIn(table: MethodTable): ReadonlyMap<string, MethodInfo> {
  let index = aliasIndex.get(table);
  if (!index) {
    const built = new Map<string, MethodInfo>();
    for (const info of Object.values(table)) for (const alias of aliasesOf(info)) built.set(alias, info);
    aliasIndex.set(table, (index = built));
  }
  return index;
}

/** The other names a method is answered under (`x-aliases`), none in tables written by hand. */
export function aliasesOf(info: MethodInfo): readonly string[] {
  return (info as SpecEntry).aliases ?? [];
}

/**
 * A method's entry by its name or an alias, or undefined (never an `Object.prototype` member). Every
 * check reads the table through this, so a case sent under an alias is judged as its method.
 */
export function methodInfo(method: string, table: MethodTable = specMethods): MethodInfo | undefined {
  return Object.hasOwn(table, method) ? table[method] : aliasesIn(table).get(method);
}

/** The method a name stands for (itself, or the method it is an alias of), or undefined for a name the table lacks. */
export function canonicalMethod(method: string, table: MethodTable = specMethods): string | undefined {
  return methodInfo(method, table)?.name;
}

/**
 * The methods the spec declares but marks `x-registered: false` (a server may leave them out, and
 * then answers -32601 as for an unknown method): opted out by default, so that not serving them
 * does not fail a run. Tables written by hand register every method.
 */
export function unregisteredMethods(table: MethodTable = specMethods): string[] {
  return Object.values(table)
    .filter((m) => (m as SpecEntry).registered === false)
    .map((m) => m.name);
}

/** The method whose result is the indexer slot itself (`x-slot: ''` on its result) and that takes no params, or null. */
export function slotMethod(table: MethodTable = specMethods): MethodInfo | null {
  return Object.values(table).find((m) => m.slot === "" && !m.hasParams) ?? null;
}

/** Each table's slot paths, found once: every judged answer asks. */
const slotPathsOf = new WeakMap<MethodTable, readonly string[]>();

/** The distinct paths (into `result`) where results state the slot they were read at, e.g. `context.slot`; the result that is the slot itself is not one. */
export function contextSlotPaths(table: MethodTable = specMethods): readonly string[] {
  let paths = slotPathsOf.get(table);
  if (paths === undefined) slotPathsOf.set(table, (paths = Object.freeze([...new Set(Object.values(table).flatMap((m) => (m.slot ? [m.slot] : [])))])));
  return paths;
}

/** The slot an answer of `method` states (a context slot, or the result itself for the slot method), or undefined. */
export function slotOfResult(info: MethodInfo | undefined, result: unknown): unknown {
  if (!info || info.slot === null) return undefined;
  const slot = getPath(result, info.slot);
  return slot === ABSENT ? undefined : slot;
}

/** The value fields of paginated methods that carry the next cursor. */
export function cursorFields(table: MethodTable = specMethods): Set<string> {
  return new Set(Object.values(table).flatMap((m) => (m.pagination ? [m.pagination.cursor] : [])));
}

/** The item fields that fix an item's whole content (`x-identity`), distinct, in table order. */
export function identityFields(table: MethodTable = specMethods): string[] {
  return [...new Set(Object.values(table).flatMap((m) => (m.identity ? [m.identity] : [])))];
}

/** The page of a result: its `value` when the result has a context, else the result. */
export function pageOf(info: MethodInfo, result: unknown): unknown {
  return info.hasContext ? (isObject(result) ? result.value : undefined) : result;
}

/** The array field of a method's page that holds its items: the pagination's, else a list lookup's, else null. */
export function itemsField(info: MethodInfo | undefined): string | null {
  return info?.pagination?.items ?? info?.lookup?.items ?? null;
}

/** The items of a result's page, or null when the method has no item list or the page lacks it. */
export function itemsOf(info: MethodInfo | undefined, result: unknown): unknown[] | null {
  const field = itemsField(info);
  if (!info || field === null) return null;
  const items = getPath(pageOf(info, result), field);
  return Array.isArray(items) ? items : null;
}

/** The lookup key a request uses: the first of `x-lookup.by` whose param is given (not null), or null. */
export function lookupKeyOf(info: MethodInfo | undefined, params: unknown): { param: string; field: string } | null {
  const p = isObject(params) ? params : {};
  return info?.lookup?.by.find((k) => p[k.param] !== undefined && p[k.param] !== null) ?? null;
}
