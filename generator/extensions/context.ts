/** What a reader of one operation's `x-…` extension sees: the operation, its params and its result. */
import type { Json, JsonObject } from "@photon-indexer-kit/runtime";
import type { SpecDocument } from "../load.js";

export type SchemaPath = (string | number)[];

export interface OperationContext {
  readonly doc: SpecDocument;
  readonly operation: JsonObject;
  /** The operation's path in its document (`paths/<route>/post`). */
  readonly path: SchemaPath;
  readonly params: {
    /** The params schema as written, undefined when the envelope has no `params`. */
    readonly source: Json | undefined;
    /** The object schema of the params, undefined when they are no object. */
    readonly view: JsonObject | undefined;
    readonly names: readonly string[];
    readonly path: SchemaPath;
  };
  readonly result: { readonly source: Json; readonly path: SchemaPath };
}

/** The path of an extension on the operation. */
export const atOperation = (ctx: OperationContext, key: string): SchemaPath => [...ctx.path, key];

export const isParam = (params: readonly string[], name: unknown): name is string => typeof name === "string" && params.includes(name);
