/**
 * Lossless JSON for JSON-RPC payloads that carry uint64 values.
 *
 * Integers within ±(2^53 - 1) surface as `number`; larger integers surface as `bigint`,
 * so a value such as 18446744073709551615 is never rounded. Everything else matches
 * `JSON.parse` / `JSON.stringify`.
 *
 * Parsing is native: one scan of the text outside its strings finds the integers above
 * 2^53 and where they sit (array indexes, object keys); after `JSON.parse`, each rounded
 * number there is replaced by the bigint of its text. Text that is not JSON around such an
 * integer (and duplicate keys) goes through lossless-json, which parses it or says why.
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

// Where the scan is, per nesting level: in an array (and how many commas it has passed) or in
// an object, and where the level's bracket opened.
const IN_ARRAY = new Uint8Array(MAX_DEPTH + 2);
const INDEX = new Int32Array(MAX_DEPTH + 2);
const OPEN_AT = new Int32Array(MAX_DEPTH + 2);

/** The text is not JSON where a big integer sits: lossless-json parses it or says why. */
class NotJson {}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The object key whose value starts at `at`: `"key"` then `:` just before it. */
function keyBefore(text: string, at: number): string {
  let j = at - 1;
  while (isSpace(text.charCodeAt(j))) j--;
  if (text.charCodeAt(j) !== 0x3a) throw new NotJson();
  j--;
  while (isSpace(text.charCodeAt(j))) j--;
  if (text.charCodeAt(j) !== 0x22) throw new NotJson();
  const end = j;
  for (;;) {
    // The opening quote: the first one before that is not escaped.
    j = text.lastIndexOf('"', j - 1);
    if (j < 0) throw new NotJson();
    let k = j - 1;
    while (text.charCodeAt(k) === 0x5c) k--;
    if ((j - 1 - k) % 2 === 0) break;
  }
  const raw = text.slice(j + 1, end);
  return raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/**
 * One pass over the text outside its strings (skipped with indexOf): refuses more than
 * MAX_DEPTH arrays/objects open at once, and records each integer token whose value is not a
 * safe integer, with its path (array indexes and object keys, found only for those tokens).
 * Numbers with a fraction or an exponent are not integers. Text that is not JSON is left to
 * the parser.
 */
function scan(text: string, tokens: string[], paths: (string | number)[][]): void {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: one preceded by an even run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return;
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x2c) {
      if (IN_ARRAY[depth] === 1) INDEX[depth]!++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) throw new JsonSyntaxError(`JSON is nested more than ${MAX_DEPTH} levels deep`);
      IN_ARRAY[depth] = c === 0x5b ? 1 : 0;
      INDEX[depth] = 0;
      OPEN_AT[depth] = i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      const start = i;
      let j = c === 0x2d ? i + 1 : i;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d < 0x30 || d > 0x39) break;
        j++;
      }
      if (j - start >= 16) {
        const next = j < n ? text.charCodeAt(j) : 0;
        if (next !== 0x2e && next !== 0x65 && next !== 0x45) {
          const token = text.slice(start, j);
          if (!Number.isSafeInteger(Number(token))) {
            const path: (string | number)[] = [];
            for (let d = 1; d <= depth; d++) path.push(IN_ARRAY[d] === 1 ? INDEX[d]! : keyBefore(text, d < depth ? OPEN_AT[d + 1]! : start));
            tokens.push(token);
            paths.push(path);
          }
        }
      }
      i = j - 1;
    }
  }
}

/**
 * The native parser, then each integer above 2^53 put back exactly: its path is followed and
 * the rounded number there is replaced by the bigint of its text. Anything unexpected (text
 * that is not JSON around such a number, duplicate keys) goes to lossless-json, as before.
 */
function parseWithBigints(text: string): unknown {
  const tokens: string[] = [];
  const paths: (string | number)[][] = [];
  try {
    scan(text, tokens, paths);
  } catch (err) {
    if (err instanceof NotJson) return losslessParse(text, null, parseNumber);
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON after all: lossless-json says why (and where).
    return losslessParse(text, null, parseNumber);
  }
  if (tokens.length === 0) return value;
  if (paths[0]!.length === 0) return BigInt(tokens[0]!);
  for (let b = 0; b < tokens.length; b++) {
    const path = paths[b]!;
    const token = tokens[b]!;
    let node = value as Record<string | number, unknown>;
    const last = path.length - 1;
    for (let p = 0; p < last; p++) {
      const next = node[path[p]!];
      if (typeof next !== "object" || next === null) return losslessParse(text, null, parseNumber);
      node = next as Record<string | number, unknown>;
    }
    const key = path[last]!;
    const current = node[key];
    if (typeof current !== "number" || current !== Number(token)) return losslessParse(text, null, parseNumber);
    node[key] = BigInt(token);
  }
  return value;
}

/** Parses JSON text without rounding integers above 2^53 (they become `bigint`). */
export function parseJson(text: string): unknown {
  try {
    // Short text cannot nest deeper than the limit (valid JSON needs two brackets a level),
    // and without a run of 16 digits it holds no integer above 2^53.
    if (text.length <= 2 * MAX_DEPTH && !LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
    return parseWithBigints(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw err;
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

/** Whether a bigint sits anywhere in the value (stops at the first; objects with toJSON are left to it). */
function holdsBigint(value: unknown, depth: number): boolean {
  if (typeof value === "bigint") return true;
  if (typeof value !== "object" || value === null || depth > 256) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === "bigint" || (typeof v === "object" && v !== null && holdsBigint(v, depth + 1))) return true;
    }
    return false;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  for (const key in value) {
    const v: unknown = (value as Record<string, unknown>)[key];
    if (typeof v === "bigint" || (typeof v === "object" && v !== null && holdsBigint(v, depth + 1))) return true;
  }
  return false;
}

/** The value with each bigint replaced by its marked string (a copy; the input is not touched). */
function markBigints(value: unknown, depth: number): unknown {
  if (typeof value === "bigint") return MARK + value.toString();
  if (typeof value !== "object" || value === null || depth > 256) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = markBigints(value[i], depth + 1);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = markBigints((value as Record<string, unknown>)[key], depth + 1);
  return out;
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

/**
 * Serialises a value like `JSON.stringify`, writing `bigint` values as bare JSON integers.
 * The native serialiser runs without a replacer function (which makes it several times
 * slower): on the value itself when it holds no bigint, else on a copy with each bigint
 * marked, the marks then removed. Anything unusual on that path (a bigint from toJSON, a
 * cycle) takes the replacer path, which throws as JSON.stringify does.
 */
export function stringifyJson(value: unknown): string {
  try {
    const text = holdsBigint(value, 0) ? JSON.stringify(markBigints(value, 0))?.replace(MARKED, "$1") : JSON.stringify(value);
    return text === undefined ? "null" : text;
  } catch {
    return withReplacer(value);
  }
}
