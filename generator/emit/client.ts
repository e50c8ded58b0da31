/**
 * The typed client: one method per RPC and an async iterator per paginated RPC, each a
 * one-line delegation to the runtime's `createRpcClient` through two typed helpers (`call`,
 * `items`), so no member needs a cast of its own. ts-morph writes it from structures (morph.ts).
 */
import type { SpecModel } from "../model.js";
import { docLines, LINE_WIDTH, objectKey, stringLiteral, typeKey } from "./escape.js";
import { iteratorName } from "./names.js";
import { RUNTIME_PACKAGE, type RuntimeModule } from "./runtime-package.js";
import { importOf, printStatements, type Statements, tsMorph } from "./morph.js";

/**
 * `(a, b): R` as a function type for the member's line, and, when that line would pass the formatter's
 * width, the member with its parameters one per line as the formatter lays it out. (ts-morph writes a
 * member's type with a hanging indent, which cannot lay out the closing `) => R` a level back.)
 */
function functionType(member: string, signature: string): { type: string; wrapped?: [line: string, lines: string] } {
  const [, args, result] = /^\((.*)\): (.*)$/.exec(signature)!;
  const type = `(${args}) => ${result}`;
  const line = `  ${member}: ${type};`;
  if (line.length <= LINE_WIDTH) return { type };
  const lines = [`  ${member}: (`, ...args!.split(", ").map((a) => `    ${a},`), `  ) => ${result};`].join("\n");
  return { type, wrapped: [line, lines] };
}

/** client.ts without its banner. */
export function renderClient(model: SpecModel, runtime: RuntimeModule = RUNTIME_PACKAGE): string {
  const { statements, wrapped } = clientParts(model, runtime);
  const text = printStatements("client.ts", statements);
  return wrapped.size === 0 ? text : text.replace(/^ {2}[^\n]*$/gm, (line) => wrapped.get(line) ?? line);
}

/** client.ts's statements as ts-morph structures, and the member lines to wrap (`functionType`). */
function clientParts(model: SpecModel, runtime: RuntimeModule): { statements: Statements; wrapped: Map<string, string> } {
  const { StructureKind } = tsMorph();
  const paginated = model.methods.some((m) => m.pagination);
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
        signature: `(${iterArgs}): Walk<Item<${name}>>`,
        body: `(params, options) => items(${name}, params, options)`,
        docs: docLines(
          [
            `Every item of \`${m.name}\`, following \`${m.pagination.cursor}\` page by page until it is null.`,
            "Throws PhotonClientError (PHOTON_ERR_CURSOR_REPEATED) if the server repeats a cursor.",
            ...(m.slot === null
              ? []
              : ["`slots` holds the slot each page was read at; `mixedSlots` is true when they differ (the list moved during the walk)."]),
          ].join("\n"),
        ),
      });
    }
  }

  const wrapped = new Map<string, string>();
  const statements: Statements = [
    importOf(runtime, ["createRpcClient"]),
    importOf(runtime, ["CallOptions", "ClientOptions", "PageOptions", "RpcClient", ...(paginated ? ["Walk"] : [])], true),
    importOf("./methods.js", ["methods"]),
    importOf("./types.js", paginated ? ["Item", "MethodName", "PaginatedMethodName", "Params", "Result"] : ["MethodName", "Params", "Result"], true),
    importOf("./validators.js", ["methodValidators"]),
    {
      kind: StructureKind.Interface,
      name: "PhotonClient",
      isExported: true,
      docs: docLines(`A typed client for ${model.title} ${model.version}.`),
      properties: [
        { name: "rpc", isReadonly: true, type: "RpcClient", docs: ["The untyped core: `call(method, params)`, `pages`, `items`."] },
        ...members.map((m) => {
          const { type, wrapped: wrap } = functionType(m.member, m.signature);
          if (wrap) wrapped.set(...wrap);
          return { name: m.member, type, docs: m.docs };
        }),
      ],
    },
    {
      kind: StructureKind.Function,
      name: "createClient",
      isExported: true,
      docs: [
        [
          "Creates a client. POSTs to `options.url` exactly as given (set `methodPath` for `/<method>` paths).",
          "JSON-RPC errors reject with `RpcError` (`code`, `message`, `data`); transport and validation",
          "failures with `PhotonClientError`. uint64 values above 2^53 - 1 arrive as `bigint`.",
          "A call given `minContextSlot` tries again until the indexer has reached that slot, within its",
          "`timeoutMs`, else rejects with `PhotonClientError` (PHOTON_ERR_INDEXER_BEHIND).",
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
          writer.indent().write("rpc.items(method, params as Record<string, unknown>, pageOptions) as Walk<Item<M>>;").newLine();
        }
        writer.writeLine("return {");
        writer.indent(() => {
          writer.writeLine("rpc,");
          for (const m of members) writer.writeLine(`${m.key}: ${m.body},`);
        });
        writer.writeLine("};");
      },
    },
  ];
  return { statements, wrapped };
}
