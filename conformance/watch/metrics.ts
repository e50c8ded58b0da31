/**
 * watch's metrics, one prom-client registry: the suite's (each method's confirmed standing, the
 * last run's cases, runs by verdict, when and how long), the indexer's (every request's duration
 * and error codes, its slot and how fast it advances) and prom-client's default process metrics.
 * Every label value is bounded (labels.ts); none carries a URL, a header or a message.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CaseCounts, Exchange } from "../results.js";
import { canonicalMethod, type MethodTable } from "../spec-facts.js";
import type { Sent } from "../target.js";
import type { MethodStanding } from "./confirm.js";
import { errorCodes, givenUp } from "./exchanges.js";
import { BoundedLabel } from "./labels.js";
import type { SlotSampler } from "./slot.js";

/** How a completed tick ended, as `photon_conformance_runs_total` labels it. */
export type RunVerdict = "conformant" | "not_conformant" | "incomplete" | "unreachable" | "refused" | "error";

/** The case statuses, as `photon_conformance_cases` labels them. */
const STATUS_LABELS: Readonly<Record<keyof CaseCounts, string>> = { pass: "pass", fail: "fail", warn: "warn", skip: "skip", notRun: "not_run" };

/** Distinct error codes kept as labels before the rest are counted as `other`. */
const MAX_ERROR_CODES = 32;

/** Request durations (seconds): a few ms on loopback to the transport's 10 s deadline and past it. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One completed run, as the suite's metrics take it. */
export interface CompletedRun {
  readonly verdict: RunVerdict;
  /** The run's case counts (absent when it could not start: unreachable, refused). */
  readonly counts?: Readonly<CaseCounts>;
  /** Relations left inconclusive because the target moved. */
  readonly inconclusive?: number;
  readonly durationSeconds: number;
  readonly endedAtSeconds: number;
  /** Every method's standing after this run (confirm.ts). */
  readonly standings: ReadonlyMap<string, MethodStanding>;
}

/** prom-client's default gauges with a counter's `_total` suffix. */
const MISNAMED_DEFAULTS = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"];

export class WatchMetrics {
  readonly registry = new Registry();
  private readonly methods: BoundedLabel;
  private readonly codes = new BoundedLabel([], MAX_ERROR_CODES);
  private readonly conformant: Gauge;
  private readonly failingRuns: Gauge;
  private readonly cases: Gauge;
  private readonly inconclusive: Gauge;
  private readonly runs: Counter;
  private readonly lastRun: Gauge;
  private readonly runDuration: Gauge;
  private readonly requests: Histogram;
  private readonly errors: Counter;

  constructor(
    private readonly table: MethodTable,
    slots: SlotSampler | null,
  ) {
    const registers = [this.registry];
    this.methods = new BoundedLabel(Object.keys(table));
    this.conformant = new Gauge({
      name: "photon_conformance_method_conformant",
      help: "1 while the method conforms; 0 once it failed in --confirm consecutive runs that decided it",
      labelNames: ["method"],
      registers,
    });
    this.failingRuns = new Gauge({
      name: "photon_conformance_method_failing_runs",
      help: "Consecutive runs that decided the method and found it failing",
      labelNames: ["method"],
      registers,
    });
    this.cases = new Gauge({ name: "photon_conformance_cases", help: "Cases of the last completed run, by status", labelNames: ["status"], registers });
    this.inconclusive = new Gauge({
      name: "photon_conformance_inconclusive_relations",
      help: "Relations the last completed run left inconclusive because the target moved while they were read (never failures)",
      registers,
    });
    this.runs = new Counter({ name: "photon_conformance_runs_total", help: "Completed runs, by verdict", labelNames: ["verdict"], registers });
    this.lastRun = new Gauge({ name: "photon_conformance_last_run_timestamp_seconds", help: "When the last completed run ended (Unix time)", registers });
    this.runDuration = new Gauge({ name: "photon_conformance_run_duration_seconds", help: "How long the last completed run took", registers });
    this.requests = new Histogram({
      name: "photon_indexer_request_duration_seconds",
      help: "Every request the suite sent the indexer, by method (retries included), until its answer or failure",
      labelNames: ["method"],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.errors = new Counter({
      name: "photon_indexer_errors_total",
      help: "Errors the indexer answered, by method and code: JSON-RPC error codes, http_<status>, or the transport's failure code",
      labelNames: ["method", "code"],
      registers,
    });
    if (slots !== null) this.slotGauges(slots);
    // The event-loop monitor samples every 100 ms, not 10: ten wakeups a second between runs, not a hundred.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 100 });
    // Gauges named as counters, which `promtool check metrics` refuses; each is its `{type}` gauge's sum.
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
  }

  /** The indexer's slot, its rate and whether it answers: read when scraped (slot.ts). */
  private slotGauges(slots: SlotSampler): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, value: () => number | null): Gauge =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          await slots.sample();
          this.set(value() ?? Number.NaN); // unknown: NaN, which no comparison (no alert) takes for a value
        },
      });
    gauge("photon_indexer_slot", "The indexer's slot, read when scraped (the last one answered)", () => slots.current.slot);
    gauge(
      "photon_indexer_slot_advance_rate",
      "Slots per second the indexer advanced between the last two scrapes; NaN while it does not answer",
      () => slots.current.rate,
    );
    gauge("photon_indexer_up", "1 when the indexer answered the last slot read, else 0", () => (slots.current.up === null ? null : slots.current.up ? 1 : 0));
  }

  /** One exchange with the indexer: its duration and error codes, labelled by the spec method it called (else `other`). */
  exchange(exchange: Exchange, sent: Sent): void {
    if (givenUp(exchange)) return;
    const label = this.methods.of(canonicalMethod(sent.method, this.table) ?? sent.method);
    this.requests.observe({ method: label }, exchange.durationMs / 1000);
    // A probe's error answers are its case's to judge (a failing case shows in the method's standing); its failures to answer count.
    const codes = sent.probe && exchange.status !== 0 ? [] : errorCodes(exchange);
    for (const code of codes) this.errors.inc({ method: label, code: this.codes.of(code) });
  }

  /** A run ended (whatever its verdict): the suite's metrics say so. */
  completed(run: CompletedRun): void {
    this.runs.inc({ verdict: run.verdict });
    this.lastRun.set(run.endedAtSeconds);
    this.runDuration.set(run.durationSeconds);
    if (run.counts) for (const [status, label] of Object.entries(STATUS_LABELS)) this.cases.set({ status: label }, run.counts[status as keyof CaseCounts]);
    if (run.inconclusive !== undefined) this.inconclusive.set(run.inconclusive);
    for (const [method, standing] of run.standings) {
      const label = this.methods.of(method);
      this.conformant.set({ method: label }, standing.conformant);
      this.failingRuns.set({ method: label }, standing.failingRuns);
    }
  }
}
