/**
 * The one escaping layer of the reporters: every string from outside reaches an output only through
 * its sink's function here (`forConsole`, `forShell`, `forMarkdown…`, `forXml`, `forHtml`, `forGithub…`,
 * `forJson`). `redactSummary` runs before any escape, so an escape never hides a secret from the
 * redactor; escapes leave the characters secrets are made of untouched where the sink allows.
 */
import { stringifyJson, visibleText } from "@photon-indexer-kit/runtime";
import type { CaseResult, Exchange, RunSummary } from "../../results.js";

/** Masks secrets in a text (a `Redactor` from runtime/redact.ts). */
export type Redact = (text: string) => string;

/**
 * What no output may hold raw: control characters (C0, DEL, C1: ESC and CSI start terminal
 * sequences, CR and LF start lines), format characters (bidi overrides and isolates, zero
 * widths), the line and paragraph separators, lone surrogates, and U+FFFE/U+FFFF.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/gu;
const IS_INVISIBLE = new RegExp(INVISIBLE.source, "u");
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** Each invisible character replaced by its escape: a value stays on its line and shows what it holds (the runtime's one console escaping). */
const visible = visibleText;

// ---------------------------------------------------------------------------------------
// Console: nothing can move the cursor, colour, clear, link or start a line; a backslash is
// left as it is, so a sent `\x1b` reads like an escaped ESC but is never a control character.

export const forConsole = visible;

// ---------------------------------------------------------------------------------------
// Shell: a word pasted into bash or zsh is exactly the value, never code.

/** A character inside `$'…'`: backslash escapes for quotes and invisibles (UTF-8 through `\u`). */
function ansiC(c: string): string {
  if (c === "\\" || c === "'") return `\\${c}`;
  if (c === "!") return "\\x21";
  if (!IS_INVISIBLE.test(c)) return c;
  const named = NAMED[c];
  if (named !== undefined) return named;
  const cp = c.codePointAt(0)!;
  // A lone surrogate went out as U+FFFD (UTF-8 cannot carry it).
  if (cp >= 0xd800 && cp <= 0xdfff) return "\\ufffd";
  return cp < 0x80 ? `\\x${hex(cp, 2)}` : cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
}

/**
 * One shell word: `'…'` (a `'` written `'\''`) when the value is all visible, else bash/zsh
 * ANSI-C quoting `$'…'` with every invisible character escaped. Nothing inside either form
 * (`$(…)`, backticks, `!`) is expanded.
 */
