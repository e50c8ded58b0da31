/** Generated code for every spec compiles in a consumer's tsc (a child process) under the strictest flags. */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { writeOutput } from "../../generator/write.js";
import { extendedSpec, ourSpec, root, scratch, upstream } from "../helpers/paths.js";

const CONDITION = "photon-indexer-kit-source";
/** A bound on a hung tsc, far above what a loaded machine takes. */
const TSC_MS = 300_000;

describe("generated code is what a consumer's tsc compiles", () => {
  it(
    "compiles under the strictest flags a consumer may set, for every spec (unused locals and parameters, unreachable code)",
    async () => {
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
      const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", timeout: TSC_MS });
      expect(result.stdout).not.toContain("error TS5"); // the options themselves are valid
      const inGenerated = result.stdout.split("\n").filter((line) => /^(ours|upstream050|upstream044|extended)\//.test(line));
      expect(inGenerated).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    },
    2 * TSC_MS,
  );
});
