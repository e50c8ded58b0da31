/**
 * runSuite over the whole corpus: the reference indexer passes it, so does one adding a field to
 * every object, and so does the moving reference (serve --live 20) in ten runs in a row.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../conformance/results.js";
import { casesDir, readFixtures } from "../../conformance/fixtures.js";
import { runSuite, type RunOptions } from "../../conformance/run.js";
import { SESSION_DEFAULTS } from "../../conformance/session.js";
import { datasetProfile, generateDataset, type Dataset } from "../../reference/index.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../reference/serve.js";
import { failedCases } from "../helpers/failed-cases.js";
import { root } from "../helpers/paths.js";
import { addedEverywhere, startBroken, type Defect } from "./support/broken-servers.js";

let dataset: Dataset;
let fixtures: RunOptions["fixtures"];

beforeAll(() => {
  dataset = generateDataset();
  fixtures = datasetProfile(dataset) as unknown as RunOptions["fixtures"];
});

async function runAgainst(defect: Defect, options: Partial<RunOptions>): Promise<RunSummary> {
  const server = await startBroken(dataset, defect);
  try {
    return await runSuite({ url: server.url, casesDir: join(root, "conformance", "cases"), fixtures, concurrency: 4, ...options });
  } finally {
    await server.close();
  }
}

describe("a correct server is not failed by the whole corpus", () => {
  it("passes every case against the reference indexer", async () => {
    const summary = await runAgainst({}, {});
    expect(failedCases(summary)).toEqual([]);
    expect(summary.results.length).toBeGreaterThanOrEqual(60);
  });

  it("with a field a newer deployment adds to every object of every result: the whole suite passes, warning of it", async () => {
    // The rewrite costs the server a parse and a walk of every answer: generous deadlines for a busy machine.
    const summary = await runAgainst(addedEverywhere("newerPhotonField"), { timeoutMs: 60_000, retryBudgetMs: 120_000, caseTimeMs: 240_000 });
    expect(failedCases(summary)).toEqual([]);
    // Among them the hand-written cases that compare whole objects.
    for (const id of ["balances/token-unknown-hash", "validity-proofs/v2-nothing"]) {
      const r = summary.results.find((x) => x.id === id)!;
      expect(r.status).toBe("warn");
      expect(r.findings.some((f) => f.check === "semantics" && f.status === "pass")).toBe(true);
      expect(r.findings.some((f) => f.check === "schema" && f.status === "warn" && /newerPhotonField/.test(f.message))).toBe(true);
    }
  }, 300_000);
});

describe("the suite against serve --live 20", () => {
  // Ten runs in a row while the chain moves: what moved is a warning, never a failure.
  let indexer: ReferenceIndexer;
  beforeAll(async () => {
    indexer = await startReferenceIndexer({ port: 0, live: { intervalMs: Number(process.env.LIVE_MS ?? 20) } });
    await indexer.warmed;
  }, 120_000);
  afterAll(() => indexer?.close());

  it("fails nothing in ten runs in a row while the chain moves", async () => {
    const fixtures = await readFixtures();
    const live = indexer.live as NonNullable<ReferenceIndexer["live"]>;
    const failures: string[] = [];
    const slots: number[] = [];
    let results = 0;
    for (let run = 0; run < 10; run++) {
      const before = live.slotsApplied;
      const summary = await runSuite({
        url: indexer.url,
        casesDir,
        fixtures,
        concurrency: SESSION_DEFAULTS.concurrency,
        timeoutMs: SESSION_DEFAULTS.timeoutMs,
        derived: true,
      });
      slots.push(live.slotsApplied - before);
      results += summary.results.length;
      for (const r of summary.results)
        if (r.status === "fail")
          failures.push(
            `run ${run + 1} ${r.id}: ${r.findings
              .filter((f) => f.status === "fail")
              .map((f) => `${f.check}: ${f.message}`)
              .join("; ")
              .slice(0, 400)}`,
          );
    }
    expect(failures).toEqual([]);
    expect(results).toBeGreaterThan(8_000);
    // The chain moved during every run.
    for (const moved of slots) expect(moved).toBeGreaterThan(0);
  }, 600_000);
});
