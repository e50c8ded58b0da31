/**
 * normalize/formats.ts: a string format the runtime checks (runtime/formats.ts) is kept, any
 * other (OpenAPI's binary, byte, password, …; ajv strict mode would refuse them) is dropped,
 * and integer formats are left to the integer module.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "@photon-indexer-kit/runtime";
import { normalizeSchema } from "../../../generator/normalize/index.js";
import { formats, STRING_FORMATS } from "../../../generator/normalize/formats.js";
import { formats as runtimeFormats } from "../../../runtime/formats.js";
import { modelOf, specOf } from "../../helpers/spec.js";

const ctx = { file: "spec.yaml", path: [], rewriteRef: (ref: string) => ref };

describe("the formats keyword module", () => {
  it("knows exactly the runtime's formats", () => {
    expect([...STRING_FORMATS].sort()).toEqual(Object.keys(runtimeFormats).sort());
    expect([...STRING_FORMATS].sort()).toEqual(["base58", "base64", "hash", "pubkey", "signature"]);
  });

  it.each([...Object.keys(runtimeFormats)])("keeps `%s` on a string", (format) => {
    const schema = { type: "string", format };
    expect(formats(schema, ctx)).toBe(schema);
  });

  it.each(["binary", "byte", "password", "date-time", "uuid", "email", "Pubkey", ""])("drops `%s`, keeping everything else", (format) => {
    expect(formats({ type: "string", format, minLength: 1, description: "d" }, ctx)).toEqual({ type: "string", minLength: 1, description: "d" });
  });

  it("drops an unknown format on an untyped schema too", () => {
    expect(formats({ format: "binary" }, ctx)).toEqual({});
    expect(formats({ format: "pubkey" }, ctx)).toEqual({ format: "pubkey" });
  });

  it.each(["integer", "number"])("leaves formats on a(n) %s to the integer module", (type) => {
    const schema = { type, format: "uint64" };
    expect(formats(schema, ctx)).toBe(schema);
    const odd = { type, format: "whatever" };
    expect(formats(odd, ctx)).toBe(odd);
  });

  it("ignores a format that is not a string, and a schema without one", () => {
    const notText = { type: "string", format: 5 } as unknown as JsonObject;
    expect(formats(notText, ctx)).toBe(notText);
    const none = { type: "string" };
    expect(formats(none, ctx)).toBe(none);
  });

  it("applies at every depth of the pipeline", () => {
    expect(
      normalizeSchema(
        { type: "object", properties: { a: { type: "array", items: { type: "string", format: "byte" } }, b: { type: "string", format: "hash" } } },
        ctx,
      ),
    ).toEqual({
      type: "object",
      properties: { a: { type: "array", items: { type: "string" } }, b: { type: "string", format: "hash" } },
    });
  });

  it("through the model: the normalised component drops the format, the OpenAPI source keeps it", async () => {
    const model = await modelOf(
      specOf([{ name: "getA", result: { $ref: "#/components/schemas/Blob" } }], { schemas: { Blob: { type: "string", format: "binary" } } }),
    );
    expect(model.components.Blob).toEqual({ type: "string" });
    expect(model.sourceComponents.Blob).toEqual({ type: "string", format: "binary" });
  });
});
