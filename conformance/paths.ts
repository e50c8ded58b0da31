/**
 * Where this package's own files are (the case corpus, fixtures, package.json), from source
 * (tsx, vitest) or from dist/: the nearest folder above this file that holds package.json and
 * conformance/cases.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { internalError } from "@photon-indexer-kit/runtime";
import { ConfErrorCode } from "./errors.js";

function rootOf(start: string): string {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "conformance", "cases"))) return dir;
  }
  throw internalError(ConfErrorCode.INTERNAL, "photon-conformance: cannot find its package root (conformance/cases missing)");
}

export const packageRoot: string = rootOf(dirname(fileURLToPath(import.meta.url)));
export const packageVersion: string = (JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string }).version;
