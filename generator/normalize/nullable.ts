/**
 * OpenAPI 3.0 `nullable: true` → JSON Schema. With a plain `type`, null joins the type
 * (and the enum). Without one, as in upstream's `allOf: [$ref] + nullable: true`, or on a
 * uint64 keyword schema, the schema becomes `anyOf: [schema, {type: null}]`.
 */
import type { Json, JsonObject } from "@photon-indexer-kit/runtime";
import type { KeywordTransform } from "./context.js";
import { omit } from "./context.js";

export const nullable: KeywordTransform = (schema) => {
  if (!("nullable" in schema)) return schema;
  const rest = omit(schema, ["nullable"]);
  if (schema.nullable !== true) return rest;
  if (typeof rest.type === "string") {
    const out: JsonObject = { ...rest, type: [rest.type, "null"] };
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) out.enum = [...rest.enum, null];
    return out;
  }
  if (Array.isArray(rest.type)) {
    return rest.type.includes("null") ? rest : { ...rest, type: [...rest.type, "null"] as Json };
  }
  // Annotations are gone by now (annotations.ts runs first): what is left is all schema.
  if (Object.keys(rest).length === 0) return rest; // `{nullable: true}` alone accepts anything already
  return { anyOf: [rest, { type: "null" }] };
};
