/**
 * A config file's text as data, with the line of every key and value. Syntax problems are
 * reported all at once, one line each (`file:line: invalid YAML: …`), at the line of the fault
 * (an unclosed quote or bracket at the line that opened it), and never quote the file's text:
 * a fault may sit next to a key (`"api-key": sk_live_…`), and nothing of a file that does not
 * parse is known to the redactor.
 */
import { findNodeAtLocation, type Node as JsonNode, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, visit, type YAMLError } from "yaml";
import { ConfigError } from "./errors.js";

export type ConfigPath = readonly (string | number)[];

export interface ParsedConfig {
  readonly data: unknown;
  /** The 1-based line of the key at `path` (`value`: of its value), or 0 when unknown. */
  readonly lineOf: (path: ConfigPath, of?: "key" | "value") => number;
}

/** Aliases a YAML config may expand to, at most (yaml's guard against exponential documents). */
const MAX_ALIAS_COUNT = 100;
/** Syntax problems listed at most; the rest are counted. */
const MAX_PROBLEMS = 20;

/** 1-based line of each offset, by binary search over the line starts. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

function fail(file: string, problems: string[]): never {
  const shown =
    problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), `${file}: … and ${problems.length - MAX_PROBLEMS} more problems`] : problems;
  throw new ConfigError(shown);
}

// --- JSON ---------------------------------------------------------------------------

/** jsonc-parser's error names, as a sentence. */
const JSON_FAULTS: Readonly<Record<string, string>> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "malformed number",
  PropertyNameExpected: "a double-quoted key expected",
  ValueExpected: "a value expected",
  ColonExpected: "':' expected after the key",
  CommaExpected: "',' expected between entries",
  CloseBraceExpected: "'}' expected (the object is not closed)",
  CloseBracketExpected: "']' expected (the list is not closed)",
  EndOfFileExpected: "text after the end of the document",
  InvalidCommentToken: "comments are not JSON",
  UnexpectedEndOfComment: "comments are not JSON",
  UnexpectedEndOfString: "the string is not closed",
  UnexpectedEndOfNumber: "malformed number",
  InvalidUnicode: "malformed \\u escape",
  InvalidEscapeCharacter: "invalid escape sequence",
  InvalidCharacter: "a control character in a string",
};

function parseJsonConfig(file: string, text: string): ParsedConfig {
  const line = lineIndex(text);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  // jsonc-parser recovers and goes on: one fault often trips a second at the same place (one a
  // line is kept), and an unexpected character stands where a value was (no "value expected" after it).
  const lines = new Set<number>();
  const problems: string[] = [];
  let previous = "";
  for (const e of errors) {
    const at = line(e.offset);
    const name = printParseErrorCode(e.error);
    if (!lines.has(at) && !(name === "ValueExpected" && previous === "InvalidSymbol"))
      problems.push(`${file}:${at}: invalid JSON: ${JSON_FAULTS[name] ?? name}`);
    lines.add(at);
    previous = name;
  }
  if (tree) problems.push(...duplicateJsonKeys(tree, file, line));
  if (problems.length > 0 || !tree) fail(file, problems.length > 0 ? problems : [`${file}: invalid JSON: the file is empty`]);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    fail(file, [`${file}: invalid JSON`]); // jsonc-parser found nothing, JSON.parse did: its message would quote the text
  }
  const lineOf = (path: ConfigPath, of: "key" | "value" = "key"): number => {
    const node = findNodeAtLocation(tree, [...path]);
    if (!node) return 0;
    const holder = node.parent?.type === "property" && of === "key" ? node.parent : node;
    return line(holder.offset);
  };
  return { data, lineOf };
}

/** A key written twice in one object (JSON.parse would keep the last silently). */
function duplicateJsonKeys(root: JsonNode, file: string, line: (offset: number) => number): string[] {
  const out: string[] = [];
  const stack: { node: JsonNode; pointer: string }[] = [{ node: root, pointer: "" }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    const seen = new Set<string>();
    for (const [i, child] of (node.children ?? []).entries()) {
      if (node.type === "object" && child.type === "property") {
        const key = String(child.children?.[0]?.value);
        const at = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if (seen.has(key)) out.push(`${file}:${line(child.offset)}: ${at}: written twice (a key appears once in an object)`);
        seen.add(key);
        const value = child.children?.[1];
        if (value) stack.push({ node: value, pointer: at });
      } else if (node.type === "array") stack.push({ node: child, pointer: `${pointer}/${i}` });
    }
  }
  return out;
}

