/**
 * Driving photon-conformance in-process against the hostile servers: stdout and stderr
 * captured, a JSON report read back, wall time measured; and a peak-RSS sampler.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { main } from "../../conformance/cli/main.js";
import { parseJson } from "../../runtime/index.js";

/** --timeout where the behaviour under test is the timeout. */
export const TIMEOUT_MS = 1000;
/** --timeout everywhere else: far above what a loaded machine takes, so only the behaviour fails a case. */
export const PATIENT_MS = 60_000;
export const CONCURRENCY = 4;
/** Cases of single JSON-RPC calls, none paginated: one request each. */
export const CASES = ["slot/indexer-slot", "account/by-address", "multiple/by-hashes-with-unknown"];

export interface ReportedCheck {
  check: string;
  status: string;
  message: string;
  expected?: string;
  actual?: string;
}

export interface ReportedCase {
  id: string;
  status: string;
  /** Why the run did not run the case (status `notRun`). */
  notRun?: string;
  checks: ReportedCheck[];
}

export interface Report {
  passed: boolean;
  cases: ReportedCase[];
}

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Output capture that tells concurrent runs apart: each run's writes land in its own buffers
 * (found through AsyncLocalStorage); writes from anything else go through untouched.
 */
const captured = new AsyncLocalStorage<{ stdout: string; stderr: string }>();
let capturing = 0;
let restore: (() => void) | null = null;

function capture(): void {
  if (capturing++ > 0) return;
  const out = process.stdout.write;
  const err = process.stderr.write;
  const route = (stream: "stdout" | "stderr", original: typeof out) =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const store = captured.getStore();
      if (!store) return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      store[stream] += String(chunk);
      return true;
    };
  process.stdout.write = route("stdout", out) as typeof out;
  process.stderr.write = route("stderr", err) as typeof err;
  restore = () => {
    process.stdout.write = out;
    process.stderr.write = err;
  };
}

function release(): void {
  if (--capturing === 0) restore?.();
}

/** Runs `photon-conformance …args` in-process, capturing what it writes (safe in concurrent tests). */
export async function cli(args: string[]): Promise<CliOutcome> {
  const store = { stdout: "", stderr: "" };
  capture();
  const started = performance.now();
  try {
    const code = await captured.run(store, () => main(args));
    return { code, ...store, ms: performance.now() - started };
  } finally {
    release();
  }
}

export interface RunChoice {
  /** Default CASES. */
  readonly cases?: readonly string[];
  /** More arguments, after the others. */
  readonly extra?: readonly string[];
  /** Default PATIENT_MS. */
  readonly timeoutMs?: number;
}

/** `run --url URL --timeout MS --case …` with a console report on stdout and a JSON report in `json`. */
export async function runAgainst(
  url: string,
  json: string,
  { cases = CASES, extra = [], timeoutMs = PATIENT_MS }: RunChoice = {},
): Promise<CliOutcome & { report: Report | null }> {
  const args = [
    "run",
    "--url",
    url,
    "--timeout",
    String(timeoutMs),
    "--concurrency",
    String(CONCURRENCY),
    ...cases.flatMap((c) => ["--case", c]),
    "--reporter",
    "console",
    "--reporter",
    "json",
    "--output",
    json,
    ...extra,
  ];
  const out = await cli(args);
  let report: Report | null = null;
  try {
    report = parseJson(readFileSync(json, "utf8")) as Report;
  } catch {
    report = null;
  }
  return { ...out, report };
}

/** Every failing check of a case as one line: check, message, expected, actual. */
export function failures(c: ReportedCase): string[] {
  return c.checks.filter((f) => f.status === "fail").map((f) => [f.check, f.message, f.expected ?? "", f.actual ?? ""].join(" | "));
}

/** Samples the process RSS every few milliseconds; `stop()` returns the peak growth in bytes. */
export function rssSampler(everyMs = 5): { stop(): number } {
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return peak - base;
    },
  };
}
