/**
 * The loader checks a chain of `$ref`s in linear work: each ref, read through a counting getter,
 * is read a bounded number of times, not once per ref before it in the chain.
 */
import { describe, expect, it } from "vitest";
import { checkRefs } from "../../generator/load.js";
import type { JsonObject } from "../../runtime/index.js";
import { expectGenError } from "../helpers/gen-error.js";

/** A spec whose components form a chain Chain0 → Chain1 → … → Chain{n} (a string), each `$ref` read through a counter. */
function chain(n: number, reads: number[]): JsonObject {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const node = {};
    Object.defineProperty(node, "$ref", {
      enumerable: true,
      get: () => {
        reads[i] = (reads[i] ?? 0) + 1;
        return `#/components/schemas/Chain${i + 1}`;
      },
    });
    schemas[`Chain${i}`] = node;
  }
  schemas[`Chain${n}`] = { type: "string" };
  return { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {}, components: { schemas } } as JsonObject;
}

describe("a chain of $refs", () => {
  it("reads each $ref of a 5,000-long chain at most three times", () => {
    const reads: number[] = [];
    checkRefs("chain.yaml", chain(5000, reads));
    expect(reads).toHaveLength(5000);
    expect(Math.max(...reads)).toBeLessThanOrEqual(3);
  });

  it("still refuses a cycle and a ref that does not resolve, naming the pointer", async () => {
    const ending = (doc: JsonObject, ref: string) => {
      (doc.components as { schemas: Record<string, unknown> }).schemas.Chain3 = { $ref: ref };
      return doc;
    };
    const cycle = ending(chain(3, []), "#/components/schemas/Chain1");
    await expectGenError(
      Promise.resolve().then(() => checkRefs("c.yaml", cycle)),
      { file: "c.yaml", pointer: "/components/schemas/Chain0/$ref", message: "is a cycle of references", code: "PHOTON_GEN_ERR_REF_CYCLE" },
    );
    const broken = ending(chain(3, []), "#/components/schemas/Nowhere");
    await expectGenError(
      Promise.resolve().then(() => checkRefs("b.yaml", broken)),
      {
        file: "b.yaml",
        pointer: "/components/schemas/Chain0/$ref",
        message: '$ref "#/components/schemas/Nowhere" does not resolve',
        code: "PHOTON_GEN_ERR_REF_UNKNOWN",
      },
    );
  });
});
