/**
 * normalize/structure.ts: implied `type: object` / `type: array` made explicit (ajv strict
 * mode wants them), `$ref`s rewritten to the output's component ids with their siblings
 * dropped, and a `$ref` outside `#/components/schemas` refused with the file and pointer.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "@photon-indexer-kit/runtime";
import { GenError, GenErrorCode } from "../../../generator/errors.js";
import type { NormalizeContext } from "../../../generator/normalize/context.js";
import { structure } from "../../../generator/normalize/structure.js";
import { modelOf, specOf } from "../../helpers/spec.js";

function ctxOf(path: (string | number)[] = []): NormalizeContext & { refs: [string, readonly (string | number)[]][] } {
  const refs: [string, readonly (string | number)[]][] = [];
  return { file: "spec.yaml", path, refs, rewriteRef: (ref, at) => (refs.push([ref, at]), `out#${ref.slice(ref.lastIndexOf("/") + 1)}`) };
}

describe("implied types", () => {
  it.each<[string, JsonObject]>([
    ["properties", { properties: { a: { type: "string" } } }],
    ["required", { required: ["a"] }],
    ["additionalProperties", { additionalProperties: false }],
  ])("`%s` alone implies an object", (_key, schema) => {
    expect(structure(schema, ctxOf())).toEqual({ type: "object", ...schema });
  });

  it("`items` alone implies an array", () => {
    expect(structure({ items: { type: "integer" }, minItems: 1 }, ctxOf())).toEqual({ type: "array", items: { type: "integer" }, minItems: 1 });
  });

  it("puts `type` first, as a reader expects it", () => {
    expect(Object.keys(structure({ properties: {}, required: [] }, ctxOf()))[0]).toBe("type");
  });

  it("keeps a declared type, even one that disagrees with the keywords", () => {
    const schema = { type: "string", properties: { a: { type: "string" } } };
    expect(structure(schema, ctxOf())).toBe(schema);
  });

  it.each(["allOf", "anyOf", "oneOf", "not", "enum", "const"])("adds no type beside `%s` (the composition decides it)", (key) => {
    const schema: JsonObject = { [key]: key === "not" ? { type: "null" } : key === "const" ? 1 : [{ type: "string" }], properties: { a: { type: "string" } } };
    expect(structure(schema, ctxOf())).toBe(schema);
  });

  it("leaves a schema with nothing implied alone", () => {
    const schema = { description: "anything" };
    expect(structure(schema, ctxOf())).toBe(schema);
    expect(structure({}, ctxOf())).toEqual({});
  });
});

describe("$ref", () => {
  it("is rewritten by the context, which is told where the node stands", () => {
    const ctx = ctxOf(["components", "schemas", "A", "properties", "b"]);
    expect(structure({ $ref: "#/components/schemas/Hash" }, ctx)).toEqual({ $ref: "out#Hash" });
    expect(ctx.refs).toEqual([["#/components/schemas/Hash", ["components", "schemas", "A", "properties", "b"]]]);
  });

  it("drops the siblings OpenAPI 3.0 says to ignore, but keeps nullable: true for the nullable module", () => {
    expect(structure({ $ref: "#/components/schemas/H", description: "d", type: "object", properties: {} }, ctxOf())).toEqual({ $ref: "out#H" });
    expect(structure({ $ref: "#/components/schemas/H", nullable: true, example: "x" }, ctxOf())).toEqual({ $ref: "out#H", nullable: true });
    expect(structure({ $ref: "#/components/schemas/H", nullable: false }, ctxOf())).toEqual({ $ref: "out#H" });
  });

  it("a $ref that is not a string is not a reference: the node is kept", () => {
    const schema = { $ref: 5, properties: {} } as unknown as JsonObject;
    expect(structure(schema, ctxOf())).toBe(schema);
  });

  it("through the model: component refs become components.json#/definitions/…", async () => {
    const model = await modelOf(
      specOf([{ name: "getA", result: { $ref: "#/components/schemas/A" } }], {
        schemas: { A: { properties: { b: { $ref: "#/components/schemas/B", description: "dropped" } } }, B: { items: { type: "string" } } },
      }),
    );
    expect(model.components.A).toEqual({ type: "object", properties: { b: { $ref: "components.json#/definitions/B" } } });
    expect(model.components.B).toEqual({ type: "array", items: { type: "string" } });
  });

  it("through the model: a $ref outside #/components/schemas is refused with the file and the pointer of the $ref", async () => {
    const doc = specOf([{ name: "getA", result: { $ref: "#/components/schemas/A" } }], {
      schemas: { A: { type: "object", properties: { b: { $ref: "#/components/examples/B" } } } },
    });
    (doc.components as JsonObject).examples = { B: { value: 1 } };
    const err = await modelOf(doc).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GenError);
    const gen = err as GenError;
    expect(gen.code).toBe(GenErrorCode.REF_UNKNOWN);
    expect(gen.pointer).toBe("/components/schemas/A/properties/b/$ref");
    expect(gen.file).toMatch(/spec\.json$/);
    expect(gen.message).toContain('"#/components/examples/B" must point into #/components/schemas');
  });
});
