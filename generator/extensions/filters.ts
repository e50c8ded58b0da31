/** `x-filters`: a mapping from params to the dotted item field each must equal. */
import { isObject } from "@photon-indexer-kit/runtime";
import { GenErrorCode, quote } from "../errors.js";
import { fail } from "../schema-view.js";
import { atOperation, type OperationContext } from "./context.js";

export function readFilters(ctx: OperationContext): Record<string, string> {
  const value = ctx.operation["x-filters"];
  const file = ctx.doc.file;
  const path = atOperation(ctx, "x-filters");
  if (value === undefined) return {};
  if (!isObject(value)) return fail(GenErrorCode.SCHEMA, "`x-filters` must map params to item fields", file, path);
  for (const [param, field] of Object.entries(value)) {
    if (!ctx.params.names.includes(param))
      fail(GenErrorCode.SCHEMA, `\`x-filters\` names ${quote(param)}, which is not a param of the method`, file, [...path, param]);
    if (typeof field !== "string" || field === "") fail(GenErrorCode.SCHEMA, "an `x-filters` entry must name an item field", file, [...path, param]);
  }
  return { ...(value as Record<string, string>) };
}
