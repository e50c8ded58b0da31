/**
 * What one exchange can show about its own meaning, without further calls: derived from the
 * request's params and the method table's spec facts (`x-filters`, `x-lookup`). Used by
 * `check` (captured traffic), where no case file states it.
 */
import type { Json } from "@photon-indexer-kit/runtime";
import { methodInfo, specMethods, type MethodTable } from "./spec-facts.js";

export interface DerivedExpectation {
  readonly every: Record<string, Json> | null;
  readonly semantics: readonly string[];
}

/**
 * Every item carries each filtering param's value at its `x-filters` field (when the param is
 * given as text); a lookup is judged by the `lookup` rule, a list lookup by `input-order`.
 */
export function deriveExpectation(method: string, params: Json | undefined, table: MethodTable = specMethods): DerivedExpectation {
  const info = methodInfo(method, table);
  if (!info) return { every: null, semantics: [] };
  const p = typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, Json>) : {};
  const every: Record<string, Json> = {};
  for (const [param, field] of Object.entries(info.filters)) if (typeof p[param] === "string") every[field] = p[param];
  const semantics = info.lookup ? [info.lookup.items === null ? "lookup" : "input-order"] : [];
  return { every: Object.keys(every).length > 0 ? every : null, semantics };
}
