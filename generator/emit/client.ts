/**
 * The typed client: one method per RPC and an async iterator per paginated RPC, each a
 * one-line delegation to the runtime's `createRpcClient`.
 */
import type { SourceFile } from "ts-morph";
import type { SpecModel } from "../model.js";
import { docLines, objectKey, stringLiteral, typeKey } from "./escape.js";
import { iteratorName } from "./names.js";

export function addClient(file: SourceFile, model: SpecModel): void {
  file.addImportDeclaration({ moduleSpecifier: "photon-indexer-kit/runtime", namedImports: ["createRpcClient"] });
  file.addImportDeclaration({
    moduleSpecifier: "photon-indexer-kit/runtime",
    namedImports: ["CallOptions", "ClientOptions", "PageOptions", "RpcClient"],
    isTypeOnly: true,
  });
  file.addImportDeclaration({ moduleSpecifier: "./methods.js", namedImports: ["methods"] });
  file.addImportDeclaration({ moduleSpecifier: "./types.js", namedImports: ["Item", "Params", "Result"], isTypeOnly: true });
  file.addImportDeclaration({ moduleSpecifier: "./validators.js", namedImports: ["methodValidators"] });

  const members: { key: string; member: string; signature: string; body: string; docs: string[] }[] = [];
  for (const m of model.methods) {
    const name = stringLiteral(m.name);
    const paramsArg = !m.hasParams ? null : m.paramsRequired ? `params: Params<${name}>` : `params?: Params<${name}>`;
    const args = [paramsArg, "options?: CallOptions"].filter(Boolean).join(", ");
    members.push({
      key: objectKey(m.name),
      member: typeKey(m.name),
      signature: `(${args}): Promise<Result<${name}>>`,
      body: `(${args}) => rpc.call(${name}, ${m.hasParams ? "params" : "undefined"}, options) as Promise<Result<${name}>>`,
      docs: docLines(m.summary !== m.name ? m.summary : null, m.description),
    });
    if (m.pagination) {
      const iter = iteratorName(m.name);
      const iterArgs = `params: Params<${name}>, options?: PageOptions`;
      members.push({
        key: iter,
        member: iter,
        signature: `(${iterArgs}): AsyncGenerator<Item<${name}>>`,
        body: `(${iterArgs}) => rpc.items(${name}, params as Record<string, unknown>, options) as AsyncGenerator<Item<${name}>>`,
        docs: docLines(
          `Every item of \`${m.name}\`, following \`${m.pagination.cursor}\` page by page until it is null. Throws PhotonClientError (PHOTON_ERR_CURSOR_REPEATED) if the server repeats a cursor.`,
        ),
      });
    }
  }

  file.addInterface({
    name: "PhotonClient",
    isExported: true,
    docs: docLines(`A typed client for ${model.title} ${model.version}.`),
    properties: [
      { name: "rpc", isReadonly: true, type: "RpcClient", docs: ["The untyped core: `call(method, params)`, `pages`, `items`."] },
      ...members.map((m) => ({ name: m.member, type: m.signature.replace(/^\((.*)\): (.*)$/, "($1) => $2"), docs: m.docs })),
    ],
  });
  file.addFunction({
    name: "createClient",
    isExported: true,
    docs: [
      "Creates a client. POSTs to `options.url` exactly as given (set `methodPath` for `/<method>` paths); JSON-RPC errors reject with `RpcError` (`code`, `message`, `data`), transport and validation failures with `PhotonClientError`. uint64 values above 2^53 - 1 arrive as `bigint`.",
    ],
    parameters: [{ name: "options", type: "ClientOptions" }],
    returnType: "PhotonClient",
    statements: (writer) => {
      writer.writeLine("const rpc = createRpcClient(options, { methods, validators: methodValidators });");
      writer.write("return").block(() => {
        writer.writeLine("rpc,");
        for (const m of members) writer.writeLine(`${m.key}: ${m.body},`);
      });
      writer.write(";");
    },
  });
}
