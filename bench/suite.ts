/**
 * The full conformance suite against the reference indexer (a child process on the other
 * core): `runSuite` with the CLI's defaults (what `photon-conformance run --url …` does after
 * parsing its flags: cases loaded and rendered, 4 in flight, every check), against the same
 * HTTP requests replayed raw with undici and no checks.
 *
 * The requests are captured once by running the suite through a small recording proxy with
 * concurrency 1, so that each case's requests (its own and those its checks make, such as
 * pagination walks) form one group; the replay sends groups 4 at a time, each group's
 * requests in order, as the suite's workers do, and reads every answer to the end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { request } from "undici";
import type { Fixtures } from "../conformance/case-format.js";
import { runSuite, type RunOptions } from "../conformance/run.js";
import { parseJson } from "../runtime/index.js";
import { figure, main, ROOT, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { startReference } from "./lib/reference.js";
import { pairedRatio, summary } from "./lib/stats.js";

interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | null;
  readonly body: string;
}

const CONCURRENCY = 4;

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

async function replay(url: string, groups: readonly (readonly Recorded[])[]): Promise<number> {
  let next = 0;
  let sent = 0;
  const worker = async () => {
    while (next < groups.length) {
      const group = groups[next++]!;
      for (const r of group) {
        const res = await request(new URL(r.path, url), {
          method: r.method as "POST",
          headers: r.contentType === null ? {} : { "content-type": r.contentType },
          body: r.body,
        });
        await res.body.text();
        sent++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return sent;
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const rounds = options.quick ? 1 : 5;
  const fixtures = parseJson(readFileSync(`${ROOT}/conformance/fixtures/reference.json`, "utf8")) as Fixtures;
  const reference = await startReference();
  try {
    const base: RunOptions = {
      url: reference.info.url,
      casesDir: `${ROOT}/conformance/cases`,
      fixtures,
      concurrency: CONCURRENCY,
      timeoutMs: 10_000,
      strict: false,
    };

    // Capture: one run through the recording proxy, one case at a time.
    const proxy = await recordingProxy(reference.info.url);
    const groups: Recorded[][] = [];
    try {
      await runSuite({ ...base, url: proxy.url, concurrency: 1, onResult: () => void groups.push(proxy.taken.splice(0)) });
      if (proxy.taken.length > 0) groups.push(proxy.taken.splice(0));
    } finally {
      await proxy.close();
    }
    const requests = groups.reduce((n, g) => n + g.length, 0);

    const suite = async () => {
      const summaryOfRun = await runSuite(base);
      return summaryOfRun;
    };
    const first = await suite(); // warm-up
    await replay(reference.info.url, groups); // warm-up
    const ours: number[] = [];
    const raw: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? ["ours", "raw"] : ["raw", "ours"];
      for (const name of order) {
        const t0 = performance.now();
        if (name === "ours") await suite();
        else await replay(reference.info.url, groups);
        (name === "ours" ? ours : raw).push(performance.now() - t0);
      }
    }
    const o = summary(ours, 1);
    const b = summary(raw, 1);
    return {
      results: [
        figure({
          id: "suite",
          what: `full conformance suite against the reference indexer (${first.results.length} results, ${requests} requests, ${first.passed ? "all passed" : `${first.counts.fail} FAILED`})`,
          ours: { label: "runSuite, CLI defaults", unit: "ms", ...o },
          baseline: { label: "same requests replayed raw with undici, no checks", unit: "ms", ...b },
          ratio: pairedRatio(ours, raw),
          ratioOf: "ours ÷ baseline time",
          aim: { op: "<=", value: 1.5, text: "≤ 1.5× the raw time" },
        }),
      ],
    };
  } finally {
    await reference.stop();
  }
}

await main(import.meta.url, "suite", run);
