/**
 * Lossless JSON parsing: an integer beyond ±(2^53 - 1) becomes a bigint, never rounded; else as JSON.parse.
 * One scan outside strings finds such integers and their paths, JSON.parse runs, and each is put back
 * from its text; text that is not JSON around one goes to lossless-json, which parses it or says why.
 */
import { parse as losslessParse } from "lossless-json";
import { applyMarks, type Marks } from "./marks.js";

const LONG_DIGIT_RUN = /\d{16}/;
/** Text without a digit before `.`/`e`/`E` and without `-0` holds no non-integer literal. */
const NON_INTEGER_HINT = /\d[.eE]|-0/;

export interface ParseOptions {
  /** Record objects in which a key is written twice (see `duplicateKeyIn`). */
  readonly duplicateKeys?: boolean;
}

const INTEGER = /^-?\d+$/;

function parseNumber(text: string): number | bigint {
  if (text.length > MAX_NUMBER_CHARS) throw tooLong(text.length); // lossless-json's path (text not JSON around it)
  if (INTEGER.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number(text);
}

/** Raised for text that is not JSON, JSON nested too deeply to walk, or a number literal too long to read. */
export class JsonSyntaxError extends SyntaxError {
  override name = "JsonSyntaxError";
}

/** Deeper JSON is refused (serde_json stops at 128): JSON.parse reads it, but every recursive walk after it would overflow the stack. */
const MAX_DEPTH = 512;

/**
 * The longest number literal read (a u64 has at most 20 characters, a serde_json f64 at most 24); a
 * longer one is refused before parsing, since parsing it takes time that grows faster than its length.
 */
export const MAX_NUMBER_CHARS = 40;

/** The refusal of a number literal longer than MAX_NUMBER_CHARS (at character `at` of the text, when known). */
function tooLong(length: number, at?: number): JsonSyntaxError {
  const where = at === undefined ? "" : ` at character ${at}`;
  return new JsonSyntaxError(
    `a number literal of ${length} characters${where}: longer than the ${MAX_NUMBER_CHARS} any valid value needs (u64: 20, f64: 24); not parsed`,
  );
}

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
 * One pass outside strings: refuses more than MAX_DEPTH open arrays/objects and records each integer
 * token that is not a safe integer, with its path. Text that is not JSON is left to the parser.
 */
function scan(text: string, tokens: string[], rounded: number[], paths: (string | number)[][], marks: Marks): void {
  let depth = 0;
  const n = text.length;
  // The key of each level read for the last path, and where the container it names opened: the
  // next token in the same containers (the next item's amount) reads none of them again.
  const keyAt: (string | undefined)[] = [];
  const keyFor: number[] = [];
  /** The path of the value starting at `at` (array indexes and object keys), found only for tokens that need it. */
  const pathTo = (at: number): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let d = 1; d <= depth; d++) {
      if (IN_ARRAY[d] === 1) {
        path.push(INDEX[d]!);
        continue;
      }
      const before = d < depth ? OPEN_AT[d + 1]! : at;
      let key = keyAt[d];
      if (key === undefined || keyFor[d] !== before) {
        key = keyAt[d] = keyBefore(text, before);
        keyFor[d] = before;
      }
      path.push(key);
    }
    return path;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const open = i;
      // To the closing quote: one preceded by an even run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return;
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
      if (marks.keys !== null && IN_ARRAY[depth] === 0 && depth > 0) {
        let j = i + 1;
        while (isSpace(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) === 0x3a) {
          const raw = text.slice(open + 1, i);
          let key = raw;
          if (raw.includes("\\")) {
            try {
              key = JSON.parse(`"${raw}"`) as string;
            } catch {
              continue; // not JSON: the parser says why
            }
          }
          const seen = (marks.keys[depth] ??= new Set());
          if (seen.has(key)) {
            const path: (string | number)[] = [];
            for (let d = 1; d < depth; d++) path.push(IN_ARRAY[d] === 1 ? INDEX[d]! : keyBefore(text, OPEN_AT[d + 1]!));
            marks.duplicates.push({ path, key });
          } else seen.add(key);
        }
      }
    } else if (c === 0x2c) {
      if (IN_ARRAY[depth] === 1) INDEX[depth]!++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) throw new JsonSyntaxError(`JSON is nested more than ${MAX_DEPTH} levels deep`);
      IN_ARRAY[depth] = c === 0x5b ? 1 : 0;
      INDEX[depth] = 0;
      OPEN_AT[depth] = i;
      if (marks.keys !== null) marks.keys[depth]?.clear();
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
      const next = j < n ? text.charCodeAt(j) : 0;
      if (next === 0x2e || next === 0x65 || next === 0x45) {
        // A fraction or an exponent: to the token's end, then remember how it was written.
        let e = j + 1;
        while (e < n) {
          const d = text.charCodeAt(e);
          if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d)) break;
          e++;
        }
        if (e - start > MAX_NUMBER_CHARS) throw tooLong(e - start, start);
        marks.literals.push({ path: pathTo(start), token: text.slice(start, e) });
        j = e;
      } else if (j - start > MAX_NUMBER_CHARS) {
        throw tooLong(j - start, start);
      } else if (c === 0x2d && j === start + 2 && text.charCodeAt(start + 1) === 0x30) {
        marks.literals.push({ path: pathTo(start), token: "-0" }); // serde reads -0 as a float
      } else if (j - start >= 16) {
        const token = text.slice(start, j);
        const number = Number(token);
        if (!Number.isSafeInteger(number)) {
          tokens.push(token);
          rounded.push(number);
          paths.push(pathTo(start));
        }
      }
      i = j - 1;
    }
  }
}

