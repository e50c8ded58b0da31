/**
 * `photon-conformance watch` over time, as an operator runs it: the compiled CLI
 * (bin/photon-conformance.js) in its own process, watching the reference indexer served by
 * another (`serve --port 0`), so neither one's memory or CPU is counted as the other's.
 * - `watch.rss`: resident memory after 200 back-to-back runs (`--every 10ms`) ÷ after 10, read
 *   from watch's own /metrics (`process_resident_memory_bytes`), no GC forced: what Prometheus sees.
 * - `watch.idle-cpu`: CPU between runs (`--every 1h`: one run at start, then idle), from the
 *   threads' clocks in /proc (no scrape disturbs the window), against a minimal prom-client
 *   exporter (`collectDefaultMetrics` on node:http, idle) over the same windows: with prom-client's
 *   defaults its event-loop monitor wakes it 100 times a second (watch's, 10). A bare idle `node` is noted.
 * - `watch.idle-requests`: requests reaching the indexer in those windows (through a counting proxy).
 * - `watch.scrape`: GET /metrics latency, spaced past the slot's 1 s cache so each scrape reads the
 *   slot from the indexer as a real scrape does, against the same GET of the minimal exporter.
 *   The issue sets no aim for it: reported, not judged.
 */
import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import { figure, fmtNumber, main, ROOT, type BenchOptions, type FigureResult, type Table } from "./lib/figure.js";
import { cpuMeter } from "./lib/cpu.js";
import { startPlain, type PlainChild } from "./lib/proc.js";
import { inTurns, median, pairedRatio, round, summary } from "./lib/stats.js";

const BIN = `${ROOT}/bin/photon-conformance.js`;
/** Two methods' cases: a real run of ~0.1 s against the reference, lists and pages included. */
const SELECTION = ["--method", "getIndexerSlot", "--method", "getCompressedAccountsByOwner"];
const METRICS_LINE = /^metrics on (\S+)$/m;
/** The smallest Node exporter of prom-client's default metrics: the floor watch's idle CPU and scrape are set against. */
const EXPORTER = `import { collectDefaultMetrics, register } from "prom-client";
import { createServer } from "node:http";
collectDefaultMetrics();
const server = createServer((req, res) => void register.metrics().then((t) => res.writeHead(200, { "content-type": register.contentType }).end(t)));
server.listen(0, "127.0.0.1", () => console.log("metrics on http://127.0.0.1:" + server.address().port + "/metrics"));
process.once("SIGTERM", () => { server.close(); server.closeAllConnections(); });`;
const MB = 2 ** 20;
const SLOT_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getIndexerSlot", params: null });
/** Scrapes a checkpoint's footprint is the median of. */
const READS = 5;

/** The value of the sample `name` (labels as the exposition writes them). */
function sampleOf(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no ${name} in the exposition`);
  return Number(line.slice(name.length + 1));
}

/** A counter's total over its labels. */
const totalOf = (text: string, name: string): number =>
  text
    .split("\n")
    .filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);

const runsOf = (text: string) => totalOf(text, "photon_conformance_runs_total");

async function get(url: string): Promise<string> {
  const res = await request(url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${url}: HTTP ${res.statusCode}`);
  return text;
}

