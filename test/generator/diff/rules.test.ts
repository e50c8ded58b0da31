/**
 * The comparison and classification rules, one small spec pair at a time: same meaning in
 * other words is no change; each kind of change is judged per direction (params are
 * client → server, results server → client).
 */
import { describe, expect, it } from "vitest";
import { diffModels } from "../../../generator/diff/index.js";
import { lines, tinyModel } from "./support.js";

type Schema = Record<string, unknown>;
const obj = (properties: Schema, extra: Schema = {}): Schema => ({ type: "object", properties, ...extra });

/** Diff of `probe` with the given params (or result) before and after. */
function params(before: Schema, after: Schema) {
  return diffModels(tinyModel({ params: before, result: { type: "string" } }), tinyModel({ params: after, result: { type: "string" } }, "2.0.0"));
}
function result(before: Schema, after: Schema, components: Record<string, Schema> = {}, componentsAfter = components) {
  return diffModels(tinyModel({ result: before, components }), tinyModel({ result: after, components: componentsAfter }, "2.0.0"));
}

describe("no change in meaning, no report", () => {
  it("the three nullable spellings and the allOf wrapper are the same thing", () => {
    const components = { Key: { type: "string", format: "pubkey" } };
    const a = obj({ k: { allOf: [{ $ref: "#/components/schemas/Key" }], nullable: true } });
    const b = obj({ k: { type: "string", format: "pubkey", nullable: true } });
    expect(result(a, b, components).changes).toEqual([]);
  });

  it("ignores descriptions, examples, defaults and property order", () => {
    const a = obj({ x: { type: "integer", description: "one", example: 1 }, y: { type: "string" } });
    const b = obj({ y: { type: "string", default: "z" }, x: { type: "integer", description: "two", example: 2 } });
    expect(result(a, b).changes).toEqual([]);
  });

  it("ignores string formats the validators drop (binary) but not those they check", () => {
    expect(result({ type: "string" }, { type: "string", format: "binary" }).changes).toEqual([]);
    expect(lines(result({ type: "string" }, { type: "string", format: "hash" }))).toEqual(["probe result format-changed breaking-servers"]);
  });

  it("terminates on recursive components", () => {
    const tree = (extra: Schema) => ({ Node: obj({ children: { type: "array", items: { $ref: "#/components/schemas/Node" } }, ...extra }) });
    const r = result({ $ref: "#/components/schemas/Node" }, { $ref: "#/components/schemas/Node" }, tree({}), tree({ label: { type: "string" } }));
    expect(lines(r)).toEqual(["probe result.label field-added compatible"]);
  });
});

describe("params (request: client → server)", () => {
  it.each([
    ["new optional field", obj({}), obj({ a: { type: "string" } }), "params.a field-added breaking-servers"],
    ["new required field", obj({}), obj({ a: { type: "string" } }, { required: ["a"] }), "params.a field-added breaking-both"],
    ["field removed", obj({ a: { type: "string" } }), obj({}), "params.a field-removed breaking-clients"],
    ["made required", obj({ a: { type: "string" } }), obj({ a: { type: "string" } }, { required: ["a"] }), "params.a field-required breaking-clients"],
    ["made optional", obj({ a: { type: "string" } }, { required: ["a"] }), obj({ a: { type: "string" } }), "params.a field-optional breaking-servers"],
    ["no longer nullable", obj({ a: { type: "string", nullable: true } }), obj({ a: { type: "string" } }), "params.a nullable-removed breaking-clients"],
    [
      "enum value removed",
      obj({ a: { type: "string", enum: ["x", "y"] } }),
      obj({ a: { type: "string", enum: ["x"] } }),
      "params.a enum-values-removed breaking-clients",
    ],
    [
      "enum value added",
      obj({ a: { type: "string", enum: ["x"] } }),
      obj({ a: { type: "string", enum: ["x", "y"] } }),
      "params.a enum-values-added breaking-servers",
    ],
    ["closed", obj({}), obj({}, { additionalProperties: false }), "params additional-properties-changed breaking-clients"],
    ["lower maximum", obj({ a: { type: "integer", maximum: 100 } }), obj({ a: { type: "integer", maximum: 50 } }), "params.a format-changed breaking-clients"],
    [
      "longer maxLength",
      obj({ a: { type: "string", maxLength: 8 } }),
      obj({ a: { type: "string", maxLength: 16 } }),
      "params.a constraint-changed breaking-servers",
    ],
    ["integer → number", obj({ a: { type: "integer" } }), obj({ a: { type: "number" } }), "params.a type-changed breaking-servers"],
  ])("%s", (_name, before, after, expected) => {
    expect(lines(params(before, after))).toEqual([`probe ${expected}`]);
  });

  it("a plain integer becoming uint64 breaks servers (handlers may get a bigint) and clients (no more negatives)", () => {
    const r = params(obj({ a: { type: "integer" } }), obj({ a: { type: "integer", format: "uint64" } }));
    expect(lines(r)).toEqual(["probe params.a format-changed breaking-both"]);
    expect(r.changes[0]!.bigint).toBe("added");
  });
});

