/** What package.json promises a consumer: private source condition, entries with types for every resolution, a license, generated code a normal build compiles. */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { writeOutput } from "../../generator/write.js";
import { extendedSpec, ourSpec, root, scratch, upstream } from "../helpers/paths.js";

const CONDITION = "photon-indexer-kit-source";

interface Manifest {
  license: string;
  files: string[];
  exports: Record<string, string | Record<string, string>>;
  typesVersions: Record<string, Record<string, string[]>>;
  scripts: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;
const entries = Object.entries(manifest.exports).filter((e): e is [string, Record<string, string>] => typeof e[1] === "object");

describe("package.json", () => {
  it("resolves its sources only under its own condition name, never `source`", () => {
    for (const [entry, conditions] of entries) expect(Object.keys(conditions), entry).toEqual([CONDITION, "types", "default"]);
    const tsconfig = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")) as { compilerOptions: { customConditions: string[] } };
    expect(tsconfig.compilerOptions.customConditions).toEqual([CONDITION]);
    expect(manifest.scripts.bench).toContain(`--conditions=${CONDITION} `);
    expect(readFileSync(join(root, "vitest.config.ts"), "utf8")).not.toMatch(/["']source["']/);
  });

  it("has the runtime, generated, conformance and reference entries, each typed for node10 through typesVersions", () => {
    expect(entries.map(([e]) => e)).toEqual(["./runtime", "./generated", "./conformance", "./reference"]);
    for (const [entry, conditions] of entries) expect(manifest.typesVersions["*"]?.[entry.slice(2)], entry).toEqual([conditions.types]);
  });

  it("is Apache-2.0 and ships the license text", () => {
    expect(manifest.license).toBe("Apache-2.0");
    expect(manifest.files).toContain("LICENSE");
    const text = readFileSync(join(root, "LICENSE"), "utf8");
    expect(text).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(text).toContain("END OF TERMS AND CONDITIONS");
  });
});

describe("generated code is what a consumer's tsc compiles", () => {
  it("emits TypeScript only: no plain .js beside a .d.ts that would hide it from the build", async () => {
    const { files } = await generate(ourSpec, root);
    expect([...files.keys()].filter((f) => !f.endsWith(".ts") && f !== "README.md")).toEqual([]);
    expect([...files.keys()].filter((f) => f.endsWith(".d.ts"))).toEqual([]);
    expect(readdirSync(join(root, "generated")).sort()).toEqual([...files.keys()].sort());
    expect(files.get("validators.ts")).not.toContain("@ts-nocheck");
  });

  it("compiles under the strictest flags a consumer may set, for every spec (unused locals and parameters, unreachable code)", async () => {
    const dir = join(scratch, "package-strict");
    rmSync(dir, { recursive: true, force: true });
    const specs = { ours: ourSpec, upstream050: join(upstream, "0.50.0", "api.yaml"), upstream044: join(upstream, "0.44.0"), extended: extendedSpec };
    for (const [name, spec] of Object.entries(specs)) await writeOutput(join(dir, name), (await generate(spec, root)).files);
    const compilerOptions = {
      module: "NodeNext",
      moduleResolution: "NodeNext",
      customConditions: [CONDITION],
      target: "ES2022",
      types: ["node"],
      typeRoots: [join(root, "node_modules", "@types")],
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitReturns: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      allowUnreachableCode: false,
      noFallthroughCasesInSwitch: true,
      verbatimModuleSyntax: true,
      noEmit: true,
      skipLibCheck: true,
    };
    // Only the generated files: the runtime they import is checked by the repository's own tsconfig.
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: Object.keys(specs).map((n) => `${n}/index.ts`) }));
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    expect(result.stdout).not.toContain("error TS5"); // the options themselves are valid
    const inGenerated = result.stdout.split("\n").filter((line) => /^(ours|upstream050|upstream044|extended)\//.test(line));
    expect(inGenerated).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
