/**
 * OpenAPI 3.0 schema object → JSON Schema (draft-07) that ajv compiles in strict mode.
 * Like ajv's vocabularies, each concern is a small keyword module applied to every node,
 * children first; the pipeline order matters (structure before nullable).
 */
import { GenError, GenErrorCode, pointerOf } from "../errors.js";
import type { Json, JsonObject } from "../load.js";
import { isObject } from "../load.js";
import { annotations } from "./annotations.js";
import type { KeywordTransform, NormalizeContext } from "./context.js";
import { formats } from "./formats.js";
import { integer } from "./integer.js";
import { nullable } from "./nullable.js";
import { structure } from "./structure.js";

export type { NormalizeContext } from "./context.js";

const PIPELINE: readonly KeywordTransform[] = [structure, annotations, formats, integer, nullable];

const SCHEMA_MAPS = ["properties", "patternProperties", "definitions", "$defs"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf"];
const SCHEMA_SINGLES = ["not", "additionalProperties", "items", "additionalItems", "propertyNames", "contains"];
const MAX_DEPTH = 200;

function child(ctx: NormalizeContext, ...segments: (string | number)[]): NormalizeContext {
  return { ...ctx, path: [...ctx.path, ...segments] };
}

export function normalizeSchema(node: Json, ctx: NormalizeContext): JsonObject | boolean {
  if (typeof node === "boolean") return node;
  if (!isObject(node)) {
    throw new GenError(GenErrorCode.SCHEMA, `a schema must be a mapping, found ${Array.isArray(node) ? "a list" : typeof node}`, {
      file: ctx.file,
      pointer: pointerOf(ctx.path),
    });
  }
  if (ctx.path.length > MAX_DEPTH) throw new GenError(GenErrorCode.SCHEMA, "schema nested too deeply", { file: ctx.file, pointer: pointerOf(ctx.path) });
  let schema: JsonObject = { ...node };
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined || key.startsWith("x-")) continue;
    if (!isObject(map)) throw new GenError(GenErrorCode.SCHEMA, `\`${key}\` must be a mapping`, { file: ctx.file, pointer: pointerOf([...ctx.path, key]) });
    const out: JsonObject = {};
    for (const [name, sub] of Object.entries(map)) out[name] = normalizeSchema(sub, child(ctx, key, name));
    schema[key] = out;
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new GenError(GenErrorCode.SCHEMA, `\`${key}\` must be a list`, { file: ctx.file, pointer: pointerOf([...ctx.path, key]) });
    schema[key] = list.map((sub, i) => normalizeSchema(sub, child(ctx, key, i)));
  }
  for (const key of SCHEMA_SINGLES) {
    const sub = schema[key];
    if (sub === undefined) continue;
    schema[key] = Array.isArray(sub) ? sub.map((s, i) => normalizeSchema(s, child(ctx, key, i))) : normalizeSchema(sub, child(ctx, key));
  }
  if (schema.required !== undefined && (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === "string"))) {
    throw new GenError(GenErrorCode.SCHEMA, "`required` must be a list of names", { file: ctx.file, pointer: pointerOf([...ctx.path, "required"]) });
  }
  if (Array.isArray(schema.required) && isObject(schema.properties)) {
    // ajv's strict mode refuses a required name that `properties` does not define.
    const properties = schema.properties;
    const missing = schema.required.findIndex((r) => !(String(r) in properties));
    if (missing >= 0) {
      throw new GenError(GenErrorCode.SCHEMA, `required property ${JSON.stringify(schema.required[missing])} is not defined in \`properties\``, {
        file: ctx.file,
        pointer: pointerOf([...ctx.path, "required", missing]),
      });
    }
  }
  for (const transform of PIPELINE) schema = transform(schema, ctx);
  return schema;
}
