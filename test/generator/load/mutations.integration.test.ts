/**
 * generate fed a mutated spec (removed keys, wrong types, bad $refs, deep schemas, broken YAML,
 * huge files) exits 2 naming the file and the JSON pointer or YAML line, and leaves the output alone.
 */
import fc from "fast-check";
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "@photon-indexer-kit/runtime";
import { untilEnd, whileLive } from "../../helpers/test-signal.js";
import { base, clone, escapeRegExp, FAMILIES, PAD, refusesEveryFamily, SEED, shown, useOutput } from "./mutations.js";

const output = useOutput("load-mutations");
const { specs, generate, expectUntouched } = output;

describe("photon-gen generate with a mutated spec", () => {
  refusesEveryFamily(output, 2, SEED);

  it.for(["set", "yaml"] as const)("%s, padded into a file of 1 to 3 MB: exits 2 the same way", async (kind, context) => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        FAMILIES[kind],
        PAD,
        whileLive(untilEnd(context), async (m, pad) => {
          await output.expectRefused({ ...m, pad }, join(specs, `padded-${kind}-${++run}.yaml`));
        }),
      ),
      { seed: SEED, numRuns: 1, endOnFailure: true },
    );
  });

  it("refuses a spec over 50 MiB before reading it", async () => {
    const file = join(specs, "huge.yaml");
    writeFileSync(file, "");
    truncateSync(file, 51 * 1024 * 1024); // sparse: no 51 MiB written or read
    const r = await generate(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^photon-gen: (${escapeRegExp(file)}|${escapeRegExp(shown(file))}): spec is larger than 50 MiB \\[PHOTON_GEN_ERR_READ\\]\n$`),
    );
    expectUntouched();
  });

  // Schema faults only ajv notices (a `required` name with no property, a `type` that is not a
  // type name) are mapped back to the component's place in the spec.
  it.each<[string, (doc: JsonObject) => void]>([
    [
      "a required property that is not defined",
      (doc) => delete ((((doc.components as JsonObject).schemas as JsonObject).Context as JsonObject).properties as JsonObject).slot,
    ],
    [
      "a type that is not a type name",
      (doc) => ((((((doc.components as JsonObject).schemas as JsonObject).RpcError as JsonObject).properties as JsonObject).message as JsonObject).type = {}),
    ],
  ])(
    "%s is reported with a JSON pointer",
    async (name, edit) => {
      const doc = clone(base);
      edit(doc);
      const file = join(specs, `${name.replace(/\W+/g, "-")}.yaml`);
      writeFileSync(file, JSON.stringify(doc, null, 1));
      const r = await generate(file);
      expect(r.code).toBe(2);
      expectUntouched();
      expect(r.stderr).toMatch(new RegExp(`^photon-gen: ${escapeRegExp(shown(file))}#/components/schemas/`));
    },
    20_000,
  );
});