/**
 * The native parser, then each integer above 2^53 put back exactly: its path is followed and
 * the rounded number there is replaced by the bigint of its text. Anything unexpected (text
 * that is not JSON around such a number, duplicate keys) goes to lossless-json.
 */
function parseWithBigints(text: string, options: ParseOptions | undefined): unknown {
  const tokens: string[] = [];
  const rounded: number[] = [];
  const paths: (string | number)[][] = [];
  const marks: Marks = { literals: [], duplicates: [], keys: options?.duplicateKeys ? [] : null };
  try {
    scan(text, tokens, rounded, paths, marks);
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
  if (tokens.length > 0) value = withBigints(text, value, tokens, rounded, paths, marks.duplicates.length > 0);
  if (marks.literals.length > 0 || marks.duplicates.length > 0) applyMarks(value, marks);
  return value;
}

/** The parsed value with each rounded integer at `paths` (`rounded`: the number JSON.parse made of each token) replaced by the bigint of its token. */
function withBigints(
  text: string,
  value: unknown,
  tokens: readonly string[],
  rounded: readonly number[],
  paths: readonly (string | number)[][],
  duplicates: boolean,
): unknown {
  if (paths[0]!.length === 0) return BigInt(tokens[0]!);
  // The containers the last path went through: a path sharing its first steps starts from there.
  const nodes: Record<string | number, unknown>[] = [value as Record<string | number, unknown>];
  let previous: readonly (string | number)[] = [];
  nextToken: for (let b = 0; b < tokens.length; b++) {
    const path = paths[b]!;
    const token = tokens[b]!;
    const last = path.length - 1;
    let p = 0;
    while (p < last && p < previous.length - 1 && path[p] === previous[p]) p++;
    let node = nodes[p]!;
    for (; p < last; p++) {
      const next = node[path[p]!];
      if (typeof next !== "object" || next === null) {
        // Inside a value a later duplicate key wrote over (JSON.parse kept the last): the next path starts from the root.
        if (duplicates) {
          previous = [];
          continue nextToken;
        }
        return losslessParse(text, null, parseNumber);
      }
      node = nodes[p + 1] = next as Record<string | number, unknown>;
    }
    previous = path;
    const key = path[last]!;
    const current = node[key];
    if (current !== rounded[b]) {
      if (duplicates) continue; // a value written over by a later duplicate key: JSON.parse kept the last
      return losslessParse(text, null, parseNumber);
    }
    node[key] = BigInt(token);
  }
  return value;
}

/**
 * Parses JSON text without rounding integers above 2^53 (they become `bigint`), noting numbers
 * not written as integers (`nonIntegerLiteral`) and, when asked, keys written twice (`duplicateKeyIn`).
 */
export function parseJson(text: string, options?: ParseOptions): unknown {
  try {
    // Short text cannot nest deeper than the limit (valid JSON needs two brackets a level),
    // without a run of 16 digits it holds no integer above 2^53, and without a digit before
    // `.`/`e` or a `-0` no number written otherwise than as an integer.
    if (text.length <= 2 * MAX_DEPTH && !LONG_DIGIT_RUN.test(text) && !NON_INTEGER_HINT.test(text) && !options?.duplicateKeys) return JSON.parse(text);
    return parseWithBigints(text, options);
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
