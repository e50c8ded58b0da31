/**
 * Hand-written code does not restate the spec: no method name, items field, cursor field or
 * limit param of the spec, and no context-slot path, appears in the code (comments aside) of
 * conformance/, reference/ and runtime/. Spec facts come from the method table
 * (generated/methods.ts). The few exceptions are listed in ALLOWED, each with its reason.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { methodNames, methods } from "../../generated/index.js";
import { root } from "../helpers/paths.js";

const FOLDERS = ["conformance", "reference", "runtime"];

/**
 * Exceptions: a file (relative to the root) and the spec words it may use, with the reason.
 * Nothing else may name them.
 */
const ALLOWED: readonly { file: string; words: readonly string[] | "methods" | "all"; only?: RegExp; why: string }[] = [
  {
    file: "reference/handlers/",
    words: "all",
    // A method's name only where its handler is defined (`getThings(params, facts, call) {`): what a
    // handler needs of the table (page size, list caps) it receives, it never looks itself up; a
    // family file lists no names beyond its handlers (`satisfies Family`).
    only: /^\s*\w+\((params(, _?facts(, call)?)?)?\) \{/,
    why: "the reference's per-method code: one handler per method, keyed by its name and returning its params' and result's fields, each checked by the compiler against the generated Handlers, Params and Result types (a new method adds only its handler here); it names a method only where that method's handler is defined",
  },
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" || name === "dist" || name === "cases" || name === "fixtures" ? [] : sources(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The text with comments blanked out (strings and template literals kept). */
function code(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const tables = Object.values(methods);
const fields = [
  ...new Set(
    tables.flatMap((m) => [m.pagination?.items, m.pagination?.cursor, m.pagination?.limit, m.lookup?.items].filter((f): f is string => typeof f === "string")),
  ),
];
const slotPaths = [...new Set(tables.flatMap((m) => (m.slot ? [m.slot] : [])))];

/** What counts as restating a word: a method name anywhere in code; a field as a string literal or a `.value.`/`.result.` property (a snake_case one anywhere); a slot path anywhere. */
const PATTERNS: readonly { word: string; re: RegExp }[] = [
  ...methodNames.map((word) => ({ word, re: new RegExp(`\\b${escapeRegExp(word)}\\b`) })),
  ...fields.map((word) => ({ word, re: new RegExp(`["'\`]${escapeRegExp(word)}["'\`]|\\.(value|result)\\.${escapeRegExp(word)}\\b`) })),
  // A field no English word shares (snake_case) counts anywhere in code.
  ...fields.filter((w) => w.includes("_")).map((word) => ({ word, re: new RegExp(`\\b${escapeRegExp(word)}\\b`) })),
  // A dotted slot path counts anywhere; a bare one (getQueueInfo's `slot`, a common word and record key) only as a property of a result.
  ...slotPaths.map((word) => ({
    word,
    re: word.includes(".")
      ? new RegExp(`${escapeRegExp(word)}\\b|\\.result\\.${escapeRegExp(word.split(".")[0]!)}\\b`)
      : new RegExp(`\\.result\\.${escapeRegExp(word)}\\b`),
  })),
];

function allowed(file: string, word: string, line: string): boolean {
  return ALLOWED.some(
    (a) =>
      (a.file === file || (a.file.endsWith("/") && file.startsWith(a.file))) &&
      (a.words === "all" || (a.words === "methods" ? (methodNames as readonly string[]).includes(word) : a.words.includes(word))) &&
      // Where the exception is narrowed, a method's name may stand only on the lines it allows.
      (!a.only || !(methodNames as readonly string[]).includes(word) || a.only.test(line)),
  );
}

describe("no spec facts in hand-written code", () => {
  it("knows the spec's words (from the method table)", () => {
    expect(methodNames.length).toBeGreaterThan(0);
    expect(fields).toEqual(expect.arrayContaining(["items", "token_balances", "cursor", "limit"]));
    expect(slotPaths).toEqual(["context.slot", "slot"]);
  });

  it("finds restated facts (the scanner works)", () => {
    const sample = code(`// getIndexerSlot in a comment\nconst a = x.result.context.slot; call("getIndexerSlot"); v["items"]; /* "cursor" */ "limit";`);
    const hits = PATTERNS.filter((p) => p.re.test(sample)).map((p) => p.word);
    expect(hits).toEqual(expect.arrayContaining(["getIndexerSlot", "items", "limit", "context.slot"]));
    expect(hits).not.toContain("cursor");
  });

  it("finds none in conformance/, reference/ and runtime/ beyond the documented exceptions", () => {
    const found: string[] = [];
    for (const folder of FOLDERS) {
      for (const path of sources(join(root, folder))) {
        const file = relative(root, path).split("\\").join("/");
        const lines = code(readFileSync(path, "utf8")).split("\n");
        lines.forEach((line, n) => {
          for (const p of PATTERNS)
            if (p.re.test(line) && !allowed(file, p.word, line)) found.push(`${file}:${n + 1}: ${p.word}: ${line.trim().slice(0, 120)}`);
        });
      }
    }
    expect(found).toEqual([]);
  });

  it("lists only exceptions that are still needed", () => {
    for (const a of ALLOWED) {
      const files = a.file.endsWith("/") ? sources(join(root, a.file)) : [join(root, a.file)];
      const text = files.map((f) => code(readFileSync(f, "utf8"))).join("\n");
      const words = a.words === "all" || a.words === "methods" ? [...methodNames] : a.words;
      expect(
        PATTERNS.some((p) => words.includes(p.word) && p.re.test(text)),
        `${a.file} no longer needs its exception`,
      ).toBe(true);
    }
  });
});
