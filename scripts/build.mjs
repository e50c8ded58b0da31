// Compiles the package to dist/ with tsc, then copies the generated plain-JS validators
// (ajv standalone output, which tsc does not compile) and their declarations beside it.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync(join(root, "dist"), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.json")], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
for (const dir of ["generated"]) {
  mkdirSync(join(root, "dist", dir), { recursive: true });
  for (const name of readdirSync(join(root, dir))) {
    if (name.endsWith(".js") || name.endsWith(".d.ts")) copyFileSync(join(root, dir, name), join(root, "dist", dir, name));
  }
}
if (!existsSync(join(root, "dist", "generator", "cli.js"))) {
  console.error("build: dist/generator/cli.js is missing");
  process.exit(1);
}
