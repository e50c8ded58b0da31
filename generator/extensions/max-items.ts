/**
 * `x-max-items` of each param (a list cap the handler enforces with an application error). When the
 * params are themselves a JSON array (the proof methods), its cap is under the key `""`.
 */
import { isObject } from "@photon-indexer-kit/runtime";
import { GenErrorCode } from "../errors.js";
import { deref, fail, scalarKeyword } from "../schema-view.js";
import type { OperationContext } from "./context.js";

export function readMaxItems({ doc: { doc, file }, params }: OperationContext): Record<string, number> {
  const out: Record<string, number> = {};
  if (!params.view && params.source !== undefined) {
    const list = deref(doc, params.source);
    const cap = isObject(list) && list["x-max-items"] !== undefined ? list["x-max-items"] : scalarKeyword(doc, params.source, "x-max-items");
    if (cap === null || cap === undefined) return out;
    if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 0)
      fail(GenErrorCode.SCHEMA, "`x-max-items` must be a non-negative integer", file, [...params.path, "x-max-items"]);
    out[""] = cap as number;
    return out;
  }
  if (!params.view || !isObject(params.view.properties)) return out;
  for (const [name, schema] of Object.entries(params.view.properties)) {
    const cap = isObject(schema) && schema["x-max-items"] !== undefined ? schema["x-max-items"] : scalarKeyword(doc, schema, "x-max-items");
    if (cap === null || cap === undefined) continue;
    if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 0)
      fail(GenErrorCode.SCHEMA, "`x-max-items` must be a non-negative integer", file, [...params.path, "properties", name, "x-max-items"]);
    out[name] = cap as number;
  }
  return out;
}
