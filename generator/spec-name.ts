/** How generated files and compiled specs name the spec they came from. */
import { basename, relative, resolve, sep } from "node:path";
import type { SpecModel } from "./model.js";

/**
 * The model with its spec named by what it is (a file's name, a folder's relative paths, a URL as shown),
 * not where it was read, so `photon-gen check` agrees with `generate` from any directory.
 */
export function named(model: SpecModel, cwd: string): SpecModel {
  if (/^https?:/i.test(model.source)) return model;
  const root = resolve(cwd, model.source);
  const inside = (file: string) => (resolve(cwd, file) === root ? basename(root) : relative(root, resolve(cwd, file)).split(sep).join("/"));
  return { ...model, source: basename(root), files: model.files.map((f) => ({ ...f, file: inside(f.file) })) };
}
