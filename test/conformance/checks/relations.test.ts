/**
 * Cross-method expectations (`expect.agrees`, `expect.sum`, `expect.follow`) against broken
 * variants of the reference: each defect is caught by the case written for it, and the
 * correct reference passes the same cases. Also: every served method has a semantic case.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCases } from "../../../conformance/case-format.js";
import { expectsResult } from "../../../conformance/checks/check.js";
import type { RunSummary } from "../../../conformance/results.js";
import { runSuite, type RunOptions } from "../../../conformance/run.js";
import { methods } from "../../../generated/methods.js";
import { datasetProfile, generateDataset, type Dataset } from "../../../reference/index.js";
import { parseJson } from "../../../runtime/index.js";
import { root } from "../../helpers/paths.js";
import { relationCases as cases, startBroken, type Defect } from "../support/broken-servers.js";

let dataset: Dataset;
let fixtures: RunOptions["fixtures"];

beforeAll(() => {
  dataset = generateDataset();
  fixtures = datasetProfile(dataset) as unknown as RunOptions["fixtures"];
});

async function runCases(defect: Defect, caseGlobs: string[]): Promise<RunSummary> {
  const server = await startBroken(dataset, defect);
  try {
    return await runSuite({ url: server.url, casesDir: join(root, "conformance", "cases"), fixtures, concurrency: 4, caseGlobs });
  } finally {
    await server.close();
  }
}

/** Failing findings of one case: `check: message`. */
function failures(summary: RunSummary, id: string): string[] {
  const result = summary.results.find((r) => r.id === id);
  expect(result, id).toBeDefined();
  return result!.findings.filter((f) => f.status === "fail").map((f) => `${f.check}: ${f.message}`);
}

describe("cross-method cases against broken variants of the reference", () => {
  it("the correct reference passes every case written for them", async () => {
    const summary = await runCases(
      {},
      cases.flatMap(([, , ids]) => ids),
    );
    expect(summary.results.length).toBe(cases.flatMap(([, , ids]) => ids).length);
    for (const r of summary.results) expect(failures(summary, r.id), r.id).toEqual([]);
  });

  it.each(cases)("%s is caught by its cases", async (_name, defect, ids, message) => {
    const summary = await runCases(defect, ids);
    for (const id of ids)
      expect(
        failures(summary, id).some((m) => message.test(m)),
        `${id}: ${failures(summary, id).join("; ")}`,
      ).toBe(true);
  });
});

describe("the corpus", () => {
  it("gives every method the real server registers at least one case with a semantic expectation", async () => {
    const profile = parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as Record<string, never>;
    const all = await loadCases(join(root, "conformance", "cases"), profile);
    const semantic = all.filter((c) => {
      const e = c.expect;
      const any = e.result !== null || e.every !== null || e.semantics.length > 0 || (e.agrees?.length ?? 0) > 0 || !!e.sum || (e.follow?.length ?? 0) > 0;
      return c.skip === null && expectsResult(c) && any;
    });
    const served = Object.values(methods).filter((m) => m.registered);
    expect(served.length).toBeGreaterThan(30);
    const missing = served.filter((m) => !semantic.some((c) => c.method === m.name)).map((m) => m.name);
    expect(missing).toEqual([]);
  });

  it("has V1/V2 agreement, sums and follow-ups among its cases", async () => {
    const profile = parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as Record<string, never>;
    const all = await loadCases(join(root, "conformance", "cases"), profile);
    const agreeing = new Set(all.flatMap((c) => (c.expect.agrees ?? []).map((a) => `${c.method}~${a.method}`)));
    for (const pair of [
      "getCompressedAccountV2~getCompressedAccount",
      "getMultipleCompressedAccountsV2~getMultipleCompressedAccounts",
      "getCompressedAccountsByOwnerV2~getCompressedAccountsByOwner",
      "getCompressedTokenAccountsByOwnerV2~getCompressedTokenAccountsByOwner",
      "getCompressedTokenAccountsByDelegateV2~getCompressedTokenAccountsByDelegate",
      "getCompressedTokenBalancesByOwnerV2~getCompressedTokenBalancesByOwner",
      "getTransactionWithCompressionInfoV2~getTransactionWithCompressionInfo",
    ])
      expect(agreeing.has(pair), pair).toBe(true);
    expect(all.filter((c) => c.expect.sum).length).toBeGreaterThanOrEqual(5);
    expect(all.filter((c) => (c.expect.follow?.length ?? 0) > 0).length).toBeGreaterThanOrEqual(8);
  });
});
