/** spec → model → emitters: the whole pipeline, as one function the CLI and tests share. */
import { emitAll } from "./emit/index.js";
import { RUNTIME_PACKAGE, type RuntimeModule } from "./emit/runtime-package.js";
import { loadSpec } from "./load.js";
import { buildModel, type SpecModel } from "./model.js";
import { named } from "./spec-name.js";
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
