/**
 * Linear-time regular expressions (RE2, through the pure-JavaScript re2js): what generated
 * validators run a spec's `pattern` on and the conformance suite runs a case's patterns on, so no
 * pattern can backtrack on a hostile value. ECMAScript syntax RE2 cannot run in linear time
 * (lookarounds, backreferences) is refused when the pattern is compiled, never met while matching.
 */
import { RE2JS } from "re2js";
import { ClientErrorCode, PhotonError } from "./errors.js";

/** What a compiled pattern offers (ajv's `RegExpLike`). */
export interface LinearRegExp {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
  toString(): string;
}

/** A pattern RE2 cannot run, or one that is not a regular expression at all. */
export class PatternError extends PhotonError<typeof ClientErrorCode.UNSUPPORTED_PATTERN> {
  override name = "PatternError";
}

/** ECMAScript's `\s` (WhiteSpace and LineTerminator) as the inside of an RE2 class; RE2's own `\s` is ASCII only. */
const SPACE = "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** Its complement, for `\S` inside a class (where `[^…]` cannot nest). */
const NOT_SPACE =
  "\\x00-\\x08\\x0E-\\x1F\\x21-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";
const HEX4 = /^[0-9A-Fa-f]{4}$/;

/**
 * An ECMAScript pattern in RE2's syntax, same meaning: rewrites `\uXXXX`, `\u{…}`, `\cX`, `\s`, `.`,
 * `[]` and `[^]`; RE2 reads the rest alike and refuses what it cannot run.
 */
function toRe2(source: string, dotAll: boolean): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\" && i + 1 < source.length) {
      const next = source[i + 1]!;
      const hex4 = source.slice(i + 2, i + 6);
      if (next === "u" && HEX4.test(hex4)) {
        let point = Number.parseInt(hex4, 16);
        const low = source.slice(i + 8, i + 12);
        if (point >= 0xd800 && point <= 0xdbff && source.slice(i + 6, i + 8) === "\\u" && HEX4.test(low)) {
          const l = Number.parseInt(low, 16);
          if (l >= 0xdc00 && l <= 0xdfff) {
            point = 0x10000 + ((point - 0xd800) << 10) + (l - 0xdc00);
            i += 6;
          }
        }
        out += `\\x{${point.toString(16).toUpperCase()}}`;
        i += 5;
      } else if (next === "u" && source[i + 2] === "{") {
        out += "\\x{";
        i += 2;
      } else if (next === "c" && /^[A-Za-z]$/.test(source[i + 2] ?? "")) {
        out += `\\x{${(source.charCodeAt(i + 2) % 32).toString(16)}}`;
        i += 2;
      } else if (next === "s" || next === "S") {
        out += inClass ? (next === "s" ? SPACE : NOT_SPACE) : next === "s" ? `[${SPACE}]` : `[^${SPACE}]`;
        i += 1;
      } else {
        out += c + next;
        i += 1;
      }
    } else if (!inClass && c === "[") {
      if (source.startsWith("[]", i) || source.startsWith("[^]", i)) {
        out += source[i + 1] === "]" ? "[^\\x00-\\x{10FFFF}]" : "[\\x00-\\x{10FFFF}]";
        i += source[i + 1] === "]" ? 1 : 2;
        continue;
      }
      inClass = true;
      out += c;
      if (source[i + 1] === "^") out += source[++i];
    } else if (inClass && c === "]") {
      inClass = false;
      out += c;
    } else if (!inClass && c === "." && !dotAll) out += "[^\\n\\r\\x{2028}\\x{2029}]";
    else out += c;
  }
  return out;
}

/** Why RE2 refused `source`, in words a pattern's author acts on. */
function reason(message: string): string {
  const detail = message.replace(/^error parsing regexp: /, "");
  if (/`\(\?[=!]|`\(\?<[=!]|named capture: `\(\?<[=!]/.test(detail)) return `a lookaround cannot run in linear time (RE2: ${detail})`;
  if (/escape sequence: `\\([1-9]|k)/.test(detail)) return `a backreference cannot run in linear time (RE2: ${detail})`;
  return `not a valid regular expression for RE2: ${detail}`;
}

/**
 * `source` compiled for linear-time matching (`test` searches anywhere, as `RegExp#test`); flags
 * `u` (RE2 always reads code points), `i`, `m`, `s`. Throws PatternError for a pattern RE2 refuses.
 */
export function linearRegExp(source: string, flags = ""): LinearRegExp {
  let re2Flags = 0;
  for (const f of flags) {
    if (f === "i") re2Flags |= RE2JS.CASE_INSENSITIVE;
    else if (f === "m") re2Flags |= RE2JS.MULTILINE;
    else if (f === "s") re2Flags |= RE2JS.DOTALL;
    else if (f !== "u") throw new PatternError(ClientErrorCode.UNSUPPORTED_PATTERN, `unsupported regular expression flag "${f}"`);
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(toRe2(source, flags.includes("s")), re2Flags);
  } catch (err) {
    throw new PatternError(ClientErrorCode.UNSUPPORTED_PATTERN, reason((err as Error).message), { cause: err });
  }
  return {
    source,
    flags,
    test: (text: string) => compiled.test(text),
    toString: () => `/${source}/${flags}`,
  };
}

/** ajv's `code.regExp` engine: standalone validators import it from this package under this name. */
linearRegExp.code = "linearRegExp";
