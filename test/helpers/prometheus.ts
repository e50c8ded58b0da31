/**
 * A real Prometheus (Debian's package) for e2e tests: `startPrometheus` writes a config into a
 * fresh directory under .scratch/, runs /usr/bin/prometheus on a free 127.0.0.1 port scraping the
 * given targets, and answers instant queries through the HTTP API. Every instance is killed by its
 * `close()`; a test file calls it in `afterAll`, and an exiting worker kills any left running.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { freePort } from "./listener.js";
import { root, scratch } from "./paths.js";

export const PROMETHEUS = "/usr/bin/prometheus";
export const PROMTOOL = "/usr/bin/promtool";

/** Null when both programs are installed, else why the Prometheus tests are skipped. */
export function prometheusSkipReason(): string | null {
  const absent = [PROMETHEUS, PROMTOOL].filter((p) => !isExecutable(p));
  if (absent.length === 0) return null;
  return `Debian's prometheus package is absent (no ${absent.join(", ")}); CI installs it (.ci/run)`;
}

/** An existing regular file with an execute bit. */
function isExecutable(path: string): boolean {
  const st = statSync(path, { throwIfNoEntry: false });
  return st?.isFile() === true && (st.mode & 0o111) !== 0;
}

export interface Sample {
  metric: Record<string, string>;
  /** The sample's value; "NaN" and "±Inf" become NaN and ±Infinity. */
  value: number;
  /** Unix seconds the query was evaluated at. */
  at: number;
}

export interface Series {
  metric: Record<string, string>;
  /** Each scrape's sample: `at` is the scrape's Unix time, shared by every sample of one scrape. */
  points: { at: number; value: number }[];
}

export interface PrometheusOptions {
  /** `host:port` of each target, scraped at /metrics under job "photon-conformance". */
  targets: string[];
  /** Scrape interval; rules are evaluated at the same interval. */
  scrapeIntervalMs: number;
  /** Rule files (paths relative to the repository root, or absolute). */
  ruleFiles?: string[];
  /** How long to wait for /-/ready. Default 30 s. */
  readyTimeoutMs?: number;
}

export interface Prometheus {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** An instant query at now; a scalar result comes back as one sample without labels. */
  query(expr: string): Promise<Sample[]>;
  /** A range selector's samples at now (`name{…}[5m]`): each series with its scrapes, oldest first. */
  series(expr: string): Promise<Series[]>;
  /** Queries until `predicate` holds and returns that result; throws after `timeoutMs` with the last result. */
  waitFor(expr: string, predicate: (samples: Sample[]) => boolean, timeoutMs: number): Promise<Sample[]>;
  /** Kills the process (SIGTERM, SIGKILL after 5 s) and removes its directory. Idempotent. */
  close(): Promise<void>;
}

/** The job label of every scraped target. */
export const SCRAPE_JOB = "photon-conformance";

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Prometheus durations accept milliseconds: "500ms". */
const duration = (ms: number) => `${Math.max(1, Math.round(ms))}ms`;

function configYaml(options: PrometheusOptions): string {
  const interval = duration(options.scrapeIntervalMs);
  const rules = (options.ruleFiles ?? []).map((f) => `  - ${JSON.stringify(resolve(root, f))}\n`).join("");
  return [
    "global:",
    `  scrape_interval: ${interval}`,
    `  scrape_timeout: ${interval}`,
    `  evaluation_interval: ${interval}`,
    rules === "" ? "" : `rule_files:\n${rules}`,
    "scrape_configs:",
    `  - job_name: ${SCRAPE_JOB}`,
    "    static_configs:",
    `      - targets: ${JSON.stringify(options.targets)}`,
    "",
  ].join("\n");
}

/**
 * Starts Prometheus and resolves once /-/ready answers 200; on failure nothing is left behind.
 * The first scrape comes about 5 s later (Prometheus applies new targets every 5 s).
 */
