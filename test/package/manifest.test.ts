/** What package.json promises a consumer: private source condition, entries with types for every resolution, a license, generated code a normal build compiles. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RUNTIME_PACKAGE } from "../../generator/emit/runtime-package.js";
import { generate } from "../../generator/generate.js";
import { ourSpec, root } from "../helpers/paths.js";

const CONDITION = "photon-indexer-kit-source";

interface Manifest {
  name: string;
  version: string;
  license: string;
  workspaces?: string[];
  private?: boolean;
  dependencies: Record<string, string>;
  bundleDependencies?: string[];
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
    // The type-check sees the sources; the build (tsconfig.json) compiles against the runtime's declarations.
    const config = (file: string) =>
      JSON.parse(readFileSync(join(root, file), "utf8")) as { compilerOptions: { customConditions?: string[] }; include: string[] };
    expect(config("tsconfig.test.json").compilerOptions.customConditions).toEqual([CONDITION]);
    expect(config("tsconfig.json").compilerOptions.customConditions).toBeUndefined();
    expect(config("tsconfig.json").include).not.toContain("runtime");
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

describe("what installing the packages runs and fetches", () => {
  const runtime = JSON.parse(readFileSync(join(root, "runtime", "package.json"), "utf8")) as Manifest;
  const build = JSON.parse(readFileSync(join(root, "scripts", "package.json"), "utf8")) as Manifest;

  it("bundles the runtime in the main package: no registry needs to hold it", () => {
    expect(manifest.bundleDependencies).toEqual([RUNTIME_PACKAGE]);
  });

  it("ships no script a consumer's npm runs or lists (install hooks; the bundled runtime's prepack runs on `npm pack` of it)", () => {
    for (const hook of ["preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare"]) {
      expect(manifest.scripts[hook], `package.json ${hook}`).toBeUndefined();
      expect(runtime.scripts[hook], `runtime/package.json ${hook}`).toBeUndefined();
    }
    expect(runtime.scripts.prepack).toBeUndefined();
    // Packing the main package builds both; `npm ci` here builds through the private build workspace's prepare.
    expect(manifest.scripts.prepack).toBe("node scripts/build.mjs");
    expect(build.private).toBe(true);
    expect(build.scripts.prepare).toBe("node build.mjs");
    expect(manifest.scripts.test).toMatch(/^npm run build && /);
  });
});

describe("runtime/package.json: the runtime as its own package", () => {
  const runtime = JSON.parse(readFileSync(join(root, "runtime", "package.json"), "utf8")) as Manifest;

  it("is the package generated code imports, a workspace the main package depends on at its own version", () => {
    expect(runtime.name).toBe(RUNTIME_PACKAGE);
    expect(manifest.workspaces).toEqual(["runtime", "scripts"]);
    expect(runtime.version).toBe(manifest.version);
    expect(manifest.dependencies[RUNTIME_PACKAGE]).toBe(runtime.version);
    expect(runtime.license).toBe(manifest.license);
    expect(readFileSync(join(root, "runtime", "LICENSE"), "utf8")).toBe(readFileSync(join(root, "LICENSE"), "utf8"));
  });

  it("serves its sources under the private condition and dist otherwise, and ships only dist, README and LICENSE", () => {
    expect(runtime.exports["."]).toEqual({ [CONDITION]: "./index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" });
    expect(runtime.files).toEqual(["dist", "README.md", "LICENSE"]);
  });

  it("depends on exactly the packages its sources import, and generated code needs nothing else (no ajv)", () => {
    const sources = readdirSync(join(root, "runtime"), { recursive: true, encoding: "utf8" }).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !/^(dist|node_modules)\//.test(f),
    );
    const imported = new Set(
      sources.flatMap((f) =>
        [...readFileSync(join(root, "runtime", f), "utf8").matchAll(/\bfrom "([^".][^"]*)"/g)].map((m) => m[1]!).filter((m) => !m.startsWith("node:")),
      ),
    );
    expect(Object.keys(runtime.dependencies).sort()).toEqual([...imported].sort());
    expect(Object.keys(runtime.dependencies).sort()).toEqual(["lossless-json", "re2js", "undici"]);
    for (const name of readdirSync(join(root, "generated")).filter((f) => f.endsWith(".ts"))) {
      const text = readFileSync(join(root, "generated", name), "utf8");
      expect(text, name).not.toMatch(/\brequire\(|from "ajv/);
    }
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
});
