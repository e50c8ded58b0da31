/**
 * emit/client.ts: the `PhotonClient` interface and `createClient`, read back as a syntax tree:
 * one member per method, an iterator only for paginated methods, every member a one-line
 * delegation to the two typed helpers `call` and `items`, and spec text only in escaped docs.
 */
import { type FunctionDeclaration, type InterfaceDeclaration, type JSDocableNode, Node, type ObjectLiteralExpression, type SourceFile } from "ts-morph";
import { beforeAll, describe, expect, it } from "vitest";
import { renderClient } from "../../../generator/emit/client.js";
import { loadSpec } from "../../../generator/load.js";
import { buildModel, type SpecModel } from "../../../generator/model.js";
import { extendedSpec } from "../../helpers/paths.js";
import { emptySourceFile, modelOf, paginated, specOf } from "../../helpers/spec.js";
import { paginatedWithSlot } from "../slot-spec.js";

function emit(model: SpecModel): SourceFile {
  return emptySourceFile("client.ts", renderClient(model));
}

const iface = (file: SourceFile): InterfaceDeclaration => file.getInterfaceOrThrow("PhotonClient");
const create = (file: SourceFile): FunctionDeclaration => file.getFunctionOrThrow("createClient");
const docsOf = (node: JSDocableNode): string =>
  node
    .getJsDocs()
    .map((d) => d.getDescription())
    .join("");
const memberNames = (file: SourceFile) =>
  iface(file)
    .getProperties()
    .map((p) => p.getName());

/** The object literal `createClient` returns. */
function returned(file: SourceFile): ObjectLiteralExpression {
  const ret = create(file).getStatements().at(-1)!;
  if (!Node.isReturnStatement(ret)) throw new Error("createClient does not end with a return");
  const value = ret.getExpressionOrThrow();
  if (!Node.isObjectLiteralExpression(value)) throw new Error("createClient does not return an object literal");
  return value;
}

function initializers(file: SourceFile): Record<string, string> {
  return Object.fromEntries(
    returned(file)
      .getProperties()
      .map((p) => (Node.isPropertyAssignment(p) ? [p.getName(), p.getInitializerOrThrow().getText()] : [p.getText(), "(shorthand)"])),
  );
}

describe("over the ledger spec (four methods, one paginated)", () => {
  let file: SourceFile;
  beforeAll(async () => {
    file = emit(buildModel(await loadSpec(extendedSpec)));
  });

  it("declares one member per method, in spec order, plus the untyped core and one iterator for the paginated one", () => {
    expect(memberNames(file)).toEqual(["rpc", "listEntries", "iterateListEntries", "getHealth", "getEntry", "sumBalances"]);
    expect(iface(file).getPropertyOrThrow("rpc").isReadonly()).toBe(true);
    expect(iface(file).getPropertyOrThrow("rpc").getTypeNodeOrThrow().getText()).toBe("RpcClient");
  });

  it("types each member by the method's Params and Result, and the iterator by its Item", () => {
    const type = (name: string) => iface(file).getPropertyOrThrow(name).getTypeNodeOrThrow().getText();
    expect(type("listEntries")).toBe('(params: Params<"listEntries">, options?: CallOptions) => Promise<Result<"listEntries">>');
    expect(type("iterateListEntries")).toBe('(params: Params<"listEntries">, options?: PageOptions) => Walk<Item<"listEntries">>');
    expect(type("getHealth")).toBe('(options?: CallOptions) => Promise<Result<"getHealth">>');
  });

  it("returns the same members, each delegating in one line to `call` or `items`", () => {
    expect(initializers(file)).toEqual({
      rpc: "(shorthand)",
      listEntries: '(params, options) => call("listEntries", params, options)',
      iterateListEntries: '(params, options) => items("listEntries", params, options)',
      getHealth: '(options) => call("getHealth", undefined, options)',
      getEntry: '(params, options) => call("getEntry", params, options)',
      sumBalances: '(params, options) => call("sumBalances", params, options)',
    });
  });

  it("has exactly the two typed helpers, the only places with a cast", () => {
    const statements = create(file).getStatements();
    const declared = statements.filter(Node.isVariableStatement).flatMap((s) => s.getDeclarations().map((d) => d.getName()));
    expect(declared).toEqual(["rpc", "call", "items"]);
    expect(statements).toHaveLength(4);
    const casts = create(file)
      .getDescendants()
      .filter(Node.isAsExpression)
      .map((a) => a.getTypeNodeOrThrow().getText());
    expect(casts.sort()).toEqual(["Promise<Result<M>>", "Record<string, unknown>", "Walk<Item<M>>"]);
    for (const text of Object.values(initializers(file))) expect(text).not.toContain(" as ");
  });

  it("builds the runtime client from the method table and the validators", () => {
    const rpc = create(file).getVariableDeclarationOrThrow("rpc").getInitializerOrThrow().getText();
    expect(rpc).toBe("createRpcClient(options, { methods, validators: methodValidators })");
    expect(
      create(file)
        .getParameters()
        .map((p) => p.getText()),
    ).toEqual(["options: ClientOptions"]);
    expect(create(file).getReturnTypeNodeOrThrow().getText()).toBe("PhotonClient");
  });

  it("leaves nothing after createClient (no stray `;` or `}`)", () => {
    const kinds = file.getStatements().map((s) => s.getKindName());
    expect(kinds.filter((k) => k === "EmptyStatement")).toEqual([]);
    expect(file.getStatements().at(-1)).toBe(create(file));
    expect(file.getFullText().trimEnd().endsWith("  };\n}")).toBe(true);
  });

  it("imports Item and PaginatedMethodName for the iterator, types only as types", () => {
    const types = file.getImportDeclarationOrThrow("./types.js");
    expect(types.isTypeOnly()).toBe(true);
    expect(types.getNamedImports().map((n) => n.getName())).toEqual(["Item", "MethodName", "PaginatedMethodName", "Params", "Result"]);
    // The runtime's package name is the generator's to choose: the imports that are not relative.
    const runtime = file.getImportDeclarations().filter((d) => !d.getModuleSpecifierValue().startsWith("."));
    expect(runtime.map((d) => [d.isTypeOnly(), d.getNamedImports().map((n) => n.getName())])).toEqual([
      [false, ["createRpcClient"]],
      [true, ["CallOptions", "ClientOptions", "PageOptions", "RpcClient", "Walk"]],
    ]);
  });

  it("documents the iterator with its cursor param and the repeated-cursor error", () => {
    const docs = iface(file)
      .getPropertyOrThrow("iterateListEntries")
      .getJsDocs()
      .map((d) => d.getDescription())
      .join("");
    expect(docs).toContain("following `after` page by page");
    expect(docs).toContain("PHOTON_ERR_CURSOR_REPEATED");
    expect(docs).not.toContain("mixedSlots"); // its answers carry no slot
    expect(iface(file).getPropertyOrThrow("getEntry").getJsDocs()).toHaveLength(0); // no summary: no doc
  });

  it("tells createClient's reader about minContextSlot and PHOTON_ERR_INDEXER_BEHIND", () => {
    const docs = docsOf(create(file));
    expect(docs).toContain("`minContextSlot`");
    expect(docs).toContain("PHOTON_ERR_INDEXER_BEHIND");
  });
});

