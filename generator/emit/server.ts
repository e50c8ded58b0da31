/**
 * Server stubs: a `Handlers` interface with one typed function per method, and a
 * `createListener(handlers)` for node:http that routes, validates and answers as the real
 * indexer does (the behaviour lives in the runtime's `createRequestListener`).
 */
import type { SourceFile } from "ts-morph";
import type { SpecModel } from "../model.js";
import { docLines, LINE_WIDTH, stringLiteral, typeKey } from "./escape.js";
import { RUNTIME_PACKAGE } from "./runtime-package.js";

export function addServer(file: SourceFile, model: SpecModel): void {
  file.addImportDeclaration({ moduleSpecifier: "node:http", namedImports: ["IncomingMessage", "ServerResponse"], isTypeOnly: true });
  file.addImportDeclaration({ moduleSpecifier: RUNTIME_PACKAGE, namedImports: ["createRequestListener"] });
  file.addImportDeclaration({
    moduleSpecifier: RUNTIME_PACKAGE,
    namedImports: ["CallContext", "Handler", "ListenerOptions"],
    isTypeOnly: true,
  });
  file.addImportDeclaration({ moduleSpecifier: "./methods.js", namedImports: ["methods"] });
  file.addImportDeclaration({ moduleSpecifier: "./types.js", namedImports: ["MethodName", "Params", "Result"], isTypeOnly: true });
  file.addImportDeclaration({ moduleSpecifier: "./validators.js", namedImports: ["methodValidators"] });

  file.addTypeAlias({
    name: "Answer",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "MethodName" }],
    type: "Result<M> | Promise<Result<M>>",
    docs: ["What a handler gives back: the method's result, now or later."],
  });
  file.addInterface({
    name: "Handlers",
    isExported: true,
    docs: [
      [
        "One function per method. Params arrive validated; throw `RpcError` (e.g. `RpcError.validation(…)`",
        "for -32000) to answer with an error. Any other throw becomes -32000 `Internal server error`.",
      ].join("\n"),
    ],
    methods: model.methods.map((m) => {
      const name = stringLiteral(m.name);
      return {
        name: typeKey(m.name),
        docs: docLines(m.summary !== m.name ? m.summary : null),
        parameters: [
          { name: "params", type: m.hasParams ? `Params<${name}>` : "undefined" },
          { name: "context", type: "CallContext" },
        ],
        returnType: `Answer<${name}>`,
      };
    }),
  });
  file.addTypeAlias({
    name: "ServerOptions",
    isExported: true,
    type: `Omit<ListenerOptions, "methods" | "validators" | "handlers">`,
  });
  file.addFunction({
    name: "createListener",
    isExported: true,
    docs: [
      [
        "A node:http request listener serving `handlers` on any POST path, with JSON-RPC batches,",
        "notifications, health checks and the real indexer's error codes.",
      ].join("\n"),
    ],
    parameters: [
      { name: "handlers", type: "Handlers" },
      { name: "options", type: "ServerOptions", initializer: "{}" },
    ],
    returnType: "(request: IncomingMessage, response: ServerResponse) => void",
    statements: [
      "const table: Record<string, Handler> = {};",
      "for (const name of Object.keys(methods) as (keyof Handlers)[]) table[name] = handlers[name].bind(handlers) as Handler;",
      "return createRequestListener({ ...options, methods, validators: methodValidators, handlers: table });",
    ],
  });
}

/**
 * A handler's signature too long for the formatter's line (biome.json) with its parameters one per
 * line, as the formatter lays it out (ts-morph writes every signature on one line).
 */
export function wrapHandlerSignatures(text: string): string {
  return text.replace(
    /^( +)(\w+)\((params: [^,\n]+), (context: CallContext)\): (Answer<[^\n]+>);$/gm,
    (line, indent: string, name: string, params: string, context: string, answer: string) =>
      line.length <= LINE_WIDTH ? line : `${indent}${name}(\n${indent}  ${params},\n${indent}  ${context},\n${indent}): ${answer};`,
  );
}