export async function startPrometheus(options: PrometheusOptions): Promise<Prometheus> {
  mkdirSync(scratch, { recursive: true });
  const dir = mkdtempSync(join(scratch, "prometheus-"));
  const configFile = join(dir, "prometheus.yml");
  writeFileSync(configFile, configYaml(options));
  const agent = new Agent({ connections: 4 });
  // Another process may take the free port before Prometheus binds it: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(
      PROMETHEUS,
      [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=warn"],
      { cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
    );
    running.add(child);
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      running.delete(child);
    };
    try {
      await waitReady(url, agent, exited, options.readyTimeoutMs ?? 30_000, () => stderr);
    } catch (error) {
      await stop();
      lastError = error;
      if (/address already in use/.test(stderr)) continue;
      break;
    }
    let closed = false;
    const query = (expr: string) => instantQuery(url, agent, expr);
    return {
      url,
      query,
      series: (expr) => rangeQuery(url, agent, expr),
      waitFor: (expr, predicate, timeoutMs) => poll(query, expr, predicate, timeoutMs, options.scrapeIntervalMs),
      async close() {
        if (closed) return;
        closed = true;
        await stop();
        await agent.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

async function waitReady(url: string, agent: Agent, exited: Promise<void>, timeoutMs: number, stderr: () => string): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`prometheus exited before it was ready:\n${stderr()}`);
    try {
      const res = await request(`${url}/-/ready`, { dispatcher: agent, headersTimeout: 2_000, bodyTimeout: 2_000 });
      await res.body.dump();
      if (res.statusCode === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`prometheus was not ready at ${url} within ${timeoutMs} ms:\n${stderr()}`);
}

interface QueryAnswer {
  status: "success" | "error";
  error?: string;
  data?: { resultType: string; result: unknown };
}

/** The answer's data of an instant query of `expr` at now. */
async function queryData(url: string, agent: Agent, expr: string): Promise<NonNullable<QueryAnswer["data"]>> {
  const res = await request(`${url}/api/v1/query?${new URLSearchParams({ query: expr })}`, {
    dispatcher: agent,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const answer = (await res.body.json()) as QueryAnswer;
  if (answer.status !== "success" || answer.data === undefined) throw new Error(`query ${expr} failed (HTTP ${res.statusCode}): ${answer.error}`);
  return answer.data;
}

async function rangeQuery(url: string, agent: Agent, expr: string): Promise<Series[]> {
  const { resultType, result } = await queryData(url, agent, expr);
  if (resultType !== "matrix") throw new Error(`query ${expr} gave a ${resultType}, not a range vector`);
  return (result as { metric: Record<string, string>; values: [number, string][] }[]).map(({ metric, values }) => ({
    metric,
    points: values.map(([at, value]) => ({ at, value: Number(value) })),
  }));
}

async function instantQuery(url: string, agent: Agent, expr: string): Promise<Sample[]> {
  const { resultType, result } = await queryData(url, agent, expr);
  if (resultType === "scalar") {
    const [at, value] = result as [number, string];
    return [{ metric: {}, value: Number(value), at }];
  }
  if (resultType !== "vector") throw new Error(`query ${expr} gave a ${resultType}, not an instant vector`);
  return (result as { metric: Record<string, string>; value: [number, string] }[]).map(({ metric, value: [at, value] }) => ({
    metric,
    value: Number(value),
    at,
  }));
}

async function poll(
  query: (expr: string) => Promise<Sample[]>,
  expr: string,
  predicate: (samples: Sample[]) => boolean,
  timeoutMs: number,
  intervalMs: number,
): Promise<Sample[]> {
  const deadline = Date.now() + timeoutMs;
  let last: Sample[] | Error = [];
  for (;;) {
    try {
      last = await query(expr);
      if (predicate(last)) return last;
    } catch (error) {
      last = error as Error;
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.max(50, Math.min(intervalMs / 2, 1_000)));
  }
  const seen = last instanceof Error ? last.message : JSON.stringify(last);
  throw new Error(`waited ${timeoutMs} ms for ${expr} to satisfy the predicate; last result: ${seen}`);
}

export interface PromtoolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs promtool in the repository root, `input` on its stdin; resolves with its exit code and output (never rejects on a non-zero code). */
export function promtool(args: string[], timeoutMs = 60_000, input?: string): Promise<PromtoolResult> {
  return new Promise((done, fail) => {
    const stdin = input === undefined ? "ignore" : "pipe";
    const child = spawn(PROMTOOL, args, { cwd: root, stdio: [stdin, "pipe", "pipe"], timeout: timeoutMs, killSignal: "SIGKILL" });
    child.stdin?.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr?.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    child.once("error", fail);
    child.once("close", (code, signal) => done({ code: code ?? (signal === null ? -1 : 128), stdout, stderr }));
  });
}
