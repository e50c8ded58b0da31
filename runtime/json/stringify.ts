/**
 * Writing JSON-RPC payloads losslessly: bigints as their digits (never as strings or rounded),
 * values marked by `encodeOnce` spliced in as their text, everything else as `JSON.stringify`.
 */
import { randomBytes } from "node:crypto";

// A per-process marker: a bigint is first written as a marked string, then the quotes
// and marker are removed. The nonce makes it impossible for input strings to forge it.
const MARK = `\u0000${randomBytes(6).toString("hex")}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, "\\\\")}(-?\\d+)"`, "g");

/**
 * The JSON text of a value made by `encodeOnce`: a symbol the package does not export, so nothing
 * parsed from outside (JSON, YAML, a request) can carry it, and only `encodeOnce` sets it.
 */
export const ENCODED: unique symbol = Symbol("encoded JSON");
export type Encoded = { readonly [ENCODED]?: string };

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? MARK + value.toString() : value;
}

/** Bits of what `inspect` found in a value: a bigint, an encoded value (`encodeOnce`). */
const HOLDS_BIGINT = 1;
const HOLDS_ENCODED = 2;

/**
 * Which of a bigint and an encoded value (`encodeOnce`) sit in the value: stops once both are
 * found, does not enter encoded values (their text is final) nor objects with toJSON (left to it).
 */
function inspect(value: unknown, depth: number): number {
  if (typeof value === "bigint") return HOLDS_BIGINT;
  if (typeof value !== "object" || value === null || depth > 256) return 0;
  let found = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && found !== 3; i++) {
      const v: unknown = value[i];
      if (typeof v === "bigint") found |= HOLDS_BIGINT;
      else if (typeof v === "object" && v !== null) found |= inspect(v, depth + 1);
    }
    return found;
  }
  if ((value as Encoded)[ENCODED] !== undefined) return HOLDS_ENCODED;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return 0;
  for (const key in value) {
    const v: unknown = (value as Record<string, unknown>)[key];
    if (typeof v === "bigint") found |= HOLDS_BIGINT;
    else if (typeof v === "object" && v !== null) found |= inspect(v, depth + 1);
    if (found === 3) break;
  }
  return found;
}

/** Whether a bigint sits anywhere in the value (objects with toJSON are left to it). */
function holdsBigint(value: unknown, depth: number): boolean {
  return (inspect(value, depth) & HOLDS_BIGINT) !== 0;
}

/**
 * The value with each bigint replaced by its marked string; the input is not touched. Copies
 * only the arrays and objects on the way to a bigint (the rest is shared): records carry one
 * u64 among many fields, and copying every one of them was most of the cost.
 */
function markBigints(value: unknown, depth: number): unknown {
  if (typeof value === "bigint") return MARK + value.toString();
  if (typeof value !== "object" || value === null || depth > 256) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const m = typeof v === "bigint" || (typeof v === "object" && v !== null) ? markBigints(v, depth + 1) : v;
      if (m !== v) (out ??= value.slice())[i] = m;
    }
    return out ?? value;
  }
  const keys = Object.keys(value);
  let out: Record<string, unknown> | null = null;
  for (let k = 0; k < keys.length; k++) {
    const v: unknown = (value as Record<string, unknown>)[keys[k]!];
    const m = typeof v === "bigint" || (typeof v === "object" && v !== null) ? markBigints(v, depth + 1) : v;
    if (m === v && out === null) continue;
    if (out === null) {
      out = {};
      for (let j = 0; j < k; j++) own(out, keys[j]!, (value as Record<string, unknown>)[keys[j]!]);
    }
    own(out, keys[k]!, m);
  }
  return out ?? value;
}

/** Sets an own enumerable property, `__proto__` included (an assignment would set the prototype instead). */
function own(target: Record<string, unknown>, key: string, v: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value: v, enumerable: true, writable: true, configurable: true });
  else target[key] = v;
}

function withReplacer(value: unknown): string {
  let sawBigint = false;
  const text = JSON.stringify(value, (key, v: unknown) => {
    if (typeof v === "bigint") {
      sawBigint = true;
      return bigintReplacer(key, v);
    }
    return v;
  });
  if (text === undefined) return "null";
  return sawBigint ? text.replace(MARKED, "$1") : text;
}

/** A value's JSON text on the native path: as is, or a copy with its bigints marked then unmarked. */
function plainText(value: unknown): string | undefined {
  return holdsBigint(value, 0) ? JSON.stringify(markBigints(value, 0))?.replace(MARKED, "$1") : JSON.stringify(value);
}

/**
 * Writes a value holding encoded values by walking its plain objects and arrays with JSON.stringify's
 * rules, writing each encoded value's kept text; anything else is written natively. Undefined where JSON omits it.
 */
function spliced(value: unknown, depth: number): string | undefined {
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const encoded = (value as Encoded)[ENCODED];
  if (encoded !== undefined) return encoded;
  if (depth > 256 || typeof (value as { toJSON?: unknown }).toJSON === "function") return plainText(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const text = spliced(value[i], depth + 1);
      out += i === 0 ? (text ?? "null") : `,${text ?? "null"}`;
    }
    return `${out}]`;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return plainText(value);
  let out = "{";
  for (const key of Object.keys(value)) {
    const text = spliced((value as Record<string, unknown>)[key], depth + 1);
    if (text === undefined) continue;
    out += `${out.length === 1 ? "" : ","}${JSON.stringify(key)}:${text}`;
  }
  return `${out}}`;
}

/**
 * `JSON.stringify` that writes `bigint` values as bare JSON integers and encoded values (`encodeOnce`)
 * as their kept text. A bigint from toJSON or a cycle throws as JSON.stringify does.
 */
export function stringifyJson(value: unknown): string {
  try {
    const found = inspect(value, 0);
    const text =
      found === 0 ? JSON.stringify(value) : (found & HOLDS_ENCODED) !== 0 ? spliced(value, 0) : JSON.stringify(markBigints(value, 0))?.replace(MARKED, "$1");
    return text === undefined ? "null" : text;
  } catch {
    return withReplacer(value);
  }
}
