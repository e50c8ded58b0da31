/**
 * The ajv baseline: the same normalised schemas that `photon-gen` compiles at generation
 * time, compiled at run time instead (with the generator's own ajv set-up: strict mode, the
 * runtime's formats, the uint64/int64 keywords).
 */
import type { StandaloneValidate } from "../../runtime/index.js";
import { createAjv } from "../../generator/emit/validators.js";
import { loadSpec } from "../../generator/load.js";
import { buildModel, COMPONENTS_ID, type SpecModel } from "../../generator/model.js";
import { ROOT } from "./figure.js";

export async function specModel(): Promise<SpecModel> {
  return buildModel(await loadSpec(`${ROOT}/spec/photon-indexer.yaml`, ROOT));
}

export interface RuntimeSchemas {
  readonly components: SpecModel["components"];
  readonly result: object;
}

export function resultSchemaOf(model: SpecModel, method: string): RuntimeSchemas {
  const m = model.methods.find((x) => x.name === method);
  if (m === undefined) throw new Error(`no method ${method} in the spec`);
  const normalized = m.result.normalized;
  return { components: model.components, result: typeof normalized === "boolean" ? {} : normalized };
}

/** A cold start: a new Ajv, the components added, the result schema compiled. */
export function compileAtRunTime(schemas: RuntimeSchemas): StandaloneValidate {
  const ajv = createAjv();
  ajv.addSchema({ $id: COMPONENTS_ID, definitions: schemas.components });
  return ajv.compile({ $id: "result.json", ...schemas.result }) as unknown as StandaloneValidate;
}
