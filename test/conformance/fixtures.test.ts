import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCases } from "../../conformance/case-format.js";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { root } from "../helpers/paths.js";

describe("the shipped fixtures profile", () => {
  it("is the profile of the reference indexer's default dataset (serve with no options)", () => {
    const shipped = parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8"));
    expect(stringifyJson(shipped)).toBe(stringifyJson(datasetProfile(generateDataset())));
  });

  it("fills every placeholder of the corpus, which covers every method with at least 60 cases", async () => {
    const fixtures = parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as Record<string, never>;
    const cases = await loadCases(join(root, "conformance", "cases"), fixtures);
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const { methodNames } = await import("../../generated/index.js");
    for (const m of methodNames) expect(cases.filter((c) => c.method === m).length, m).toBeGreaterThanOrEqual(5);
  });

  it("names the missing fixture when a profile lacks one", async () => {
    await expect(loadCases(join(root, "conformance", "cases"), {})).rejects.toThrow(/the fixtures profile has no `[\w.]+`/);
  });
});
