/** `x-identity`: the item field that names an item across answers. */
import { GenErrorCode } from "../errors.js";
import { fail } from "../schema-view.js";
import { atOperation, type OperationContext } from "./context.js";

export function readIdentity(ctx: OperationContext): string | null {
  const value = ctx.operation["x-identity"];
  if (value === undefined) return null;
  if (typeof value !== "string" || value === "")
    return fail(GenErrorCode.SCHEMA, "`x-identity` must name an item field", ctx.doc.file, atOperation(ctx, "x-identity"));
  return value;
}
