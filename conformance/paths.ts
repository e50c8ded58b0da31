/** Where this package's own files are (the case corpus, fixtures, package.json), from source or from dist/. */
import { join } from "node:path";
import { internalError } from "@photon-indexer-kit/runtime";
import { packageAt, packageRootOf } from "../cli/package-root.js";
import { ConfErrorCode } from "./errors.js";

function findRoot(): string {
  const root = packageRootOf(import.meta.url, [join("conformance", "cases")]);
  if (root === null) throw internalError(ConfErrorCode.INTERNAL, "photon-conformance: cannot find its package root (conformance/cases missing)");
  return root;
}

export const packageRoot: string = findRoot();
/** This package's name and version, as every report names the tool that judged. */
export const packageInfo = packageAt(packageRoot);
export const packageVersion: string = packageInfo.version;
