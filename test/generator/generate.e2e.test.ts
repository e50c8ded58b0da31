/**
 * generate's output checked by other processes: biome formats it to itself, and tsc compiles it
 * here for every spec and in another project importing the runtime through the package's exports.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { writeOutput } from "../../generator/write.js";
import { extendedSpec, ourSpec, root, scratch, upstream } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("generate-e2e");
const targets = {
  ours: ourSpec,
  upstream050: join(upstream, "0.50.0", "api.yaml"),
  upstream0512: join(upstream, "0.51.2", "api.yaml"),
  upstream044: join(upstream, "0.44.0"),
  extended: extendedSpec,
};

beforeAll(async () => {
  for (const [name, spec] of Object.entries(targets)) {
    const { files } = await generate(spec, root);
    await writeOutput(join(dir, name), files);
  }
});

describe("generate", () => {
  it("writes code already laid out as the repository's formatter (biome.json) lays it out, for every spec", () => {
    // validators.ts is ajv's code, which biome.json exempts; every other file must need no change.
    const biome = join(root, "node_modules", ".bin", "biome");
    let compared = 0;
    for (const name of Object.keys(targets)) {
      for (const file of ["types.ts", "methods.ts", "client.ts", "server.ts", "index.ts"]) {
        const text = readFileSync(join(dir, name, file), "utf8");
        // Through stdin under a path biome.json formats (scratch/ itself is outside its files).
        const r = spawnSync(biome, ["format", `--stdin-file-path=generated/${file}`], { cwd: root, input: text, encoding: "utf8" });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout, `${name}/${file}`).toBe(text);
        compared++;
      }
    }
    expect(compared).toBe(5 * Object.keys(targets).length);
    // The comparison sees a difference where there is one.
    const bad = spawnSync(biome, ["format", "--stdin-file-path=generated/x.ts"], { cwd: root, input: "const   a =   1\n", encoding: "utf8" });
    expect(bad.stdout).toBe("const a = 1;\n");
  });

  it("type-checks for every spec, with a consumer using the extended client", () => {
    writeFileSync(
      join(dir, "consumer.ts"),
      [
        `import { createClient, type Handlers } from "./extended/index.js";`,
        `const client = createClient({ url: "http://127.0.0.1:1/" });`,
        `export async function use(): Promise<bigint | number> {`,
        `  for await (const entry of client.iterateListEntries({ account: "x", pageSize: 5 })) return entry.amount;`,
        `  const health: "ok" | "degraded" = await client.getHealth();`,
        `  const e = await client.getEntry({ sequence: 1n });`,
        `  return e.value === null ? health.length : e.value.sequence;`,
        `}`,
        `export const handlers: Pick<Handlers, "getHealth"> = { getHealth: () => "ok" };`,
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../tsconfig.test.json", compilerOptions: { noEmit: true, rootDir: "../.." }, include: ["."] }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const result = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  }, 120_000);
});

describe("generate into another project", () => {
  it("compiles there, importing the runtime through this package's exports", async () => {
    const project = join(scratch, "consumer-project");
    rmSync(project, { recursive: true, force: true });
    mkdirSync(join(project, "node_modules"), { recursive: true });
    symlinkSync(root, join(project, "node_modules", "photon-indexer-kit"), "dir");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
    const { files } = await generate(extendedSpec, root);
    await writeOutput(join(project, "src", "ledger"), files);
    writeFileSync(
      join(project, "src", "main.ts"),
      `import { createClient } from "./ledger/index.js";\nexport const health = () => createClient({ url: "http://127.0.0.1:1/" }).getHealth();\n`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          // The consumer sees our sources (the `photon-indexer-kit-source` export condition) so no build is needed here;
          // an installed package resolves the same specifiers to dist/ through `types`/`default`.
          customConditions: ["photon-indexer-kit-source"],
          target: "ES2022",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [join(root, "node_modules", "@types")],
        },
        include: ["src"],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const result = spawnSync(process.execPath, [tsc, "-p", join(project, "tsconfig.json")], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  }, 120_000);
});
