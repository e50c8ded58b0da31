// Builds the two packages of this workspace with tsc, the runtime first (the main package's
// generated code imports it by name):
//   1. runtime/ → runtime/dist (runtime/tsconfig.json): `@photon-indexer-kit/runtime`.
//   2. the main package → dist/ (tsconfig.json): generator, generated, reference, conformance.
//   3. dist/runtime/: one re-export of `@photon-indexer-kit/runtime` per runtime module, in place
//      of the copies tsc emitted there (generator/, reference/ and conformance/ import runtime/
//      by relative path). Installed, the package then holds one runtime, the dependency's: an
//      RpcError thrown by the reference's handlers is the class the generated listener tests
//      for, and `photon-indexer-kit/runtime` is the dependency itself.
// `node scripts/build.mjs runtime` builds step 1 only (the runtime package's `prepack`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const RUNTIME = "@photon-indexer-kit/runtime";

function compile(project, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, "-p", project], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function requireFiles(dir, files) {
  for (const file of files) {
    if (!existsSync(join(dir, file))) {
      console.error(`build: ${relative(root, join(dir, file))} is missing`);
      process.exit(1);
    }
  }
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const runtimeDist = join(root, "runtime", "dist");
compile(join(root, "runtime", "tsconfig.json"), runtimeDist);
requireFiles(runtimeDist, ["index.js", "index.d.ts"]);
if (process.argv[2] === "runtime") process.exit(0);

const dist = join(root, "dist");
compile(join(root, "tsconfig.json"), dist);
requireFiles(dist, ["generator/cli.js", "generated/validators.js", "reference/index.js", "conformance/index.js"]);

// Step 3. Every name a runtime module exports is exported by the runtime's index (`export *`),
// so each re-export offers at least what its module did; checked below against the built runtime.
const stubbed = join(dist, "runtime");
const modules = filesUnder(stubbed).filter((f) => f.endsWith(".js")).map((f) => relative(stubbed, f).slice(0, -3));
const stubs = join(dist, ".runtime-stubs");
rmSync(stubs, { recursive: true, force: true });
for (const module of [...new Set(["index", ...modules])]) {
  const stub = `// The runtime is its own package; this module re-exports it (see scripts/build.mjs).\nexport * from "${RUNTIME}";\n`;
  for (const ext of [".js", ".d.ts"]) {
    const file = join(stubs, module + ext);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, stub);
  }
}
rmSync(stubbed, { recursive: true, force: true });
renameSync(stubs, stubbed);
const exported = new Set(Object.keys(await import(join(runtimeDist, "index.js"))));
const missing = [];
for (const file of filesUnder(dist).filter((f) => f.endsWith(".js") && !f.startsWith(stubbed + "/"))) {
  const text = readFileSync(file, "utf8");
  for (const [, names, specifier] of text.matchAll(/(?:^|\n)\s*(?:import|export)\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    if (!specifier.startsWith(".") || !join(dirname(file), specifier).startsWith(stubbed + "/")) continue;
    for (const name of names.split(",").map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean)) {
      if (!exported.has(name)) missing.push(`${relative(root, file)}: ${name} from ${specifier}`);
    }
  }
}
if (missing.length > 0) {
  console.error(`build: not exported by ${RUNTIME}'s index:\n${missing.join("\n")}`);
  process.exit(1);
}
