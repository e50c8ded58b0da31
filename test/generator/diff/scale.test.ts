/**
 * The synthetic upstream-like spec of bench/spec-scale.ts (test/helpers/synthetic-spec.ts), at a small size: it generates,
 * its bumped version diffs as intended, and (cheaply) the bench's full size is upstream's.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffSpecs } from "../../../generator/diff/index.js";
import { generate } from "../../../generator/generate.js";
import { syntheticSpec } from "../../helpers/synthetic-spec.js";
import { useScratch } from "../../helpers/scratch.js";

const dir = useScratch("diff-scale");
const before = join(dir, "before.yaml");
const after = join(dir, "after.yaml");

beforeAll(() => {
  writeFileSync(before, syntheticSpec({ methods: 8 }));
  writeFileSync(after, syntheticSpec({ methods: 8, bumped: true }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("synthetic spec", () => {
  it("at the bench's size is as large as upstream 0.50.0 (36 methods, 5,140 lines), and deterministic", () => {
    const text = syntheticSpec({ methods: 40 });
    expect(text.split("\n").length).toBeGreaterThan(5000);
    expect((text.match(/^ {2}\/getSyntheticMethod\d+:$/gm) ?? []).length).toBe(40);
    expect(syntheticSpec({ methods: 40 })).toBe(text);
  });

  it("generates", async () => {
    const { model, files } = await generate(before);
    expect(model.methods).toHaveLength(8);
    expect(files.get("validators.ts")).toContain("getSyntheticMethod07Result");
  });

  it("diffs against its bumped version, with shared-component changes at several methods", async () => {
    const report = await diffSpecs(before, after);
    expect(report.summary.methodsAdded).toEqual(["getSyntheticMethodAdded"]);
    expect(report.summary.methodsRemoved).toEqual(["getSyntheticMethod07"]);
    const extra = report.changes.filter((c) => c.kind === "field-added" && c.path.endsWith(".extra"));
    expect(new Set(extra.map((c) => c.method)).size).toBeGreaterThan(1);
    expect(extra.every((c) => c.via?.startsWith("Record"))).toBe(true);
    // A new optional field in a closed object: clients break in results, servers in params.
    expect(extra.every((c) => c.class === (c.scope === "result" ? "breaking-clients" : "breaking-servers"))).toBe(true);
    expect(report.changes.some((c) => c.kind === "enum-values-added")).toBe(true);
  });
});
