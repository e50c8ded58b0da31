/**
 * A spec compiled in memory, for a run against a spec chosen at run time (`--spec FILE|VERSION`): the same load →
 * model pipeline, `methodEntry` and ajv validators as `generate`, kept as functions in the shapes of generated/methods.ts
 * and validators.ts. The one generator module conformance may import, and only lazily.
 */
import { internalError, type EnvelopeValidators, type MethodValidators, type StandaloneValidate } from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode } from "./errors.js";
import { methodEntry, type MethodEntry } from "./emit/methods.js";
import { compileModelSchemas, createAjv } from "./emit/validators.js";
import { loadSpec } from "./load.js";
import { buildModel } from "./model.js";
import { named } from "./spec-name.js";

export { GenError };
export type { MethodEntry };

export interface CompiledSpec {
  /** The spec's identity, as generated/methods.ts `spec` states it. */
  readonly spec: {
    readonly title: string;
    readonly version: string;
    readonly sha256: string;
    readonly source: string;
    readonly files: readonly { readonly file: string; readonly sha256: string }[];
  };
  /** Every method by name, in spec order (generated/methods.ts `methods`). */
  readonly methods: Readonly<Record<string, MethodEntry>>;
  /** Alias → method (generated/methods.ts `methodAliases`). */
  readonly methodAliases: Readonly<Record<string, string>>;
  /** Each method's params and result validator (generated/validators.ts `methodValidators`). */
  readonly validators: Readonly<Record<string, MethodValidators>>;
  /** The JSON-RPC envelope validators (generated/validators.ts `envelopeValidators`). */
  readonly envelope: EnvelopeValidators;
}

/**
 * Loads, models and compiles the spec at `source` (a file, a folder of spec files or an
 * http(s) URL, as `photon-gen generate` takes it). A spec that cannot be read or compiled
 * throws a GenError naming the file and the JSON pointer.
 */
export async function compileSpec(source: string, cwd = process.cwd()): Promise<CompiledSpec> {
  const model = named(buildModel(await loadSpec(source, cwd)), cwd);
  const ajv = createAjv();
  const layout = compileModelSchemas(ajv, model);
  const compiled = (exportName: string): StandaloneValidate => {
    const id = layout.exports[exportName];
    const validate = id === undefined ? undefined : ajv.getSchema(id);
    if (!validate) throw internalError(GenErrorCode.INTERNAL, `photon-gen: internal error: no compiled schema for ${exportName}`);
    return validate as StandaloneValidate;
  };
  const methods: Record<string, MethodEntry> = {};
  const methodAliases: Record<string, string> = {};
  for (const m of model.methods) {
    methods[m.name] = methodEntry(m);
    for (const alias of m.aliases) methodAliases[alias] = m.name;
  }
  const validators: Record<string, MethodValidators> = {};
  for (const v of layout.methods) validators[v.name] = { params: compiled(v.params), result: compiled(v.result) };
  return {
    spec: { title: model.title, version: model.version, sha256: model.sha256, source: model.source, files: model.files },
    methods,
    methodAliases,
    validators,
    envelope: { request: compiled("requestEnvelope"), response: compiled("responseEnvelope"), error: compiled("errorObject") },
  };
}
