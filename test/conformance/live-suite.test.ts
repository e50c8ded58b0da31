/**
 * The whole suite against the moving reference (one slot every 20 ms, the default dataset and
 * its fixtures profile): ten runs in a row fail nothing, while the chain moves under them. What
 * the suite could not decide because the target moved is a warning, never a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { casesDir, readFixtures } from "../../conformance/fixtures.js";
import { runSuite } from "../../conformance/run.js";
import { SESSION_DEFAULTS } from "../../conformance/session.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../reference/serve.js";

let indexer: ReferenceIndexer;
beforeAll(async () => {
  indexer = await startReferenceIndexer({ port: 0, live: { intervalMs: Number(process.env.LIVE_MS ?? 20) } });
  await indexer.warmed;
}, 120_000);
afterAll(() => indexer?.close());

describe("the suite against serve --live 20", () => {
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
