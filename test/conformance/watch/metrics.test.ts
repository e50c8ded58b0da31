/** watch's exposition: the names and labels it promises, bounded whatever the target answers. */
import { describe, expect, it } from "vitest";
import { defaultSpec } from "../../../conformance/spec-bundle.js";
import { WatchMetrics } from "../../../conformance/watch/metrics.js";
import { SlotSampler } from "../../../conformance/watch/slot.js";
import { exchangeWith } from "../../helpers/exchange.js";

const table = defaultSpec.methods;

const answer = (body: unknown, durationMs = 12) => exchangeWith({ body, durationMs });

/** The exposition's samples (name with labels → value), comments left out. */
async function samples(metrics: WatchMetrics): Promise<Map<string, string>> {
  const text = await metrics.registry.metrics();
  return new Map(
    text
      .split("\n")
      .filter((l) => l && !l.startsWith("#"))
      .map((l) => [l.slice(0, l.lastIndexOf(" ")), l.slice(l.lastIndexOf(" ") + 1)]),
  );
}

const noSlots = () => new SlotSampler(async () => null, { timeoutMs: 100 });

describe("WatchMetrics", () => {
  it("says each completed run: its verdict, cases, duration, end and each method's standing", async () => {
    const metrics = new WatchMetrics(table, null);
    metrics.completed({
      verdict: "not_conformant",
      counts: { pass: 7, fail: 2, warn: 1, skip: 3, notRun: 0 },
      inconclusive: 1,
      durationSeconds: 4.5,
      endedAtSeconds: 1_800_000_000,
      standings: new Map([
        ["getIndexerSlot", { conformant: 0, failingRuns: 2 }],
        ["getCompressedAccount", { conformant: 1, failingRuns: 0 }],
      ]),
    });
    metrics.completed({ verdict: "unreachable", durationSeconds: 0.1, endedAtSeconds: 1_800_000_300, standings: new Map() });
    const s = await samples(metrics);
    expect(s.get('photon_conformance_runs_total{verdict="not_conformant"}')).toBe("1");
    expect(s.get('photon_conformance_runs_total{verdict="unreachable"}')).toBe("1");
    expect(s.get('photon_conformance_cases{status="fail"}')).toBe("2");
    expect(s.get('photon_conformance_cases{status="not_run"}')).toBe("0");
    expect(s.get("photon_conformance_inconclusive_relations")).toBe("1");
    expect(s.get("photon_conformance_last_run_timestamp_seconds")).toBe("1800000300");
    expect(s.get("photon_conformance_run_duration_seconds")).toBe("0.1");
    expect(s.get('photon_conformance_method_conformant{method="getIndexerSlot"}')).toBe("0");
    expect(s.get('photon_conformance_method_failing_runs{method="getIndexerSlot"}')).toBe("2");
    expect(s.get('photon_conformance_method_conformant{method="getCompressedAccount"}')).toBe("1");
    expect(s.has("process_resident_memory_bytes")).toBe(true);
  });

  it("times every request by spec method, an alias under its method and anything else as other", async () => {
    const metrics = new WatchMetrics(table, null);
    metrics.exchange(answer({ result: 1 }, 30), { method: "getIndexerSlot" });
    metrics.exchange(answer({ result: 1 }, 30), { method: "rm -rf /" });
    const s = await samples(metrics);
    expect(s.get('photon_indexer_request_duration_seconds_count{method="getIndexerSlot"}')).toBe("1");
    expect(s.get('photon_indexer_request_duration_seconds_bucket{le="0.05",method="getIndexerSlot"}')).toBe("1");
    expect(s.get('photon_indexer_request_duration_seconds_bucket{le="0.025",method="getIndexerSlot"}')).toBe("0");
    expect(s.get('photon_indexer_request_duration_seconds_count{method="other"}')).toBe("1");
  });

  it("counts error answers, but not a probe's (its case judges them), and caps the codes a target can invent", async () => {
    const metrics = new WatchMetrics(table, null);
    metrics.exchange(answer({ error: { code: -32602 } }), { method: "getIndexerSlot", probe: true });
    for (let i = 0; i < 1000; i++) metrics.exchange(answer({ error: { code: -40000 - i } }), { method: "getIndexerSlot" });
    const s = await samples(metrics);
    const codes = [...s.keys()].filter((k) => k.startsWith("photon_indexer_errors_total{"));
    expect(codes.length).toBe(33);
    expect(s.get('photon_indexer_errors_total{method="getIndexerSlot",code="other"}')).toBe(String(1000 - 32));
    expect(s.has('photon_indexer_errors_total{method="getIndexerSlot",code="-32602"}')).toBe(false);
  });

  it("reads the slot when scraped; while the indexer does not answer, up is 0 and the rate NaN", async () => {
    let answers: (number | null)[] = [10, null];
    const slots = new SlotSampler(async () => answers.shift() ?? null, { timeoutMs: 100, minIntervalMs: 0 });
    const metrics = new WatchMetrics(table, slots);
    let s = await samples(metrics);
    expect([s.get("photon_indexer_slot"), s.get("photon_indexer_up")]).toEqual(["10", "1"]);
    s = await samples(metrics);
    expect([s.get("photon_indexer_slot"), s.get("photon_indexer_up"), s.get("photon_indexer_slot_advance_rate")]).toEqual(["10", "0", "Nan"]);
    answers = [];
    expect((await samples(new WatchMetrics(table, noSlots()))).get("photon_indexer_up")).toBe("0");
  });

  it("serves prom-client's default process metrics, less its gauges named as counters (each its {type} gauge's sum)", async () => {
    const text = await new WatchMetrics(table, null).registry.metrics();
    for (const name of ["process_resident_memory_bytes", "process_cpu_seconds_total", "nodejs_eventloop_lag_seconds", "nodejs_active_handles"])
      expect(text).toContain(`# TYPE ${name} `);
    expect(text).not.toMatch(/^# TYPE nodejs_active_\w+_total /m);
  });
});
