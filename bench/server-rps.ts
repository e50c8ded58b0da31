/**
 * The reference indexer under load: getCompressedAccountsByOwner with limit 100, driven by
 * autocannon over loopback, against a bare node:http server that answers from precomputed bytes.
 * Each server runs in its own child process (one core), autocannon in this one (the other core);
 * runs alternate between the two.
 *
 * - `server-rps.distinct` (the user's case): 1,000 distinct request bodies in rotation (three
 *   owners with 1,000 to 2,500 accounts, cursors all over their lists, limits 96 to 100), on a
 *   reference started with `memoize: false`, so every answer is computed (the memo would otherwise
 *   hold all 1,000 answers after the first round). The baseline looks each body up in a table of
 *   the same 1,000 precomputed answers.
 * - `server-rps` (a cache hit, labelled so): one repeated body on the reference as `npm start`
 *   runs it (memo on): every answer after the first comes from the result memo.
 */
import autocannon from "autocannon";
import { stringifyJson } from "../runtime/index.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { cannon, post, scratch } from "./lib/http.js";
import { startChild, type Server } from "./lib/proc.js";
import type { ReferenceInfo } from "./lib/reference.js";
import { pairedRatio, summary, inTurns } from "./lib/stats.js";

const METHOD = "getCompressedAccountsByOwner";
const DISTINCT = 1000;
const CONNECTIONS = 10;

const startRef = (memo: boolean): Promise<Server<ReferenceInfo>> =>
  startChild<ReferenceInfo>("bench/children/reference.ts", ["--accounts", "20000", "--seed", "1", "--await-warm", ...(memo ? [] : ["--no-memo"])], 300_000);

const bodyOf = (params: Record<string, unknown>) => stringifyJson({ jsonrpc: "2.0", id: 1, method: METHOD, params });

interface Page {
  items: { hash: string }[];
  cursor: string | null;
}

/** Every unspent account hash of an owner, in page order (a walk with limit 100). */
async function walk(url: string, owner: string): Promise<string[]> {
  const hashes: string[] = [];
  let cursor: string | null = null;
  do {
    const reply = await post(url, bodyOf({ owner, limit: 100, ...(cursor === null ? {} : { cursor }) }));
    const page = (JSON.parse(reply.body) as { result: { value: Page } }).result.value;
    for (const item of page.items) hashes.push(item.hash);
    cursor = page.cursor;
  } while (cursor !== null);
  return hashes;
}

/** 1,000 distinct bodies: owners, cursors spread over each owner's list, limits 96–100 (each answer holds `limit` items). */
async function distinctBodies(url: string, info: ReferenceInfo): Promise<string[]> {
  const owners = [info.profile.ownerWithManyAccounts.owner, info.profile.ownerWith1000.owner, info.profile.ownerWith1001.owner];
  const lists = await Promise.all(owners.map((o) => walk(url, o)));
  const candidates: { owner: string; cursor: string | null }[] = [];
  owners.forEach((owner, k) => {
    const list = lists[k]!;
    candidates.push({ owner, cursor: null });
    for (let i = 0; i + 100 < list.length; i++) candidates.push({ owner, cursor: list[i]! });
  });
  if (candidates.length < DISTINCT) throw new Error(`only ${candidates.length} distinct pages`);
  const stride = 7919 % candidates.length === 0 ? 7907 : 7919;
  const bodies: string[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const c = candidates[(i * stride) % candidates.length]!;
    bodies.push(bodyOf({ owner: c.owner, limit: 96 + (i % 5), ...(c.cursor === null ? {} : { cursor: c.cursor }) }));
  }
  if (new Set(bodies).size !== DISTINCT) throw new Error("the bodies are not distinct");
  return bodies;
}

/** Both servers loaded for a one-second warm-up, then `rounds` times each for `seconds`, in turns: requests/s and median latency per round. */
async function inRounds(
  targets: { readonly ours: string; readonly bare: string },
  rounds: number,
  load: (url: string, seconds: number) => Promise<{ rps: number; p50: number }>,
  seconds: number,
): Promise<{ rps: { ours: number[]; bare: number[] }; p50: { ours: number[]; bare: number[] } }> {
  for (const url of Object.values(targets)) await load(url, 1); // warm-up
  const rps = { ours: [] as number[], bare: [] as number[] };
  const p50 = { ours: [] as number[], bare: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    for (const name of inTurns(r, ["ours", "bare"] as const)) {
      const result = await load(targets[name], seconds);
      rps[name].push(result.rps);
      p50[name].push(result.p50);
    }
  }
  return { rps, p50 };
}

async function rotate(url: string, bodies: readonly string[], seconds: number): Promise<{ rps: number; p50: number }> {
  const r = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: bodies.map((body) => ({ method: "POST", body })),
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
  });
  if (r.errors > 0 || r.timeouts > 0 || r.non2xx > 0) {
    throw new Error(`autocannon against ${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`);
  }
  return { rps: r.requests.total / r.duration, p50: r.latency.p50 };
}

