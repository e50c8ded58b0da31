import autocannon from "autocannon";
import type { Serving } from "../children/trees.js";
import { figure, fmtNumber, type BenchOptions, type FigureResult } from "../lib/figure.js";
import { scratch } from "../lib/http.js";
import { startChild, type Server } from "../lib/proc.js";
import { inTurns, pairedRatio, summary } from "../lib/stats.js";
import { type AccountProofValue, bodyOf, CHILD, call, checkAccountProof, kib, resultOf } from "./http.js";
import type { Pools } from "./inputs.js";

/**
 * 2b. Throughput: getMultipleCompressedAccountProofs of 8 accounts against getMultipleCompressedAccounts
 * of the same 8, req/s, autocannon over loopback on a child-process reference with every tree built
 * (warmed, before measuring) and the result memo off (every answer computed): 1,000 distinct sets of
 * 8 smt1 accounts in rotation, the same sets for both methods. Its floor, in the same rounds: a bare
 * node:http server (bench/children/bare.ts) answering the same bodies with the reference's answers
 * precomputed, proofs vs lookups: what the answers' bytes alone cost.
 */
export async function proofRpsFigure(p: Pools, options: BenchOptions): Promise<FigureResult> {
  const seconds = options.quick ? 1 : 4;
  const rounds = options.quick ? 1 : 3;
  const connections = 10;
  const n = p.v1Hashes.length;
  const sets: string[][] = [];
  for (let j = 0; j < 1000; j++) sets.push(Array.from({ length: 8 }, (_, k) => p.v1Hashes[(j * 3 + k * 97) % n]!));
  const bodies = {
    ours: sets.map((hashes) => bodyOf("getMultipleCompressedAccountProofs", hashes)),
    base: sets.map((hashes) => bodyOf("getMultipleCompressedAccounts", { hashes })),
  };
  if (new Set(bodies.ours).size !== sets.length) throw new Error("the account sets are not distinct");
  const server: Server<Serving> = await startChild<Serving>(CHILD, ["serve", "--prebuild", "--no-memo"]);
  const tmp = scratch();
  let bare: Server<{ url: string }> | undefined;
  try {
    const url = server.info.url;
    const proofs = resultOf<{ value: AccountProofValue[] }>((await call(url, bodies.ours[0]!)).text).value;
    if (proofs.length !== 8) throw new Error(`getMultipleCompressedAccountProofs answered ${proofs.length} proofs`);
    for (const proof of proofs) checkAccountProof(proof, p.v1.height, "trees.proofs-rps");
    // The floor: a bare node:http server (bench/children/bare.ts, as server-rps's baseline) answering
    // every one of these 2,000 bodies with the reference's own answer, precomputed, looked up by body.
    const replies: { request: string; body: string }[] = [];
    const bytes = { ours: 0, base: 0 };
    for (const side of ["ours", "base"] as const) {
      for (const request of bodies[side]) {
        const { text } = await call(url, request);
        replies.push({ request, body: text });
        bytes[side] += Buffer.byteLength(text);
      }
    }
    const headers = { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" };
    bare = await startChild<{ url: string }>("bench/children/bare.ts", ["--replies", tmp.file("replies.json", JSON.stringify({ headers, replies }))]);
    const floorUrl = bare.info.url;
    const rotate = async (target: string, list: string[], duration: number) => {
      const r = await autocannon({
        url: target,
        method: "POST",
        headers: { "content-type": "application/json" },
        requests: list.map((body) => ({ method: "POST", body })),
        connections,
        pipelining: 1,
        duration,
        timeout: 10,
      });
      if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) throw new Error(`autocannon: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
      return r.requests.total / r.duration;
    };
    for (const target of [url, floorUrl]) for (const side of ["ours", "base"] as const) await rotate(target, bodies[side], 1);
    const rps = { ours: [] as number[], base: [] as number[] };
    const floor = { ours: [] as number[], base: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      // The figure's pair, then the floor's pair, each in turns (the floor's rounds are the figure's).
      for (const side of inTurns(r, ["ours", "base"] as const)) rps[side].push(await rotate(url, bodies[side], seconds));
      for (const side of inTurns(r, ["ours", "base"] as const)) floor[side].push(await rotate(floorUrl, bodies[side], seconds));
    }
    const kb = (side: "ours" | "base") => kib(bytes[side] / bodies[side].length);
    return figure({
      id: "trees.proofs-rps",
      what: `getMultipleCompressedAccountProofs of 8 accounts (smt1, ${p.v1.height} levels), 1,000 distinct sets in rotation, warmed trees, memo off (autocannon, ${connections} connections, ${seconds} s × ${rounds})`,
      ours: { label: "getMultipleCompressedAccountProofs", unit: "req/s", ...summary(rps.ours, 0) },
      baseline: { label: "getMultipleCompressedAccounts, same 8 hashes", unit: "req/s", ...summary(rps.base, 0) },
      ratio: pairedRatio(rps.ours, rps.base),
      ratioOf: "ours ÷ baseline throughput",
      aim: { op: ">=", value: 0.5, text: "≥ 0.5× the lookup" },
      notes: [
        `trees built before measuring (${fmtNumber(server.info.prebuildMs)} ms): proofs are read from the maintained trees (each node's base58 text encoded once and kept); with the memo off no written proof is kept either, so every answer writes its 8 proofs`,
        `floor: bare node:http (bench/children/bare.ts) answering the same 1,000 bodies of each method with the reference's answers precomputed (looked up by body): proofs ${fmtNumber(summary(floor.ours, 0).value)} req/s vs lookups ${fmtNumber(summary(floor.base, 0).value)} req/s (runs: ${floor.ours.map((x) => Math.round(x)).join(", ")} vs ${floor.base.map((x) => Math.round(x)).join(", ")}) = ${pairedRatio(floor.ours, floor.base).toFixed(2)}×: the ratio of a server whose only difference is the answer's bytes (${kb("ours")} vs ${kb("base")} per answer)`,
        "bounded by the proofs' own work per answer, not by the bytes alone (the floor): reading 8 × 26 siblings from the trees and writing their JSON text, joined from the trees' kept base58 node texts and handed to the listener as written (CallContext.written): ~15 µs of the ~50 µs of server CPU per answer in a profile (the lookup: ~28 µs), and the larger socket write (~5 µs more than the lookup's); both sides share the listener's per-request work (body parse, params check, envelope)",
      ],
    });
  } finally {
    await bare?.stop();
    await server.stop();
    tmp.cleanup();
  }
}
