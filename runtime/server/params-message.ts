/**
 * The text of a -32602 answer in serde's words, as Photon sends it (jsonrpsee puts serde_json's
 * error message in `message`: `missing field \`hash\``, `unknown field \`x\``, `invalid type:
 * integer \`5\`, expected a string`, `invalid value: integer \`1001\`, expected a value less than or
 * equal to 1000`, the base58 types' own texts), from one validation issue and the value it is
 * about. Not matched: serde_json's ` at line L column C` suffix (the position in the client's text)
 * and the Rust type named after `expected` for a struct (here `a map`). spec/DECISIONS.md row 79.
 */
import type { ValidationIssue } from "../contracts.js";
import { base58ByteCount } from "../base58.js";

/** The value `pointer` names inside `root` (undefined when it is absent). */
function at(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split("/").slice(1)) {
    if (value === null || typeof value !== "object") return undefined;
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** serde's `Unexpected` for a JSON value, as its Display writes it. */
export function unexpected(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "bigint") return `integer \`${value}\``;
  if (typeof value === "number") return Number.isInteger(value) && !Object.is(value, -0) ? `integer \`${value}\`` : floatText(value);
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "boolean") return `boolean \`${value}\``;
  return Array.isArray(value) ? "sequence" : "map";
}

/** An f64 as serde's `Unexpected::Float` writes it: always with a decimal point (`1.0`, `-0.0`, `1.5`). */
function floatText(value: number): string {
  const text = Object.is(value, -0) ? "-0" : String(value);
  return `floating point \`${Number.isInteger(value) ? `${text}.0` : text}\``;
}

/** serde's list of expected names: `a`, `a` or `b`, one of `a`, `b`, `c` (serde `OneOf`). */
function oneOf(names: readonly unknown[]): string {
  const quoted = names.map((n) => `\`${String(n)}\``);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `one of ${quoted.join(", ")}`;
}

const EXPECTING: Readonly<Record<string, string>> = {
  string: "a string",
  array: "a sequence",
  object: "a map",
  boolean: "a boolean",
  integer: "u64",
  number: "f64",
};

/** What a schema `type` expects, in serde's words (the first non-null type). */
function expecting(type: unknown): string {
  const types = (Array.isArray(type) ? type : [type]).filter((t) => t !== "null");
  return EXPECTING[String(types[0])] ?? String(types[0]);
}

/** Photon's base58 types' own errors (Hash::try_from, solana Pubkey and Signature FromStr), else serde's invalid value. */
function formatText(format: string, value: unknown): string {
  if (typeof value !== "string") return `invalid type: ${unexpected(value)}, expected a string`;
  const bytes = base58ByteCount(value);
  if (format === "hash") return value.length <= 44 && bytes === undefined ? "Invalid hash input" : "String is the wrong size";
  if (format === "pubkey") return value.length <= 44 && bytes === undefined ? "Invalid Base58 string" : "String is the wrong size";
  if (format === "signature")
    return value.length <= 88 && bytes === undefined ? "failed to decode string to signature" : "string decoded to wrong size for signature";
  return `invalid value: ${unexpected(value)}, expected a ${format} string`;
}

/** An integer out of range: serde's u64 visitor for a negative one, else the bound (`u16` for 65535, Photon's Limit text otherwise). */
function outOfRange(value: unknown, max: unknown): string {
  if (typeof value !== "number" && typeof value !== "bigint") return `invalid type: ${unexpected(value)}, expected u64`;
  if (typeof value === "number" && (!Number.isInteger(value) || Object.is(value, -0))) return `invalid type: ${unexpected(value)}, expected u64`;
  if (value < 0 || max === undefined) return `invalid value: ${unexpected(value)}, expected u64`;
  if (max === 65535) return `invalid value: ${unexpected(value)}, expected u16`;
  if (max === 4294967295) return `invalid value: ${unexpected(value)}, expected u32`;
  return `invalid value: ${unexpected(value)}, expected a value less than or equal to ${String(max)}`;
}

/** serde's message for one issue of `root` (the params). */
export function serdeMessage(issue: ValidationIssue, root: unknown): string {
  const value = at(root, issue.pointer);
  // A literal past f64's range (`1E400`): serde_json refuses it while reading the text.
  if (typeof value === "number" && !Number.isFinite(value)) return "number out of range";
  const p = issue.params;
  switch (issue.keyword) {
    case "required":
      return `missing field \`${String(p.missingProperty)}\``;
    case "additionalProperties":
      return `unknown field \`${String(p.additionalProperty)}\``;
    case "type":
      return `invalid type: ${unexpected(value)}, expected ${expecting(p.type)}`;
    case "format":
      return formatText(String(p.format), value);
    case "uint64":
      return outOfRange(value, p.maximum);
    case "maximum":
      return outOfRange(value, p.limit);
    case "minimum":
      return outOfRange(value, undefined);
    case "integerLiteral":
      // An integral number written as a float (`1.0`, `1e0`, `-0`): serde_json reads an f64.
      return `invalid type: ${typeof value === "number" ? floatText(value) : unexpected(value)}, expected u64`;
    case "enum":
      return `unknown variant \`${String(value)}\`, expected ${oneOf((p.allowedValues as unknown[]) ?? [])}`;
    case "maxItems":
    case "minItems":
      return `invalid length ${Array.isArray(value) ? value.length : 0}, expected ${issue.keyword === "maxItems" ? "at most" : "at least"} ${String(p.limit)} elements`;
    default:
      return issue.message;
  }
}
