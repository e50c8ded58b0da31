/**
 * The one layer between spec text and generated code: spec text is never concatenated into code
 * (as in ajv's codegen); each string reaches an output through the function of its sink:
 * identifiers `identifier`, keys `typeKey` / `objectKey`, string literals `stringLiteral` / `literal`,
 * comments `commentText` / `commentLine`, ajv ids `schemaId`, markdown `mdCode` / `mdText`, and
 * templates `compileTemplate` (every `{{value}}` through a helper). openapi-typescript's types.ts
 * escapes for itself; the injection test checks both.
 */
import Handlebars from "handlebars";
import { internalError } from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode } from "../errors.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** ES reserved words and literals: never a binding name, even where a member name may be one. */
const RESERVED_WORDS = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof let new null return static super switch this throw true try typeof var void while with yield implements interface package private protected public"
  ).split(" "),
);

/** A generated binding name. Throws (a generator bug, not a spec fault) if it is not a plain identifier. */
export function identifier(name: string): string {
  if (!IDENTIFIER.test(name) || RESERVED_WORDS.has(name))
    throw internalError(GenErrorCode.INTERNAL, `photon-gen: internal error: ${JSON.stringify(name)} is not a safe identifier`);
  return name;
}

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

const LINE_BREAKS = /[\u2028\u2029]/g;

/** A JavaScript/TypeScript string literal (double quotes; lone surrogates and U+2028/9 escaped). */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replace(LINE_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A property name in an interface or type literal. */
export function typeKey(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

/** A property name in an object literal: `__proto__` is computed, so it names a property and never sets the prototype. */
export function objectKey(name: string): string {
  if (name === "__proto__") return `[${stringLiteral(name)}]`;
  return typeKey(name);
}

/** The line width of the repository's formatter (biome.json), which generated code keeps to. */
export const LINE_WIDTH = 160;

/**
 * A value as a TypeScript literal that reads as hand-written: identifier keys unquoted,
 * short lists of primitives on one line, nested objects indented.
 */
export function literal(value: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const parts = value.map((v) => literal(v, inner));
    const flat = `[${parts.join(", ")}]`;
    if (value.every((v) => v === null || typeof v !== "object") && flat.length <= 100) return flat;
    return `[\n${parts.map((p) => `${inner}${p},`).join("\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const entry = ([k, v]: [string, unknown]) => {
      const line = `${inner}${objectKey(k)}: ${literal(v, inner)},`;
      // A string too long for the line goes on the next one, as the formatter (biome.json) puts it.
      return typeof v === "string" && line.length > LINE_WIDTH ? `${inner}${objectKey(k)}:\n${inner}  ${literal(v, inner)},` : line;
    };
    return `{\n${entries.map(entry).join("\n")}\n${indent}}`;
  }
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "boolean" || value === null) return String(value);
  throw internalError(GenErrorCode.INTERNAL, `photon-gen: internal error: cannot write a ${typeof value} as a literal`);
}

function hex4(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Characters shown escaped (`\uXXXX`) in comments and markdown: C0/C1 controls (tab and line
 * feed excepted), DEL, bidi overrides (trojan-source), BOM, and lone surrogates, which a UTF-8
 * file cannot hold (the written bytes would differ from the text and `check` would see it stale).
 */
const UNPRINTABLE =
  /[\0-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text inside a block or JSDoc comment: `*\/` cannot close it; line breaks become `\n`. */
export function commentText(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(UNPRINTABLE, hex4)
    .replace(/\*\//g, "*\\/");
}

/** Text on one line of a comment (a line comment, or a banner line): line breaks shown as `\n`. */
export function commentLine(text: string): string {
  return commentText(text).replace(/\n/g, "\\n");
}

/** JSDoc paragraphs for ts-morph's `docs`: the non-empty ones, joined by a blank line. */
export function docLines(...lines: (string | null | undefined)[]): string[] {
  const text = lines.filter((l): l is string => !!l && l.trim() !== "").join("\n\n");
  return text ? [commentText(text)] : [];
}

/**
 * An ajv schema id made of fixed text and a name: ajv writes ids into a `sourceURL` comment of
 * validators.ts, so anything but `[A-Za-z0-9_-]` in the name is written `%uXXXX`.
 */
export function schemaId(prefix: string, name: string, suffix: string): string {
  return `${prefix}${name.replace(/[^A-Za-z0-9_-]/g, (c) => `%u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}${suffix}`;
}

/** Inline code in markdown (a table cell): a fence longer than any backtick run, `|` escaped, controls shown escaped. */
export function mdCode(text: string): string {
  const body = text
    .replace(/\r\n?|[\n\u2028\u2029]/g, "\\n")
    .replace(UNPRINTABLE, hex4)
    .replace(/\|/g, "\\|");
  const longest = Math.max(0, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = body.startsWith("`") || body.endsWith("`") || body === "" ? " " : "";
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** Plain markdown text: markup characters backslash-escaped, so no link, image, HTML or table break is read from it. */
export function mdText(text: string): string {
  return text
    .replace(/\r\n?|[\n\u2028\u2029]/g, " ")
    .replace(UNPRINTABLE, hex4)
    .replace(/[\\`*_[\]<>|!&~#]/g, "\\$&");
}

const HELPERS: Record<string, (text: string) => string> = { commentLine, mdCode, mdText };

/** The names of every `{{value}}` in a template that is not passed through one of the sink helpers. */
function rawMustaches(program: hbs.AST.Program): string[] {
  const raw: string[] = [];
  const walk = (node: hbs.AST.Node | null | undefined): void => {
    if (!node) return;
    if (node.type === "Program") (node as hbs.AST.Program).body.forEach(walk);
    else if (node.type === "MustacheStatement") {
      const m = node as hbs.AST.MustacheStatement;
      const helper = m.path.type === "PathExpression" ? (m.path as hbs.AST.PathExpression).original : "";
      if (!(helper in HELPERS) || m.params.length !== 1) raw.push(helper || m.path.type);
    } else if (node.type === "BlockStatement") {
      const b = node as hbs.AST.BlockStatement;
      walk(b.program);
      walk(b.inverse);
    }
  };
  walk(program);
  return raw;
}

const handlebars = Handlebars.create();
// Handlebars' `strict` does not reach helper arguments: a misspelled name would render empty, so
// the helpers refuse a missing value themselves (a template bug: an internal error).
for (const [name, fn] of Object.entries(HELPERS)) {
  handlebars.registerHelper(name, (value: unknown, options: { loc?: { start: { line: number } } }) => {
    if (value === undefined)
      throw internalError(
        GenErrorCode.INTERNAL,
        `template value passed to ${name} is missing (${options.loc ? `line ${options.loc.start.line}` : "unknown line"})`,
      );
    return fn(String(value ?? ""));
  });
}

/**
 * Compiles a handlebars template whose every `{{value}}` goes through a sink helper
 * (`{{commentLine title}}`, `{{mdCode name}}`, `{{mdText title}}`); a bare `{{value}}` is refused.
 */
export function compileTemplate(name: string, source: string): Handlebars.TemplateDelegate {
  const raw = rawMustaches(handlebars.parse(source));
  if (raw.length > 0)
    throw new GenError(GenErrorCode.TEMPLATE, `template ${name} writes ${raw.join(", ")} without an escaping helper (${Object.keys(HELPERS).join(", ")})`, {
      file: name,
    });
  return handlebars.compile(source, {
    noEscape: true,
    strict: true,
    knownHelpers: Object.fromEntries(Object.keys(HELPERS).map((h) => [h, true])),
    knownHelpersOnly: false,
  });
}
