/** Locates files of this package, from source (tsx, vitest) or from dist/. */
import { join } from "node:path";
import { packageAt, packageRootOf } from "../cli/package-root.js";
import { GenError, GenErrorCode } from "./errors.js";

function findRoot(): string {
  const root = packageRootOf(import.meta.url, ["templates"]);
  if (root === null) throw new GenError(GenErrorCode.INSTALL, "photon-gen: cannot find its package root (templates/ missing)");
  return root;
}

export const packageRoot = findRoot();
export const templatesDir = join(packageRoot, "templates");
export const packageVersion: string = packageAt(packageRoot).version;
