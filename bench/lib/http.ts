/** Loopback HTTP helpers: one raw exchange, a closed-loop client driver, and autocannon runs. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { request } from "undici";

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** POSTs a JSON body once with undici and returns the reply as sent. */
export async function post(url: string, body: string): Promise<Reply> {
  const res = await request(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers[k] = v;
  return { status: res.statusCode, headers, body: await res.body.text() };
}

/** A scratch folder under the OS temp dir, removed by `cleanup()`. */
export function scratch(): { dir: string; file(name: string, content: string): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "photon-bench-"));
  return {
    dir,
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface LoopResult {
  readonly calls: number;
  readonly ms: number;
  readonly perSecond: number;
  /** CPU time of this process (user + system) per call, µs. */
  readonly cpuUsPerCall: number;
}

/** Runs `fn` back to back from `concurrency` workers for `durationMs`, counting completed calls. */
export async function closedLoop(fn: () => Promise<unknown>, concurrency: number, durationMs: number): Promise<LoopResult> {
  let calls = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      await fn();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { calls, ms, perSecond: (calls * 1000) / ms, cpuUsPerCall: (cpu.user + cpu.system) / calls };
}

export interface CannonResult {
  readonly rps: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly requests: number;
  readonly errors: number;
  readonly non2xx: number;
}

/** One autocannon run (POST, JSON body) against a loopback URL. */
export async function cannon(url: string, body: string, seconds: number, connections: number): Promise<CannonResult> {
  const r = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
  });
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) {
    throw new Error(`autocannon against ${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`);
  }
  return {
    rps: r.requests.total / r.duration,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}
