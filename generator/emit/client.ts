/**
 * The typed client: one method per RPC and an async iterator per paginated RPC, each a
 * one-line delegation to the runtime's `createRpcClient` through two typed helpers (`call`,
 * `items`), so no member needs a cast of its own.
 */
import type { SourceFile } from "ts-morph";
import type { SpecModel } from "../model.js";
import { docLines, LINE_WIDTH, objectKey, stringLiteral, typeKey } from "./escape.js";
import { iteratorName } from "./names.js";
import { RUNTIME_PACKAGE } from "./runtime-package.js";

/** `(a, b): R` as a function type on the member's line, its parameters one per line when that line would pass the formatter's width. */
function functionType(member: string, signature: string): string {
  const [, args, result] = /^\((.*)\): (.*)$/.exec(signature)!;
  const oneLine = `(${args}) => ${result}`;
  if (`  ${member}: ${oneLine};`.length <= LINE_WIDTH) return oneLine;
  return `(\n${args!
    .split(", ")
    .map((a) => `    ${a},`)
    .join("\n")}\n  ) => ${result}`;
}

export function addClient(file: SourceFile, model: SpecModel): void {
  file.addImportDeclaration({ moduleSpecifier: RUNTIME_PACKAGE, namedImports: ["createRpcClient"] });
  file.addImportDeclaration({
    moduleSpecifier: RUNTIME_PACKAGE,
    namedImports: ["CallOptions", "ClientOptions", "PageOptions", "RpcClient"],
    isTypeOnly: true,
  });
  file.addImportDeclaration({ moduleSpecifier: "./methods.js", namedImports: ["methods"] });
  const paginated = model.methods.some((m) => m.pagination);
  file.addImportDeclaration({
    moduleSpecifier: "./types.js",
    namedImports: paginated ? ["Item", "MethodName", "PaginatedMethodName", "Params", "Result"] : ["MethodName", "Params", "Result"],
    isTypeOnly: true,
  });
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
      body: m.hasParams ? `(params, options) => call(${name}, params, options)` : `(options) => call(${name}, undefined, options)`,
      docs: docLines(m.summary !== m.name ? m.summary : null, m.description),
    });
    if (m.pagination) {
      const iter = iteratorName(m.name);
      const iterArgs = `params: Params<${name}>, options?: PageOptions`;
      members.push({
        key: iter,
        member: iter,
        signature: `(${iterArgs}): AsyncGenerator<Item<${name}>>`,
        body: `(params, options) => items(${name}, params, options)`,
        docs: docLines(
          `Every item of \`${m.name}\`, following \`${m.pagination.cursor}\` page by page until it is null.\nThrows PhotonClientError (PHOTON_ERR_CURSOR_REPEATED) if the server repeats a cursor.`,
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
      ...members.map((m) => ({ name: m.member, type: functionType(m.member, m.signature), docs: m.docs })),
    ],
  });
  file.addFunction({
    name: "createClient",
    isExported: true,
    docs: [
      [
        "Creates a client. POSTs to `options.url` exactly as given (set `methodPath` for `/<method>` paths).",
        "JSON-RPC errors reject with `RpcError` (`code`, `message`, `data`); transport and validation",
        "failures with `PhotonClientError`. uint64 values above 2^53 - 1 arrive as `bigint`.",
      ].join("\n"),
    ],
    parameters: [{ name: "options", type: "ClientOptions" }],
    returnType: "PhotonClient",
    statements: (writer) => {
      writer.writeLine("const rpc = createRpcClient(options, { methods, validators: methodValidators });");
      // The runtime core is untyped; these two are the only places its answers get their types.
      writer.writeLine("const call = <M extends MethodName>(method: M, params: Params<M> | undefined, callOptions?: CallOptions) =>");
      writer.indent().write("rpc.call(method, params, callOptions) as Promise<Result<M>>;").newLine();
      if (paginated) {
        writer.writeLine("const items = <M extends PaginatedMethodName>(method: M, params: Params<M>, pageOptions?: PageOptions) =>");
        writer.indent().write("rpc.items(method, params as Record<string, unknown>, pageOptions) as AsyncGenerator<Item<M>>;").newLine();
      }
      writer.writeLine("return {");
      writer.indent(() => {
        writer.writeLine("rpc,");
        for (const m of members) writer.writeLine(`${m.key}: ${m.body},`);
      });
      writer.writeLine("};");
    },
  });
}
