/**
 * Method names outside the grammar, reserved names and collisions are refused with exit 2 and a
 * pointer; accepted spec text reaches each sink escaped (sourceURL, JSDoc, banner, README, keys).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "@photon-indexer-kit/runtime";
import { commentLine, commentText, compileTemplate, literal, mdCode, mdText, objectKey, schemaId } from "../../generator/emit/escape.js";
import { generate } from "../../generator/generate.js";
import { captured } from "../helpers/capture.js";
import { main } from "../../generator/cli.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("names");
const PWN = "globalThis.__pwned = 1";

interface MethodSpec {
  name: string;
  paginated?: boolean;
  summary?: string;
}

const object = (properties: Record<string, Json>): Json => ({ type: "object", properties });
const nullableString: Json = { type: "string", nullable: true };

function spec(methods: MethodSpec[], extra: { title?: string; schemas?: Record<string, Json>; result?: Json } = {}): Json {
  const paths: Record<string, Json> = {};
  methods.forEach((m, i) => {
    const params = m.paginated ? object({ cursor: nullableString }) : { type: "object" };
    const result = m.paginated ? object({ items: { type: "array", items: { type: "string" } }, cursor: nullableString }) : (extra.result ?? { type: "string" });
    // `/m-0` reads as no method name (a path that reads as one must agree with the enum: model.ts `methodName`).
    paths[`/m-${i}`] = {
      post: {
        ...(m.summary !== undefined ? { summary: m.summary } : {}),
        requestBody: {
          content: { "application/json": { schema: object({ jsonrpc: { type: "string" }, method: { type: "string", enum: [m.name] }, params }) } },
        },
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: object({ jsonrpc: { type: "string" }, id: { type: "string" }, result }) } } },
        },
      },
    };
  });
  return { openapi: "3.0.3", info: { title: extra.title ?? "T", version: "1" }, paths, components: { schemas: extra.schemas ?? {} } };
}

let n = 0;
function write(doc: Json): string {
  const file = join(dir, `spec-${++n}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

async function run(doc: Json): Promise<{ code: number; stderr: string }> {
  const file = write(doc);
  const r = await captured(main, ["generate", "--spec", file, "--out", join(dir, `out-${n}`)]);
  return { code: r.code, stderr: r.out };
}

beforeAll(() => {});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const enumPointer = (i: number) => `#/paths/~1m-${i}/post/requestBody/content/application~1json/schema/properties/method/enum/0`;

describe("method names", () => {
  it.each([
    [`getX*/ import("data:text/javascript,${PWN}"); /*`, "must match"],
    ["get-multiple", "must match"],
    ["__proto__", "must match"],
    ["", "must match"],
    ["a".repeat(129), "must match"],
    ["constructor", "is reserved"],
    ["toString", "is reserved"],
    ["hasOwnProperty", "is reserved"],
    ["then", "is reserved"],
    ["rpc", "is reserved"],
  ])("%j is refused with exit 2 and the pointer of the name", async (name, reason) => {
    const r = await run(spec([{ name: "getA" }, { name }]));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${enumPointer(1)}: method name `);
    expect(r.stderr).toContain(reason);
    expect(r.stderr).toContain("[PHOTON_GEN_ERR_METHOD_NAME]");
  });

  it("refuses two names equal but for case, and a method that meets another's iterator", async () => {
    const cased = await run(spec([{ name: "getAccount" }, { name: "getaccount" }]));
    expect(cased.code).toBe(2);
    expect(cased.stderr).toMatch(
      new RegExp(
        `${enumPointer(1).replace(/[~$]/g, "\\$&")}: method getaccount: its name, ignoring case, collides with method getAccount at .*spec-\\d+\\.json${enumPointer(0).replace(/[~$]/g, "\\$&")}`,
      ),
    );
    const iterator = await run(spec([{ name: "iterateItems" }, { name: "getItems", paginated: true }]));
    expect(iterator.code).toBe(2);
    expect(iterator.stderr).toContain("its iterator iterateItems collides with method iterateItems");
  });

  it("accepts the grammar's names, Photon's among them, each with its own validators", async () => {
    const { files, model } = await generate(write(spec([{ name: "getCompressedAccount" }, { name: "get_multiple" }, { name: "method1" }, { name: "M" }])));
    expect(model.methods.map((m) => m.name)).toEqual(["getCompressedAccount", "get_multiple", "method1", "M"]);
    const validators = files.get("validators.ts")!;
    for (const name of ["getCompressedAccount", "get_multiple", "method1", "M"]) {
      expect(validators).toContain(`export const ${name}Params: StandaloneValidate = `);
      expect(validators).toContain(`/*# sourceURL="method-${name}-params.json" */`);
    }
  });
});

describe("method aliases (x-aliases)", () => {
  /** The spec of `spec()` with `x-aliases` on the first method. */
  const aliased = (methods: MethodSpec[], aliases: Json): Json => {
    const doc = spec(methods) as { paths: Record<string, { post: Record<string, Json> }> };
    doc.paths["/m-0"]!.post["x-aliases"] = aliases;
    return doc as unknown as Json;
  };
  const aliasPointer = (i: number) => `#/paths/~1m-0/post/x-aliases/${i}`;

  it.each([
    ["get-balance", "must match"],
    ["__proto__", "must match"],
    ["constructor", "is reserved"],
    ["rpc", "is reserved"],
  ])("%j is refused with exit 2 and the pointer of the alias, by the grammar of method names", async (alias, reason) => {
    const r = await run(aliased([{ name: "getBalance" }], ["getOther", alias]));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${aliasPointer(1)}: method name `);
    expect(r.stderr).toContain(reason);
    expect(r.stderr).toContain("[PHOTON_GEN_ERR_METHOD_NAME]");
  });

  it("refuses an alias that is not a list, or that meets a method's name or another alias, ignoring case", async () => {
    const notList = await run(aliased([{ name: "getBalance" }], "getOther"));
    expect(notList.code).toBe(2);
    expect(notList.stderr).toContain("`x-aliases` must be a list of method names");
    const method = await run(aliased([{ name: "getBalance" }, { name: "getOther" }], ["getother"]));
    expect(method.code).toBe(2);
    expect(method.stderr).toContain(`${aliasPointer(0)}: alias "getother" of method getBalance collides with method getOther`);
    const twice = await run(aliased([{ name: "getBalance" }], ["getOther", "GetOther"]));
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("collides with alias getOther of method getBalance");
  });

  it("puts an accepted alias in the method table and serves it from the listener, with no client member", async () => {
    const { files, model } = await generate(write(aliased([{ name: "getBalance" }, { name: "getOther" }], ["getCompressedBalance"])));
    expect(model.methods[0]!.aliases).toEqual(["getCompressedBalance"]);
    expect(model.methods[0]!.extensions).toEqual({});
    expect(files.get("methods.ts")).toContain(
      'export const methodAliases: Readonly<Record<string, MethodName>> = {\n  getCompressedBalance: "getBalance",\n};',
    );
    expect(files.get("methods.ts")).toContain('aliases: ["getCompressedBalance"]');
    expect(files.get("server.ts")).toContain("for (const [alias, name] of Object.entries(methodAliases))");
    expect(files.get("client.ts")).not.toContain("getCompressedBalance");
    expect(files.get("types.ts")).not.toContain("getCompressedBalance");
  });

  it("x-registered: false makes the method's handler optional and the listener register only given handlers; a non-boolean is refused", async () => {
    const unregistered = (value: Json): Json => {
      const doc = spec([{ name: "getBalance" }, { name: "getOther" }]) as { paths: Record<string, { post: Record<string, Json> }> };
      doc.paths["/m-1"]!.post["x-registered"] = value;
      return doc as unknown as Json;
    };
    const { files, model } = await generate(write(unregistered(false)));
    expect(model.methods.map((m) => m.registered)).toEqual([true, false]);
    expect(files.get("server.ts")).toMatch(/^ {2}getOther\?\(params/m);
    expect(files.get("server.ts")).toMatch(/^ {2}getBalance\(params/m);
    expect(files.get("server.ts")).toContain("if (handler !== undefined) table[name] = handler.bind(handlers) as Handler;");
    expect(files.get("methods.ts")).toContain("registered: false");
    const bad = await run(unregistered("no"));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("#/paths/~1m-1/post/x-registered: `x-registered` must be true or false");
  });

  it("generates no alias code for a spec without aliases", async () => {
    const { files } = await generate(write(spec([{ name: "getBalance" }])));
    expect(files.get("methods.ts")).toContain("export const methodAliases: Readonly<Record<string, MethodName>> = {};");
    expect(files.get("server.ts")).not.toContain("methodAliases");
  });
});

describe("component, property and schema names", () => {
  // Schemas as JSON text: JSON.parse makes `__proto__` a key, as the YAML loader does.
  it.each<[string, string, string]>([
    ["a component named __proto__", `{"__proto__": {"type": "string"}}`, "#/components/schemas/__proto__: component name"],
    ["a component named constructor", `{"constructor": {"type": "string"}}`, "#/components/schemas/constructor: component name"],
    ["a component name with */", `{"A*/B": {"type": "string"}}`, "#/components/schemas/A*~1B: component name"],
    [
      "a property named __proto__",
      `{"A": {"type": "object", "properties": {"__proto__": {"type": "string"}}}}`,
      `#/components/schemas/A/properties/__proto__: "__proto__" is reserved`,
    ],
    ["a required constructor", `{"A": {"type": "object", "required": ["constructor"]}}`, `#/components/schemas/A/required/0: "constructor" is reserved`],
    [
      "a nested $id",
      `{"A": {"type": "object", "properties": {"b": {"$id": "x*/ ${PWN}; /*", "type": "string"}}}}`,
      "#/components/schemas/A/properties/b/$id: `$id` is not an OpenAPI 3.0 schema keyword",
    ],
    ["an invalid pattern", `{"A": {"type": "string", "pattern": "("}}`, "#/components/schemas/A/pattern: not a valid regular expression"],
    ["a duplicate enum value", `{"A": {"type": "string", "enum": ["a", "b", "a"]}}`, "#/components/schemas/A/enum/2: `enum` values must be unique"],
    [
      "a property name with a lone surrogate",
      `{"A": {"type": "object", "properties": {"\\ud800": {"type": "string"}}}}`,
      "#/components/schemas/A/properties/%EF%BF%BD: a name must be well-formed Unicode",
    ],
  ])("%s is refused with exit 2 and its pointer", async (_name, schemas, message) => {
    const r = await run(spec([{ name: "getA" }], { schemas: JSON.parse(schemas) as Record<string, Json> }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("quotes property names that are not identifiers, and keeps hostile text inside string literals", async () => {
    const { files } = await generate(
      write(
        spec([{ name: "getA" }], {
          schemas: { A: { type: "object", properties: { [`a*/ ${PWN}; /*`]: { type: "string" }, "b-c": { type: "string" } } } },
          result: { $ref: "#/components/schemas/A" },
        }),
      ),
    );
    const types = files.get("types.ts")!;
    expect(types).toContain(`"a*/ ${PWN}; /*"?: string;`);
    expect(types).toContain(`"b-c"?: string;`);
  });
});

describe("text in comments, the banner and the README", () => {
  it("a title with */ is written escaped everywhere (ts-morph crashed on it; the banner ran it)", async () => {
    const title = `T */ ${PWN}; /* \u2028 | <img src=x onerror=alert(1)> \`x\``;
    const { files } = await generate(write(spec([{ name: "getA", summary: `s */ ${PWN}; /*` }], { title })));
    for (const [name, text] of files) {
      if (name !== "README.md") expect(text.slice(0, text.indexOf("Do not edit")), name).not.toContain(`*/ ${PWN}`);
    }
    expect(files.get("client.ts")).toContain(`A typed client for T *\\/ ${PWN};`);
    expect(files.get("validators.ts")).toContain(`from "T *\\/ ${PWN}; /* \\n |`);
    expect(files.get("types.ts")).toContain(`/** s *\\/ ${PWN}; /* */`);
    const readme = files.get("README.md")!;
    expect(readme).toContain("**T \\*/ globalThis.\\_\\_pwned = 1; /\\*   \\| \\<img src=x onerror=alert(1)\\> \\`x\\`**");
    expect(readme).not.toMatch(/(?<!\\)<img/); // no tag a renderer would read
    expect(readFileSync(join(dir, `spec-${n}.json`), "utf8")).toContain("<img"); // it was there
  });

  it("escape helpers: one per sink", () => {
    expect(commentText(`a */ b\r\nc\u2028d\0\ud800\u202e`)).toBe("a *\\/ b\nc\nd\\u0000\\ud800\\u202e");
    expect(commentLine("a\nb */")).toBe("a\\nb *\\/");
    expect(objectKey("__proto__")).toBe('["__proto__"]');
    expect(objectKey("a-b")).toBe('"a-b"');
    expect(objectKey("ab")).toBe("ab");
    expect(literal({ __proto__: 1 } as unknown)).toBe("{}"); // a literal __proto__ is the prototype, not a key
    const own = {};
    Object.defineProperty(own, "__proto__", { value: "x", enumerable: true });
    expect(literal(own)).toBe('{\n  ["__proto__"]: "x",\n}');
    expect(literal("a\u2028b")).toBe('"a\\u2028b"');
    expect(schemaId("method-", "a*/b", ".json")).toBe("method-a%u002a%u002fb.json");
    expect(mdCode("a|b`c\nd")).toBe("``a\\|b`c\\nd``");
    expect(mdText("[x](javascript:1) <b> *y*")).toBe("\\[x\\](javascript:1) \\<b\\> \\*y\\*");
  });

  it("a template that writes a value without an escaping helper is refused", () => {
    expect(() => compileTemplate("t.hbs", "/* {{title}} */")).toThrow(/writes title without an escaping helper/);
    expect(() => compileTemplate("t.hbs", "{{#each xs}}{{{name}}}{{/each}}")).toThrow(/writes name/);
    expect(compileTemplate("t.hbs", "/* {{commentLine title}} */")({ title: "*/ x" })).toBe("/* *\\/ x */");
  });
});
