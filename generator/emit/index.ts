/**
 * Runs every emitter over one model and returns the files of generated/, formatted and bannered; the same model
 * always yields the same bytes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SpecModel } from "../model.js";
import { templatesDir } from "../paths.js";
import { renderClient } from "./client.js";
import { iteratorName } from "./names.js";
import { renderMethodTable } from "./methods.js";
import { renderServer, wrapHandlerSignatures } from "./server.js";
import { renderTypes } from "./types.js";
import { indentByBraces } from "./indent.js";
import { compileTemplate, objectKey } from "./escape.js";
import { emitValidators, VALIDATOR_PRELUDE } from "./validators.js";
import { RUNTIME_PACKAGE, type RuntimeModule } from "./runtime-package.js";
import { printStatements, tsMorph } from "./morph.js";
import type { ExportDeclarationStructure } from "ts-morph";

function template(name: string) {
  return compileTemplate(`${name}.hbs`, readFileSync(join(templatesDir, `${name}.hbs`), "utf8"));
}

const PURPOSES: Record<string, string> = {
  "types.ts": "schema types (openapi-typescript) and the per-method maps Params<M>, Result<M>, Item<M>",
  "methods.ts": "the method table read by client, server and conformance runner, and the spec's identity",
  "validators.ts": "precompiled ajv standalone validators for every method's params and result and the envelopes",
  "client.ts": "the typed JSON-RPC client over undici",
  "server.ts": "typed Handlers and the node:http request listener",
  "index.ts": "re-exports of every generated module, and the runtime's error classes",
  "README.md": "this page",
};

export interface EmitOptions {
  readonly generatorVersion: string;
  /** The module the files import the runtime from (default the runtime package; runtime-package.ts). */
  readonly runtime?: RuntimeModule;
}

export async function emitAll(model: SpecModel, options: EmitOptions): Promise<Map<string, string>> {
  const runtime = options.runtime ?? RUNTIME_PACKAGE;
  const banner = template("banner");
  const bannerFor = (file: string) =>
    banner({
      file,
      purpose: PURPOSES[file],
      generatorVersion: options.generatorVersion,
      title: model.title,
      version: model.version,
      source: model.source,
      sha256: model.sha256,
    });

  const files = new Map<string, string>();
  // A blank line between the imports and the code, as a person would leave it.
  const finish = (name: string, text: string) => files.set(name, `${bannerFor(name)}\n${text.trim().replace(/^((?:import [^\n]*\n)+)(?=\S)/m, "$1\n")}\n`);

  finish("types.ts", await renderTypes(model));
  finish("methods.ts", renderMethodTable(model, runtime));

  const { code, layout } = emitValidators(model);
  // Only what the code reads: a spec without formats or integer fields must not leave an unused import.
  const runtimeValues = ["formats", "linearRegExp", "nonIntegerLiteral"].filter((name) => new RegExp(`\\b${name}\\b`).test(code));
  const runtimeTypes = ["AjvErrorObject", "EnvelopeValidators", "MethodValidators", "StandaloneValidate"];
  const validatorsTs = [
    runtimeValues.length === 0
      ? `import type { ${runtimeTypes.join(", ")} } from "${runtime}";`
      : `import { ${[...runtimeValues, ...runtimeTypes.map((t) => `type ${t}`)].join(", ")} } from "${runtime}";`,
    `import type { MethodName } from "./types.js";`,
    "",
    VALIDATOR_PRELUDE,
    "",
    indentByBraces(code),
    "",
    "/** The params and result validator of each method. */",
    `export const methodValidators: { readonly [M in MethodName]: MethodValidators } = {\n${layout.methods.map((m) => `  ${objectKey(m.name)}: { params: ${m.params}, result: ${m.result} },`).join("\n")}\n};`,
    "",
    "/** The JSON-RPC envelope validators. */",
    "export const envelopeValidators: EnvelopeValidators = { request: requestEnvelope, response: responseEnvelope, error: errorObject };",
  ].join("\n");
  // Written as it stands (not through ts-morph's formatter): ajv's code is large and already laid out.
  files.set("validators.ts", `${bannerFor("validators.ts")}\n${validatorsTs}\n`);

  finish("client.ts", renderClient(model, runtime));
  finish("server.ts", wrapHandlerSignatures(renderServer(model, runtime)));
  const { StructureKind } = tsMorph();
  finish(
    "index.ts",
    printStatements("index.ts", [
      ...["./types.js", "./methods.js", "./validators.js", "./client.js", "./server.js"].map(
        (m): ExportDeclarationStructure => ({ kind: StructureKind.ExportDeclaration, moduleSpecifier: m, isTypeOnly: m === "./types.js" }),
      ),
      // What a caller of the client catches, importable beside it.
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: runtime, namedExports: ["ClientErrorCode", "PhotonClientError", "RpcError"] },
    ]),
  );

  files.set(
    "README.md",
    template("readme")({
      generatorVersion: options.generatorVersion,
      title: model.title,
      version: model.version,
      source: model.source,
      sha256: model.sha256,
      files: Object.entries(PURPOSES).map(([name, purpose]) => ({ name, purpose })),
      methods: model.methods.map((m) => ({
        name: m.name,
        params: [...m.requiredParams.map((p) => ({ name: p, required: true })), ...m.optionalParams.map((p) => ({ name: p, required: false }))],
        none: m.hasParams ? "(object)" : "none",
        pagination: m.pagination,
      })),
      slotExample: slotExampleOf(model),
    }),
  );
  return new Map([...files.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** The README's `minContextSlot` example: the first paginated method whose answers carry a slot, if any. */
function slotExampleOf(model: SpecModel): { call: string; walk: string } | null {
  const m = model.methods.find((x) => x.pagination && x.slot !== null);
  if (!m) return null;
  const params = m.requiredParams.length === 0 ? "{}" : `{ ${m.requiredParams.join(", ")} }`;
  return {
    call: `await photon.${m.name}(${params}, { minContextSlot: slot, timeoutMs: 20_000 })`,
    walk: `const walk = photon.${iteratorName(m.name)}(${params}); for await (const item of walk) use(item);`,
  };
}
