/**
 * The suite's broken variants still fail against a moving reference: each cross-method defect, on
 * a reference whose chain moves under the cases (its churned owners included), is caught by the
 * cases written for it, and the correct moving reference fails none of them. A wrong answer at
 * every slot is wrong at one slot: re-running a relation whose answers straddled a change finds it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../../conformance/results.js";
import { runSuite, type RunOptions } from "../../conformance/run.js";
import { datasetProfile, generateDataset } from "../../reference/index.js";
import { root } from "../helpers/paths.js";
import { relationCases, startBroken, type Defect } from "./support/broken-servers.js";

/**
 * The chain moves before the 2nd request (so the first relation's first answers straddle a
 * change) and before every 40th, never by the clock: the cases run one at a time, so a relation
 * that straddled is asked again within one slot, whatever the machine's load.
 */
const LIVE = { live: { intervalMs: 3_600_000 }, tickBefore: (n: number) => n === 2 || n % 40 === 0 };

async function runLive(defect: Defect, caseGlobs: string[]): Promise<RunSummary> {
  const dataset = generateDataset();
  const fixtures = datasetProfile(dataset) as unknown as RunOptions["fixtures"];
  const server = await startBroken(dataset, defect, LIVE);
  const start = dataset.slot;
  try {
    const summary = await runSuite({ url: server.url, casesDir: join(root, "conformance", "cases"), fixtures, concurrency: 1, caseGlobs });
    expect(dataset.slot, "the chain moved under the cases").toBeGreaterThan(start);
    return summary;
  } finally {
    await server.close();
  }
}

const failuresOf = (summary: RunSummary, id: string): string[] =>
  (summary.results.find((r) => r.id === id)?.findings ?? []).filter((f) => f.status === "fail").map((f) => `${f.check}: ${f.message}`);

describe("broken variants of a moving reference", () => {
  it("the correct moving reference fails none of their cases", async () => {
    const ids = relationCases.flatMap(([, , ids]) => ids);
    const summary = await runLive({}, ids);
    expect(summary.results.length).toBe(ids.length);
    expect(summary.results.flatMap((r) => failuresOf(summary, r.id).map((m) => `${r.id}: ${m}`))).toEqual([]);
  }, 120_000);

  it.each(relationCases)(
    "%s is caught while the chain moves",
    async (_name, defect, ids, message) => {
      const summary = await runLive(defect, ids);
      for (const id of ids)
        expect(
          failuresOf(summary, id).some((m) => message.test(m)),
          `${id}: ${failuresOf(summary, id).join("; ")}`,
        ).toBe(true);
    },
    120_000,
  );
});
