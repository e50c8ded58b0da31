/** `x-registered`: a boolean, default true (false: documented, but the real server does not register the method). */
import { GenErrorCode } from "../errors.js";
import { fail } from "../schema-view.js";
import { atOperation, type OperationContext } from "./context.js";

export function readRegistered(ctx: OperationContext): boolean {
  const value = ctx.operation["x-registered"];
  if (value === undefined) return true;
  if (typeof value !== "boolean") return fail(GenErrorCode.SCHEMA, "`x-registered` must be true or false", ctx.doc.file, atOperation(ctx, "x-registered"));
  return value;
}
