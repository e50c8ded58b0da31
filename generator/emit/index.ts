/**
 * Runs every emitter over one model and returns the files of generated/, formatted and
 * bannered. Pure: the same model always yields the same bytes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFile } from "ts-morph";
import type { SpecModel } from "../model.js";
import { templatesDir } from "../paths.js";
import { addClient } from "./client.js";
import { addMethodTable } from "./methods.js";
import { addServer, wrapHandlerSignatures } from "./server.js";
import { addMethodTypes, renderSchemaTypes } from "./types.js";
import { indentByBraces } from "./indent.js";
import { compileTemplate, objectKey } from "./escape.js";
import { emitValidators, VALIDATOR_PRELUDE } from "./validators.js";
import { RUNTIME_PACKAGE } from "./runtime-package.js";

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
}

export async function emitAll(model: SpecModel, options: EmitOptions): Promise<Map<string, string>> {
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

  const project = new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Double,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
  });
  const files = new Map<string, string>();
  const finish = (name: string, sf: SourceFile) => {
    sf.formatText({ indentSize: 2, convertTabsToSpaces: true, ensureUpdateOrderedImports: false } as never);
    // A blank line between the imports and the code, as a person would leave it.
    let text = sf
      .getFullText()
      .trim()
      .replace(/^((?:import [^\n]*\n)+)(?=\S)/m, "$1\n");
    if (name === "server.ts") text = wrapHandlerSignatures(text);
    files.set(name, `${bannerFor(name)}\n${text}\n`);
  };

  const types = project.createSourceFile("types.ts", await renderSchemaTypes(model));
  addMethodTypes(types, model);
  finish("types.ts", types);

  const table = project.createSourceFile("methods.ts", "");
  addMethodTable(table, model);
  finish("methods.ts", table);

  const { code, layout } = emitValidators(model);
  // Only what the code reads: a spec without formats or integer fields must not leave an unused import.
  const runtimeValues = ["formats", "nonIntegerLiteral"].filter((name) => new RegExp(`\\b${name}\\b`).test(code));
  const runtimeTypes = ["AjvErrorObject", "EnvelopeValidators", "MethodValidators", "StandaloneValidate"];
  const validatorsTs = [
    runtimeValues.length === 0
      ? `import type { ${runtimeTypes.join(", ")} } from "${RUNTIME_PACKAGE}";`
      : `import { ${[...runtimeValues, ...runtimeTypes.map((t) => `type ${t}`)].join(", ")} } from "${RUNTIME_PACKAGE}";`,
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

  const client = project.createSourceFile("client.ts", "");
  addClient(client, model);
  finish("client.ts", client);

  const server = project.createSourceFile("server.ts", "");
  addServer(server, model);
  finish("server.ts", server);

  const index = project.createSourceFile("index.ts", "");
  for (const m of ["./types.js", "./methods.js", "./validators.js", "./client.js", "./server.js"]) {
    index.addExportDeclaration({ moduleSpecifier: m, isTypeOnly: m === "./types.js" });
  }
  // What a caller of the client catches, importable beside it.
  index.addExportDeclaration({ moduleSpecifier: RUNTIME_PACKAGE, namedExports: ["ClientErrorCode", "PhotonClientError", "RpcError"] });
  finish("index.ts", index);

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
    }),
  );
  return new Map([...files.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
