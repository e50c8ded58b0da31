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
 *
 * Either way, JSON nested more than 512 arrays/objects deep is refused (as serde_json
 * refuses past 128): the native parser would accept it, and every recursive walk after it
 * (validators, `JSON.stringify`, deep equality) would overflow the stack.
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

const MAX_DEPTH = 512;
const TOO_DEEP = -1;

/**
 * One pass over the text outside its strings (skipped with indexOf): -1 when more than
 * `MAX_DEPTH` arrays/objects are open at once, else the longest run of digits (the length
 * of the longest number's digit string). Text that is not JSON is left to the parser.
 */
function scan(text: string): number {
  let depth = 0;
  let run = 0;
  let longest = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++run > longest) longest = run;
      continue;
    }
    run = 0;
    if (c === 0x22) {
      // To the closing quote: one preceded by an even run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return longest;
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return TOO_DEEP;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return longest;
}

/** Parses JSON text without rounding integers above 2^53 (they become `bigint`). */
export function parseJson(text: string): unknown {
  // Short text cannot nest deeper than the limit (valid JSON needs two brackets a level).
  const digits = text.length <= 2 * MAX_DEPTH ? (LONG_DIGIT_RUN.test(text) ? 16 : 0) : scan(text);
  if (digits === TOO_DEEP) throw new JsonSyntaxError(`JSON is nested more than ${MAX_DEPTH} levels deep`);
  try {
    if (digits < 16) return JSON.parse(text);
    return losslessParse(text, null, parseNumber);
  } catch (err) {
    if (err instanceof RangeError) throw new JsonSyntaxError("JSON is nested too deeply to parse");
    throw new JsonSyntaxError(withoutExcerpt((err as Error).message));
  }
}

/**
 * V8 quotes up to ten characters of the text in its messages (`Unexpected token 'h', "hk_live_5f"...
 * is not valid JSON`). A body may carry a credential, and a cut one escapes redaction: keep the reason only.
 */
function withoutExcerpt(message: string): string {
  return message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, " in JSON");
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
