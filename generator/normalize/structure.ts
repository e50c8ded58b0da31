/**
 * Makes implied types explicit, as ajv strict mode requires: `properties`, `required` or
 * `additionalProperties` imply `type: object`; `items` implies `type: array`. Also rewrites
 * `$ref`s to the output's component ids, dropping the siblings OpenAPI 3.0 says to ignore.
 */
import type { JsonObject } from "@photon-indexer-kit/runtime";
import type { KeywordTransform } from "./context.js";

const COMPOSITION = ["allOf", "anyOf", "oneOf", "not", "$ref", "enum", "const"];

export const structure: KeywordTransform = (schema, ctx) => {
  if (typeof schema.$ref === "string") {
    const out: JsonObject = { $ref: ctx.rewriteRef(schema.$ref, ctx.path) };
    if (schema.nullable === true) out.nullable = true; // handled by the nullable module
    return out;
  }
  if (schema.type !== undefined || COMPOSITION.some((k) => k in schema)) return schema;
  if ("properties" in schema || "required" in schema || "additionalProperties" in schema) return { type: "object", ...schema };
  if ("items" in schema) return { type: "array", ...schema };
  return schema;
};
