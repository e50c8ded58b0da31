import { describe, expect, it } from "vitest";
import { normalizeSchema } from "../../../generator/normalize/index.js";

const ctx = { file: "spec.yaml", path: [], rewriteRef: (ref: string) => ref };

describe("annotations and formats", () => {
  it("drops example, default, docs and x- keys, but not properties named x-…", () => {
    const out = normalizeSchema(
      { type: "object", example: { a: 1 }, default: {}, description: "d", "x-pagination": {}, properties: { "x-note": { type: "string", example: "n" } } },
      ctx,
    );
    expect(out).toEqual({ type: "object", properties: { "x-note": { type: "string" } } });
  });

  it("keeps the formats the runtime checks and drops the others", () => {
    expect(normalizeSchema({ type: "string", format: "pubkey" }, ctx)).toEqual({ type: "string", format: "pubkey" });
    expect(normalizeSchema({ type: "string", format: "binary" }, ctx)).toEqual({ type: "string" });
  });

  it("makes implied object and array types explicit", () => {
    expect(normalizeSchema({ properties: { a: { type: "string" } } }, ctx)).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(normalizeSchema({ items: { type: "string" } }, ctx)).toEqual({ type: "array", items: { type: "string" } });
  });

  it("names the pointer of a malformed schema", () => {
    expect(() => normalizeSchema({ type: "object", properties: { a: [1] } } as never, { ...ctx, path: ["components", "schemas", "X"] })).toThrow(
      expect.objectContaining({ pointer: "/components/schemas/X/properties/a" }),
    );
  });
});
