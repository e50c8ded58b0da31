/**
 * Drops annotations: OpenAPI-only ones that are not JSON Schema keywords (ajv strict mode would
 * refuse them) and that never affect validity: `example`, `default` (upstream uses it for
 * example-like values), `externalDocs`, `xml`, `deprecated`, `readOnly`, `writeOnly`,
 * `discriminator`, and every `x-…` extension; and `description`/`title`, which the types
 * carry and the validators do not need.
 */
import type { JsonObject } from "@photon-indexer-kit/runtime";
import type { KeywordTransform } from "./context.js";

const DROPPED = new Set([
  "description",
  "title",
  "example",
  "examples",
  "default",
  "externalDocs",
  "xml",
  "deprecated",
  "readOnly",
  "writeOnly",
  "discriminator",
]);

export const annotations: KeywordTransform = (schema) => {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (DROPPED.has(k) || k.startsWith("x-")) continue;
    out[k] = v;
  }
  return out;
};
