/**
 * Server stubs: a `Handlers` interface with one typed function per method, and a
 * `createListener(handlers)` for node:http that routes, validates and answers as the real
 * indexer does (the behaviour lives in the runtime's `createRequestListener`). ts-morph writes it
 * from structures (morph.ts); the long handler signatures are then wrapped (`wrapHandlerSignatures`).
 */
import type { SpecModel } from "../model.js";
import { docLines, LINE_WIDTH, stringLiteral, typeKey } from "./escape.js";
import { RUNTIME_PACKAGE, type RuntimeModule } from "./runtime-package.js";
import { importOf, printStatements, type Statements, tsMorph } from "./morph.js";

/** server.ts without its banner, before `wrapHandlerSignatures`. */
export function renderServer(model: SpecModel, runtime: RuntimeModule = RUNTIME_PACKAGE): string {
  return printStatements("server.ts", serverStatements(model, runtime));
}

/** server.ts's statements as ts-morph structures. */
export function serverStatements(model: SpecModel, runtime: RuntimeModule = RUNTIME_PACKAGE): Statements {
  const { StructureKind } = tsMorph();
  const aliased = model.methods.some((m) => m.aliases.length > 0);
  const optional = model.methods.some((m) => !m.registered);
  // Unregistered methods' handlers are optional: the listener registers only the handlers it is given.
  const register = optional
    ? [
        "for (const name of Object.keys(methods) as (keyof Handlers)[]) {",
        "  const handler = handlers[name];",
        "  if (handler !== undefined) table[name] = handler.bind(handlers) as Handler;",
        "}",
      ]
    : ["for (const name of Object.keys(methods) as (keyof Handlers)[]) table[name] = handlers[name].bind(handlers) as Handler;"];
  return [
    importOf("node:http", ["IncomingMessage", "ServerResponse"], true),
    importOf(runtime, ["createRequestListener"]),
    importOf(
      runtime,
      aliased ? ["CallContext", "Handler", "ListenerOptions", "MethodInfo", "MethodValidators"] : ["CallContext", "Handler", "ListenerOptions"],
      true,
    ),
    importOf("./methods.js", aliased ? ["methodAliases", "methods"] : ["methods"]),
    importOf("./types.js", ["MethodName", "Params", "Result"], true),
    importOf("./validators.js", ["methodValidators"]),
    // A blank line after the imports, as ts-morph leaves one before an interface (client.ts) but not before a type
    // alias: the two files keep the same layout as they have always had (index.ts `finish` then sets the imports apart).
    (writer) => writer.blankLine(),
    {
      kind: StructureKind.TypeAlias,
      name: "Answer",
      isExported: true,
      typeParameters: [{ name: "M", constraint: "MethodName" }],
      type: "Result<M> | Promise<Result<M>>",
      docs: ["What a handler gives back: the method's result, now or later."],
    },
    {
      kind: StructureKind.Interface,
      name: "Handlers",
      isExported: true,
      docs: [
        [
          "One function per method. Params arrive validated; throw `RpcError` (e.g. `RpcError.validation(…)`",
          "for -32000) to answer with an error. Any other throw becomes -32000 `Internal server error`.",
          ...(optional ? ["A method the real server does not register (`x-registered: false`) may be left out: it then answers -32601."] : []),
        ].join("\n"),
      ],
      methods: model.methods.map((m) => {
        const name = stringLiteral(m.name);
        return {
          name: typeKey(m.name),
          hasQuestionToken: !m.registered,
          docs: docLines(m.summary !== m.name ? m.summary : null),
          parameters: [
            { name: "params", type: m.hasParams ? `Params<${name}>` : "undefined" },
            { name: "context", type: "CallContext" },
          ],
          returnType: `Answer<${name}>`,
        };
      }),
    },
    {
      kind: StructureKind.TypeAlias,
      name: "ServerOptions",
      isExported: true,
      type: `Omit<ListenerOptions, "methods" | "validators" | "handlers">`,
    },
    {
      kind: StructureKind.Function,
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
      statements: aliased
        ? [
            "const table: Record<string, Handler> = {};",
            ...register,
            "// An alias (`x-aliases`) is answered by its method's handler, with its method's validators.",
            "const served: Record<string, MethodInfo> = { ...methods };",
            "const validators: Record<string, MethodValidators> = { ...methodValidators };",
            "for (const [alias, name] of Object.entries(methodAliases)) {",
            "  served[alias] = methods[name];",
            "  validators[alias] = methodValidators[name];",
            ...(optional ? ["  const handler = table[name];", "  if (handler !== undefined) table[alias] = handler;"] : ["  table[alias] = table[name]!;"]),
            "}",
            "return createRequestListener({ ...options, methods: served, validators, handlers: table });",
          ]
        : [
            "const table: Record<string, Handler> = {};",
            ...register,
            "return createRequestListener({ ...options, methods, validators: methodValidators, handlers: table });",
          ],
    },
  ];
}

/**
 * A handler's signature too long for the formatter's line (biome.json) with its parameters one per
 * line, as the formatter lays it out (ts-morph writes every signature on one line).
 */
export function wrapHandlerSignatures(text: string): string {
  return text.replace(
    // The name as `typeKey` writes it (an identifier or a quoted key), optional (`?`) for a method Photon does not register.
    /^( +)((?:\w+|"(?:[^"\\\n]|\\.)*")\??)\((params: [^,\n]+), (context: CallContext)\): (Answer<[^\n]+>);$/gm,
    (line, indent: string, name: string, params: string, context: string, answer: string) =>
      line.length <= LINE_WIDTH ? line : `${indent}${name}(\n${indent}  ${params},\n${indent}  ${context},\n${indent}): ${answer};`,
  );
}