async function distinctFigure(options: BenchOptions): Promise<FigureResult> {
  const seconds = options.quick ? 1 : 4;
  const rounds = options.quick ? 1 : 3;
  const tmp = scratch();
  const reference = await startRef(false);
  try {
    const url = reference.info.url;
    const bodies = await distinctBodies(url, reference.info);
    const replies: { request: string; body: string }[] = [];
    let headers: Record<string, string> = {};
    let bytes = 0;
    for (const request of bodies) {
      const reply = await post(url, request);
      if (reply.status !== 200 || !reply.body.includes('"items":[{'))
        throw new Error(`reference indexer answered ${reply.status}: ${reply.body.slice(0, 200)}`);
      replies.push({ request, body: reply.body });
      bytes += Buffer.byteLength(reply.body);
      headers = {};
      for (const name of ["content-type", "access-control-allow-origin"]) if (reply.headers[name] !== undefined) headers[name] = reply.headers[name]!;
    }
    const bare = await startChild<{ url: string }>("bench/children/bare.ts", ["--replies", tmp.file("replies.json", JSON.stringify({ headers, replies }))]);
    try {
      const targets = { ours: url, bare: bare.info.url };
      const { rps, p50 } = await inRounds(targets, rounds, (target, s) => rotate(target, bodies, s), seconds);
      return figure({
        id: "server-rps.distinct",
        what: `reference indexer, ${METHOD} limit 96–100, ${DISTINCT} distinct bodies in rotation (3 owners, cursors over their lists; ${Math.round(bytes / DISTINCT / 1024)} KiB answers on average; autocannon, ${CONNECTIONS} connections, ${seconds} s × ${rounds})`,
        ours: {
          label: "reference indexer, memo off: every answer computed (each record's item encoded once and kept, as always)",
          unit: "req/s",
          ...summary(rps.ours, 0),
        },
        baseline: { label: "bare node:http, the same 1,000 answers precomputed, looked up by body", unit: "req/s", ...summary(rps.bare, 0) },
        ratio: pairedRatio(rps.ours, rps.bare),
        ratioOf: "ours ÷ baseline throughput",
        aim: { op: ">=", value: 0.5, text: "≥ 0.5×" },
        notes: [
          `median latency p50: ours ${summary(p50.ours).value} ms, bare ${summary(p50.bare).value} ms`,
          "ours parses the body, validates params, pages the owner's list and writes the answer per request from its records' kept JSON (the 3 owners' records are all listed after the warm-up: a first listing, which builds and encodes each item, is not measured); the baseline only reads the body and writes bytes (its floor: HTTP and loopback)",
        ],
      });
    } finally {
      await bare.stop();
    }
  } finally {
    await reference.stop();
    tmp.cleanup();
  }
}

async function cacheHitFigure(options: BenchOptions): Promise<FigureResult> {
  const seconds = options.quick ? 1 : 4;
  const rounds = options.quick ? 1 : 3;
  const tmp = scratch();
  const reference = await startRef(true);
  try {
    const owner = reference.info.profile.ownerWithManyAccounts.owner;
    const body = bodyOf({ owner, limit: 100 });
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
      const { rps, p50 } = await inRounds(
        targets,
        rounds,
        async (target, s) => {
          const r = await cannon(target, body, s, CONNECTIONS);
          return { rps: r.rps, p50: r.latencyP50Ms };
        },
        seconds,
      );
      return figure({
        id: "server-rps",
        what: `cache hit: reference indexer, ${METHOD} limit 100, one repeated body (${Math.round(reply.body.length / 1024)} KiB answers; autocannon, ${CONNECTIONS} connections, ${seconds} s × ${rounds})`,
        ours: { label: "reference indexer, memo on (result memo hit)", unit: "req/s", ...summary(rps.ours, 0) },
        baseline: { label: "bare node:http, same precomputed bytes", unit: "req/s", ...summary(rps.bare, 0) },
        ratio: pairedRatio(rps.ours, rps.bare),
        ratioOf: "ours ÷ baseline throughput",
        aim: { op: ">=", value: 0.7, text: "≥ 0.7× (cache hit)" },
        notes: [
          `median latency p50: ours ${summary(p50.ours).value} ms, bare ${summary(p50.bare).value} ms`,
          "a cache-hit figure: every request is the same call (id 1), so after the first the reference answers from its result memo; server-rps.distinct is the computed case",
        ],
      });
    } finally {
      await bare.stop();
    }
  } finally {
    await reference.stop();
    tmp.cleanup();
  }
}

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const distinct = await distinctFigure(options);
  const hit = await cacheHitFigure(options);
  return { results: [distinct, hit] };
}

await main(import.meta.url, "server-rps", run);
