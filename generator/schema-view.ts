/** Reading a spec's schemas as the model needs them: `$ref` chains followed, object views, param facts; and the model's one way to fail. */
import { isObject, type Json, type JsonObject, type ParamFact, type ParamKind, type ParamShape } from "@photon-indexer-kit/runtime";
import { GenError, type GenErrorCode, pointerOf } from "./errors.js";
import { resolvePointer } from "./load.js";

export function fail(code: (typeof GenErrorCode)[keyof typeof GenErrorCode], message: string, file: string, path: readonly (string | number)[]): never {
  throw new GenError(code, message, { file, pointer: pointerOf(path) });
}

/** Follows `$ref` chains (already checked to terminate) to the node they name. */
export function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  for (let i = 0; i < 64 && isObject(current) && typeof current.$ref === "string"; i++) current = resolvePointer(doc, current.$ref);
  return current;
}

/** The object schema under `allOf: [X]` + nullable wrappers, for reading property names. */
export function objectView(doc: JsonObject, node: Json | undefined): JsonObject | undefined {
  let current = deref(doc, node);
  for (let i = 0; i < 16 && isObject(current); i++) {
    if (isObject(current.properties)) return current;
    if (Array.isArray(current.allOf) && current.allOf.length === 1) current = deref(doc, current.allOf[0]);
    else return undefined;
  }
  return undefined;
}

/** A number keyword (`maximum`, `x-default`) of a scalar schema, through `$ref`s and `allOf: [X]` + nullable wrappers. */
export function scalarKeyword(doc: JsonObject, node: Json | undefined, key: string): number | null {
  let current = deref(doc, node);
  for (let i = 0; i < 16 && isObject(current); i++) {
    if (typeof current[key] === "number") return current[key];
    if (Array.isArray(current.allOf) && current.allOf.length === 1) current = deref(doc, current.allOf[0]);
    else return null;
  }
  return null;
}

const STRING_FORMATS: ReadonlySet<string> = new Set(["pubkey", "hash", "signature", "base58", "base64"]);
const UNSIGNED = /^uint(8|16|32|64)$/;

/**
 * One schema reduced to a ParamFact (for spec-derived conformance cases): `$ref` and
 * single-`allOf` wrappers followed, `nullable` on any of them kept, the innermost `type`
 * and `format` read; several types or `oneOf`/`anyOf` give `any`.
 */
export function paramFact(doc: JsonObject, node: Json | undefined): ParamFact {
  let current = deref(doc, node);
  let nullable = false;
  let minimum: number | null = null;
  let maximum: number | null = null;
  for (let i = 0; i < 16 && isObject(current); i++) {
    if (current.nullable === true) nullable = true;
    if (typeof current.minimum === "number") minimum = current.minimum;
    if (typeof current.maximum === "number") maximum = current.maximum;
    if (Array.isArray(current.allOf) && current.allOf.length === 1 && current.type === undefined) current = deref(doc, current.allOf[0]);
    else break;
  }
  const schema = isObject(current) ? current : {};
  const format = typeof schema.format === "string" ? schema.format : null;
  let kind: ParamKind = "any";
  if (schema.type === "string") kind = format !== null && STRING_FORMATS.has(format) ? (format as ParamKind) : "string";
  else if (schema.type === "integer") kind = "integer";
  else if (schema.type === "number" || schema.type === "boolean" || schema.type === "array") kind = schema.type;
  else if (schema.type === "object" || (schema.type === undefined && isObject(schema.properties))) kind = "object";
  if (kind === "integer" && format !== null && UNSIGNED.test(format)) minimum = Math.max(minimum ?? 0, 0);
  return kind === "integer" ? { kind, nullable, minimum, maximum } : { kind, nullable, minimum: null, maximum: null };
}

/** The params schema's shape: an object's properties (closed or open) or a JSON array's items. */
export function paramShape(doc: JsonObject, params: JsonObject | undefined, source: Json | undefined): ParamShape | null {
  if (source === undefined) return null;
  if (params) {
    const properties = isObject(params.properties) ? params.properties : {};
    return {
      type: "object",
      closed: params.additionalProperties === false,
      properties: Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, paramFact(doc, schema)])),
      items: null,
    };
  }
  const list = deref(doc, source);
  if (isObject(list) && list.type === "array") return { type: "array", closed: false, properties: {}, items: paramFact(doc, list.items) };
  return null;
}
