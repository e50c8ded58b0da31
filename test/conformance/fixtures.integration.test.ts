import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCases } from "../../conformance/case-format.js";
import { main } from "../../conformance/cli/main.js";
import { discoverFixtures } from "../../conformance/discover.js";
import { readFixtures } from "../../conformance/fixtures.js";
import { fixturesProblems } from "../../conformance/fixtures-check.js";
import { createTarget } from "../../conformance/target.js";
import { datasetProfile, generateDataset, TOKEN_PROGRAM } from "../../reference/index.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("fixtures-profiles");
const indexer = useReferenceIndexer();

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

describe("a fixtures profile's formats", () => {
  const shipped = () => parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as Record<string, never>;
  const write = (name: string, profile: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, stringifyJson(profile as never));
    return file;
  };

  it("refuses a field of the wrong format, naming the file and its JSON pointer (run, --list), exit 2", async () => {
    const bad = write("bad-owner.json", { ...shipped(), ownerWithOneAccount: { owner: "x", unspent: 1, hash: "teTzHAGqzzbxT2hngHyiyggvQF3k8R155mF4FgLem5m" } });
    await expect(readFixtures(bad)).rejects.toThrow(
      `${bad}: invalid fixtures profile: /ownerWithOneAccount/owner: "x" must be a base58 public key or hash (32 bytes)`,
    );
    // The profile is refused before anything is sent: no case runs.
    for (const args of [
      ["run", "--url", indexer().url, "--fixtures", bad],
      ["run", "--fixtures", bad, "--list"],
    ]) {
      const r = await captured(main, args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toBe(
        `photon-conformance: ${bad}: invalid fixtures profile: /ownerWithOneAccount/owner: "x" must be a base58 public key or hash (32 bytes)\n`,
      );
    }
  });

  it("names each kind of fault by pointer: a short key, a signature, a negative count, an element of a list", () => {
    const profile = shipped() as Record<string, unknown>;
    const problems = fixturesProblems({
      ...profile,
      tokenProgram: "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEV", // base58, but not 32 bytes
      trees: { ...(profile.trees as object), stateV1: ["smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "0OIl"] },
      ownerWith1000: { owner: "hcY3gaGGhe2azGPt2RqtjCQtW5uVs5QBCZ9Ymmjcxrp", unspent: -1 },
      closedAccount: { hash: "teTzHAGqzzbxT2hngHyiyggvQF3k8R155mF4FgLem5m", closedBy: "teTzHAGqzzbxT2hngHyiyggvQF3k8R155mF4FgLem5m" },
    } as never);
    expect(problems).toEqual([
      '/tokenProgram: "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEV" must be a base58 public key or hash (32 bytes)',
      '/trees/stateV1/1: "0OIl" must be a base58 public key or hash (32 bytes)',
      "/ownerWith1000/unspent: -1 must be a non-negative integer",
      '/closedAccount/closedBy: "teTzHAGqzzbxT2hngHyiyggvQF3k8R155mF4FgLem5m" must be a base58 transaction signature (64 bytes)',
    ]);
  });

  it("accepts the shipped profile and the profiles --discover derives", async () => {
    expect(fixturesProblems(shipped())).toEqual([]);
    const target = createTarget({ url: indexer().url, headers: {}, timeoutMs: 5000, maxBodyBytes: 1 << 24, maxRps: null, retry: false });
    expect(fixturesProblems(await discoverFixtures(target, TOKEN_PROGRAM))).toEqual([]);
  }, 60_000);
});