// --- YAML ---------------------------------------------------------------------------

/**
 * yaml's messages for these codes may carry the file's text (an escape, a tag, a token, a
 * duplicated ordered key): each is told in words of its own instead.
 */
const YAML_QUOTING: Readonly<Record<string, string>> = {
  BAD_DQ_ESCAPE: "invalid escape sequence in a double-quoted string",
  BAD_SCALAR_START: "a plain value cannot start with this character",
  BAD_DIRECTIVE: "unknown or malformed directive",
  BAD_COLLECTION_TYPE: "a tag that does not fit its collection",
  TAG_RESOLVE_FAILED: "unresolved tag",
  DUPLICATE_KEY: "Map keys must be unique",
  UNEXPECTED_TOKEN: "unexpected token",
};

/** An unclosed quote or flow collection: the fault is where it opened, not where the file ended. */
function openerLine(doc: ReturnType<typeof parseDocument>, error: YAMLError, line: (offset: number) => number): number | null {
  const wanted = /quote/i.test(error.message) ? "quote" : /flow sequence|\]/i.test(error.message) ? "seq" : /flow map|\}/i.test(error.message) ? "map" : null;
  if (error.code !== "MISSING_CHAR" && error.code !== "BAD_INDENT") return null;
  if (wanted === null) return null;
  let start: number | null = null;
  visit(doc, {
    Node(_, node: Node) {
      const kind = isScalar(node)
        ? node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE"
          ? "quote"
          : null
        : isSeq(node) && node.flow
          ? "seq"
          : isMap(node) && node.flow
            ? "map"
            : null;
      if (kind === wanted && node.range && node.range[1] >= error.pos[0] && (start === null || node.range[0] > start)) start = node.range[0];
    },
  });
  return start === null ? null : line(start);
}

function parseYamlConfig(file: string, text: string): ParsedConfig {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const line = (offset: number) => counter.linePos(offset).line;
  const problems = doc.errors.map((e) => {
    const at = openerLine(doc, e, line) ?? e.linePos?.[0].line ?? line(e.pos[0]);
    const message = YAML_QUOTING[e.code] ?? e.message.split("\n")[0]!.replace(/\s+at line \d+, column \d+:?$/, "");
    return `${file}:${at}: invalid YAML: ${message}`;
  });
  // An alias naming no anchor set before it: its line, never its name.
  const anchors = new Set<string>();
  visit(doc, {
    Node(_, node: Node) {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) problems.push(`${file}:${node.range ? line(node.range[0]) : "?"}: invalid YAML: an alias names no anchor set before it`);
      } else if (node.anchor) anchors.add(node.anchor);
    },
  });
  if (problems.length > 0) fail(file, problems);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    fail(file, [`${file}: invalid YAML: its aliases expand to more than ${MAX_ALIAS_COUNT} nodes`]);
  }
  const lineOf = (path: ConfigPath, of: "key" | "value" = "key"): number => {
    let node: unknown = doc.contents;
    let keyStart: number | undefined;
    for (const step of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === step);
        if (!pair) return 0;
        keyStart = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
        node = pair.value;
      } else if (isSeq(node) && typeof step === "number") {
        node = node.items[step];
        keyStart = undefined;
      } else return 0;
    }
    const valueStart = (node as { range?: [number, number, number] } | null)?.range?.[0];
    const at = of === "key" ? (keyStart ?? valueStart) : (valueStart ?? keyStart);
    return at === undefined ? 0 : line(at);
  };
  return { data, lineOf };
}

/** Parses a config file's text (`.json` as strict JSON, else YAML); throws a ConfigError listing every syntax problem. */
export function parseConfigText(file: string, text: string): ParsedConfig {
  return /\.json$/i.test(file) ? parseJsonConfig(file, text) : parseYamlConfig(file, text);
}
