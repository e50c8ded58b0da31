/**
 * The moving reference (`serve --live 100`: one transaction every 100 ms) against the frozen one,
 * each in a child process on the other core, in turns:
 * - `live.rps`: requests/s over a rotation of reads that move (the latest signatures, the moving
 *   owners' lists and balances, a proof in a moving tree) and reads that do not, memo on as served;
 * - `live.suite`: the whole suite's wall time (runSuite with the CLI's defaults and the reference
 *   fixtures), with the failures and inconclusive results of every run in the notes (a correct
 *   moving target must fail none).
 */
import autocannon from "autocannon";
import { runSuite } from "../conformance/run.js";
import { stringifyJson } from "../runtime/index.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import type { Server } from "./lib/proc.js";
import { type ReferenceInfo, startReference } from "./lib/reference.js";
import { inTurns, pairedRatio, summary } from "./lib/stats.js";
import { cliRunOptions, referenceFixtures } from "./lib/suite-options.js";

const LIVE_MS = 100;
const CONNECTIONS = 10;

const body = (method: string, params: unknown) => stringifyJson({ jsonrpc: "2.0", id: 1, method, params });

/** Reads that move with the chain and reads that do not, in rotation. */
function bodies(info: ReferenceInfo): string[] {
  const p = info.profile;
  return [
    body("getLatestCompressionSignatures", { limit: 100 }),
    body("getIndexerSlot", null),
    body("getCompressedAccountsByOwner", { owner: p.ownerWithManyAccounts.owner, limit: 100 }),
    body("getCompressedAccountProof", { hash: p.knownHash }),
    body("getCompressedTokenBalancesByOwnerV2", { owner: p.tokenOwnerWithManyMints.owner }),
    body("getCompressedMintTokenHolders", { mint: p.mintWithManyHolders.mint, limit: 100 }),
    body("getMultipleNewAddressProofsV2", [{ address: p.unknownAddress, tree: p.trees.addressV1 }]),
  ];
}

async function rps(url: string, requests: readonly string[], seconds: number): Promise<number> {
  const r = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: requests.map((b) => ({ method: "POST", body: b })),
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
  });
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0)
    throw new Error(`autocannon against ${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  return r.requests.total / r.duration;
}

async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const seconds = options.quick ? 1 : 4;
  const rounds = options.quick ? 1 : 3;
  const servers: Record<"live" | "frozen", Server<ReferenceInfo>> = {
    live: await startReference(20_000, 1, ["--await-warm", "--live", String(LIVE_MS)]),
    frozen: await startReference(20_000, 1, ["--await-warm"]),
  };
  try {
    const requests = bodies(servers.frozen.info);
    const rate = { live: [] as number[], frozen: [] as number[] };
    for (const side of ["live", "frozen"] as const) await rps(servers[side].info.url, requests, 1);
    for (let r = 0; r < rounds; r++)
      for (const side of inTurns(r, ["live", "frozen"] as const)) rate[side].push(await rps(servers[side].info.url, requests, seconds));

    const fixtures = await referenceFixtures();
    const wall = { live: [] as number[], frozen: [] as number[] };
    const outcomes: string[] = [];
    for (let r = 0; r < rounds + 1; r++) {
      for (const side of inTurns(r, ["live", "frozen"] as const)) {
        const t0 = performance.now();
        const summary = await runSuite(cliRunOptions(servers[side].info.url, fixtures));
        const ms = performance.now() - t0;
        if (r > 0) wall[side].push(ms); // the first round warms up
        const failed = summary.results.filter((x) => x.status === "fail").map((x) => x.id);
        outcomes.push(
          `${side} run ${r + 1}: ${summary.results.length} results, ${failed.length} failed${failed.length > 0 ? ` (${failed.slice(0, 5).join(", ")})` : ""}`,
        );
      }
    }
    return {
      results: [
        figure({
          id: "live.rps",
          what: `reference indexer moving one slot every ${LIVE_MS} ms: requests/s over ${requests.length} reads in rotation (lists, proofs, holders, latest signatures; memo on; autocannon, ${CONNECTIONS} connections, ${seconds} s × ${rounds})`,
          ours: { label: `serve --live ${LIVE_MS}`, unit: "req/s", ...summary(rate.live, 0) },
          baseline: { label: "the frozen reference, same reads", unit: "req/s", ...summary(rate.frozen, 0) },
          ratio: pairedRatio(rate.live, rate.frozen),
          ratioOf: "live ÷ frozen (req/s)",
          aim: { op: ">=", value: 0.8, text: "≥ 0.8× the frozen reference" },
        }),
        figure({
          id: "live.suite",
          what: `the whole suite (CLI defaults, reference fixtures) against serve --live ${LIVE_MS}, wall time`,
          ours: { label: `runSuite against serve --live ${LIVE_MS}`, unit: "ms", ...summary(wall.live, 0) },
          baseline: { label: "runSuite against the frozen reference", unit: "ms", ...summary(wall.frozen, 0) },
          ratio: pairedRatio(wall.live, wall.frozen),
          ratioOf: "live ÷ frozen (ms)",
          aim: { op: "<=", value: 1.3, text: "≤ 1.3× (retries are rare)" },
          notes: outcomes,
        }),
      ],
    };
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
}

export { run };
await main(import.meta.url, "live", run);
