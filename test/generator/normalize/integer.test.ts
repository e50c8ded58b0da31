import { describe, expect, it } from "vitest";
import { normalizeSchema } from "../../../generator/normalize/index.js";

const ctx = { file: "spec.yaml", path: [], rewriteRef: (ref: string) => ref };

describe("integer formats", () => {
  it("turns uint64 into the uint64 keyword, folding a maximum in", () => {
    expect(normalizeSchema({ type: "integer", format: "uint64", minimum: 0, maximum: 1000 }, ctx)).toEqual({ integerLiteral: true, uint64: { maximum: 1000 } });
    expect(normalizeSchema({ type: "integer", format: "uint64", minimum: 0 }, ctx)).toEqual({ integerLiteral: true, uint64: true });
  });

  it("turns int64 into the int64 keyword", () => {
    expect(normalizeSchema({ type: "integer", format: "int64" }, ctx)).toEqual({ integerLiteral: true, int64: true });
  });

  it("turns narrow formats into bounds, keeping tighter spec bounds", () => {
    expect(normalizeSchema({ type: "integer", format: "uint16" }, ctx)).toEqual({ type: "integer", integerLiteral: true, minimum: 0, maximum: 65535 });
    expect(normalizeSchema({ type: "integer", format: "uint32", minimum: 1, maximum: 50 }, ctx)).toEqual({
      type: "integer",
      integerLiteral: true,
      minimum: 1,
      maximum: 50,
    });
  });

  it("marks every integer as one to be written as an integer literal (serde refuses 1.0)", () => {
    expect(normalizeSchema({ type: "integer" }, ctx)).toEqual({ type: "integer", integerLiteral: true });
    expect(normalizeSchema({ type: "number" }, ctx)).toEqual({ type: "number" });
  });
});
