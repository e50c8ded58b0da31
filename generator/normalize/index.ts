/**
 * OpenAPI 3.0 schema object → JSON Schema (draft-07) that ajv compiles in strict mode.
 * Like ajv's vocabularies, each concern is a small keyword module applied to every node,
 * children first; the pipeline order matters (structure before nullable).
 */
import { isObject, linearRegExp, PatternError, type Json, type JsonObject } from "@photon-indexer-kit/runtime";
import { OBJECT_MEMBERS } from "../emit/names.js";
import { GenError, GenErrorCode, pointerOf } from "../errors.js";
import { annotations } from "./annotations.js";
import type { KeywordTransform, NormalizeContext } from "./context.js";
import { formats } from "./formats.js";
import { integer } from "./integer.js";
import { nullable } from "./nullable.js";
import { structure } from "./structure.js";

export type { NormalizeContext } from "./context.js";

const PIPELINE: readonly KeywordTransform[] = [structure, annotations, formats, integer, nullable];

/** Where subschemas sit: maps of them, lists of them, and single ones (or a list, for `items`). */
export const SCHEMA_MAPS = ["properties", "patternProperties", "definitions", "$defs"];
export const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf"];
export const SCHEMA_SINGLES = ["not", "additionalProperties", "items", "additionalItems", "propertyNames", "contains"];
const MAX_DEPTH = 200;
/** Maps whose keys are names (a validator reads `data[name]`), unlike `patternProperties`. */
const NAME_MAPS = new Set(["properties", "definitions", "$defs"]);
/** JSON Schema identity keywords OpenAPI 3.0 does not have: they would re-root `$ref`s, and ajv writes `$id` into a comment. */
const UNSUPPORTED = ["$id", "$schema", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$dynamicRef", "$recursiveRef"];

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A key of a schema map: well-formed Unicode and, where it names a property, not a member of every object. */
function checkKey(ctx: NormalizeContext, name: string, path: (string | number)[], isName: boolean): void {
  if (LONE_SURROGATE.test(name))
    throw new GenError(GenErrorCode.NAME, "a name must be well-formed Unicode (it holds a lone surrogate)", { file: ctx.file, pointer: pointerOf(path) });
  if (isName && OBJECT_MEMBERS.has(name)) {
    throw new GenError(GenErrorCode.NAME, `${JSON.stringify(name)} is reserved: every object has a member of that name`, {
      file: ctx.file,
      pointer: pointerOf(path),
    });
  }
}

/** A key equal for values ajv's deep equality finds equal (object keys in any order). */
function canonical(value: Json): string {
  if (typeof value === "string") return `s${value}`;
  if (Array.isArray(value)) return `a${JSON.stringify(value.map(canonical))}`;
  if (isObject(value))
    return `o${JSON.stringify(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k]!)]),
    )}`;
  return `v${JSON.stringify(value)}`;
}

/**
 * `pattern` and `patternProperties` keys must be ECMA-262 (`u` flag), as the spec's dialect says,
 * and run on the linear-time engine the validators use (runtime/regex.ts: no lookaround or backreference).
 */
function checkPatterns(ctx: NormalizeContext, node: JsonObject): void {
  const patterns: [string, (string | number)[]][] = [];
  if (typeof node.pattern === "string") patterns.push([node.pattern, [...ctx.path, "pattern"]]);
  if (isObject(node.patternProperties)) for (const key of Object.keys(node.patternProperties)) patterns.push([key, [...ctx.path, "patternProperties", key]]);
  for (const [pattern, path] of patterns) {
    try {
      new RegExp(pattern, "u"); // compiled only, never run: JavaScript's engine backtracks
    } catch {
      throw new GenError(GenErrorCode.SCHEMA, "not a valid regular expression (ECMA-262, unicode)", { file: ctx.file, pointer: pointerOf(path) });
    }
    try {
      linearRegExp(pattern, "u");
    } catch (err) {
      if (!(err instanceof PatternError)) throw err;
      throw new GenError(GenErrorCode.SCHEMA, err.message, { file: ctx.file, pointer: pointerOf(path) });
    }
  }
}

/** Duplicate enum values, found in one pass (ajv's meta-schema check compares every pair). */
function checkEnum(ctx: NormalizeContext, values: Json[]): void {
  const seen = new Set<string>();
  values.forEach((value, i) => {
    const key = canonical(value);
    if (seen.has(key))
      throw new GenError(GenErrorCode.SCHEMA, "`enum` values must be unique", { file: ctx.file, pointer: pointerOf([...ctx.path, "enum", i]) });
    seen.add(key);
  });
}

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
  const unsupported = UNSUPPORTED.find((k) => k in node);
  if (unsupported) {
    throw new GenError(GenErrorCode.SCHEMA, `\`${unsupported}\` is not an OpenAPI 3.0 schema keyword`, {
      file: ctx.file,
      pointer: pointerOf([...ctx.path, unsupported]),
    });
  }
  if (Array.isArray(node.enum)) checkEnum(ctx, node.enum);
  checkPatterns(ctx, node);
  let schema: JsonObject = { ...node };
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isObject(map)) throw new GenError(GenErrorCode.SCHEMA, `\`${key}\` must be a mapping`, { file: ctx.file, pointer: pointerOf([...ctx.path, key]) });
    const out: JsonObject = {};
    for (const [name, sub] of Object.entries(map)) {
      checkKey(ctx, name, [...ctx.path, key, name], NAME_MAPS.has(key));
      Object.defineProperty(out, name, { value: normalizeSchema(sub, child(ctx, key, name)), enumerable: true, writable: true, configurable: true });
    }
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
  if (Array.isArray(schema.required)) schema.required.forEach((r, i) => checkKey(ctx, String(r), [...ctx.path, "required", i], true));
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
