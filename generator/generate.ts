/** spec → model → emitters: the whole pipeline, as one function the CLI and tests share. */
import { basename, relative, resolve, sep } from "node:path";
import { emitAll } from "./emit/index.js";
import { RUNTIME_PACKAGE, type RuntimeModule } from "./emit/runtime-package.js";
import { loadSpec } from "./load.js";
import { buildModel, type SpecModel } from "./model.js";
import { packageVersion } from "./paths.js";

export interface Generated {
  readonly model: SpecModel;
  readonly files: Map<string, string>;
}

export interface GenerateOptions {
  /** The module generated code imports the runtime from (default the runtime package). */
  readonly runtime?: RuntimeModule;
}

export async function generate(spec: string, cwd = process.cwd(), options: GenerateOptions = {}): Promise<Generated> {
  const model = buildModel(await loadSpec(spec, cwd));
  const files = await emitAll(named(model, cwd), { generatorVersion: packageVersion, runtime: options.runtime ?? RUNTIME_PACKAGE });
  return { model, files };
}

/**
 * The model with its spec named by what it is, not where it was read from: a file by its name, a
 * folder's files by their paths inside it (`/`-separated), a URL as shown. What the files say then
 * depends only on the spec (title, version, sha256, names), so `photon-gen check` agrees with
 * `generate` whichever directory either runs in, wherever the output folder is.
 */
function named(model: SpecModel, cwd: string): SpecModel {
  if (/^https?:/i.test(model.source)) return model;
  const root = resolve(cwd, model.source);
  const inside = (file: string) => (resolve(cwd, file) === root ? basename(root) : relative(root, resolve(cwd, file)).split(sep).join("/"));
  return { ...model, source: basename(root), files: model.files.map((f) => ({ ...f, file: inside(f.file) })) };
}
