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

/** Where the text's integers of 16 or more digits (outside strings) start and end. */
interface Scan {
  readonly tooDeep: boolean;
  readonly big: number[];
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * One pass over the text outside its strings (skipped with indexOf): whether more than
 * `MAX_DEPTH` arrays/objects are open at once, and the spans of integer literals of 16 or more
 * digits (the only ones that can pass 2^53). Text that is not JSON is left to the parser.
 */
function scan(text: string): Scan {
  let depth = 0;
  const big: number[] = [];
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      let end = i + 1;
      while (end < n && isDigit(text.charCodeAt(end))) end++;
      const after = end < n ? text.charCodeAt(end) : 0;
      const before = i > 0 ? text.charCodeAt(i - 1) : 0;
      // An integer literal: not the fraction or exponent of a float, nor followed by one.
      if (end - i >= 16 && after !== 0x2e && after !== 0x65 && after !== 0x45 && before !== 0x2e && before !== 0x65 && before !== 0x45 && before !== 0x2b) {
        big.push(before === 0x2d ? i - 1 : i, end);
      }
      i = end - 1;
    } else if (c === 0x22) {
      // To the closing quote: one preceded by an even run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return { tooDeep: false, big };
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return { tooDeep: true, big };
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return { tooDeep: false, big };
}

/**
 * The fast lossless path: big integer literals are rewritten as marked strings, the native
 * parser runs, and the marked strings become bigint (or number, when safe) in one walk.
 */
function parseMarked(text: string, big: readonly number[]): unknown {
  let out = "";
  let last = 0;
  for (let j = 0; j < big.length; j += 2) {
    out += `${text.slice(last, big[j])}"${MARK_IN_JSON}${text.slice(big[j], big[j + 1])}"`;
    last = big[j + 1]!;
  }
  return revive(JSON.parse(out + text.slice(last)));
}

function reviveString(s: string): unknown {
  if (!s.startsWith(MARK)) return s;
  const digits = s.slice(MARK.length);
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : BigInt(digits);
}

function revive(value: unknown): unknown {
  if (typeof value === "string") return reviveString(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v = node[i];
        if (typeof v === "string") {
          if (v.charCodeAt(0) === 0) node[i] = reviveString(v);
        } else if (v !== null && typeof v === "object") stack.push(v);
      }
    } else if (node !== null && typeof node === "object") {
      const o = node as Record<string, unknown>;
      for (const k in o) {
        const v = o[k];
        if (typeof v === "string") {
          if (v.charCodeAt(0) === 0) o[k] = reviveString(v);
        } else if (v !== null && typeof v === "object") stack.push(v);
      }
    }
  }
  return value;
}

/** Parses JSON text without rounding integers above 2^53 (they become `bigint`). */
export function parseJson(text: string): unknown {
  // Short text cannot nest deeper than the limit (valid JSON needs two brackets a level).
  if (text.length <= 2 * MAX_DEPTH && !LONG_DIGIT_RUN.test(text)) return parseNative(text);
  const { tooDeep, big } = scan(text);
  if (tooDeep) throw new JsonSyntaxError(`JSON is nested more than ${MAX_DEPTH} levels deep`);
  if (big.length === 0) return parseNative(text);
  try {
    return parseMarked(text, big);
  } catch {
    // Not JSON after all: let the lossless parser say why.
    try {
      return losslessParse(text, null, parseNumber);
    } catch (err) {
      if (err instanceof RangeError) throw new JsonSyntaxError("JSON is nested too deeply to parse");
      throw new JsonSyntaxError(withoutExcerpt((err as Error).message));
    }
  }
}

function parseNative(text: string): unknown {
  try {
    return JSON.parse(text);
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
/** The marker as it is written inside a JSON string (its NUL escaped). */
const MARK_IN_JSON = JSON.stringify(MARK).slice(1, -1);
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