describe("result (response: server → client)", () => {
  it.each([
    ["new required field, open object", obj({}), obj({ a: { type: "string" } }, { required: ["a"] }), "result.a field-added breaking-servers"],
    [
      "new required field, closed object",
      obj({}, { additionalProperties: false }),
      obj({ a: { type: "string" } }, { required: ["a"], additionalProperties: false }),
      "result.a field-added breaking-both",
    ],
    ["new optional field, open object", obj({}), obj({ a: { type: "string" } }), "result.a field-added compatible"],
    ["field removed, open object", obj({ a: { type: "string" } }), obj({}), "result.a field-removed breaking-clients"],
    [
      "field removed, closed object",
      obj({ a: { type: "string" } }, { additionalProperties: false }),
      obj({}, { additionalProperties: false }),
      "result.a field-removed breaking-both",
    ],
    ["made required", obj({ a: { type: "string" } }), obj({ a: { type: "string" } }, { required: ["a"] }), "result.a field-required breaking-servers"],
    ["made optional", obj({ a: { type: "string" } }, { required: ["a"] }), obj({ a: { type: "string" } }), "result.a field-optional breaking-clients"],
    ["made nullable", obj({ a: { type: "string" } }), obj({ a: { type: "string", nullable: true } }), "result.a nullable-added breaking-clients"],
    ["no longer nullable", obj({ a: { type: "string", nullable: true } }), obj({ a: { type: "string" } }), "result.a nullable-removed breaking-servers"],
    [
      "enum value added",
      obj({ a: { type: "string", enum: ["x"] } }),
      obj({ a: { type: "string", enum: ["x", "y"] } }),
      "result.a enum-values-added breaking-clients",
    ],
    ["opened", obj({}, { additionalProperties: false }), obj({}), "result additional-properties-changed breaking-clients"],
    [
      "map values changed",
      obj({}, { additionalProperties: { type: "string" } }),
      obj({}, { additionalProperties: { type: "string", nullable: true } }),
      "result{} nullable-added breaking-clients",
    ],
    ["array items changed", { type: "array", items: { type: "string" } }, { type: "array", items: { type: "integer" } }, "result[] type-changed breaking-both"],
    [
      "one more anyOf branch",
      { anyOf: [{ type: "string" }] },
      { anyOf: [{ type: "string" }, { type: "integer" }] },
      "result alternatives-changed breaking-clients",
    ],
    ["a keyword without a rule", { type: "string" }, { type: "string", const: "x" }, "result schema-changed breaking-servers"],
  ])("%s", (_name, before, after, expected) => {
    expect(lines(result(before, after))).toEqual([`probe ${expected}`]);
  });

  it("pairs anyOf branches by position when their count is unchanged", () => {
    const r = result(
      { anyOf: [{ type: "string" }, obj({ a: { type: "string" } })] },
      { anyOf: [{ type: "string" }, obj({ a: { type: "string", nullable: true } })] },
    );
    expect(lines(r)).toEqual(["probe result<anyOf 1>.a nullable-added breaking-clients"]);
  });
});

describe("method level", () => {
  it("params made required or optional in the envelope", () => {
    const p = obj({ a: { type: "string" } });
    const model = (required: boolean) => {
      const m = tinyModel({ params: p, result: { type: "string" } });
      return { ...m, methods: m.methods.map((x) => ({ ...x, paramsRequired: required })) };
    };
    expect(lines(diffModels(model(false), model(true)))).toEqual(["probe params params-required breaking-clients"]);
    expect(lines(diffModels(model(true), model(false)))).toEqual(["probe params params-optional breaking-servers"]);
  });

  it("params removed from a method breaks clients", () => {
    const r = diffModels(tinyModel({ params: obj({}), result: { type: "string" } }), tinyModel({ result: { type: "string" } }, "2.0.0"));
    expect(lines(r)).toEqual(["probe params params-removed breaking-clients"]);
  });
});

describe("recursion", () => {
  it("a mutually recursive pair reports a change wherever it is entered", () => {
    const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
    const graph = (extra: Schema) => ({
      A: obj({ b: ref("B") }),
      B: obj({ a: ref("A"), ...extra }),
    });
    // Entered at A first (result.a), then at B directly (result.b): B's change appears under
    // both, and (A being complete on its own) once more through B → A → B. Never endlessly.
    const r = result(obj({ a: ref("A"), b: ref("B") }), obj({ a: ref("A"), b: ref("B") }), graph({}), graph({ n: { type: "string" } }));
    expect(lines(r)).toEqual([
      "probe result.a.b.n field-added compatible",
      "probe result.b.a.b.n field-added compatible",
      "probe result.b.n field-added compatible",
    ]);
  });
});
