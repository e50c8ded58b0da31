/**
 * A canonical view of one normalised schema node, so two spellings of the same meaning
 * compare equal: `$ref`s to components followed, `allOf: [X]` unwrapped, and the three
 * nullable forms (`anyOf: [X, {type: null}]`, `type: [T, "null"]`, `null` in an enum)
 * folded into one flag. The uint64/int64 keywords read as integers with a range.
 */
import { isObject, type Json, type JsonObject } from "@photon-indexer-kit/runtime";
import { COMPONENTS_ID } from "../model.js";

export type Components = Readonly<Record<string, JsonObject | boolean>>;

export interface SchemaView {
  /** The unwrapped schema; `true` when the node allows anything. */
  readonly schema: JsonObject | boolean;
  readonly nullable: boolean;
  /** Component names followed to reach `schema`, outermost first. */
  readonly refs: readonly string[];
}

const REF_PREFIX = `${COMPONENTS_ID}#/definitions/`;
const DOC_KEYS = new Set(["description", "title"]);

function onlyKey(schema: JsonObject, key: string): boolean {
  return Object.keys(schema).every((k) => k === key || DOC_KEYS.has(k));
}

function isNullSchema(node: Json | undefined): boolean {
  return isObject(node) && node.type === "null" && onlyKey(node, "type");
}

export function refName(node: Json | undefined): string | null {
  if (!isObject(node) || typeof node.$ref !== "string" || !node.$ref.startsWith(REF_PREFIX)) return null;
  return decodeURIComponent(node.$ref.slice(REF_PREFIX.length));
}

export function viewOf(node: Json | undefined, components: Components): SchemaView {
  let current: Json | undefined = node ?? true;
  let nullable = false;
  const refs: string[] = [];
  for (let i = 0; i < 64; i++) {
    if (!isObject(current)) break;
    const name = refName(current);
    if (name !== null) {
      if (refs.includes(name) || !(name in components)) break;
      refs.push(name);
      current = components[name];
      continue;
    }
    const anyOf: Json | undefined = current.anyOf;
    if (Array.isArray(anyOf) && anyOf.length === 2 && onlyKey(current, "anyOf") && anyOf.some(isNullSchema)) {
      nullable = true;
      current = anyOf.find((s) => !isNullSchema(s));
      continue;
    }
    if (Array.isArray(current.allOf) && current.allOf.length === 1 && onlyKey(current, "allOf")) {
      current = current.allOf[0];
      continue;
    }
    break;
  }
  let schema: JsonObject | boolean = isObject(current) ? current : current !== false;
  if (isObject(schema)) {
    const out: JsonObject = { ...schema };
    if (Array.isArray(out.type) && out.type.includes("null")) {
      nullable = true;
      const rest = out.type.filter((t) => t !== "null");
      if (rest.length === 1) out.type = rest[0]!;
      else if (rest.length === 0) delete out.type;
      else out.type = rest;
    }
    if (Array.isArray(out.enum) && out.enum.includes(null)) {
      nullable = true;
      out.enum = out.enum.filter((v) => v !== null);
    }
    schema = out;
  }
  return { schema, nullable, refs };
}

/** The JSON types a schema admits (null excluded), or null when it does not restrict the type. */
export function typesOf(schema: JsonObject | boolean): string[] | null {
  if (typeof schema === "boolean") return null;
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string").sort();
  if ("uint64" in schema || "int64" in schema) return ["integer"];
  return null;
}

/** Whether every value of type `inner` is a value of type `outer` (integer ⊂ number). */
export function typeCovers(outer: string, inner: string): boolean {
  return outer === inner || (outer === "number" && inner === "integer");
}

/** Whether the schema is an object schema (declared, or implied by object keywords). */
export function isObjectSchema(schema: JsonObject | boolean): boolean {
  if (typeof schema === "boolean") return false;
  const types = typesOf(schema);
  if (types) return types.includes("object");
  return "properties" in schema || "required" in schema || "additionalProperties" in schema;
}
