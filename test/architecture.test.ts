/**
 * The sources' import graph: data flows spec → generator → generated → (runtime ← client ·
 * reference · conformance), cli/ holds what both command lines share, and there are no cycles.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "./helpers/paths.js";

const AREAS = ["runtime", "cli", "generator", "generated", "reference", "conformance"] as const;
type Area = (typeof AREAS)[number];
const RUNTIME_PACKAGE = "@photon-indexer-kit/runtime";

function sourcesOf(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourcesOf(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const files = AREAS.flatMap((area) => sourcesOf(join(root, area)));
const rel = (file: string) => relative(root, file);
const areaOf = (file: string): Area => rel(file).split("/")[0] as Area;

/** Each file's imports: the source files they resolve to, and the bare package names. */
const graph = new Map<string, { local: string[]; packages: string[] }>();
for (const file of files) {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const local: string[] = [];
  const packages: string[] = [];
  for (const { fileName: spec } of info.importedFiles) {
    if (spec.startsWith(".")) {
      const target = join(dirname(file), spec).replace(/\.js$/, ".ts");
      local.push(target);
    } else if (spec === RUNTIME_PACKAGE || spec.startsWith(`${RUNTIME_PACKAGE}/`)) {
      local.push(join(root, "runtime", "index.ts"));
    } else packages.push(spec);
  }
  graph.set(file, { local, packages });
}

describe("the import graph", () => {
  it("reads every area", () => {
    expect(new Set(files.map(areaOf))).toEqual(new Set(AREAS));
    expect(files.length).toBeGreaterThan(80);
  });

  it("has no cycles between files", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, "open");
      stack.push(file);
      for (const next of graph.get(file)?.local ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].map(rel).join(" → "));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("lets each area import only the areas downstream of it", () => {
    // runtime is the bottom; generated code sits on runtime only; nothing imports the generator but itself.
    const allowed: Record<Area, readonly Area[]> = {
      runtime: ["runtime"],
      cli: ["cli", "runtime"],
      generated: ["generated", "runtime"],
      generator: ["generator", "cli", "runtime"],
      reference: ["reference", "generated", "runtime"],
      conformance: ["conformance", "cli", "generated", "runtime", "reference"],
    };
    // One exception: conformance loads generator/compile.ts (lazily) for `--spec 0.50.0|FILE`, so that
    // another spec's method table and validators are built exactly as the generated ones are.
    const exceptions: readonly { readonly from: Area; readonly to: string }[] = [{ from: "conformance", to: "generator/compile.ts" }];
    const wrong: string[] = [];
    for (const [file, { local }] of graph) {
      for (const target of local) {
        const to = areaOf(target);
        const excepted = exceptions.some((e) => e.from === areaOf(file) && e.to === rel(target));
        if (!allowed[areaOf(file)].includes(to) && !excepted) wrong.push(`${rel(file)} → ${rel(target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("loads generator/compile.ts from conformance only dynamically, so a run against the bundled spec never loads it", () => {
    const importers = files.filter((f) => areaOf(f) === "conformance" && graph.get(f)!.local.some((t) => rel(t) === "generator/compile.ts"));
    expect(importers.map(rel)).toEqual(["conformance/spec-bundle.ts"]);
    for (const file of importers) {
      const text = readFileSync(file, "utf8");
      expect(text).toMatch(/await import\("\.\.\/generator\/compile\.js"\)/);
      expect(text).not.toMatch(/^import [^;]*from "\.\.\/generator\//m);
    }
  });

  it("keeps the runtime light: it imports only node:, undici, lossless-json and re2js", () => {
    const heavy = [...graph]
      .filter(([file]) => areaOf(file) === "runtime")
      .flatMap(([file, { packages }]) => packages.filter((p) => !/^(node:|undici$|lossless-json$|re2js$)/.test(p)).map((p) => `${rel(file)} imports ${p}`));
    expect(heavy).toEqual([]);
  });

  it("lets generated code import only its siblings and the runtime package", () => {
    const foreign = [...graph]
      .filter(([file]) => areaOf(file) === "generated")
      .flatMap(([file, { local, packages }]) => [
        ...local.filter((t) => areaOf(t) !== "generated" && rel(t) !== "runtime/index.ts").map((t) => `${rel(file)} → ${rel(t)}`),
        ...packages.filter((p) => !p.startsWith("node:")).map((p) => `${rel(file)} imports ${p}`),
      ]);
    expect(foreign).toEqual([]);
    // and it names the runtime by its package name, never by a path into this repository
    for (const file of files.filter((f) => areaOf(f) === "generated")) expect(readFileSync(file, "utf8"), rel(file)).not.toMatch(/from "\.\.\//);
  });
});