describe("over tiny specs", () => {
  it("without a paginated method: no `items` helper, no iterator and no item types imported", async () => {
    const file = emit(await modelOf(specOf([{ name: "getA", params: { type: "object" } }])));
    expect(memberNames(file)).toEqual(["rpc", "getA"]);
    expect(create(file).getVariableDeclaration("items")).toBeUndefined();
    expect(
      file
        .getImportDeclarationOrThrow("./types.js")
        .getNamedImports()
        .map((n) => n.getName()),
    ).toEqual(["MethodName", "Params", "Result"]);
  });

  it("an iterator per paginated method, none for the others", async () => {
    const file = emit(await modelOf(specOf([paginated("listA"), { name: "getB", params: { type: "object" } }, paginated("listC")])));
    expect(memberNames(file)).toEqual(["rpc", "listA", "iterateListA", "getB", "listC", "iterateListC"]);
  });

  it("an iterator whose answers carry a slot (`x-slot`) documents `slots` and `mixedSlots`", async () => {
    const file = emit(await modelOf(specOf([paginatedWithSlot("listA")])));
    expect(docsOf(iface(file).getPropertyOrThrow("iterateListA"))).toContain(
      "`slots` holds the slot each page was read at; `mixedSlots` is true when they differ",
    );
  });

  it("params the envelope does not require are optional", async () => {
    const file = emit(await modelOf(specOf([{ name: "getA", params: { type: "object" }, paramsRequired: false }])));
    expect(iface(file).getPropertyOrThrow("getA").getTypeNodeOrThrow().getText()).toBe(
      '(params?: Params<"getA">, options?: CallOptions) => Promise<Result<"getA">>',
    );
  });

  it("a long signature puts one parameter per line", async () => {
    const name = `get${"Long".repeat(15)}`;
    const file = emit(await modelOf(specOf([{ name, params: { type: "object" } }])));
    const type = iface(file).getPropertyOrThrow(name).getTypeNodeOrThrow().getText();
    expect(type).toMatch(new RegExp(`^\\(\\n\\s+params: Params<"${name}">,\\n\\s+options\\?: CallOptions,\\n\\s+\\) => Promise<Result<"${name}">>$`));
  });

  it("writes the title, summaries and descriptions only inside escaped docs", async () => {
    const hostile = "*/ globalThis.__pwned = 1; /*";
    const file = emit(
      await modelOf(specOf([{ name: "getA", summary: `S ${hostile}`, description: `D\u202e ${hostile}` }], { title: `T ${hostile}`, version: "9" })),
    );
    const text = file.getFullText();
    expect(text).not.toContain(hostile);
    expect(iface(file).getJsDocs()[0]!.getDescription().trim()).toBe("A typed client for T *\\/ globalThis.__pwned = 1; /* 9.");
    const doc = iface(file).getPropertyOrThrow("getA").getJsDocs()[0]!.getDescription();
    expect(doc).toContain("S *\\/ globalThis.__pwned = 1; /*");
    expect(doc).toContain("D\\u202e *\\/");
    expect(text).not.toContain("\u202e");
    // The file still parses into the same declarations: nothing escaped a comment.
    expect(
      file
        .getStatements()
        .map((s) => s.getKindName())
        .filter((k) => k !== "ImportDeclaration"),
    ).toEqual(["InterfaceDeclaration", "FunctionDeclaration"]);
  });

  it("a summary equal to the method name is not repeated as its doc", async () => {
    const file = emit(await modelOf(specOf([{ name: "getA", summary: "getA", params: { type: "object" } }])));
    expect(iface(file).getPropertyOrThrow("getA").getJsDocs()).toHaveLength(0);
  });
});
