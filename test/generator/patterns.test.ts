/**
 * A spec's `pattern` and `patternProperties` run on a linear-time engine (runtime/regex.ts), in
 * the generated standalone validators and in a spec compiled at run time: a pattern that
 * backtracks under ECMAScript's engine (`^([a-z]+)*$` against `"a".repeat(40) + "!"`, minutes)
 * finishes at once. What that engine cannot run (lookarounds, backreferences) is refused by
 * `photon-gen generate` with exit 2 and the pattern's JSON pointer.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Json } from "@photon-indexer-kit/runtime";
import { main } from "../../generator/cli.js";
import { compileSpec } from "../../generator/compile.js";
import { captured } from "../helpers/capture.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("spec-patterns");
const HOSTILE = `${"a".repeat(40)}!`;

/** One method, `getA`, whose result is the component `A`. */
function spec(a: Json): Json {
  const object = (properties: Record<string, Json>): Json => ({ type: "object", properties });
  return {
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths: {
      "/getA": {
        post: {
          operationId: "getA",
          requestBody: {
            content: {
              "application/json": { schema: object({ jsonrpc: { type: "string" }, method: { type: "string", enum: ["getA"] }, params: { type: "object" } }) },
            },
          },
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": { schema: object({ jsonrpc: { type: "string" }, id: { type: "string" }, result: { $ref: "#/components/schemas/A" } }) },
              },
            },
          },
        },
      },
    },
    components: { schemas: { A: a } },
  };
}

let n = 0;
function write(doc: Json): string {
  const file = join(dir, `spec-${++n}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const BACKTRACKING: Json = {
  type: "object",
  properties: { name: { type: "string", pattern: "^([a-z]+)*$" } },
  patternProperties: { "^(x+x+)+y$": { type: "string" } },
};

describe("spec patterns on a linear-time engine", () => {
  it("a spec compiled at run time checks ^([a-z]+)*$ against a hostile value without backtracking", async () => {
    const compiled = await compileSpec(write(spec(BACKTRACKING)));
    const result = compiled.validators.getA!.result;
    expect(result({ name: "abc" })).toBe(true);
    expect(result({ name: HOSTILE })).toBe(false);
    expect(result({ [`${"x".repeat(40)}`]: 1 })).toBe(true); // a key the pattern does not match: not checked
    expect(result({ [`${"x".repeat(40)}y`]: 1 })).toBe(false); // a key it matches: its value must be a string
  });

  it("the generated standalone validators import the engine from the runtime package and finish on a hostile value", async () => {
    const out = join(dir, "out");
    const r = await captured(main, ["generate", "--spec", write(spec(BACKTRACKING)), "--out", out]);
    expect(r.code, r.out).toBe(0);
    const mod = (await import(pathToFileURL(join(out, "validators.ts")).href)) as { getAResult: (v: unknown) => boolean };
    expect(mod.getAResult({ name: "abc" })).toBe(true);
    expect(mod.getAResult({ name: HOSTILE })).toBe(false);
    expect(mod.getAResult({ [`${"x".repeat(40)}y`]: 1 })).toBe(false);
  });

  it.each<[string, Json, string]>([
    ["a lookahead", { type: "string", pattern: "^(?!1{32}$)[1-9]+$" }, "#/components/schemas/A/pattern: a lookaround cannot run in linear time"],
    ["a lookbehind", { type: "string", pattern: "(?<=a)b" }, "#/components/schemas/A/pattern: a lookaround cannot run in linear time"],
    [
      "a backreference in a patternProperties key",
      { type: "object", patternProperties: { "^(a)\\1$": { type: "string" } } },
      "#/components/schemas/A/patternProperties/^(a)\\1$: a backreference cannot run in linear time",
    ],
  ])("%s is refused with exit 2 and its pointer", async (_name, a, message) => {
    const r = await captured(main, ["generate", "--spec", write(spec(a)), "--out", join(dir, `refused-${n}`)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
