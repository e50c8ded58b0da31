/**
 * Lossless JSON for JSON-RPC payloads that carry uint64 values.
 *
 * Integers within ±(2^53 - 1) surface as `number`; larger integers surface as `bigint`,
 * so a value such as 18446744073709551615 is never rounded. Everything else matches
 * `JSON.parse` / `JSON.stringify`.
 *
 * Parsing takes a fast path: when the text holds no run of 16 or more digits, no
 * integer in it can exceed 2^53, and the native parser is used. Otherwise the text
 * goes through lossless-json with a number parser that keeps big integers as bigint.
 */
import { parse as losslessParse } from "lossless-json";
import { randomBytes } from "node:crypto";

const LONG_DIGIT_RUN = /\d{16}/;
const INTEGER = /^-?\d+$/;

function parseNumber(text: string): number | bigint {
  if (INTEGER.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number(text);
}

/** Raised for text that is not JSON, or JSON nested too deeply to walk. */
export class JsonSyntaxError extends SyntaxError {
  override name = "JsonSyntaxError";
}

/** Parses JSON text without rounding integers above 2^53 (they become `bigint`). */
export function parseJson(text: string): unknown {
  try {
    if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
    return losslessParse(text, null, parseNumber);
  } catch (err) {
    if (err instanceof RangeError) throw new JsonSyntaxError("JSON is nested too deeply to parse");
    throw new JsonSyntaxError((err as Error).message);
  }
}

// A per-process marker: a bigint is first written as a marked string, then the quotes
// and marker are removed. The nonce makes it impossible for input strings to forge it.
const MARK = `\u0000${randomBytes(6).toString("hex")}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, "\\\\")}(-?\\d+)"`, "g");

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? MARK + value.toString() : value;
}

/** Serialises a value like `JSON.stringify`, writing `bigint` values as bare JSON integers. */
export function stringifyJson(value: unknown): string {
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
