import { createRequire } from "node:module";
import { join, resolve } from "node:path";

/** The package generated code imports at run time (runtime/package.json's `name`): the only dependency a generated client has. */
export const RUNTIME_PACKAGE = "@photon-indexer-kit/runtime";
/**
 * The main package's entry that re-exports it. photon-indexer-kit bundles the runtime package
 * (package.json `bundleDependencies`), so npm installs it under node_modules/photon-indexer-kit/
 * where a project's own code cannot resolve it: code generated there imports this entry instead.
 */
export const RUNTIME_ENTRY = "photon-indexer-kit/runtime";
export const RUNTIME_MODULES = [RUNTIME_PACKAGE, RUNTIME_ENTRY] as const;
export type RuntimeModule = (typeof RUNTIME_MODULES)[number];

/** The runtime package if code in `outDir` resolves it (this repository, a project that installed it), else the main package's entry. */
export function runtimeFor(outDir: string): RuntimeModule {
  try {
    createRequire(join(resolve(outDir), "index.js")).resolve(`${RUNTIME_PACKAGE}/package.json`);
    return RUNTIME_PACKAGE;
  } catch {
    return RUNTIME_ENTRY;
  }
}