export function forShell(value: string): string {
  if (!IS_INVISIBLE.test(value)) return `'${value.replace(/'/g, `'\\''`)}'`;
  return `$'${Array.from(value, ansiC).join("")}'`;
}

// ---------------------------------------------------------------------------------------
// Markdown certificate: nothing from outside renders as HTML, an image, a link, a code span,
// a heading, emphasis or math, breaks a table row or leaves its line.

const ENTITY: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * Text for a paragraph or table cell: HTML's `& < > "` as entities, markdown's special characters
 * backslash-escaped, autolinks broken, invisible characters shown escaped.
 */
export function forMarkdown(text: string): string {
  return visible(text)
    .replace(/[&<>"]/g, (c) => ENTITY[c]!)
    .replace(/[\\`*[\]|$]/g, "\\$&")
    .replace(/_/g, (c, at: number, s: string) => (/[\p{L}\p{N}]/u.test(s[at - 1] ?? "") && /[\p{L}\p{N}]/u.test(s[at + 1] ?? "") ? c : "\\_"))
    .replace(/^#/, "\\#")
    .replace(/:(?=\/\/)/g, "&#58;")
    .replace(/(www)\./gi, "$1&#46;")
    .replace(/@/g, "&#64;");
}

/** What a code span may hold as is: no backtick, pipe, bracket, HTML or backslash. */
const CODE_SAFE = /^[\p{L}\p{N} _.,:;/?=+~*%#@!(){}'^-]+$/u;

/** A value shown as code: a code span when it is plain, else its escaped text inside `<code>`. */
export function forMarkdownCode(text: string): string {
  return CODE_SAFE.test(text) ? `\`${text}\`` : `<code>${forMarkdown(text)}</code>`;
}

/** JSON for a fenced block: valid JSON still, with `< > &` and backticks written as `\u…`. */
export function forMarkdownJson(value: unknown): string {
  return forJson(value).replace(/[<>&`]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}

// ---------------------------------------------------------------------------------------
// JUnit XML: well-formed XML 1.0 whatever the input.

const XML_ENTITY: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/**
 * An attribute value or text content. Characters XML 1.0 cannot hold (C0 controls but tab,
 * lone surrogates, U+FFFE/U+FFFF) and the other invisibles are replaced by their visible
 * escapes; `& < > " '` become entities (so no `]]>` either).
 */
export function forXml(text: string): string {
  return visible(text).replace(/[&<>"']/g, (c) => XML_ENTITY[c]!);
}

// ---------------------------------------------------------------------------------------
// HTML report: nothing from outside becomes markup, an attribute, a URL or a character
// reference; the page's Content-Security-Policy (no script, no network) is the second net.

const HTML_ENTITY: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text content or a quoted attribute value (`"…"` or `'…'`): invisible characters shown
 * escaped (no raw newline, bidi override or NUL), then `& < > " '` as references.
 */
export function forHtml(text: string): string {
  return visible(text).replace(/[&<>"']/g, (c) => HTML_ENTITY[c]!);
}

/**
 * At most `max` characters (code points, so no surrogate pair is cut in two) and `…` when cut:
 * a long outside string is shortened before its sink escapes it.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max).join("")}…`;
}

// ---------------------------------------------------------------------------------------
// GitHub Actions workflow commands: a message cannot end its command or start another.

/**
 * A command's data (the message after `::`): `%`, CR and LF percent-encoded. Outside strings
 * in it must already have gone through `forConsole` (a value's own newlines shown as `\n`,
 * its escapes visible); only the newlines the reporter puts between lines stay as %0A.
 */
export function forGithubData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A property value (`title=…`): visible, then the data encoding plus `:` and `,`. */
export function forGithubProperty(text: string): string {
  return forGithubData(visible(text)).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

// ---------------------------------------------------------------------------------------
// JSON: `stringifyJson` (bigint kept exact, lone surrogates written `\ud800`), with the
// invisibles JSON.stringify leaves raw (DEL, C1, format characters, U+2028/2029) as `\u…`.

const JSON_RAW = /[\u007f-\u009f\p{Cf}\u2028\u2029\uFFFE\uFFFF]/gu;

export function forJson(value: unknown): string {
  return stringifyJson(value).replace(JSON_RAW, (c) =>
    c.length === 1 ? `\\u${hex(c.charCodeAt(0), 4)}` : `\\u${hex(c.charCodeAt(0), 4)}\\u${hex(c.charCodeAt(1), 4)}`,
  );
}

// ---------------------------------------------------------------------------------------
// Redaction before escaping: every outside string a reporter may show, redacted one by one.

function redactDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact)]));
  return value;
}

function redactExchange(x: Exchange, redact: Redact): Exchange {
  const text = (s: string | null) => (s === null ? null : redact(s));
  return {
    ...x,
    request: redactDeep(x.request, redact) as Exchange["request"],
    headers: redactDeep(x.headers, redact) as Exchange["headers"],
    text: redact(x.text),
    parseError: text(x.parseError),
    error: text(x.error),
  };
}

function redactResult(r: CaseResult, redact: Redact): CaseResult {
  return {
    ...r,
    id: redact(r.id),
    method: redact(r.method),
    description: redact(r.description),
    ...(r.file !== undefined ? { file: redact(r.file) } : {}),
    ...(r.derivedFrom !== undefined ? { derivedFrom: { file: redact(r.derivedFrom.file), pointer: redact(r.derivedFrom.pointer) } } : {}),
    findings: r.findings.map((f) => redactDeep(f, redact) as CaseResult["findings"][number]),
    exchange: r.exchange && redactExchange(r.exchange, redact),
    ...(r.against ? { against: redactExchange(r.against, redact) } : {}),
  };
}

/**
 * The summary with each shown string passed through `redact` before any sink escapes it, since an
 * escape (`|` to `\|`) would hide a secret from a redactor run over the finished text.
 */
export function redactSummary(summary: RunSummary, redact: Redact): RunSummary {
  return {
    ...summary,
    target: redact(summary.target),
    spec: redactDeep(summary.spec, redact) as RunSummary["spec"],
    options: redactDeep(summary.options, redact) as RunSummary["options"],
    results: summary.results.map((r) => redactResult(r, redact)),
    ...(summary.identity !== undefined ? { identity: redactDeep(summary.identity, redact) as RunSummary["identity"] } : {}),
    ...(summary.notes !== undefined ? { notes: summary.notes.map(redact) } : {}),
    ...(summary.discovered !== undefined ? { discovered: redactDeep(summary.discovered, redact) as RunSummary["discovered"] } : {}),
    ...(summary.tally !== undefined ? { tally: redactDeep(summary.tally, redact) as RunSummary["tally"] } : {}),
    ...(summary.methods !== undefined ? { methods: redactDeep(summary.methods, redact) as RunSummary["methods"] } : {}),
  };
}
