import { describe, expect, it } from "vitest";
import { normalizeSchema } from "../../../generator/normalize/index.js";

const ctx = { file: "spec.yaml", path: [], rewriteRef: (ref: string) => ref.replace("#/components/schemas/", "components.json#/definitions/") };

describe("nullable", () => {
  it("joins null to a plain type and its enum", () => {
    expect(normalizeSchema({ type: "string", enum: ["a", "b"], nullable: true }, ctx)).toEqual({ type: ["string", "null"], enum: ["a", "b", null] });
  });

  it("wraps allOf + nullable without a type (the upstream shape) in anyOf", () => {
    expect(normalizeSchema({ allOf: [{ $ref: "#/components/schemas/Hash" }], nullable: true, description: "d" }, ctx)).toEqual({
      anyOf: [{ allOf: [{ $ref: "components.json#/definitions/Hash" }] }, { type: "null" }],
    });
  });

  it("handles nested allOf + nullable", () => {
    const out = normalizeSchema({ allOf: [{ allOf: [{ $ref: "#/components/schemas/M" }], nullable: true }], nullable: true }, ctx);
    expect(out).toEqual({
      anyOf: [{ allOf: [{ anyOf: [{ allOf: [{ $ref: "components.json#/definitions/M" }] }, { type: "null" }] }] }, { type: "null" }],
    });
  });

  it("makes a nullable uint64 an anyOf, since the keyword has no type to extend", () => {
    expect(normalizeSchema({ type: "integer", format: "uint64", nullable: true }, ctx)).toEqual({
      anyOf: [{ integerLiteral: true, uint64: true }, { type: "null" }],
    });
  });

  it("drops nullable: false", () => {
    expect(normalizeSchema({ type: "string", nullable: false }, ctx)).toEqual({ type: "string" });
  });
});
