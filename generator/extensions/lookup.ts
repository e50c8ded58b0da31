/** `x-lookup`: `{items?, by: [{param, field}]}`, the params that pick items by a field. */
import { isObject, type LookupInfo } from "@photon-indexer-kit/runtime";
import { GenErrorCode } from "../errors.js";
import { fail } from "../schema-view.js";
import { atOperation, isParam, type OperationContext } from "./context.js";

export function readLookup(ctx: OperationContext): LookupInfo | null {
  const value = ctx.operation["x-lookup"];
  const file = ctx.doc.file;
  const path = atOperation(ctx, "x-lookup");
  if (value === undefined) return null;
  if (!isObject(value) || !Array.isArray(value.by) || value.by.length === 0)
    return fail(GenErrorCode.SCHEMA, "`x-lookup` needs a non-empty `by` list", file, path);
  if (value.items !== undefined && typeof value.items !== "string")
    return fail(GenErrorCode.SCHEMA, "`x-lookup.items` must name the page's array field", file, [...path, "items"]);
  const by = value.by.map((entry, i) => {
    if (!isObject(entry) || !isParam(ctx.params.names, entry.param) || typeof entry.field !== "string") {
      return fail(GenErrorCode.SCHEMA, "an `x-lookup.by` entry needs a `param` of the method and an item `field`", file, [...path, "by", i]);
    }
    return { param: entry.param, field: entry.field };
  });
  return { items: typeof value.items === "string" ? value.items : null, by };
}
