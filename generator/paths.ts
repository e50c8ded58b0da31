/** Locates files of this package, from source (tsx, vitest) or from dist/. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { GenError, GenErrorCode } from "./errors.js";

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "templates"))) return dir;
    dir = dirname(dir);
  }
  throw new GenError(GenErrorCode.INSTALL, "photon-gen: cannot find its package root (templates/ missing)");
}

export const packageRoot = findRoot();
export const templatesDir = join(packageRoot, "templates");
export const packageVersion: string = (JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string }).version;