/** The time `fn` takes, ms. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Scrapes until `done` holds of the exposition (every `everyMs`). */
async function waitFor(url: string, done: (text: string) => boolean, timeoutMs: number, everyMs = 50): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = await get(url);
    if (done(text)) return text;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms at ${url}; runs so far: ${runsOf(text)}`);
    await sleep(everyMs);
  }
}

async function startWatch(url: string, every: string): Promise<{ child: PlainChild; metrics: string }> {
  const child = await startPlain([BIN, "watch", "--url", url, ...SELECTION, "--every", every, "--metrics-port", "0"], METRICS_LINE);
  return { child, metrics: child.ready[1] as string };
}

/** Stops a watch and checks it ended as documented (SIGTERM: exit 0). */
async function stopWatch(child: PlainChild): Promise<void> {
  const code = await child.stop();
  if (code !== 0) throw new Error(`watch exited ${code} on SIGTERM (documented: 0)`);
}

/** A loopback proxy to `target` that counts the requests passing through it. */
async function countingProxy(target: string): Promise<{ url: string; count(): number; close(): void }> {
  let count = 0;
  const server = createServer((req, res) => {
    count += 1;
    const out = forward(new URL(req.url ?? "/", target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, count: () => count, close: () => (server.close(), server.closeAllConnections()) };
}

interface Footprint {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly fds: number;
}

/** Back-to-back runs; at each checkpoint, the footprint's medians over `READS` scrapes 100 ms apart (RSS moves with each GC). */
async function rssOverRuns(indexer: string, checkpoints: readonly number[]): Promise<{ at: Footprint[]; runMs: number; cases: number }> {
  const w = await startWatch(indexer, "10ms");
  try {
    const at: Footprint[] = [];
    let last = "";
    for (const n of checkpoints) {
      const reads = [await waitFor(w.metrics, (t) => runsOf(t) >= n, 300_000)];
      while (reads.length < READS) reads.push(await sleep(100).then(() => get(w.metrics)));
      const of = (name: string) => median(reads.map((t) => sampleOf(t, name)));
      at.push({
        rss: of("process_resident_memory_bytes"),
        heapTotal: of("nodejs_heap_size_total_bytes"),
        heapUsed: of("nodejs_heap_size_used_bytes"),
        fds: of("process_open_fds"),
      });
      last = reads[reads.length - 1] as string;
    }
    const conformant = sampleOf(last, 'photon_conformance_runs_total{verdict="conformant"}');
    if (conformant !== runsOf(last)) throw new Error(`${runsOf(last) - conformant} of ${runsOf(last)} runs were not conformant`);
    return { at, runMs: sampleOf(last, "photon_conformance_run_duration_seconds") * 1000, cases: totalOf(last, "photon_conformance_cases") };
  } finally {
    await stopWatch(w.child);
  }
}

type Side = "watch" | "exporter" | "bare";

interface Idle {
  /** CPU ms per second of each process, one value per window. */
  readonly cpu: Record<Side, number[]>;
  /** Wakeups per second of each one's main thread, over all windows. */
  readonly wakeups: Record<Side, number>;
  readonly precise: boolean;
  readonly requests: number;
  readonly scrape: { watch: number[]; exporter: number[]; slot: number[] };
}

/** CPU of the idle watch, the minimal exporter and a bare node over the same windows; then scrapes of both, in turns. */
async function idle(indexer: string, windows: number, windowMs: number, settleMs: number, scrapes: number): Promise<Idle> {
  const proxy = await countingProxy(indexer);
  const children: PlainChild[] = [];
  try {
    const exporter = await startPlain(["--input-type=module", "-e", EXPORTER], METRICS_LINE);
    const bare = await startPlain(["-e", 'console.log("ready"); setInterval(() => {}, 1 << 30)'], /^ready$/m);
    const w = await startWatch(proxy.url, "1h"); // last: the others have settled by the end of its first run
    children.push(w.child, exporter, bare);
    const pids: Record<Side, number> = { watch: w.child.pid, exporter: exporter.pid, bare: bare.pid };
    await waitFor(w.metrics, (t) => runsOf(t) >= 1, 120_000);
    await sleep(settleMs); // the run's tail (V8's background work, the scrape's slot read) ends; an operator's watch idles minutes
    const sent = proxy.count();
    const cpu: Record<Side, number[]> = { watch: [], exporter: [], bare: [] };
    const wakeups: Record<Side, number> = { watch: 0, exporter: 0, bare: 0 };
    let precise = true;
    for (let i = 0; i < windows; i++) {
      const sides = Object.keys(pids) as Side[];
      const meters = sides.map((side) => cpuMeter(pids[side]));
      await sleep(windowMs);
      sides.forEach((side, k) => {
        const used = (meters[k] as ReturnType<typeof cpuMeter>).since();
        cpu[side].push((used.ms * 1000) / windowMs);
        wakeups[side] += (used.wakeups * 1000) / windowMs / windows;
        precise &&= used.precise;
      });
    }
    const requests = proxy.count() - sent;
    const scrape = { watch: [] as number[], exporter: [] as number[], slot: [] as number[] };
    const exporterUrl = exporter.ready[1] as string;
    await Promise.all([get(w.metrics), get(exporterUrl)]); // connections opened
    for (let i = 0; i < scrapes; i++) {
      await sleep(1100); // past the slot's 1 s cache: this scrape reads the slot, as one every 15 s does
      for (const side of inTurns(i, ["watch", "exporter", "slot"] as const))
        scrape[side].push(await timed(() => (side === "slot" ? slotRead(indexer) : get(side === "watch" ? w.metrics : exporterUrl))));
    }
    await stopWatch(w.child);
    return { cpu, wakeups, precise, requests, scrape };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    proxy.close();
  }
}

/** One getIndexerSlot straight to the indexer: the request each scrape of watch makes. */
const slotRead = (indexer: string) =>
  request(indexer, { method: "POST", headers: { "content-type": "application/json" }, body: SLOT_BODY }).then((res) => res.body.text());

async function run(options: BenchOptions): Promise<{ results: FigureResult[]; tables: Table[] }> {
  const checkpoints = options.quick ? [10, 30, 60] : [10, 50, 100, 150, 200];
  const rssRounds = options.quick ? 1 : 3;
  const windows = options.quick ? 1 : 3;
  const windowMs = options.quick ? 3000 : 5000;
  const settleMs = options.quick ? 4000 : 5000;
  const scrapes = options.quick ? 3 : 9;
  const served = await startPlain([BIN, "serve", "--port", "0"], /^listening on (\S+)$/m, 120_000); // the reference indexer
  const indexer = served.ready[1] as string;
  try {
    const rounds: Footprint[][] = [];
    let runMs = 0;
    let cases = 0;
    for (let r = 0; r < rssRounds; r++) {
      const one = await rssOverRuns(indexer, checkpoints);
      rounds.push(one.at);
      ({ runMs, cases } = one);
    }
    const rssAt = (k: number) => rounds.map((at) => (at[k] as Footprint).rss);
    const [half, n1] = [checkpoints.length >> 1, checkpoints.length - 1]; // indices of the middle and last checkpoints
    const [n0, mid, end] = [checkpoints[0], checkpoints[half], checkpoints[n1]] as [number, number, number];
    const medianOf = (k: number, key: keyof Footprint) => median(rounds.map((at) => (at[k] as Footprint)[key]));
    const still = await idle(indexer, windows, windowMs, settleMs, scrapes);
    const mb = (bytes: number) => round(bytes / MB, 1);
    const cpuNote = still.precise ? "threads' se.sum_exec_runtime, µs" : "utime+stime ticks of 10 ms (a thread ended in the window)";
    const s = windowMs / 1000;
    return {
      results: [
        figure({
          id: "watch.rss",
          what: `watch's resident memory after ${end} back-to-back runs ÷ after ${n0} (--every 10ms, ${cases} cases a run; its own /metrics, no GC forced; ${rssRounds === 1 ? "one process" : `median of ${rssRounds} processes`})`,
          ours: { label: `RSS after ${end} runs`, unit: "MB", ...summary(rssAt(n1).map(mb), 1) },
          baseline: { label: `RSS after ${n0} runs`, unit: "MB", ...summary(rssAt(0).map(mb), 1) },
          ratio: round(pairedRatio(rssAt(n1), rssAt(0))),
          ratioOf: `RSS@${end} ÷ RSS@${n0}, median over the processes`,
          aim: { op: "<=", value: 1.2, text: "≤ 1.2× (after 200 runs ÷ after 10)" },
          notes: [
            `after ${end} runs ÷ after ${mid}: ${pairedRatio(rssAt(n1), rssAt(half)).toFixed(2)}× (V8 sizes its heap to the allocation rate over the first few dozen runs, and RSS follows its heap total, table below; a leak keeps growing after)`,
            "back to back, no run leaves V8 idle time to shrink its heap (its memory reducer does when allocation stops): the worst case of `--every`",
            `a run took ${fmtNumber(runMs)} ms (the last); each reading is the median of ${READS} scrapes 100 ms apart`,
          ],
        }),
        figure({
          id: "watch.idle-cpu",
          what: `watch's CPU between runs (--every 1h, ${settleMs / 1000} s after its first run; ${windows} × ${s} s, read from /proc)`,
          ours: { label: "idle watch", unit: "ms CPU/s", ...summary(still.cpu.watch) },
          baseline: { label: "a minimal prom-client exporter (default metrics, node:http), idle", unit: "ms CPU/s", ...summary(still.cpu.exporter) },
          ratio: round(pairedRatio(still.cpu.watch, still.cpu.exporter)),
          ratioOf: "ours ÷ baseline (CPU ms per second, same windows)",
          aim: { op: "<=", value: 2, text: "≤ 2× an idle prom-client exporter" },
          notes: [
            `a bare idle \`node\` (one 2^30 ms timer) over the same windows: ${median(still.cpu.bare).toFixed(3)} ms CPU/s; the idle watch uses ${(median(still.cpu.watch) / 10).toFixed(2)}% of a core`,
            `main-thread wakeups per second: watch ${fmtNumber(still.wakeups.watch)}, exporter ${fmtNumber(still.wakeups.exporter)}, bare node ${fmtNumber(still.wakeups.bare)} (the exporter's event-loop delay monitor samples every 10 ms, prom-client's default; watch's every 100 ms)`,
            `CPU read from ${cpuNote}, of all three processes over the same windows`,
          ],
        }),
        figure({
          id: "watch.idle-requests",
          what: `requests reaching the indexer while watch idles (the same ${windows} × ${s} s, not scraped; through a counting proxy)`,
          ours: { label: "requests in the idle window", unit: "requests", value: still.requests },
          baseline: null,
          ratio: null,
          ratioOf: "the count itself",
          aim: { op: "<", value: 1, text: "none" },
        }),
        figure({
          id: "watch.scrape",
          what: `GET /metrics of watch, each past the slot's 1 s cache so it reads the slot from the indexer (median of ${scrapes})`,
          ours: { label: "watch's /metrics (slot read included)", unit: "ms", ...summary(still.scrape.watch, 2) },
          baseline: { label: "the minimal exporter's /metrics", unit: "ms", ...summary(still.scrape.exporter, 2) },
          ratio: round(median(still.scrape.watch) / median(still.scrape.exporter), 2),
          ratioOf: "ours ÷ baseline (median ms)",
          aim: null,
          notes: [`the slot read alone (getIndexerSlot POSTed to the indexer from the bench): ${fmtNumber(median(still.scrape.slot))} ms median`],
        }),
      ],
      tables: [
        {
          title: "watch's footprint over back-to-back runs (its own /metrics)",
          columns: ["runs", "RSS MB (each process)", "V8 heap MB, total / used (medians)", "open fds (median)"],
          rows: checkpoints.map((n, k) => [
            String(n),
            rssAt(k)
              .map((b) => mb(b).toFixed(0))
              .join(" / "),
            `${mb(medianOf(k, "heapTotal")).toFixed(0)} / ${mb(medianOf(k, "heapUsed")).toFixed(0)}`,
            String(medianOf(k, "fds")),
          ]),
        },
      ],
    };
  } finally {
    await served.stop();
  }
}

export { run };
await main(import.meta.url, "watch", run);
