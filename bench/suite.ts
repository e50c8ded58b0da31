/**
 * The full conformance suite against the reference indexer (a child process on the other
 * core): `runSuite` with the CLI's defaults (what `photon-conformance run --url …` does after
 * parsing its flags: cases loaded and rendered, 4 in flight, every check), against the same
 * HTTP requests replayed raw with undici and no checks.
 *
 * The requests are captured once by running the suite through a small recording proxy with
 * concurrency 1, so that each case's requests (its own and those its checks make, such as
 * pagination walks) form one group; the replay sends groups 4 at a time, each group's
 * requests in order (a case's checks run one after another, so its walk's pages and its
 * cross-calls form one sequential chain, as in the suite), reads every answer to the end and
 * `JSON.parse`s it, as any client of the indexer must.
 *
 * Two rows: on loopback (the suite's own CPU against the replay's), and against the reference
 * started with `--latency 20` (a remote indexer: both wait 20 ms an answer, so the suite must be
 * bound by its critical path, the same chains as the replay's, not by its own CPU).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { request } from "undici";
import type { Fixtures } from "../conformance/case-format.js";
import { loadCases } from "../conformance/case-format.js";
import { deriveCases } from "../conformance/derive.js";
import { runSuite } from "../conformance/run.js";
import { defaultSpec } from "../conformance/spec-bundle.js";
import { parseJson } from "../runtime/index.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { startChild, type Server } from "./lib/proc.js";
import { type ReferenceInfo, startReference } from "./lib/reference.js";
import { pairedRatio, summary, inTurns } from "./lib/stats.js";
import { cliRunOptions, DEFAULT_CONCURRENCY, referenceFixtures } from "./lib/suite-options.js";

interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | null;
  readonly body: string;
}

const CONCURRENCY = DEFAULT_CONCURRENCY;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

/** A proxy that forwards to `target` and records every request it forwards. */
async function recordingProxy(target: string): Promise<{ url: string; taken: Recorded[]; close(): Promise<void> }> {
  const taken: Recorded[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const contentType = req.headers["content-type"] ?? null;
      const rec: Recorded = { method: req.method ?? "GET", path: req.url ?? "/", contentType, body };
      taken.push(rec);
      const answer = await request(new URL(rec.path, target), {
        method: rec.method as "POST",
        headers: contentType === null ? {} : { "content-type": contentType },
        body: rec.body,
      });
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.headers))
        if (typeof v === "string" && k !== "connection" && k !== "keep-alive" && k !== "transfer-encoding") headers[k] = v;
      headers["content-length"] = String(bytes.length);
      res.writeHead(answer.statusCode, headers);
      res.end(bytes);
    })().catch((err: unknown) => {
      res.destroy(err as Error);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    taken,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The replay; `parse` reads each body (JSON.parse by default; the runtime's lossless parser for the floor). Returns how many bodies it sent and how many it could not parse. */
async function replay(
  url: string,
  groups: readonly (readonly Recorded[])[],
  parse: (text: string) => unknown = JSON.parse,
): Promise<{ sent: number; unparsed: number }> {
  let next = 0;
  let sent = 0;
  let unparsed = 0;
  const worker = async () => {
    while (next < groups.length) {
      const group = groups[next++]!;
      for (const r of group) {
        const res = await request(new URL(r.path, url), {
          method: r.method as "POST",
          headers: r.contentType === null ? {} : { "content-type": r.contentType },
          body: r.body,
        });
        const text = await res.body.text();
        if (text.length > 0) {
          try {
            parse(text);
          } catch {
            unparsed++; // a case may send a body the server answers with something that is not JSON; counted, and both parsers must agree
          }
        }
        sent++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { sent, unparsed };
}

/** The reference indexer with every answer delayed by `latencyMs` (a remote indexer). */
function startSlowReference(latencyMs: number): Promise<Server<ReferenceInfo>> {
  return startChild<ReferenceInfo>(
    "bench/children/reference.ts",
    ["--accounts", "20000", "--seed", "1", "--await-warm", "--latency", String(latencyMs)],
    300_000,
  );
}

interface Measured {
  readonly first: Awaited<ReturnType<typeof runSuite>>;
  readonly requests: number;
  readonly groups: number;
  readonly ours: number[];
  readonly raw: number[];
  /** The replay reading every body with the runtime's lossless parser (integers above 2^53 kept), ms. */
  readonly lossless: number[];
  /** Loading the case files and deriving the spec's cases, as each run does before its first request, ms. */
  readonly loading: number[];
  /** The suite's event loop idle during its run (waiting on the target with every chain in flight), ms. */
  readonly idle: number[];
  /** CPU used during each suite run by this process (every thread) and by the reference's (null where it cannot be read), ms. */
  readonly cpu: { readonly ours: number[]; readonly raw: number[]; readonly reference: { ours: number[]; raw: number[] } | null };
}

/** CPU time a process has used (user + system, every thread), ms: this one's, or a child's from /proc (Linux; null elsewhere). */
function cpuMs(pid?: number): number | null {
  if (pid === undefined) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name (which may hold ") "): utime and stime, in clock ticks (100 a second).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Rounds of the loopback row: each ~0.8 s. */
const LOOPBACK_ROUNDS = 21;

async function measure(url: string, fixtures: Fixtures, rounds: number, referencePid?: number): Promise<Measured> {
  const base = cliRunOptions(url, fixtures);

  // Capture: one run through the recording proxy, one case at a time.
  const proxy = await recordingProxy(url);
  const groups: Recorded[][] = [];
  try {
    await runSuite({ ...base, url: proxy.url, concurrency: 1, onResult: () => void groups.push(proxy.taken.splice(0)) });
    if (proxy.taken.length > 0) groups.push(proxy.taken.splice(0));
  } finally {
    await proxy.close();
  }
  const requests = groups.reduce((n, g) => n + g.length, 0);

  const first = await runSuite(base); // warm-up
  const warm = await replay(url, groups); // warm-up
  const ours: number[] = [];
  const raw: number[] = [];
  const lossless: number[] = [];
  const loading: number[] = [];
  const idle: number[] = [];
  const cpu = { ours: [] as number[], raw: [] as number[] };
  const referenceCpu = { ours: [] as number[], raw: [] as number[] };
  let referenceReadable = referencePid !== undefined && cpuMs(referencePid) !== null;
  for (let r = 0; r < rounds; r++) {
    const l0 = performance.now();
    void (deriveCases(fixtures, defaultSpec.methods).length + (await loadCases(base.casesDir, fixtures)).length);
    loading.push(performance.now() - l0);
    for (const name of inTurns(r, ["ours", "raw", "lossless"] as const)) {
      const t0 = performance.now();
      const c0 = cpuMs()!;
      const rc0 = referenceReadable ? cpuMs(referencePid) : null;
      if (name === "ours") {
        const loop = performance.eventLoopUtilization();
        await runSuite(base);
        idle.push(performance.eventLoopUtilization(loop).idle);
      } else {
        const replayed = await replay(url, groups, name === "raw" ? JSON.parse : (text) => parseJson(text));
        // The two parsers read the same bodies: one refusing what the other reads would measure different work.
        if (replayed.unparsed !== warm.unparsed) throw new Error(`the ${name} replay could not parse ${replayed.unparsed} bodies, JSON.parse ${warm.unparsed}`);
      }
      (name === "ours" ? ours : name === "raw" ? raw : lossless).push(performance.now() - t0);
      if (name !== "lossless") {
        cpu[name].push(cpuMs()! - c0);
        const rc1 = referenceReadable ? cpuMs(referencePid) : null;
        if (rc0 === null || rc1 === null) referenceReadable = false;
        else referenceCpu[name].push(rc1 - rc0);
      }
    }
  }
  return {
    first,
    requests,
    groups: groups.filter((g) => g.length > 0).length,
    ours,
    raw,
    lossless,
    loading,
    idle,
    cpu: { ...cpu, reference: referenceReadable ? referenceCpu : null },
  };
}

/** What bounds the row: the suite's process busy for nearly all of its run, the reference's core mostly idle. */
function cpuNote(m: Measured): string {
  const ms = (xs: number[]) => summary(xs, 0).value;
  const reference = m.cpu.reference;
  return (
    "bounded by the suite's own CPU on one thread (the replay's is undici + JSON.parse): loading the cases, lossless parsing, validating, folding Merkle proofs (Poseidon), walking and comparing pages; " +
    `its process used ${ms(m.cpu.ours)} ms of CPU a run (every thread: the run, its GC and I/O) in a run of ${ms(m.ours)} ms, the replay's ${ms(m.cpu.raw)} ms in ${ms(m.raw)} ms` +
    (reference
      ? `; the reference's process used ${ms(reference.ours)} ms of CPU a run during the suite (${ms(reference.raw)} ms during the replay): ` +
        "the second core sits mostly idle, yet half the cases in a worker thread finish no sooner on two cores (bench/tools/suite-sharded.ts)"
      : "")
  );
}

function verdictOf(m: Measured): string {
  return `${m.first.results.length} results, ${m.requests} requests in ${m.groups} chains, ${m.first.passed ? "all passed" : `${m.first.counts.fail} FAILED`}`;
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const fixtures = await referenceFixtures();
  const results: FigureResult[] = [];
  const only = process.env.SUITE_ROWS?.split(",") ?? ["loopback", "latency"];

  if (only.includes("loopback")) {
    const reference = await startReference();
    try {
      // A round's ratio moves ±0.2 (1.96-2.39 over five rounds of one run): 21 rounds (~20 s) steady the median.
      const m = await measure(reference.info.url, fixtures, options.quick ? 1 : LOOPBACK_ROUNDS, reference.pid);
      results.push(
        figure({
          id: "suite",
          what: `full conformance suite against the reference indexer on loopback (${verdictOf(m)})`,
          ours: { label: "runSuite, CLI defaults (4 in flight)", unit: "ms", ...summary(m.ours, 1) },
          baseline: {
            label: "same requests replayed raw with undici, 4 chains in flight, each chain in order, JSON.parse of every body",
            unit: "ms",
            ...summary(m.raw, 1),
          },
          ratio: pairedRatio(m.ours, m.raw),
          ratioOf: "ours ÷ baseline time",
          aim: { op: "<=", value: 2, text: "≤ 2× the raw replay" },
          notes: [
            cpuNote(m),
            `of which waiting: the suite's event loop sat idle ${summary(m.idle, 0).value} ms a run (runs: ${m.idle.map((x) => Math.round(x)).join(", ")}), every chain in flight waiting on the reference (one thread, serving the pages in turn)`,
            `of which loading the case files (YAML) and deriving the spec's cases, before the first request: ${summary(m.loading, 0).value} ms a run (runs: ${m.loading.map((x) => Math.round(x)).join(", ")})`,
            `for scale, not a floor: the same replay reading every body with the runtime's lossless parser (as any client must that keeps u64 exact) takes ${summary(m.lossless, 0).value} ms (${pairedRatio(m.lossless, m.raw).toFixed(2)}× the replay; runs: ${m.lossless.map((x) => Math.round(x)).join(", ")}); the rest is judging: validation, checks, page walks and comparisons, proof folds`,
          ],
        }),
      );
    } finally {
      await reference.stop();
    }
  }

  if (only.includes("latency")) {
    const latencyMs = 20;
    const reference = await startSlowReference(latencyMs);
    try {
      const m = await measure(reference.info.url, fixtures, options.quick ? 1 : 3);
      results.push(
        figure({
          id: "suite.latency",
          what: `full conformance suite against the reference started with --latency ${latencyMs} (a remote indexer; ${verdictOf(m)})`,
          ours: { label: "runSuite, CLI defaults (4 in flight)", unit: "ms", ...summary(m.ours, 1) },
          baseline: { label: "same requests replayed raw, same chains, 4 in flight, JSON.parse of every body", unit: "ms", ...summary(m.raw, 1) },
          ratio: pairedRatio(m.ours, m.raw),
          ratioOf: "ours ÷ baseline time",
          aim: { op: "<=", value: 1.2, text: "≤ 1.2× the raw replay" },
          notes: [
            `bounded by the critical path: ${m.requests} answers × ${latencyMs} ms over ${CONCURRENCY} workers ≈ ${Math.round((m.requests * latencyMs) / CONCURRENCY)} ms if the chains packed perfectly; the longest chains (walks) set the tail`,
          ],
        }),
      );
    } finally {
      await reference.stop();
    }
  }
  return { results };
}

await main(import.meta.url, "suite", run);
