/**
 * The reference indexer under fuzzing: one server per test file on 127.0.0.1, a keep-alive undici
 * Pool sending GROUP requests at a time, and a tally of what was sent and answered.
 */
import fc from "fast-check";
import { Pool } from "undici";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startReferenceIndexer, type ReferenceIndexer } from "../../../reference/serve.js";
import { parseJson } from "../../../runtime/index.js";
import { untilEnd, whileLive } from "../../helpers/test-signal.js";
import { checkReply, FUZZ_SEED, GROUP, profile, REQUEST_TIMEOUT_MS } from "./oracle.js";
import { realCursors } from "./values.js";
import { describeReq, type Reply, type Req } from "./wire.js";

let indexer: ReferenceIndexer;
let pool: Pool;
let slotBefore: number;
const sent = new Map<string, number>();
/** What the answers were (HTTP status, and per envelope: result or error code), for the summary. */
const outcomes = new Map<string, number>();
function tally(key: string): void {
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}

function recordOutcome(reply: Reply): void {
  if (reply.status !== 200 || reply.text === "") {
    tally(reply.status !== 200 ? `HTTP ${reply.status}` : "HTTP 200 empty (notifications)");
    return;
  }
  let body: unknown;
  try {
    body = parseJson(reply.text);
  } catch {
    return;
  }
  for (const env of Array.isArray(body) ? body : [body]) {
    const e = env as { error?: { code?: unknown } };
    tally(e.error === undefined ? "result" : `error ${String(e.error.code)}`);
  }
}
const unhandled: unknown[] = [];
const handlerReports: string[] = [];
/** Set while the known-bug tests run: their expected handler failures are not echoed to stderr. */
let quiet = false;
const onUnhandled = (err: unknown) => unhandled.push(err);
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
let fuzzMs = 0;

async function send(r: Req): Promise<Reply | string> {
  sent.set(r.category, (sent.get(r.category) ?? 0) + 1);
  try {
    const res = await pool.request({
      path: r.path,
      method: "POST",
      headers: r.contentType === undefined ? {} : { "content-type": r.contentType },
      body: r.body,
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, contentType: String(res.headers["content-type"] ?? ""), text: bytes.toString("utf8") };
  } catch (err) {
    const e = err as Error & { code?: string };
    return `no answer (${e.code ?? e.name}: ${e.message})`;
  }
}

/** Sends a group in parallel and throws one error describing every wrong answer. */
async function exchange(group: readonly Req[]): Promise<void> {
  const replies = await Promise.all(group.map(send));
  const failures: string[] = [];
  group.forEach((r, k) => {
    const reply = replies[k]!;
    if (typeof reply !== "string") recordOutcome(reply);
    const problems = typeof reply === "string" ? [reply] : checkReply(r, reply, slotBefore);
    if (problems.length > 0) failures.push(`- ${describeReq(r)}\n    ${problems.slice(0, 5).join("\n    ")}`);
  });
  if (failures.length > 0) throw new Error(`${failures.length} of ${group.length} requests answered wrongly:\n${failures.join("\n")}`);
}

export async function rpc(body: unknown): Promise<any> {
  const res = await pool.request({
    path: "/",
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  expect(res.statusCode).toBe(200);
  return parseJson(await res.body.text());
}

/** Starts the server before the file's tests and closes it after them, printing the tally. */
export function useFuzzServer(): void {
  beforeAll(async () => {
    process.on("unhandledRejection", onUnhandled);
    process.on("uncaughtException", onUnhandled);
    // The reference listener's onError writes unexpected handler failures to stderr.
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      if (text.startsWith("reference indexer:")) {
        handlerReports.push(text);
        if (quiet) return true;
      }
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write);

    indexer = await startReferenceIndexer({ port: 0 });
    pool = new Pool(new URL(indexer.url).origin, { connections: GROUP, keepAliveTimeout: 30_000 });
    const answer = await rpc({ jsonrpc: "2.0", id: "before", method: "getIndexerSlot" });
    slotBefore = answer.result as number;
    expect(slotBefore).toBe(indexer.store.slot);
    expect(slotBefore).toBe(profile.slot);
    // Real cursors, so that cursor params also reach the handlers' position lookups.
    const owner = profile.tokenOwnerWithManyMints.owner;
    for (const [method, params] of [
      ["getCompressedAccountsByOwner", { owner: profile.memcmpOwner.owner, limit: 2 }],
      ["getCompressedTokenAccountsByOwner", { owner, limit: 2 }],
      ["getCompressedTokenBalancesByOwner", { owner, limit: 2 }],
      ["getCompressionSignaturesForTokenOwner", { owner, limit: 2 }],
    ] as const) {
      const cursor = (await rpc({ jsonrpc: "2.0", id: 1, method, params })).result.value.cursor;
      expect(typeof cursor).toBe("string");
      realCursors.push(cursor as string);
    }
  }, 30_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    process.off("unhandledRejection", onUnhandled);
    process.off("uncaughtException", onUnhandled);
    await pool?.close();
    await indexer?.close();
    const total = [...sent.values()].reduce((a, b) => a + b, 0);
    const lines = [...sent].map(([c, n]) => `  ${c.padEnd(26)} ${n}`);
    const answers = [...outcomes].sort((a, b) => b[1] - a[1]).map(([o, n]) => `  ${o.padEnd(30)} ${n}`);
    console.log(
      `fuzz: ${total} requests in ${(fuzzMs / 1000).toFixed(1)} s (seeds ${FUZZ_SEED} + category index)\n${lines.join("\n")}\nanswers (batch elements counted one by one):\n${answers.join("\n")}`,
    );
  });
}

/** The server started by useFuzzServer. */
export const fuzzed = (): { readonly indexer: ReferenceIndexer; readonly pool: Pool; readonly slotBefore: number } => ({ indexer, pool, slotBefore });

/** Requests sent so far, all categories together. */
export const sentTotal = (): number => [...sent.values()].reduce((a, b) => a + b, 0);

/** While set, the handler failures the server reports are kept but not echoed to stderr. */
export function setQuiet(value: boolean): void {
  quiet = value;
}

/** One test: `runs` groups of GROUP requests drawn from `arb` with `seed`, every answer checked. */
export function fuzzes(name: string, arb: fc.Arbitrary<Req>, runs: number, seed: number): void {
  it(`${name}: ${runs * GROUP} requests (seed ${seed})`, async (context) => {
    const started = performance.now();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(arb, { minLength: GROUP, maxLength: GROUP }),
          whileLive(untilEnd(context), (group) => exchange(group)),
        ),
        { seed, numRuns: runs, endOnFailure: false },
      );
    } finally {
      fuzzMs += performance.now() - started;
    }
  }, 120_000);
}

/** The server still answers, and nothing went wrong in the process: no unhandled rejection or exception, no handler failure, no prototype pollution. */
export function expectHealthy(): void {
  it("still serves getIndexerSlot afterwards, with no unhandled rejection, uncaught exception, handler failure or prototype pollution", async () => {
    const answer = await rpc({ jsonrpc: "2.0", id: "after", method: "getIndexerSlot" });
    expect(answer).toEqual({ jsonrpc: "2.0", result: slotBefore, id: "after" });
    expect(answer.result).toBe(indexer.store.slot);
    const page = await rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "getCompressedTokenBalancesByOwner",
      params: { owner: profile.tokenOwnerWithManyMints.owner, limit: 1 },
    });
    expect(page.result.value.token_balances).toHaveLength(1);
    expect(unhandled).toEqual([]);
    expect(handlerReports).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
}
