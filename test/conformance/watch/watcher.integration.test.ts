/**
 * watch's runs are the suite's own (openSession + runSuite, as the CLI's): against a reference with
 * one defect the broken method reads 0 after --confirm runs while the others stay 1; against a
 * reference whose chain moves under the cases nothing ever reads 0.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunOptions } from "../../../conformance/run.js";
import { runSuite } from "../../../conformance/run.js";
import { openSession, sessionSettings, targetOf } from "../../../conformance/session.js";
import { defaultSpec } from "../../../conformance/spec-bundle.js";
import { decide } from "../../../conformance/verdict.js";
import { readFixtures, referenceFixturesFile } from "../../../conformance/fixtures.js";
import { Watcher } from "../../../conformance/watch/watcher.js";
import { datasetProfile, generateDataset } from "../../../reference/index.js";
import { startReferenceIndexer } from "../../../reference/serve.js";
import { createRedactor } from "../../../runtime/index.js";
import { root } from "../../helpers/paths.js";
import { broken, startBroken } from "../support/broken-servers.js";

const casesDir = join(root, "conformance", "cases");
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A watcher of `url` running `methods`' cases (the dataset's profile as fixtures), logging into `lines`. */
function watcherOf(url: string, fixtures: RunOptions["fixtures"], methods: string[], lines: string[]): Watcher {
  return new Watcher({
    everyMs: 1,
    confirm: 2,
    table: defaultSpec.methods,
    timeoutMs: 5000,
    certificates: null,
    redact: createRedactor([]),
    log: (line) => lines.push(line),
    slotTarget: (observe) => targetOf({ url }, sessionSettings({}), observe),
    run: async (observe, signal) => {
      const session = await openSession({ targets: [{ url }], casesDir, methods, fixtures, derived: true, requireMatch: true, observe });
      try {
        return decide(await runSuite({ url, casesDir, fixtures, methods, signal }, session)).summary;
      } finally {
        await session.close();
      }
    },
  });
}

/** The exposition's value of one sample, by its name with labels. */
const sample = async (w: Watcher, name: string): Promise<string | undefined> =>
  (await w.metrics.registry.metrics())
    .split("\n")
    .find((l) => l.startsWith(`${name} `))
    ?.slice(name.length + 1);

describe("watch over the suite", () => {
  it("a broken method reads 0 after two failing runs; a correct one stays 1", async () => {
    const dataset = generateDataset();
    const fixtures = datasetProfile(dataset) as unknown as RunOptions["fixtures"];
    const server = await startBroken(dataset, broken.holdersOutOfOrder);
    closers.push(server.close);
    const lines: string[] = [];
    const watcher = watcherOf(server.url, fixtures, ["getCompressedMintTokenHolders", "getIndexerSlot"], lines);
    const holders = 'photon_conformance_method_conformant{method="getCompressedMintTokenHolders"}';
    await watcher.tick(new AbortController().signal);
    expect(await sample(watcher, holders)).toBe("1");
    expect(await sample(watcher, 'photon_conformance_method_failing_runs{method="getCompressedMintTokenHolders"}')).toBe("1");
    await watcher.tick(new AbortController().signal);
    expect(await sample(watcher, holders)).toBe("0");
    expect(await sample(watcher, 'photon_conformance_method_conformant{method="getIndexerSlot"}')).toBe("1");
    expect(await sample(watcher, 'photon_conformance_runs_total{verdict="not_conformant"}')).toBe("2");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/verdict not_conformant: \d+ of \d+ cases failed; failing: getCompressedMintTokenHolders$/);
    // Every request the runs sent was timed, under its method.
    expect(Number(await sample(watcher, 'photon_indexer_request_duration_seconds_count{method="getCompressedMintTokenHolders"}'))).toBeGreaterThan(10);
    expect(await sample(watcher, "photon_indexer_up")).toBe("1");
  }, 120_000);

  it("a correct reference whose chain moves under the cases never reads 0, and its slot advances", async () => {
    const reference = await startReferenceIndexer({ port: 0, live: { intervalMs: 20 } });
    closers.push(() => reference.close());
    await reference.warmed; // the chain starts moving once its trees are built
    const fixtures = await readFixtures(referenceFixturesFile);
    const lines: string[] = [];
    const methods = ["getCompressedAccountsByOwner", "getCompressedBalanceByOwner", "getCompressedAccountsByOwnerV2", "getIndexerSlot"];
    const watcher = watcherOf(reference.url, fixtures, methods, lines);
    const first = Number(await sample(watcher, "photon_indexer_slot"));
    for (let i = 0; i < 3; i++) await watcher.tick(new AbortController().signal);
    for (const method of methods) expect(await sample(watcher, `photon_conformance_method_conformant{method="${method}"}`), method).toBe("1");
    expect(await sample(watcher, 'photon_conformance_runs_total{verdict="conformant"}')).toBe("3");
    expect(lines).toHaveLength(1);
    expect(Number(await sample(watcher, "photon_indexer_slot"))).toBeGreaterThan(first);
    expect(Number(await sample(watcher, "photon_indexer_slot_advance_rate"))).toBeGreaterThan(0);
  }, 120_000);
});
