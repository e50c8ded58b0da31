import type { JsonObject } from "@photon-indexer-kit/runtime";

/** Where a schema node sits, for messages, and how to rewrite component refs. */
export interface NormalizeContext {
  readonly file: string;
  /** Pointer segments of the node in its source document. */
  readonly path: readonly (string | number)[];
  /** Maps a local `$ref` of the source document to the ref used in the output. */
  readonly rewriteRef: (ref: string, path: readonly (string | number)[]) => string;
}

/** One keyword module: a pure transform of a single schema node (children already done). */
export type KeywordTransform = (schema: JsonObject, ctx: NormalizeContext) => JsonObject;

export function omit(schema: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) if (!keys.includes(k)) out[k] = v;
  return out;
}
