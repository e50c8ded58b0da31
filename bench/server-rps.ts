/**
 * The reference indexer under load: getCompressedAccountsByOwner with limit 100 (a 2500-account
 * owner), driven by autocannon over loopback, against a bare node:http server that answers
 * every request with the same precomputed bytes. Each server runs in its own child process
 * (one core), autocannon in this one (the other core); runs alternate between the two.
 */
import { stringifyJson } from "../runtime/index.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { cannon, post, scratch } from "./lib/http.js";
import { startChild } from "./lib/proc.js";
import { startReference } from "./lib/reference.js";
import { pairedRatio, summary } from "./lib/stats.js";

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const seconds = options.quick ? 1 : 4;
  const rounds = options.quick ? 1 : 3;
  const connections = 10;
  const tmp = scratch();
  const reference = await startReference();
  try {
    const owner = reference.info.profile.ownerWithManyAccounts.owner;
    const body = stringifyJson({ jsonrpc: "2.0", id: 1, method: "getCompressedAccountsByOwner", params: { owner, limit: 100 } });
    const reply = await post(reference.info.url, body);
    const items = (JSON.parse(reply.body) as { result?: { value?: { items?: unknown[] } } }).result?.value?.items?.length;
    if (reply.status !== 200 || items !== 100) throw new Error(`reference indexer answered ${reply.status} with ${items} items`);
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "access-control-allow-origin"]) if (reply.headers[name] !== undefined) headers[name] = reply.headers[name]!;
    const bare = await startChild<{ url: string }>("bench/children/bare.ts", [
      "--reply",
      tmp.file("reply.json", JSON.stringify({ headers, body: reply.body })),
    ]);
    try {
      const targets = { ours: reference.info.url, bare: bare.info.url };
      for (const url of Object.values(targets)) await cannon(url, body, 1, connections); // warm-up
      const rps: Record<keyof typeof targets, number[]> = { ours: [], bare: [] };
      const p50: Record<keyof typeof targets, number[]> = { ours: [], bare: [] };
      for (let r = 0; r < rounds; r++) {
        const order: (keyof typeof targets)[] = r % 2 === 0 ? ["ours", "bare"] : ["bare", "ours"];
        for (const name of order) {
          const result = await cannon(targets[name], body, seconds, connections);
          rps[name].push(result.rps);
          p50[name].push(result.latencyP50Ms);
        }
      }
      const ours = summary(rps.ours, 0);
      const base = summary(rps.bare, 0);
      return {
        results: [
          figure({
            id: "server-rps",
            what: `reference indexer, getCompressedAccountsByOwner limit 100 (${Math.round(reply.body.length / 1024)} KiB answers; autocannon, ${connections} connections, ${seconds} s × ${rounds})`,
            ours: { label: "reference indexer", unit: "req/s", ...ours },
            baseline: { label: "bare node:http, same precomputed bytes", unit: "req/s", ...base },
            ratio: pairedRatio(rps.ours, rps.bare),
            ratioOf: "ours ÷ baseline throughput",
            aim: { op: ">=", value: 0.7, text: "≥ 0.7×" },
            notes: [
              `median latency p50: ours ${summary(p50.ours).value} ms, bare ${summary(p50.bare).value} ms`,
              "every request is the same call (id 1), as autocannon repeats one body: a server that reuses the answer of an identical call serves it from memory",
            ],
          }),
        ],
      };
    } finally {
      await bare.stop();
    }
  } finally {
    await reference.stop();
    tmp.cleanup();
  }
}

await main(import.meta.url, "server-rps", run);
