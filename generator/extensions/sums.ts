/** `x-sums`: `{method, params, key: {field, of}, sum: {field, of}}`; `method` is checked once every method is known. */
import { isObject, type Json, type SumsInfo } from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode, quote } from "../errors.js";
import { fail } from "../schema-view.js";
import { atOperation, isParam, type OperationContext } from "./context.js";

export function readSums(ctx: OperationContext): SumsInfo | null {
  const value = ctx.operation["x-sums"];
  const file = ctx.doc.file;
  const path = atOperation(ctx, "x-sums");
  if (value === undefined) return null;
  const field = (v: Json | undefined, key: string) => {
    if (!isObject(v) || typeof v.field !== "string" || typeof v.of !== "string")
      return fail(GenErrorCode.SCHEMA, `\`x-sums.${key}\` needs \`field\` and \`of\``, file, [...path, key]);
    return { field: v.field, of: v.of };
  };
  if (!isObject(value) || typeof value.method !== "string") return fail(GenErrorCode.SCHEMA, "`x-sums` needs the `method` whose items it sums", file, path);
  const shared = value.params ?? [];
  if (!Array.isArray(shared) || !shared.every((p) => isParam(ctx.params.names, p)))
    return fail(GenErrorCode.SCHEMA, "`x-sums.params` must list params of the method", file, [...path, "params"]);
  return { method: value.method, params: shared as string[], key: field(value.key, "key"), sum: field(value.sum, "sum") };
}

/** Each `x-sums.method` names a method of the spec. */
export function checkSumsTargets(
  methods: readonly { readonly sums: SumsInfo | null; readonly file: string; readonly pointer: string }[],
  known: ReadonlyMap<string, unknown>,
): void {
  for (const m of methods) {
    if (m.sums && !known.has(m.sums.method)) {
      throw new GenError(GenErrorCode.SCHEMA, `\`x-sums.method\` names ${quote(m.sums.method)}, which is not a method of the spec`, {
        file: m.file,
        pointer: `${m.pointer}/x-sums/method`,
      });
    }
  }
}
