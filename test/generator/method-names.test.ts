/** A method has one name: its path, its operationId and its envelope's `method` enum must agree, or the spec is refused with a pointer. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GenError, GenErrorCode } from "../../generator/errors.js";
import { loadSpec } from "../../generator/load.js";
import { buildModel } from "../../generator/model.js";
import { ourSpec, root, upstream } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("method-names");
const original = readFileSync(ourSpec, "utf8");

/** Our spec with one edit to getIndexerSlot's path item, its model's error (or null). */
async function refusal(edit: (text: string) => string): Promise<GenError | null> {
  const text = edit(original);
  expect(text).not.toBe(original);
  const file = join(dir, "spec.yaml");
  writeFileSync(file, text);
  try {
    buildModel(await loadSpec(file, dir));
    return null;
  } catch (err) {
    if (err instanceof GenError) return err;
    throw err;
  }
}

describe("method names that disagree", () => {
  it("refuses an operationId naming another method than the path and the `method` enum, at the operationId", async () => {
    const err = await refusal((t) => t.replace("      operationId: getIndexerSlot\n", "      operationId: getIndexerSlo\n"));
    expect(err?.code).toBe(GenErrorCode.METHOD_MISMATCH);
    expect(err?.pointer).toBe("/paths/~1getIndexerSlot/post/operationId");
    expect(err?.toString()).toBe(
      'spec.yaml#/paths/~1getIndexerSlot/post/operationId: the method\'s names disagree: operationId "getIndexerSlo", but the `method` enum and path "/getIndexerSlot" say "getIndexerSlot" (a method has one name; others it answers to go in x-aliases) [PHOTON_GEN_ERR_METHOD_MISMATCH]',
    );
  });

  it("refuses a path naming another method, at the path", async () => {
    const err = await refusal((t) => t.replace("\n  /getIndexerSlot:\n", "\n  /getIndexerSlo:\n"));
    expect(err?.code).toBe(GenErrorCode.METHOD_MISMATCH);
    expect(err?.pointer).toBe("/paths/~1getIndexerSlo");
    expect(err?.message).toContain('path "/getIndexerSlo", but the `method` enum and operationId say "getIndexerSlot"');
  });

  it("refuses a `method` enum naming another method, at the enum", async () => {
    const err = await refusal((t) => t.replace("enum: [getIndexerSlot]", "enum: [getIndexerSlo]"));
    expect(err?.code).toBe(GenErrorCode.METHOD_MISMATCH);
    expect(err?.pointer).toBe("/paths/~1getIndexerSlot/post/requestBody/content/application~1json/schema/properties/method/enum/0");
    expect(err?.message).toContain('the `method` enum "getIndexerSlo", but operationId and path "/getIndexerSlot" say "getIndexerSlot"');
  });

  it("refuses two names with no third to settle them, at the lesser source", async () => {
    const noOperationId = (t: string) => t.replace("      operationId: getIndexerSlot\n", "");
    const err = await refusal((t) => noOperationId(t).replace("enum: [getIndexerSlot]", "enum: [getIndexerSlo]"));
    expect(err?.code).toBe(GenErrorCode.METHOD_MISMATCH);
    expect(err?.pointer).toBe("/paths/~1getIndexerSlot");
    expect(err?.message).toContain('path "/getIndexerSlot", but the `method` enum says "getIndexerSlo"');
  });

  it("accepts our spec, the 0.50.0 it ships, and the vendored upstream specs (paths `/` name no method)", async () => {
    const specs = [
      ourSpec,
      join(root, "spec", "versions", "0.50.0.yaml"),
      join(upstream, "0.44.0"),
      join(upstream, "0.50.0", "api.yaml"),
      join(upstream, "0.51.2", "api.yaml"),
    ];
    for (const spec of specs) {
      const model = buildModel(await loadSpec(spec, root));
      expect(model.methods.length, spec).toBeGreaterThanOrEqual(7);
      for (const m of model.methods) if (m.path !== "/") expect(m.path, spec).toBe(`/${m.name}`);
    }
  });
});
