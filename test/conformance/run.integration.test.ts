/**
 * runSuite against broken variants of the reference indexer: each defect caught by the named
 * check; a correct server with extra fields, reordered keys or big u64s not failed; shards.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runSuite, selectsRunWide, SLOT_ORDER_ID, type RunOptions } from "../../conformance/run.js";
import type { CaseResult, RunSummary } from "../../conformance/results.js";
import { datasetProfile, generateDataset, type Dataset } from "../../reference/index.js";
import { compareBase58Numbers, RpcError } from "../../runtime/index.js";
import { root } from "../helpers/paths.js";
import { editValue, startBroken, type BrokenServer, type Defect } from "./support/broken-servers.js";

let dataset: Dataset;
let fixtures: RunOptions["fixtures"];

beforeAll(() => {
  dataset = generateDataset();
  fixtures = datasetProfile(dataset) as unknown as RunOptions["fixtures"];
});

async function runAgainst(defect: Defect, select: Partial<RunOptions>): Promise<RunSummary> {
  const server: BrokenServer = await startBroken(dataset, defect);
  try {
    return await runSuite({ url: server.url, casesDir: join(root, "conformance", "cases"), fixtures, concurrency: 4, ...select });
  } finally {
    await server.close();
  }
}

function failedChecks(summary: RunSummary): Set<string> {
  return new Set(summary.results.flatMap((r) => r.findings.filter((f) => f.status === "fail").map((f) => f.check)));
}

const TOKENS = { methods: ["getCompressedTokenAccountsByOwner"] };
const SIGNATURES = { methods: ["getCompressionSignaturesForTokenOwner"] };

const defects: [string, Defect, Partial<RunOptions>, string][] = [
  ["a wrong id", { wire: (b: any) => (b && !Array.isArray(b) && "id" in b ? { ...b, id: "other" } : b) }, { methods: ["getIndexerSlot"] }, "envelope"],
  ["a missing jsonrpc", { wire: (b: any) => (b && !Array.isArray(b) ? (({ jsonrpc, ...rest }) => rest)(b) : b) }, { methods: ["getIndexerSlot"] }, "envelope"],
  [
    "both result and error",
    { wire: (b: any) => (b && !Array.isArray(b) && "result" in b ? { ...b, error: { code: -32000, message: "x" } } : b) },
    { methods: ["getIndexerSlot"] },
    "envelope",
  ],
  [
    "an error code sent as a string",
    { wire: (b: any) => (b && !Array.isArray(b) && b.error ? { ...b, error: { ...b.error, code: String(b.error.code) } } : b) },
    { methods: ["getCompressedAccount"] },
    "errors",
  ],
  ["text/plain replies", { headers: { "content-type": "text/plain" } }, { methods: ["getIndexerSlot"] }, "http"],
  [
    "a cursor that repeats",
    {
      handlers: (h) => ({
        getCompressionSignaturesForTokenOwner: async (p, c) => {
          const r = await h.getCompressionSignaturesForTokenOwner(p, c);
          return p.cursor ? { ...r, value: { ...r.value, cursor: p.cursor } } : r;
        },
      }),
    },
    SIGNATURES,
    "pagination",
  ],
  [
    "a page over limit",
    {
      handlers: (h) => ({
        getCompressedTokenAccountsByOwner: (p, c) =>
          h.getCompressedTokenAccountsByOwner({ ...p, limit: p.limit == null || p.limit === 0 ? p.limit : Number(p.limit) + 1 }, c),
      }),
    },
    TOKENS,
    "pagination",
  ],
  [
    "an ignored mint filter",
    { handlers: (h) => ({ getCompressedTokenAccountsByOwner: (p, c) => h.getCompressedTokenAccountsByOwner({ ...p, mint: null }, c) }) },
    TOKENS,
    "semantics",
  ],
  ["items out of the documented order", { wire: editValue((v) => Array.isArray(v.items) && v.items.length > 1 && v.items.reverse()) }, TOKENS, "pagination"],
  [
    "a dropped null entry",
    { wire: editValue((v) => Array.isArray(v.items) && (v.items = v.items.filter((i: unknown) => i !== null))) },
    { methods: ["getMultipleCompressedAccounts"] },
    "semantics",
  ],
  [
    "a balance that is not the sum",
    { wire: editValue((v) => Array.isArray(v.token_balances) && v.token_balances.forEach((b: any) => (b.balance = 1))) },
    { methods: ["getCompressedTokenBalancesByOwner"] },
    "semantics",
  ],
  [
    "limit over 1000 accepted",
    {
      wire: (b: any) =>
        b?.error && b.error.code === -32602 ? { jsonrpc: "2.0", result: { context: { slot: 1 }, value: { items: [], cursor: null } }, id: b.id } : b,
    },
    TOKENS,
    "errors",
  ],
  [
    "an omitted null (seq)",
    { wire: editValue((v) => Array.isArray(v.items) && v.items.forEach((i: any) => i?.account && delete i.account.seq)) },
    TOKENS,
    "schema",
  ],
  [
    "a pubkey of the wrong length",
    {
      wire: editValue((v) => Array.isArray(v.items) && v.items.forEach((i: any) => i?.tokenData && (i.tokenData.mint = "1111111111111111111111111111111"))),
    },
    TOKENS,
    "schema",
  ],
  [
    "Photon's balances bug: the cursor is ignored when mint is given",
    { handlers: (h) => ({ getCompressedTokenBalancesByOwner: (p, c) => h.getCompressedTokenBalancesByOwner(p.mint ? { ...p, cursor: null } : p, c) }) },
    { methods: ["getCompressedTokenBalancesByOwner"] },
    "pagination",
  ],
  [
    "Photon's accounts bug: ordered by leafIndex, paged by hash > cursor",
    {
      handlers: (h) => ({
        getCompressedAccountsByOwner: async (p, c) => {
          const all = await h.getCompressedAccountsByOwner({ ...p, cursor: null, limit: 1000 }, c);
          const limit = Number(p.limit ?? 1000);
          const after = p.cursor ? all.value.items.filter((a) => compareBase58Numbers(a.hash, p.cursor!) > 0) : all.value.items;
          const items = after.slice(0, limit);
          return { ...all, value: { items, cursor: items.length < limit || limit === 0 ? null : items[items.length - 1]!.hash } };
        },
      }),
    },
    { methods: ["getCompressedAccountsByOwner"] },
    "pagination",
  ],
  [
    "a handler that crashes",
    {
      handlers: () => ({
        getCompressedAccount: () => {
          throw new RpcError(-32000, "Internal server error");
        },
      }),
    },
    { methods: ["getCompressedAccount"] },
    "schema",
  ],
];

describe("the runner catches each defect with the named check", () => {
  it.each(defects.map(([name, defect, select, check]) => ({ name, defect, select, check })))(
    "$name → $check",
    async ({ defect, select, check }) => {
      const summary = await runAgainst(defect, select);
      expect(summary.passed).toBe(false);
      expect([...failedChecks(summary)]).toContain(check);
    },
    60_000,
  );
});

describe("a correct server is not failed", () => {
  it("with extra unknown fields: warnings, not failures; --strict fails them", async () => {
    const extra: Defect = {
      wire: editValue((v) => {
        v.newField = 1;
        if (Array.isArray(v.items)) v.items.forEach((i: any) => i && typeof i === "object" && (i.extra = true));
      }),
    };
    const lenient = await runAgainst(extra, TOKENS);
    expect(lenient.passed).toBe(true);
    expect(lenient.results.some((r) => r.findings.some((f) => f.status === "warn" && f.check === "schema"))).toBe(true);
    const strict = await runAgainst(extra, { ...TOKENS, strict: true });
    expect(strict.passed).toBe(false);
    expect([...failedChecks(strict)]).toEqual(["schema"]);
  }, 60_000);

  it("with reordered keys", async () => {
    const reorder = (x: unknown): unknown =>
      Array.isArray(x)
        ? x.map(reorder)
        : x && typeof x === "object"
          ? Object.fromEntries(
              Object.entries(x)
                .reverse()
                .map(([k, v]) => [k, reorder(v)]),
            )
          : x;
    const summary = await runAgainst({ wire: reorder }, TOKENS);
    expect(summary.results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual([]);
  }, 60_000);

  it("keeps u64 values above 2^53 exact (the dataset has them) and accepts them", async () => {
    const summary = await runAgainst({}, { methods: ["getCompressedTokenBalancesByOwner", "getCompressedAccount"] });
    expect(summary.passed).toBe(true);
  }, 60_000);
});

describe("--shard i/n", () => {
  // Enough cases with a context slot for the run-wide case to judge, and that case itself.
  const SELECTION = ["slot/*", "account/*", "run/*"];

  /** A run against the correct reference, with every progress total it reported. */
  async function counted(options: Partial<RunOptions>) {
    const totals = new Set<number>();
    const dones: number[] = [];
    const onResult = (_r: CaseResult, done: number, total: number) => (totals.add(total), dones.push(done));
    const summary = await runAgainst({}, { ...options, onResult });
    return { summary, ids: summary.results.map((r) => r.id), totals: [...totals], last: Math.max(...dones) };
  }

  it("the shards add up to the unsharded run, each case exactly once, the run-wide case in one shard", async () => {
    const whole = await counted({ caseGlobs: SELECTION });
    expect(whole.ids).toContain(SLOT_ORDER_ID);
    const shards = [];
    for (const index of [1, 2, 3]) shards.push(await counted({ caseGlobs: SELECTION, shard: { index, total: 3 } }));
    const union = shards.flatMap((s) => s.ids);
    expect(union.length).toBe(whole.ids.length);
    expect(new Set(union).size).toBe(union.length);
    expect([...union].sort()).toEqual([...whole.ids].sort());
    const holders = shards.filter((s) => s.ids.includes(SLOT_ORDER_ID));
    expect(holders).toHaveLength(1);
    // It judges its own shard's answers only.
    const wide = holders[0]!.summary.results.find((r) => r.id === SLOT_ORDER_ID)!;
    expect(wide.status).toBe("pass");
    const judged = Number(/^(\d+) context slots/.exec(wide.findings[0]!.message)![1]);
    expect(judged).toBeGreaterThan(0);
    expect(judged).toBeLessThan(holders[0]!.ids.length);
  }, 60_000);

  it("one count everywhere: progress, options.cases and the summary", async () => {
    for (const options of [{ caseGlobs: SELECTION }, { caseGlobs: SELECTION, shard: { index: 2, total: 3 } }, { caseGlobs: ["slot/*"] }]) {
      const r = await counted(options);
      expect(r.totals).toEqual([r.ids.length]);
      expect(r.last).toBe(r.ids.length);
      expect(r.summary.options.cases).toBe(r.ids.length);
      expect(Object.values(r.summary.counts).reduce((a, b) => a + b, 0)).toBe(r.ids.length);
    }
  }, 60_000);

  it("the run-wide case follows the selection: not with --method, with a --case glob only if it matches", () => {
    expect(selectsRunWide({})).toBe(true);
    expect(selectsRunWide({ methods: ["getIndexerSlot"] })).toBe(false);
    expect(selectsRunWide({ caseGlobs: ["account/*"] })).toBe(false);
    expect(selectsRunWide({ caseGlobs: ["run/*"] })).toBe(true);
    expect([1, 2, 3, 4, 5].filter((index) => selectsRunWide({ shard: { index, total: 5 } }))).toHaveLength(1);
  });
});
