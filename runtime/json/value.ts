/** A JSON value as `parseJson` returns it: an integer beyond ±(2^53 - 1) is a bigint. */
export type Json = null | boolean | number | bigint | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

/** A plain object: not null, not an array; typed as the JSON object it is in values that came from `parseJson` or a YAML/JSON parser. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
