/** `x-pagination`: `{items, cursor, limit?, order?}`, or inferred from a `cursor` param and a result holding `cursor` plus one array. */
import { isObject, type Json, type OrderKey, type PaginationInfo } from "@photon-indexer-kit/runtime";
import { GenErrorCode } from "../errors.js";
import { deref, fail, objectView, scalarKeyword } from "../schema-view.js";
import type { OperationContext, SchemaPath } from "./context.js";

function readOrder(value: Json | undefined, file: string, path: SchemaPath): OrderKey[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return fail(GenErrorCode.SCHEMA, "`order` must be a list", file, path);
  return value.map((entry, i) => {
    if (!isObject(entry) || typeof entry.field !== "string") return fail(GenErrorCode.SCHEMA, "an order key needs a `field`", file, [...path, i]);
    const direction = entry.direction ?? "asc";
    const compare = entry.compare ?? "string";
    if (direction !== "asc" && direction !== "desc") return fail(GenErrorCode.SCHEMA, "`direction` must be asc or desc", file, [...path, i, "direction"]);
    if (compare !== "integer" && compare !== "base58-bytes" && compare !== "string") {
      return fail(GenErrorCode.SCHEMA, "`compare` must be integer, base58-bytes or string", file, [...path, i, "compare"]);
    }
    return { field: entry.field, direction, compare };
  });
}

export function readPagination({ doc, operation, path, params, result }: OperationContext): PaginationInfo | null {
  const declared = operation["x-pagination"];
  const paramNames = params.names;
  const limits = (limit: string | null) => {
    const schema = limit !== null && params.view && isObject(params.view.properties) ? params.view.properties[limit] : undefined;
    return { maxLimit: scalarKeyword(doc.doc, schema, "maximum"), defaultLimit: scalarKeyword(doc.doc, schema, "x-default") };
  };
  if (declared !== undefined) {
    const at = [...path, "x-pagination"];
    if (!isObject(declared) || typeof declared.items !== "string" || typeof declared.cursor !== "string") {
      return fail(GenErrorCode.SCHEMA, "`x-pagination` needs string `items` and `cursor`", doc.file, at);
    }
    const limit = typeof declared.limit === "string" ? declared.limit : paramNames.includes("limit") ? "limit" : null;
    return { items: declared.items, cursor: declared.cursor, limit, order: readOrder(declared.order, doc.file, [...at, "order"]), ...limits(limit) };
  }
  if (!paramNames.includes("cursor")) return null;
  const resultView = objectView(doc.doc, result.source);
  const inner = resultView && isObject(resultView.properties) ? resultView.properties.value : undefined;
  const value = inner === undefined ? resultView : objectView(doc.doc, inner);
  if (!value || !isObject(value.properties) || !("cursor" in value.properties)) return null;
  const arrays = Object.entries(value.properties).filter(([, s]) => {
    const v = deref(doc.doc, s);
    return isObject(v) && (v.type === "array" || "items" in v);
  });
  if (arrays.length !== 1) return null;
  const limit = paramNames.includes("limit") ? "limit" : null;
  return { items: arrays[0]![0], cursor: "cursor", limit, order: null, ...limits(limit) };
}
