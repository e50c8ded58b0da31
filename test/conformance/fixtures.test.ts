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

  it("skips, naming the fixture, each case a partial profile cannot fill", async () => {
    const hash = "9SBSMT7VVHu8MpEowZqmeC272wbxhdeS3z9iWyz2Mwjs";
    const cases = await loadCases(join(root, "conformance", "cases"), { knownHash: hash, knownAddress: hash });
    const byHash = cases.find((c) => c.id === "account/by-hash")!;
    expect(byHash.skip).toBeNull();
    expect(byHash.params).toEqual({ hash: "9SBSMT7VVHu8MpEowZqmeC272wbxhdeS3z9iWyz2Mwjs" });
    const walk = cases.find((c) => c.id === "token-accounts/mint-filter")!;
    expect(walk.skip).toBe("needs fixture `tokenOwnerWithManyMints.owner`, which the profile lacks");
  });
});
