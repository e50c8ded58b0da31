/**
 * emit/indent.ts: ajv's one-statement-per-line output indented by bracket depth in one
 * linear pass, brackets inside string literals ignored.
 */
import { describe, expect, it } from "vitest";
import { indentByBraces } from "../../../generator/emit/indent.js";

const lines = (...l: string[]) => l.join("\n");

describe("indentByBraces", () => {
  it("indents each line by the depth of the brackets opened before it", () => {
    expect(indentByBraces(lines("function f(data) {", "if (x) {", "y();", "}", "return true;", "}"))).toBe(
      lines("function f(data) {", "  if (x) {", "    y();", "  }", "  return true;", "}"),
    );
  });

  it("dedents a line that starts by closing (`} else {`) before reopening", () => {
    expect(indentByBraces(lines("if (a) {", "b;", "} else {", "c;", "}"))).toBe(lines("if (a) {", "  b;", "} else {", "  c;", "}"));
  });

  it("counts square and round brackets too", () => {
    expect(indentByBraces(lines("const a = [", "1,", "];", "f(", "x", ");"))).toBe(lines("const a = [", "  1,", "];", "f(", "  x", ");"));
  });

  it("re-indents lines that came indented, and keeps blank lines empty", () => {
    expect(indentByBraces(lines("    {", "        a;", "   ", "", "      }"))).toBe(lines("{", "  a;", "", "", "}"));
  });

  it("ignores brackets inside string literals of each quote, escaped quotes included", () => {
    const code = lines(`const s = "{[(" + '}' + \`)\`;`, `const t = "\\"{";`, "next;");
    expect(indentByBraces(code)).toBe(code);
    expect(indentByBraces(lines('if (s === "}") {', "a;", "}"))).toBe(lines('if (s === "}") {', "  a;", "}"));
  });

  it("a closing bracket after other text on the line does not dedent that line", () => {
    expect(indentByBraces(lines("{", "a = {};", "x = f(g());", "}"))).toBe(lines("{", "  a = {};", "  x = f(g());", "}"));
  });

  it("never goes below depth zero on unbalanced input", () => {
    expect(indentByBraces(lines("}}", "a;", "{", "b;"))).toBe(lines("}}", "a;", "{", "  b;"));
  });

  it("takes another indent unit", () => {
    expect(indentByBraces(lines("{", "a;", "}"), "\t")).toBe(lines("{", "\ta;", "}"));
    expect(indentByBraces(lines("{", "{", "a;", "}", "}"), "    ")).toBe(lines("{", "    {", "        a;", "    }", "}"));
  });

  it("keeps the number of lines and their text", () => {
    const code = lines("a {", "  b [", "c", "]", "}", "", "d");
    const out = indentByBraces(code).split("\n");
    expect(out).toHaveLength(7);
    expect(out.map((l) => l.trim())).toEqual(code.split("\n").map((l) => l.trim()));
  });
});
