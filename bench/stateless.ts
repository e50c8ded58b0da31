/**
 * One call returning a 1000-item page from the reference indexer (a child process on the other
 * core), parsed, validated and typed: the generated client against @lightprotocol/stateless.js
 * (`createRpc(url, url)`) making the same call to the same server. Sequential calls; each figure
 * is how many times faster ours is. Two pages:
 *  - getCompressedTokenAccountsByOwnerV2, 1000 token accounts (stateless.js's
 *    `getCompressedTokenAccountsByOwner`, which posts the V2 method): stateless.js turns every
 *    account into BN and PublicKey objects through its superstruct coercion;
 *  - getCompressionSignaturesForTokenOwner, 1000 signatures: three plain fields per item, so
 *    stateless.js's coercion is a few ms and the ratio is bounded by the floor below.
 * The floor of each call is measured in the same run: the same request over undici with the
 * body JSON.parse'd and nothing checked (what no client can go below), and the same over
 * `fetch` (stateless.js's own transport, before its coercion).
 */
import { bn, createRpc } from "@lightprotocol/stateless.js";
import { PublicKey } from "@solana/web3.js";
import { request } from "undici";
import { createClient } from "../generated/index.js";
import { figure, fmtNumber, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { startReference } from "./lib/reference.js";
import { pairedRatio, round, summary } from "./lib/stats.js";
import { compare, type TaskTimes } from "./lib/tiny.js";

/** The same JSON-RPC call made raw: undici or fetch, the body JSON.parse'd, its item count checked. */
function rawCalls(
  url: string,
  method: string,
  params: unknown,
  items: (result: { value?: { items?: unknown[] }; items?: unknown[] }) => unknown[] | undefined,
) {
  let id = 0;
  const check = (text: string) => {
    const body = JSON.parse(text) as { result?: { value?: { items?: unknown[] }; items?: unknown[] } };
    const n = body.result === undefined ? -1 : (items(body.result)?.length ?? -1);
    if (n !== 1000) throw new Error(`${method} raw: ${n} items`);
  };
  const payload = () => JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params });
  return {
    undici: async () => {
      const res = await request(url, { method: "POST", headers: { "content-type": "application/json" }, body: payload() });
      check(await res.body.text());
    },
    fetch: async () => {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: payload() });
      check(await res.text());
    },
  };
}

interface Row {
  readonly id: string;
  readonly what: string;
  readonly aim: { op: ">="; value: number; text: string };
  readonly ours: () => Promise<void>;
  readonly theirs: () => Promise<void>;
  readonly raw: { undici: () => Promise<void>; fetch: () => Promise<void> };
  readonly bound: string;
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const reference = await startReference();
  try {
    const { url, profile } = reference.info;
    const owner = profile.tokenOwnerWith1000TokenAccounts.owner;
    const ours = createClient({ url });
    const rpc = createRpc(url, url);
    const rows: Row[] = [
      {
        id: "stateless.tokens",
        what: "one 1000-item getCompressedTokenAccountsByOwnerV2 page from the reference indexer, parsed, validated, typed",
        aim: { op: ">=", value: 50, text: "≥ 50× faster" },
        ours: async () => {
          const page = await ours.getCompressedTokenAccountsByOwnerV2({ owner, limit: 1000 });
          if (page.value.items.length !== 1000) throw new Error(`ours: ${page.value.items.length} items`);
        },
        theirs: async () => {
          const page = await rpc.getCompressedTokenAccountsByOwner(new PublicKey(owner), { limit: bn(1000) });
          if (page.items.length !== 1000) throw new Error(`stateless.js: ${page.items.length} items`);
        },
        raw: rawCalls(url, "getCompressedTokenAccountsByOwnerV2", { owner, limit: 1000 }, (r) => r.value?.items),
        bound: "stateless.js coerces every account (BN amounts, lamports, leaf indices; PublicKey owners, mints, trees) through superstruct",
      },
      {
        id: "stateless",
        what: "one 1000-signature getCompressionSignaturesForTokenOwner page from the reference indexer, parsed, validated, typed",
        aim: { op: ">=", value: 20, text: "≥ 20× faster" },
        ours: async () => {
          const page = await ours.getCompressionSignaturesForTokenOwner({ owner, limit: 1000 });
          if (page.value.items.length !== 1000) throw new Error(`ours: ${page.value.items.length} items`);
        },
        theirs: async () => {
          const page = await rpc.getCompressionSignaturesForTokenOwner(new PublicKey(owner), { limit: bn(1000) });
          if (page.items.length !== 1000) throw new Error(`stateless.js: ${page.items.length} items`);
        },
        raw: rawCalls(url, "getCompressionSignaturesForTokenOwner", { owner, limit: 1000 }, (r) => r.value?.items),
        bound: "items are three plain fields, so stateless.js's coercion (about 5 ms here) is small beside a token-account page's",
      },
    ];
    const results: FigureResult[] = [];
    for (const row of rows) {
      for (const fn of [row.ours, row.theirs, row.raw.undici, row.raw.fetch]) await fn();
      const times = await compare(
        [
          { name: "ours", fn: row.ours },
          { name: "stateless", fn: row.theirs },
          { name: "undici", fn: row.raw.undici },
          { name: "fetch", fn: row.raw.fetch },
        ],
        options.quick ? { rounds: 2, time: 300, warmupTime: 100 } : { rounds: 5, time: 1000, warmupTime: 300 },
      );
      const t = (name: string): TaskTimes => times.get(name)!;
      const ceiling = pairedRatio(t("stateless").rounds, t("undici").rounds);
      results.push(
        figure({
          id: row.id,
          what: row.what,
          ours: { label: "generated client", unit: "ms/call", ...summary(t("ours").rounds) },
          baseline: { label: "@lightprotocol/stateless.js, same call, same server", unit: "ms/call", ...summary(t("stateless").rounds) },
          ratio: pairedRatio(t("stateless").rounds, t("ours").rounds),
          ratioOf: "baseline time ÷ ours (× faster)",
          aim: row.aim,
          notes: [
            `floor: the same request over undici, body JSON.parse'd, nothing checked: ${fmtNumber(t("undici").ms)} ms/call (runs: ${t("undici")
              .rounds.map((v) => round(v))
              .join(", ")}); ours ÷ floor ${fmtNumber(pairedRatio(t("ours").rounds, t("undici").rounds))}×`,
            `stateless.js's transport alone (fetch, text, JSON.parse): ${fmtNumber(t("fetch").ms)} ms/call, so its own coercion costs ${fmtNumber(t("stateless").ms - t("fetch").ms)} ms/call`,
            `highest ratio any client could reach (stateless.js ÷ floor): ${fmtNumber(ceiling)}×${ceiling < row.aim.value ? `, below the aim: no client can meet it` : ""}; ${row.bound}`,
            "ours above the floor: the lossless parse's scan for integers above 2^53 and the generated validators (one pass over every item)",
          ],
        }),
      );
    }
    return { results };
  } finally {
    await reference.stop();
  }
}

await main(import.meta.url, "stateless", run);
