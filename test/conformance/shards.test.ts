/**
 * `--shard i/n` splits the whole run, its run-wide case (`run/slot-order`) included: the
 * shards' cases add up to the unsharded run's, each exactly once, and every count (progress,
 * `options.cases`, the summary) is the same number.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CaseResult } from "../../conformance/model.js";
import { runSuite, selectsRunWide, SLOT_ORDER_ID, type RunOptions } from "../../conformance/run.js";
import { parseJson } from "../../runtime/index.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";

const indexer = useReferenceIndexer();
let base: RunOptions;

beforeAll(async () => {
  base = {
    url: indexer().url,
    casesDir: join(root, "conformance", "cases"),
    fixtures: parseJson(readFileSync(join(root, "conformance", "fixtures", "reference.json"), "utf8")) as RunOptions["fixtures"],
    concurrency: 4,
  };
});

/** A run, with every progress total it reported. */
async function run(options: Partial<RunOptions>) {
  const totals = new Set<number>();
  const dones: number[] = [];
  const summary = await runSuite({ ...base, ...options, onResult: (_r: CaseResult, done: number, total: number) => (totals.add(total), dones.push(done)) });
  return { summary, ids: summary.results.map((r) => r.id), totals: [...totals], last: Math.max(...dones) };
}

describe("--shard i/n", () => {
  it("the shards add up to the unsharded run, each case exactly once, the run-wide case in one shard", async () => {
    const whole = await run({});
    expect(whole.ids).toContain(SLOT_ORDER_ID);
    const shards = [];
    for (const index of [1, 2, 3]) shards.push(await run({ shard: { index, total: 3 } }));
    const union = shards.flatMap((s) => s.ids);
    expect(union.length).toBe(whole.ids.length);
    expect(new Set(union).size).toBe(union.length);
    expect([...union].sort()).toEqual([...whole.ids].sort());
    const holders = shards.filter((s) => s.ids.includes(SLOT_ORDER_ID));
    expect(holders).toHaveLength(1);
    // It judges its own shard's answers.
    const wide = holders[0]!.summary.results.find((r) => r.id === SLOT_ORDER_ID)!;
    expect(wide.status).toBe("pass");
    const judged = Number(/^(\d+) context slots/.exec(wide.findings[0]!.message)![1]);
    expect(judged).toBeGreaterThan(0);
    expect(judged).toBeLessThan(holders[0]!.ids.length);
  }, 120_000);

  it("one count everywhere: progress, options.cases and the summary", async () => {
    for (const options of [{}, { shard: { index: 2, total: 3 } }, { caseGlobs: ["slot/*"] }]) {
      const r = await run(options);
      expect(r.totals).toEqual([r.ids.length]);
      expect(r.last).toBe(r.ids.length);
      expect(r.summary.options.cases).toBe(r.ids.length);
      expect(Object.values(r.summary.counts).reduce((a, b) => a + b, 0)).toBe(r.ids.length);
    }
  }, 120_000);

  it("the run-wide case follows the selection: not with --method, with a --case glob only if it matches", () => {
    expect(selectsRunWide({})).toBe(true);
    expect(selectsRunWide({ methods: ["getIndexerSlot"] })).toBe(false);
    expect(selectsRunWide({ caseGlobs: ["account/*"] })).toBe(false);
    expect(selectsRunWide({ caseGlobs: ["run/*"] })).toBe(true);
    expect([1, 2, 3, 4, 5].filter((index) => selectsRunWide({ shard: { index, total: 5 } }))).toHaveLength(1);
  });
});
