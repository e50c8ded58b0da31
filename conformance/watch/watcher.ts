/**
 * `watch`: the selection run on a timer, one run at a time (a run longer than the interval delays
 * the next), each run's outcome turned into metrics (metrics.ts), method standings confirmed across
 * runs (confirm.ts), certificates kept (certificates.ts), and one log line when the verdict changes.
 * A stop abandons the run in flight: it counts for nothing.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { PhotonError, type Redactor } from "@photon-indexer-kit/runtime";
import { ConfErrorCode } from "../errors.js";
import { FindingReason, type RunSummary } from "../results.js";
import { slotMethod, type MethodTable } from "../spec-facts.js";
import type { ExchangeObserver, RawTarget } from "../target.js";
import { verdictOf } from "../verdict.js";
import type { CertificateDir } from "./certificates.js";
import { Confirmations, outcomeOf, type MethodOutcome } from "./confirm.js";
import { WatchMetrics, type RunVerdict } from "./metrics.js";
import { SlotSampler } from "./slot.js";

export interface WatchPlan {
  /** From the start of one run to the start of the next (`--every`). */
  readonly everyMs: number;
  /** Consecutive failing runs that set a method to 0 (`--confirm`). */
  readonly confirm: number;
  readonly table: MethodTable;
  /** One run of the selection: opens its session (its targets told to `observe`), runs, closes. Throws a coded error when it cannot start. */
  readonly run: (observe: ExchangeObserver, signal: AbortSignal) => Promise<RunSummary>;
  /** The target the slot is read from when the metrics are scraped (told to `observe` too). */
  readonly slotTarget: (observe: ExchangeObserver) => RawTarget;
  /** One slot read's deadline. */
  readonly timeoutMs: number;
  readonly certificates: CertificateDir | null;
  /** The command's one output redactor: every logged line passes it. */
  readonly redact: Redactor;
  /** Writes one line (a verdict change, a certificate that could not be written). */
  readonly log: (line: string) => void;
}

const MAX_NAMED = 5;

/** `n cases`, `1 case`. */
const cases = (n: number): string => `${n} case${n === 1 ? "" : "s"}`;

/** The methods named in a line: the first few, then how many more. */
const named = (methods: readonly string[]): string =>
  methods.slice(0, MAX_NAMED).join(", ") + (methods.length > MAX_NAMED ? ` and ${methods.length - MAX_NAMED} more` : "");

/** A completed run's verdict label and the few words a log line gives it. */
function judged(summary: RunSummary): { verdict: RunVerdict; detail: string } {
  const verdict = verdictOf(summary);
  const { counts } = summary;
  const total = counts.pass + counts.fail + counts.warn + counts.skip + counts.notRun;
  if (verdict === "CONFORMANT") return { verdict: "conformant", detail: `${cases(total)}, none failed` };
  if (verdict === "INCOMPLETE") return { verdict: "incomplete", detail: `${counts.notRun} of ${cases(total)} not run (the run's deadline)` };
  const failing = (summary.methods ?? []).filter((m) => outcomeOf(m) === "fail").map((m) => m.method);
  const where = failing.length > 0 ? `; failing: ${named(failing)}` : "";
  return { verdict: "not_conformant", detail: `${counts.fail} of ${cases(total)} failed${where}` };
}

/** Why a run could not start, as its verdict label. */
function notStarted(err: unknown): RunVerdict {
  const code = err instanceof PhotonError ? err.code : null;
  return code === ConfErrorCode.UNREACHABLE ? "unreachable" : code === ConfErrorCode.REFUSED ? "refused" : "error";
}

/** The slot in a slot method's answer (a non-negative integer result), else null. */
function slotOf(body: unknown): bigint | number | null {
  const result = typeof body === "object" && body !== null && "result" in body ? (body as { result: unknown }).result : undefined;
  if (typeof result === "bigint") return result >= 0n ? result : null;
  return typeof result === "number" && Number.isSafeInteger(result) && result >= 0 ? result : null;
}

export class Watcher {
  readonly metrics: WatchMetrics;
  private readonly confirmations: Confirmations;
  private readonly observe: ExchangeObserver;
  private lastVerdict: RunVerdict | null = null;

  constructor(private readonly plan: WatchPlan) {
    this.confirmations = new Confirmations(plan.confirm);
    let metrics: WatchMetrics | undefined;
    this.observe = (exchange, sent) => metrics?.exchange(exchange, sent);
    const method = slotMethod(plan.table)?.name;
    const target = plan.slotTarget(this.observe);
    const slots =
      method === undefined
        ? null
        : new SlotSampler(async (signal) => slotOf((await target.call(method, undefined, signal)).body), { timeoutMs: plan.timeoutMs });
    this.metrics = metrics = new WatchMetrics(plan.table, slots);
  }

  /** Runs on every `everyMs` until `stop` fires; resolves once the run in flight is abandoned. */
  async loop(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      const started = performance.now();
      await this.tick(stop);
      const wait = this.plan.everyMs - (performance.now() - started);
      if (wait > 0 && !stop.aborted) await sleep(wait, undefined, { signal: stop }).catch(() => undefined);
    }
  }

  /** One run; its outcome is recorded unless `stop` fired while it ran. */
  async tick(stop: AbortSignal): Promise<void> {
    const abandon = new AbortController();
    const onStop = () => abandon.abort(stop.reason);
    stop.addEventListener("abort", onStop, { once: true });
    const started = performance.now();
    try {
      const summary = await this.plan.run(this.observe, abandon.signal).catch((err: unknown) => err as Error);
      if (abandon.signal.aborted) return;
      const durationSeconds = (performance.now() - started) / 1000;
      const endedAtSeconds = Date.now() / 1000;
      if (summary instanceof Error) {
        this.metrics.completed({ verdict: notStarted(summary), durationSeconds, endedAtSeconds, standings: this.confirmations.all() });
        this.note(notStarted(summary), summary.message);
        return;
      }
      const outcomes = new Map<string, MethodOutcome>((summary.methods ?? []).map((m) => [m.method, outcomeOf(m)]));
      this.confirmations.record(outcomes);
      const { verdict, detail } = judged(summary);
      const inconclusive = summary.results.reduce((n, r) => n + r.findings.filter((f) => f.reason === FindingReason.MOVED).length, 0);
      this.metrics.completed({ verdict, counts: summary.counts, inconclusive, durationSeconds, endedAtSeconds, standings: this.confirmations.all() });
      await this.keep(summary, verdict === "not_conformant");
      this.note(verdict, inconclusive > 0 ? `${detail}; ${inconclusive} relation${inconclusive === 1 ? "" : "s"} inconclusive (the target moved)` : detail);
    } finally {
      stop.removeEventListener("abort", onStop);
    }
  }

  /** The certificates of the run; one that cannot be written is logged, and watching goes on. */
  private async keep(summary: RunSummary, failed: boolean): Promise<void> {
    await this.plan.certificates?.write(summary, this.plan.redact, failed).catch((err: Error) => this.plan.log(this.plan.redact(err.message)));
  }

  /** One line when the verdict changes (the first run's too). */
  private note(verdict: RunVerdict, detail: string): void {
    if (verdict === this.lastVerdict) return;
    const was = this.lastVerdict === null ? "" : `${this.lastVerdict} -> `;
    this.lastVerdict = verdict;
    this.plan.log(this.plan.redact(`${new Date().toISOString()} verdict ${was}${verdict}: ${detail}`));
  }
}
