/**
 * Every citation opens inside the repository: nothing cites the outside behaviour notes, and every
 * DECISIONS reference (`DECISIONS #12`, `DECISIONS.md rows 30-32`) names a row spec/DECISIONS.md has.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./helpers/paths.js";

/** Build output, dependencies, scratch space and binaries are not the repository's text. */
const SKIP_DIRS = new Set(["node_modules", ".git", "dist", ".scratch", ".results"]);
const TEXT = /\.(ts|js|mjs|cjs|md|ya?ml|json|html|css|txt|sh)$/;

function textFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP_DIRS.has(name) ? [] : textFiles(path);
    return TEXT.test(name) ? [path] : [];
  });
}

const files = textFiles(root).map((path) => ({ path: relative(root, path), text: readFileSync(path, "utf8") }));
const decisions = readFileSync(join(root, "spec", "DECISIONS.md"), "utf8");
const rows = new Set([...decisions.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1])));

/** `DECISIONS #4, #80`, `DECISIONS row 55`, `DECISIONS.md rows 30-32, 45`: the row numbers named. */
const REFERENCE = /DECISIONS(?:\.md)?`?,?\s+(?:rows?\s+|#)(#?\d+(?:\s*[-–]\s*#?\d+)?(?:\s*(?:,|and)\s*#?\d+(?:\s*[-–]\s*#?\d+)?)*)/g;

function referencedRows(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    for (const item of (m[1] ?? "").split(/\s*(?:,|and)\s*/)) {
      const [from = Number.NaN, to = from] = item.split(/\s*[-–]\s*/).map((n) => Number(n.replace("#", "")));
      for (let n = from; n <= to; n++) out.push(n);
    }
  }
  return out;
}

describe("citations", () => {
  it("reads the references as written", () => {
    expect(referencedRows("(DECISIONS #4, #80; HEAD:src/x.rs:1-2)")).toEqual([4, 80]);
    expect(referencedRows("see `spec/DECISIONS.md` rows 30-32 and 45, DECISIONS row 9")).toEqual([30, 31, 32, 45, 9]);
  });

  it("no file cites the behaviour notes kept outside the repository", () => {
    const needle = ["photon", "behaviour"].join("-");
    const citing = files.filter((f) => f.text.includes(needle)).map((f) => f.path);
    expect(citing).toEqual([]);
    // The table's own shorthand for those notes.
    expect(decisions).not.toMatch(/\bPB\b/);
  });

  it("every DECISIONS reference names a row of spec/DECISIONS.md", () => {
    expect(rows.size).toBeGreaterThan(70);
    const dangling = files.flatMap((f) =>
      referencedRows(f.text)
        .filter((n) => !rows.has(n))
        .map((n) => `${f.path}: DECISIONS #${n}`),
    );
    expect(dangling).toEqual([]);
    const cases = files.filter((f) => f.path.startsWith(join("conformance", "cases")) && f.path.endsWith(".yaml"));
    expect(cases.filter((f) => referencedRows(f.text).length > 0).length).toBeGreaterThan(200);
  });
});
