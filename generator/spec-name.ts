/** How generated files and compiled specs name the spec they came from. */
import { basename, relative, resolve, sep } from "node:path";
import type { SpecModel } from "./model.js";

/**
 * The model with its spec named by what it is, not where it was read from: a file by its name, a
 * folder's files by their paths inside it (`/`-separated), a URL as shown. What the files say then
 * depends only on the spec (title, version, sha256, names), so `photon-gen check` agrees with
 * `generate` whichever directory either runs in, wherever the output folder is.
 */
export function named(model: SpecModel, cwd: string): SpecModel {
  if (/^https?:/i.test(model.source)) return model;
  const root = resolve(cwd, model.source);
  const inside = (file: string) => (resolve(cwd, file) === root ? basename(root) : relative(root, resolve(cwd, file)).split(sep).join("/"));
  return { ...model, source: basename(root), files: model.files.map((f) => ({ ...f, file: inside(f.file) })) };
}
