/**
 * The timer and what each run leaves: one run at a time (a slow one delays the next), a stop
 * abandons the run in flight (it counts for nothing), one log line per verdict change, redacted,
 * and a certificate that cannot be written is logged while watching goes on.
 */
import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../runtime/index.js";
import { UnreachableError } from "../../../conformance/errors.js";
import { noCases, type MethodStatus, type RunSummary } from "../../../conformance/results.js";
import { defaultSpec } from "../../../conformance/spec-bundle.js";
import type { RawTarget } from "../../../conformance/target.js";
import type { CertificateDir } from "../../../conformance/watch/certificates.js";
import { Watcher, type WatchPlan } from "../../../conformance/watch/watcher.js";

/** A decided run whose methods stand as given (a failing method has one failed case). */
function summaryOf(methods: Record<string, MethodStatus>): RunSummary {
  const counts = noCases();
  const verdicts = Object.entries(methods).map(([method, status]) => {
    const c = { ...noCases(), ...(status === "not conformant" ? { fail: 1 } : { pass: 1 }) };
    counts.fail += c.fail;
    counts.pass += c.pass;
    return { method, status, counts: c, calls: 1, notFound: 0, optedOut: null, fails: false };
  });
  return { counts, passed: counts.fail === 0, methods: verdicts, results: [] } as unknown as RunSummary;
}

const noTarget = { display: "x", nextId: () => 1, send: async () => ({}), call: async () => ({}) } as unknown as RawTarget;

function plan(runs: ((signal: AbortSignal) => Promise<RunSummary>)[], over: Partial<WatchPlan> = {}) {
  const lines: string[] = [];
  let n = 0;
  const watcher = new Watcher({
    everyMs: 1,
    confirm: 2,
    table: defaultSpec.methods,
    timeoutMs: 100,
    certificates: null,
    redact: createRedactor(["SECRET"]),
    log: (line) => lines.push(line),
    slotTarget: () => noTarget,
    run: (_observe, signal) => runs[Math.min(n++, runs.length - 1)]!(signal),
    ...over,
  });
  return { watcher, lines, runs: () => n };
}

const value = async (w: Watcher, sample: string) =>
  (await w.metrics.registry.metrics())
    .split("\n")
    .find((l) => l.startsWith(`${sample} `))
    ?.split(" ")[1];

describe("Watcher", () => {
  it("logs one line per change of verdict, the failing methods named and secrets masked", async () => {
    const ok = async () => summaryOf({ getIndexerSlot: "conformant" });
    const bad = async () => summaryOf({ getIndexerSlot: "not conformant" });
    const down = async (): Promise<RunSummary> => {
      throw new UnreachableError("cannot reach http://h/?k=SECRET: connection refused");
    };
    const { watcher, lines } = plan([ok, ok, bad, bad, down, ok]);
    const stop = new AbortController();
    for (let i = 0; i < 6; i++) await watcher.tick(stop.signal);
    expect(lines.map((l) => l.replace(/^\S+ /, ""))).toEqual([
      "verdict conformant: 1 case, none failed",
      "verdict conformant -> not_conformant: 1 of 1 case failed; failing: getIndexerSlot",
      "verdict not_conformant -> unreachable: cannot reach http://h/?k=***: connection refused",
      "verdict unreachable -> conformant: 1 case, none failed",
    ]);
    expect(await value(watcher, 'photon_conformance_runs_total{verdict="not_conformant"}')).toBe("2");
    // Two failing runs confirmed it; the unreachable run decided nothing; the pass restored it.
    expect(await value(watcher, 'photon_conformance_method_conformant{method="getIndexerSlot"}')).toBe("1");
  });

  it("a method reads 0 only after --confirm failing runs", async () => {
    const bad = async () => summaryOf({ getIndexerSlot: "not conformant" });
    const { watcher } = plan([bad]);
    await watcher.tick(new AbortController().signal);
    expect(await value(watcher, 'photon_conformance_method_conformant{method="getIndexerSlot"}')).toBe("1");
    await watcher.tick(new AbortController().signal);
    expect(await value(watcher, 'photon_conformance_method_conformant{method="getIndexerSlot"}')).toBe("0");
  });

  it("a stop abandons the run in flight: it counts for nothing and the loop ends", async () => {
    const stop = new AbortController();
    const { watcher, lines } = plan([
      (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new Error("given up")));
          stop.abort();
        }),
    ]);
    await watcher.loop(stop.signal);
    expect(lines).toEqual([]);
    expect(await value(watcher, 'photon_conformance_runs_total{verdict="error"}')).toBeUndefined();
  });

  it("never runs twice at once: a run longer than the interval delays the next", async () => {
    let running = 0;
    let most = 0;
    const stop = new AbortController();
    const slow = async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 15));
      running--;
      if (counter.runs() >= 4) stop.abort();
      return summaryOf({ getIndexerSlot: "conformant" });
    };
    const counter = plan([slow], { everyMs: 5 });
    await counter.watcher.loop(stop.signal);
    expect(most).toBe(1);
    expect(counter.runs()).toBe(4);
  });

  it("a certificate that cannot be written is logged, and watching goes on", async () => {
    const certificates = { write: async () => Promise.reject(new Error("cannot write --report-dir /r/SECRET: no space left on the device")) };
    const { watcher, lines } = plan([async () => summaryOf({ getIndexerSlot: "conformant" })], {
      certificates: certificates as unknown as CertificateDir,
    });
    await watcher.tick(new AbortController().signal);
    await watcher.tick(new AbortController().signal);
    expect(lines.filter((l) => l.includes("no space left"))).toEqual([
      "cannot write --report-dir /r/***: no space left on the device",
      "cannot write --report-dir /r/***: no space left on the device",
    ]);
    expect(await value(watcher, 'photon_conformance_runs_total{verdict="conformant"}')).toBe("2");
  });
});
