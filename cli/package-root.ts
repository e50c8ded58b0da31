/**
 * Where this package's own files are (templates, the case corpus, package.json), from source
 * (tsx, vitest) or from dist/: the nearest folder above `from` holding package.json and every
 * one of `marks`. Shared by both command lines' areas; each says what missing means for it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root above the module at `moduleUrl` (its `import.meta.url`), or null when none holds every mark. */
export function packageRootOf(moduleUrl: string, marks: readonly string[]): string | null {
  for (let dir = dirname(fileURLToPath(moduleUrl)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && marks.every((m) => existsSync(join(dir, m)))) return dir;
  }
  return null;
}

/** The `name` and `version` of the package.json in `root`. */
export function packageAt(root: string): { readonly name: string; readonly version: string } {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}
