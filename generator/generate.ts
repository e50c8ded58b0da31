/** spec → model → emitters: the whole pipeline, as one function the CLI and tests share. */
import { emitAll } from "./emit/index.js";
import { loadSpec } from "./load.js";
import { buildModel, type SpecModel } from "./model.js";
import { packageVersion } from "./paths.js";

export interface Generated {
  readonly model: SpecModel;
  readonly files: Map<string, string>;
}

export async function generate(spec: string, cwd = process.cwd()): Promise<Generated> {
  const model = buildModel(await loadSpec(spec, cwd));
  const files = await emitAll(model, { generatorVersion: packageVersion });
  return { model, files };
}
