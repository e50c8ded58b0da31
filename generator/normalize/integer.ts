/**
 * Integer formats. `uint64`/`int64` values may exceed 2^53 and arrive as `bigint`, which
 * ajv's `type: integer` refuses, so they become the custom `uint64`/`int64` keyword
 * (which checks numbers and bigints alike and folds in `minimum`/`maximum`). Narrower
 * formats become plain bounds. Every integer also gets `integerLiteral`: it must have been
 * written without a fraction, an exponent or a minus zero.
 */
import type { Json, JsonObject } from "@photon-indexer-kit/runtime";
import type { KeywordTransform } from "./context.js";
import { omit } from "./context.js";

const BOUNDS: Record<string, [number, number]> = {
  uint8: [0, 0xff],
  uint16: [0, 0xffff],
  uint32: [0, 0xffffffff],
  int8: [-0x80, 0x7f],
  int16: [-0x8000, 0x7fff],
  int32: [-0x80000000, 0x7fffffff],
};

export const integer: KeywordTransform = (schema) => {
  if (schema.type !== "integer") return schema;
  // Written as an integer in the JSON text, as serde requires (`1.0` is not a u64).
  const literal = { ...schema, integerLiteral: true };
  if (typeof schema.format !== "string") return literal;
  return withFormat(literal, schema.format);
};

function withFormat(schema: JsonObject, format: string): JsonObject {
  if (format === "uint64" || format === "int64") {
    const bounds: JsonObject = {};
    if (typeof schema.minimum === "number" && (format === "int64" || schema.minimum > 0)) bounds.minimum = schema.minimum;
    if (typeof schema.maximum === "number") bounds.maximum = schema.maximum;
    const rest = omit(schema, ["type", "format", "minimum", "maximum"]);
    const value: Json = Object.keys(bounds).length > 0 ? bounds : true;
    return { ...rest, [format]: value };
  }
  const range = BOUNDS[format];
  const rest = omit(schema, ["format"]);
  if (!range) return rest;
  const minimum = typeof schema.minimum === "number" ? Math.max(schema.minimum, range[0]) : range[0];
  const maximum = typeof schema.maximum === "number" ? Math.min(schema.maximum, range[1]) : range[1];
  return { ...rest, minimum, maximum };
}
