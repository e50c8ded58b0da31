// Compiles the package to dist/ with tsc. Everything is TypeScript, generated/validators.ts
// included, so dist/ is exactly what tsc emits: nothing is copied beside it.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync(join(root, "dist"), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
for (const file of ["generator/cli.js", "generated/validators.js", "runtime/index.js", "reference/index.js", "conformance/index.js"]) {
  if (!existsSync(join(root, "dist", file))) {
    console.error(`build: dist/${file} is missing`);
    process.exit(1);
  }
}
