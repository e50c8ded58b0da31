/** `run --discover` over the whole corpus against the live reference (one slot every 20 ms), run after run. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJson, type Json } from "@photon-indexer-kit/runtime";
import { main } from "../../../conformance/cli/main.js";
import { readFixtures } from "../../../conformance/fixtures.js";
import { TOKEN_PROGRAM } from "../../../reference/index.js";
import { type ReferenceIndexer, startReferenceIndexer } from "../../../reference/serve.js";
import { captured } from "../../helpers/capture.js";
import { useScratch } from "../../helpers/scratch.js";

describe("run --discover against the live reference (one slot every 20 ms)", () => {
  let indexer: ReferenceIndexer;
  const dir = useScratch("discover-moving-e2e");
  beforeAll(async () => {
    indexer = await startReferenceIndexer({ port: 0, live: { intervalMs: 20 } });
    await indexer.warmed;
  });
  afterAll(() => indexer?.close());
  const live = () => indexer.live as NonNullable<ReferenceIndexer["live"]>;

  it("fails no case, run after run, from the token program and from an owner whose list the chain churns", async () => {
    const churned = ((await readFixtures()) as { ownerWithManyAccounts: { owner: string } }).ownerWithManyAccounts.owner;
    const failures: string[] = [];
    const codes: number[] = [];
    for (const [i, seed] of [TOKEN_PROGRAM, churned, TOKEN_PROGRAM].entries()) {
      const report = join(dir, `run-${i}.json`);
      const before = live().slotsApplied;
      const r = await captured(main, ["run", "--url", indexer.url, "--discover", "--seed-owner", seed, "--reporter", "json", "--output", report]);
      const json = parseJson(readFileSync(report, "utf8")) as {
        counts: { pass: number; fail: number };
        cases: { id: string; status: string }[];
        discoveredFixtures: Record<string, Json>;
      };
      failures.push(...json.cases.filter((c) => c.status === "fail").map((c) => `${seed} ${c.id}`));
      codes.push(r.code);
      expect(json.counts.pass).toBeGreaterThan(400);
      // The chain moved under the run, and discovery saw it.
      expect(live().slotsApplied).toBeGreaterThan(before);
      expect(json.discoveredFixtures.mayMove).toHaveProperty("slot");
    }
    expect(failures).toEqual([]);
    expect(codes).toEqual([0, 0, 0]);
  }, 300_000);
});
