/** `photon-conformance diff`: two reference indexers, same seed (no difference) and different seeds (located differences). */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { main } from "../../conformance/cli/main.js";
import { inconclusiveLimit } from "../../conformance/cli/options.js";
import { differences, diffTargets } from "../../conformance/compare.js";
import { INCONCLUSIVE_ID } from "../../conformance/verdict.js";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { captured } from "../helpers/capture.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { addedEverywhere, startBroken } from "./support/broken-servers.js";

const seed1 = useReferenceIndexer();
const seed1b = useReferenceIndexer();
const seed2 = useReferenceIndexer({ seed: 2 });
const fixtures = () => datasetProfile(generateDataset()) as never;
const casesDir = join(root, "conformance", "cases");

describe("differences", () => {
  it("ignores key order and the listed paths, and names each differing path", () => {
    expect(differences({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1n }, new Set())).toEqual([]);
    expect(differences({ a: 1, b: { c: [1, 2] }, x: 1 }, { a: 2, b: { c: [1] } }, new Set(["x"]))).toEqual(["a", "b.c.1"]);
    expect(differences({ result: { context: { slot: 1 } } }, { result: { context: { slot: 2 } } }, new Set(["result.context.slot"]))).toEqual([]);
  });
});

describe("--max-inconclusive", () => {
  it("takes a count of cases or a percentage of the required cases compared, and nothing else", () => {
    expect(inconclusiveLimit("3")).toEqual({ count: 3, percent: false });
    expect(inconclusiveLimit("12.5%")).toEqual({ count: 12.5, percent: true });
    for (const bad of ["3.5", "101%", "ten", "-1", "%"])
      expect(() => inconclusiveLimit(bad), bad).toThrow(/--max-inconclusive is a number of cases \(5\) or a percentage/);
  });

  it("states its default, 10%, in the help", async () => {
    const help = await captured(main, ["diff", "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toMatch(/--max-inconclusive <n\|n%> required cases allowed to stay inconclusive .* \(default: 10%\)/);
  });
});

describe("diff --url A --against B", () => {
  it("finds and locates the differences between indexers with different data", async () => {
    const summary = await diffTargets({ url: seed1().url, against: seed2().url, casesDir, fixtures: fixtures(), caseGlobs: ["account/*", "token-balances/*"] });
    expect(summary.passed).toBe(false);
    const byHash = summary.results.find((r) => r.id === "account/by-hash")!;
    expect(byHash.status).toBe("fail");
    expect(byHash.findings.some((f) => f.message === "answers differ at result.value")).toBe(true);
    const located = summary.results.flatMap((r) => r.findings.map((f) => f.message)).filter((m) => /^answers differ at result\.value\.[\w.]+/.test(m));
    expect(located.length).toBeGreaterThan(0);
    // Judged answers are not kept (a long diff would hold every one): reports read the excerpts.
    expect(byHash.exchange!.text).toContain('"result"');
    expect(byHash.against!.text).toContain('"result"');
    expect(summary.results.filter((r) => r.exchange?.body !== undefined || r.against?.body !== undefined)).toEqual([]);
  }, 60_000);

  it("finds no difference where the side under test adds fields the spec does not know (a newer deployment)", async () => {
    const newer = await startBroken(generateDataset(), addedEverywhere("newerPhotonField"));
    try {
      const summary = await diffTargets({
        url: newer.url,
        against: seed1().url,
        casesDir,
        fixtures: fixtures(),
        caseGlobs: ["account/*", "balances/*", "token-accounts/*", "validity-proofs/v2-nothing"],
      });
      const differing = summary.results.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.findings.map((f) => f.message).join("; ")}`);
      expect(differing).toEqual([]);
      expect(summary.passed).toBe(true);
      expect(summary.results.length).toBeGreaterThan(20);
      const slot = summary.results.find((r) => r.id === "validity-proofs/v2-nothing")!;
      expect(slot.status).toBe("warn");
      expect(slot.findings.map((f) => f.message)).toContain("answers differ at result.context.newerPhotonField (a field only the side under test has)");
    } finally {
      await newer.close();
    }
  }, 120_000);

  it("marks a case inconclusive (a warning), after one retry, when both the answers and the slots differ", async () => {
    let tick = 0;
    const moving = await startBroken(generateDataset(), {
      wire: (b: any) => {
        if (b?.result?.context) {
          b.result.context.slot = 10 ** 9 + tick++; // an indexer moving on between requests
          if (Array.isArray(b.result.value?.token_balances)) b.result.value.token_balances = [];
        }
        return b;
      },
    });
    try {
      const summary = await diffTargets({
        url: moving.url,
        against: seed1().url,
        casesDir,
        fixtures: fixtures(),
        caseGlobs: ["token-balances/many-mints*"],
        maxInconclusive: 100,
      });
      const cases = summary.results.filter((r) => r.id !== INCONCLUSIVE_ID);
      expect(cases.length).toBeGreaterThan(0);
      for (const r of cases) {
        expect(r.status, r.id).toBe("warn");
        expect(r.findings[0]!.message).toMatch(/^inconclusive: the answers differ only where the chain moves, and the slots differed twice/);
      }
      expect(summary.passed).toBe(true); // within --max-inconclusive
      expect(tick).toBe(cases.length * 2); // each case asked twice
    } finally {
      await moving.close();
    }
  }, 60_000);

  it("exits 1 on differences, 0 without, 2 when a side is unreachable", async () => {
    const diff = async (...args: string[]) => (await captured(main, ["diff", ...args])).code;
    expect(await diff("--url", seed1().url, "--against", seed1b().url, "--case", "token-accounts/*")).toBe(0);
    expect(await diff("--url", seed1().url, "--against", seed2().url, "--case", "token-accounts/*")).toBe(1);
    expect(await diff("--url", seed1().url, "--against", "http://127.0.0.1:1/")).toBe(2);
  }, 60_000);
});

describe("diff's closing line", () => {
  it("names the two targets compared and says whether they agree, never a run's CONFORMANT", async () => {
    const same = await captured(main, ["diff", "--url", seed1().url, "--against", seed1b().url, "--case", "account/*"]);
    expect(same.code).toBe(0);
    const agree = same.stdout.trimEnd().split("\n").at(-1)!;
    expect(agree).toMatch(
      new RegExp(
        `^VERDICT: AGREE: ${seed1().url} \\(under test, --url\\) and ${seed1b().url} \\(trusted, --against\\) answer alike \\(\\d+ cases compared\\)$`,
      ),
    );
    const other = await captured(main, ["diff", "--url", seed1().url, "--against", seed2().url, "--case", "account/*"]);
    expect(other.code).toBe(1);
    const differ = other.stdout.trimEnd().split("\n").at(-1)!;
    expect(differ).toMatch(
      new RegExp(`^VERDICT: DIFFER: ${seed1().url} \\(under test, --url\\) and ${seed2().url} \\(trusted, --against\\) differ in \\d+ of \\d+ cases compared$`),
    );
    for (const out of [same.stdout, other.stdout]) expect(out).not.toContain("CONFORMANT");
  }, 60_000);
});
