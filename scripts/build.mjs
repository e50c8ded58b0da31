// Builds the workspace's two packages with tsc, the runtime first (the main package compiles
// against its declarations): runtime/ → runtime/dist; the main package → dist/, resolving
// `@photon-indexer-kit/runtime` to runtime/dist so no runtime module is compiled in;
// dist/runtime/index.{js,d.ts} re-exporting the dependency, so an installed package holds one
// runtime (one RpcError class); dist/reference/trees/poseidon-memo.bin (scripts/poseidon-memo.mjs).
// `node scripts/build.mjs runtime` builds the runtime only. Runs on `npm pack` (prepack) and on
// `npm ci`/`npm install` here (scripts/package.json's `prepare`), never from a published manifest.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";

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

// A relative import of runtime/ would have pulled its sources into the program (and into dist/runtime/).
const entry = join(dist, "runtime");
if (existsSync(entry)) {
  const copied = filesUnder(entry).map((f) => relative(root, f));
  console.error(`build: tsc compiled runtime sources into the main package (import ${RUNTIME} by name):\n${copied.join("\n")}`);
  process.exit(1);
}
mkdirSync(entry);
const stub = `// The runtime is its own package; this entry re-exports it (see scripts/build.mjs).\nexport * from "${RUNTIME}";\n`;
for (const ext of [".js", ".d.ts"]) writeFileSync(join(entry, "index" + ext), stub);

const memo = spawnSync(process.execPath, [join(root, "scripts", "poseidon-memo.mjs")], { stdio: "inherit" });
if (memo.status !== 0) process.exit(memo.status ?? 1);
