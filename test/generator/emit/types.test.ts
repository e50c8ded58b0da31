/**
 * emit/types.ts: openapi-typescript's component types (uint64/int64 as `number | bigint`,
 * annotations escaped in JSDoc) without the document parts a JSON-RPC spec leaves empty
 * (`paths`, `webhooks`, `$defs`, `operations`), and the per-method maps and aliases.
 */
import { type SourceFile, SyntaxKind } from "ts-morph";
import { beforeAll, describe, expect, it } from "vitest";
import { renderTypes } from "../../../generator/emit/types.js";
import { loadSpec } from "../../../generator/load.js";
import { buildModel, type SpecModel } from "../../../generator/model.js";
import { extendedSpec } from "../../helpers/paths.js";
import { emptySourceFile, modelOf, paginated, specOf } from "../../helpers/spec.js";

async function emit(model: SpecModel): Promise<SourceFile> {
  return emptySourceFile("types.ts", await renderTypes(model));
}

const props = (file: SourceFile, name: string) =>
  Object.fromEntries(
    file
      .getInterfaceOrThrow(name)
      .getProperties()
      .map((p) => [p.getName(), p.getTypeNodeOrThrow().getText()]),
  );

/** The type text of `components["schemas"][name]`. */
function schemaType(file: SourceFile, name: string): string {
  const schemas = file.getInterfaceOrThrow("components").getPropertyOrThrow("schemas").getTypeNodeOrThrow().asKindOrThrow(SyntaxKind.TypeLiteral);
  return schemas.getPropertyOrThrow(name).getTypeNodeOrThrow().getText();
}

describe("over the ledger spec", () => {
  let file: SourceFile;
  beforeAll(async () => {
    file = await emit(buildModel(await loadSpec(extendedSpec)));
  });

  it("keeps no empty aliases for the document's other parts", () => {
    for (const name of ["paths", "webhooks", "$defs", "operations"]) expect(file.getTypeAlias(name), name).toBeUndefined();
    expect(file.getFullText()).not.toMatch(/export type (paths|webhooks|\$defs|operations)\b/);
    expect(file.getInterface("components")).toBeDefined();
  });

  it("maps every method to its params and result component, `undefined` for no params", () => {
    expect(props(file, "MethodParams")).toEqual({
      listEntries: 'components["schemas"]["ListEntriesParams"]',
      getHealth: "undefined",
      getEntry: 'components["schemas"]["GetEntryParams"]',
      sumBalances: 'components["schemas"]["SumParams"]',
    });
    expect(props(file, "MethodResults")).toEqual({
      listEntries: 'components["schemas"]["ListEntriesResult"]',
      getHealth: 'components["schemas"]["GetHealthResult"]',
      getEntry: 'components["schemas"]["GetEntryResult"]',
      sumBalances: 'components["schemas"]["SumBalancesResult"]',
    });
  });

  it("maps only paginated methods to their item type, read from the items field of a bare page", () => {
    expect(props(file, "MethodItems")).toEqual({ listEntries: 'NonNullable<MethodResults["listEntries"]>["entries"][number]' });
  });

  it("declares the aliases the client, server and runner are typed by", () => {
    const aliases = Object.fromEntries(
      file.getTypeAliases().map((a) => [
        a.getName(),
        [
          a
            .getTypeParameters()
            .map((p) => p.getText())
            .join(","),
          a.getTypeNodeOrThrow().getText(),
        ],
      ]),
    );
    expect(aliases).toEqual({
      Schemas: ["", 'components["schemas"]'],
      MethodName: ["", "keyof MethodResults"],
      PaginatedMethodName: ["", "keyof MethodItems"],
      Params: ["M extends MethodName", "MethodParams[M]"],
      Result: ["M extends MethodName", "MethodResults[M]"],
      Item: ["M extends PaginatedMethodName", "MethodItems[M]"],
    });
  });

  it("types uint64 and int64 as number | bigint", () => {
    expect(schemaType(file, "Context")).toMatch(/slot: number \| bigint;/);
    expect(schemaType(file, "Entry")).toMatch(/sequence: number \| bigint;[\s\S]*amount: number \| bigint;/);
  });
});

describe("over tiny specs", () => {
  it("a page inside `{context, value}` is read from `value`", async () => {
    const file = await emit(await modelOf(specOf([paginated("listA")])));
    expect(props(file, "MethodItems")).toEqual({ listA: 'NonNullable<MethodResults["listA"]["value"]>["items"][number]' });
  });

  it("no paginated method: an empty MethodItems, so PaginatedMethodName is never", async () => {
    const file = await emit(await modelOf(specOf([{ name: "getA" }])));
    expect(props(file, "MethodItems")).toEqual({});
  });

  it("a nullable uint64 is (number | bigint) | null", async () => {
    const file = await emit(
      await modelOf(
        specOf([{ name: "getA", result: { $ref: "#/components/schemas/N" } }], { schemas: { N: { type: "integer", format: "uint64", nullable: true } } }),
      ),
    );
    expect(schemaType(file, "N")).toBe("(number | bigint) | null");
  });

  it("escapes comment breakers, controls and bidi overrides in annotations openapi-typescript writes as JSDoc", async () => {
    const hostile = "*/ globalThis.__pwned = 1; /*";
    const file = await emit(
      await modelOf(
        specOf([{ name: "getA", result: { $ref: "#/components/schemas/A" } }], {
          schemas: {
            A: { type: "object", title: `t\u202e${hostile}`, properties: { b: { type: "string", description: `d\0 ${hostile}`, example: `e ${hostile}` } } },
          },
        }),
      ),
    );
    const text = file.getFullText();
    expect(text).not.toContain(hostile);
    expect(text).not.toMatch(/[\0\u202e]/);
    expect(text).toContain("t\\u202e*\\/ globalThis");
    expect(text).toContain("d\\u0000 *\\/ globalThis");
    // Still one interface holding one schema with one property: no comment was closed early.
    expect(schemaType(file, "A")).toMatch(/^\{[\s\S]*b\?: string;\s*\}$/);
  });

  it("escapes a method's summary in the docs of the method maps", async () => {
    const file = await emit(await modelOf(specOf([{ name: "getA", summary: "s */ x" }])));
    const doc = file.getInterfaceOrThrow("MethodResults").getPropertyOrThrow("getA").getJsDocs()[0]!.getDescription().trim();
    expect(doc).toBe("s *\\/ x");
  });
});
