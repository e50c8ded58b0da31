/**
 * Client calls per second over loopback: the generated client's getCompressedAccount (params
 * validated, envelope built, lossless parse, id and envelope checked, result validated)
 * against raw `undici.request` with a hand-built body whose answer is read and JSON.parse'd.
 * The server is a bare node:http child on the other core that answers with precomputed bytes
 * (the reference indexer's answer for a known account) carrying the request's id, so that the
 * client, not the server, is what is measured. Both run closed loops of 16 concurrent calls.
 *
 * The client is the user's default one: params and result validated, a 30 s deadline per
 * attempt (one timer each), retries and the body cap on. The baseline does the least any
 * client must: send the request, read the body, JSON.parse it. Both are bound by the loopback
 * round trip (writev and the socket reads are most of either side's CPU profile).
 */
import { request } from "undici";
import { createClient } from "../generated/index.js";
import type { CallContext } from "../runtime/index.js";
import { stringifyJson } from "../runtime/index.js";
import { fixture } from "./lib/data.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { closedLoop, scratch } from "./lib/http.js";
import { startChild } from "./lib/proc.js";
import { pairedRatio, summary, inTurns } from "./lib/stats.js";

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const seconds = options.quick ? 1 : 3;
  const rounds = options.quick ? 1 : 3;
  const concurrency = 16;
  const { handlers, profile } = fixture();
  const hash = profile.knownHash;
  const result = handlers.getCompressedAccount({ hash }, {} as CallContext);
  const tmp = scratch();
  const body = `{"jsonrpc":"2.0","result":${stringifyJson(result)},"id":@@ID@@}`;
  const server = await startChild<{ url: string }>("bench/children/bare.ts", [
    "--reply",
    tmp.file("reply.json", JSON.stringify({ headers: { "content-type": "application/json; charset=utf-8" }, body })),
  ]);
  try {
    const url = server.info.url;
    // The defaults, spelled out: what a user gets from createClient({ url }).
    const client = createClient({ url, validate: true, timeoutMs: 30_000 });
    let id = 0;
    const variants = {
      ours: async () => {
        const r = await client.getCompressedAccount({ hash });
        if (r.value === null) throw new Error("no account");
      },
      raw: async () => {
        const res = await request(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: `{"jsonrpc":"2.0","id":${++id},"method":"getCompressedAccount","params":{"hash":"${hash}"}}`,
        });
        const parsed = JSON.parse(await res.body.text()) as { result?: { value: unknown } };
        if (parsed.result?.value == null) throw new Error("no account");
      },
    };
    for (const fn of Object.values(variants)) await closedLoop(fn, concurrency, 1000); // warm-up
    const perSecond: Record<keyof typeof variants, number[]> = { ours: [], raw: [] };
    const cpu: Record<keyof typeof variants, number[]> = { ours: [], raw: [] };
    for (let r = 0; r < rounds; r++) {
      const order = inTurns(r, ["ours", "raw"] as const);
      for (const name of order) {
        const loop = await closedLoop(variants[name], concurrency, seconds * 1000);
        perSecond[name].push(loop.perSecond);
        cpu[name].push(loop.cpuUsPerCall);
      }
    }
    const ours = summary(perSecond.ours, 0);
    const base = summary(perSecond.raw, 0);
    return {
      results: [
        figure({
          id: "client-rps",
          what: `client calls per second on loopback (getCompressedAccount, ${concurrency} in flight, ${seconds} s × ${rounds})`,
          ours: { label: "generated client", unit: "calls/s", ...ours },
          baseline: { label: "raw undici.request, hand-built body, JSON.parse", unit: "calls/s", ...base },
          ratio: pairedRatio(perSecond.ours, perSecond.raw),
          ratioOf: "ours ÷ baseline throughput",
          aim: { op: ">=", value: 0.9, text: "≥ 0.9×" },
          notes: [
            `client CPU per call: ours ${summary(cpu.ours, 1).value} µs, raw ${summary(cpu.raw, 1).value} µs`,
            "ours: params and result validated, lossless parse, 30 s deadline per attempt, retries and body cap on; bound by the loopback round trip, as the baseline is",
          ],
        }),
      ],
    };
  } finally {
    await server.stop();
    tmp.cleanup();
  }
}

await main(import.meta.url, "client-rps", run);
