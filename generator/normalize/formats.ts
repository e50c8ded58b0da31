/**
 * Keeps the string formats the runtime checks (runtime/formats.ts) and drops the others
 * (OpenAPI's `binary`, `byte`, `password`, …), which ajv strict mode would reject as unknown.
 */
import { formats as knownFormats } from "@photon-indexer-kit/runtime";
import type { KeywordTransform } from "./context.js";
import { omit } from "./context.js";

export const STRING_FORMATS: ReadonlySet<string> = new Set(Object.keys(knownFormats));

export const formats: KeywordTransform = (schema) => {
  if (typeof schema.format !== "string") return schema;
  const isInteger = schema.type === "integer" || schema.type === "number";
  if (isInteger) return schema; // integer formats are the integer module's concern
  return STRING_FORMATS.has(schema.format) ? schema : omit(schema, ["format"]);
};
