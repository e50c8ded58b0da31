/**
 * `photon-conformance watch` in a child process, from source, as an operator's shell runs it:
 * `startWatch` resolves once it prints `metrics on URL`; `scrape` reads that URL; `stop` signals
 * it and resolves with its exit code. Every child left running is killed when the worker exits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import { cliArgs, cleanEnv } from "../../helpers/cli.js";
import { root } from "../../helpers/paths.js";

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface WatchChild {
  readonly pid: number;
  /** `http://127.0.0.1:PORT/metrics` as printed. */
  readonly metricsUrl: string;
  stdout(): string;
  stderr(): string;
  /** GET /metrics: the exposition text. */
  scrape(): Promise<string>;
  /** Scrapes until `predicate` holds of the exposition and returns it; throws after `timeoutMs` with the last one. */
  waitFor(predicate: (text: string) => boolean, timeoutMs: number): Promise<string>;
  /** Sends `signal` (SIGTERM) and resolves with the exit code once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `watch ARGS` (`--metrics-port 0` added unless given); rejects with its output when it exits before serving. */
export async function startWatch(args: readonly string[], timeoutMs = 60_000): Promise<WatchChild> {
  const all = args.includes("--metrics-port") ? args : [...args, "--metrics-port", "0"];
  const child = spawn(process.execPath, cliArgs(["watch", ...all]), { cwd: root, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const exited = new Promise<number | null>((done) =>
    child.once("exit", (code) => {
      running.delete(child);
      done(code);
    }),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  let metricsUrl: string | undefined;
  while (metricsUrl === undefined) {
    metricsUrl = /^metrics on (\S+)$/m.exec(stdout)?.[1];
    if (metricsUrl !== undefined) break;
    if (gone || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`watch ${all.join(" ")} did not serve its metrics:\n${stdout}${stderr}`);
    }
    await sleep(50);
  }
  const url = metricsUrl;
  const scrape = async () => {
    const res = await request(url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET ${url}: HTTP ${res.statusCode}`);
    return text;
  };
  return {
    pid: child.pid as number,
    metricsUrl: url,
    stdout: () => stdout,
    stderr: () => stderr,
    scrape,
    async waitFor(predicate, ms) {
      const until = Date.now() + ms;
      let last = "";
      for (;;) {
        last = await scrape();
        if (predicate(last)) return last;
        if (Date.now() > until) throw new Error(`waited ${ms} ms for the metrics; last:\n${last}\n${stdout}${stderr}`);
        await sleep(100);
      }
    },
    async stop(signal = "SIGTERM") {
      if (!gone) child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The value of the sample `name` (with its labels, as the exposition writes them), or undefined. */
export function sampleOf(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** The sum of every sample of the metric `name` (any labels): a counter's total over its labels. */
export function totalOf(text: string, name: string): number {
  return text
    .split("\n")
    .filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}
