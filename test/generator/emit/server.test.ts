/**
 * emit/server.ts: `Answer<M>`, a `Handlers` interface with one typed function per method
 * (each answering `Answer<"name">`), `ServerOptions` and `createListener`, read back as a
 * syntax tree.
 */
import type { InterfaceDeclaration, SourceFile } from "ts-morph";
import { beforeAll, describe, expect, it } from "vitest";
import { renderServer, wrapHandlerSignatures } from "../../../generator/emit/server.js";
import { LINE_WIDTH } from "../../../generator/emit/escape.js";
import { loadSpec } from "../../../generator/load.js";
import { buildModel, type SpecModel } from "../../../generator/model.js";
import { extendedSpec } from "../../helpers/paths.js";
import { emptySourceFile, modelOf, specOf } from "../../helpers/spec.js";

function emit(model: SpecModel): SourceFile {
  return emptySourceFile("server.ts", renderServer(model));
}

const handlers = (file: SourceFile): InterfaceDeclaration => file.getInterfaceOrThrow("Handlers");

describe("over the ledger spec", () => {
  let file: SourceFile;
  let model: SpecModel;
  beforeAll(async () => {
    model = buildModel(await loadSpec(extendedSpec));
    file = emit(model);
  });

  it("exports Answer<M extends MethodName> as the result now or later", () => {
    const answer = file.getTypeAliasOrThrow("Answer");
    expect(answer.isExported()).toBe(true);
    expect(answer.getTypeParameters().map((p) => p.getText())).toEqual(["M extends MethodName"]);
    expect(answer.getTypeNodeOrThrow().getText()).toBe("Result<M> | Promise<Result<M>>");
  });

  it("declares one handler per method, in spec order, each answering Answer<its name>", () => {
    const methods = handlers(file).getMethods();
    expect(methods.map((m) => m.getName())).toEqual(model.methods.map((m) => m.name));
    for (const m of methods) expect(m.getReturnTypeNodeOrThrow().getText()).toBe(`Answer<"${m.getName()}">`);
    expect(handlers(file).getProperties()).toEqual([]);
  });

  it("types params by the method's Params, `undefined` for a method without params, and passes a CallContext", () => {
    const params = (name: string) =>
      handlers(file)
        .getMethodOrThrow(name)
        .getParameters()
        .map((p) => p.getText());
    expect(params("listEntries")).toEqual(['params: Params<"listEntries">', "context: CallContext"]);
    expect(params("getHealth")).toEqual(["params: undefined", "context: CallContext"]);
  });

  it("documents a handler with its summary only", () => {
    const doc = (name: string) =>
      handlers(file)
        .getMethodOrThrow(name)
        .getJsDocs()
        .map((d) => d.getDescription().trim());
    expect(doc("listEntries")).toEqual(["Lists ledger entries of an account, newest first."]);
    expect(doc("getEntry")).toEqual([]);
  });

  it("createListener takes the handlers and options without the table's own fields, and hands the table to the runtime", () => {
    expect(file.getTypeAliasOrThrow("ServerOptions").getTypeNodeOrThrow().getText()).toBe('Omit<ListenerOptions, "methods" | "validators" | "handlers">');
    const fn = file.getFunctionOrThrow("createListener");
    expect(fn.isExported()).toBe(true);
    expect(fn.getParameters().map((p) => p.getText())).toEqual(["handlers: Handlers", "options: ServerOptions = {}"]);
    expect(fn.getReturnTypeNodeOrThrow().getText()).toBe("(request: IncomingMessage, response: ServerResponse) => void");
    const last = fn.getStatements().at(-1)!.getText();
    expect(last).toBe("return createRequestListener({ ...options, methods, validators: methodValidators, handlers: table });");
    // Method names come from the table, never written into the listener's code.
    expect(fn.getBodyText()).not.toMatch(/listEntries|getHealth/);
  });

  it("imports node:http types and the runtime's types as types only", () => {
    // The runtime's package name is the generator's to choose: shown here as `runtime`.
    const from = (specifier: string) => (specifier.startsWith(".") || specifier.startsWith("node:") ? specifier : "runtime");
    const imports = file.getImportDeclarations().map((d) => [
      from(d.getModuleSpecifierValue()),
      d.isTypeOnly(),
      d
        .getNamedImports()
        .map((n) => n.getName())
        .join(","),
    ]);
    expect(imports).toEqual([
      ["node:http", true, "IncomingMessage,ServerResponse"],
      ["runtime", false, "createRequestListener"],
      ["runtime", true, "CallContext,Handler,ListenerOptions"],
      ["./methods.js", false, "methods"],
      ["./types.js", true, "MethodName,Params,Result"],
      ["./validators.js", false, "methodValidators"],
    ]);
  });
});

describe("over a tiny spec", () => {
  it("escapes a hostile summary in the handler's doc, and skips a summary equal to the name", async () => {
    const hostile = "*/ globalThis.__pwned = 1; /*";
    const file = emit(
      await modelOf(
        specOf([
          { name: "getA", summary: `a ${hostile}\u2066` },
          { name: "getB", summary: "getB" },
        ]),
      ),
    );
    expect(file.getFullText()).not.toContain(hostile);
    expect(file.getFullText()).not.toContain("\u2066");
    expect(handlers(file).getMethodOrThrow("getA").getJsDocs()[0]!.getDescription().trim()).toBe("a *\\/ globalThis.__pwned = 1; /*\\u2066");
    expect(handlers(file).getMethodOrThrow("getB").getJsDocs()).toEqual([]);
    expect(
      handlers(file)
        .getMethods()
        .map((m) => m.getName()),
    ).toEqual(["getA", "getB"]);
  });
});

describe("wrapHandlerSignatures", () => {
  const long = (name: string, key: string) => `  ${name}(params: Params<${key}>, context: CallContext): Answer<${key}>;`;
  const key = `"${"getCompressedTokenAccountsByOwnerWithAVeryLongNameIndeed".repeat(2)}"`;

  it("puts each parameter of a signature past the line width on its own line: plain, optional and quoted names", () => {
    for (const name of ["getThings", "getThings?", '"get-things"', '"get-things"?']) {
      const line = long(name, key);
      expect(line.length).toBeGreaterThan(LINE_WIDTH);
      expect(wrapHandlerSignatures(line)).toBe(`  ${name}(\n    params: Params<${key}>,\n    context: CallContext,\n  ): Answer<${key}>;`);
    }
  });

  it("leaves a signature within the line width, and any other line, as it is", () => {
    const short = long("getThings?", '"getThings"');
    expect(wrapHandlerSignatures(short)).toBe(short);
    const other = `  const x = "${"y".repeat(LINE_WIDTH)}";`;
    expect(wrapHandlerSignatures(other)).toBe(other);
  });
});
