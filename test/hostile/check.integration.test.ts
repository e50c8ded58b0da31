/**
 * The checks' work on a hostile answer is bounded: oversized number literals refused, findings
 * capped with a count of the rest, proof roots rendered once, no target-sized list spread as arguments.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { BoundedFindings, MAX_FINDINGS_PER_ANSWER, MAX_FINDINGS_PER_CASE } from "../../conformance/bounded-findings.js";
import { MAX_FOLDS, MAX_VALIDITY_ENTRIES } from "../../conformance/checks/proofs.js";
import { MAX_PROOFS } from "../../conformance/checks/proof-shapes.js";
import { hash2 } from "../../conformance/checks/root-ledger.js";
import type { ConformanceCase } from "../../conformance/case-format.js";
import { differences } from "../../conformance/compare.js";
import { judge } from "../../conformance/judge.js";
import type { Exchange, Finding } from "../../conformance/results.js";
import { defaultSpec } from "../../conformance/spec-bundle.js";
import { checkFile } from "../../conformance/offline.js";
import { encodeBase58, MAX_NUMBER_CHARS } from "../../runtime/index.js";
import { useScratch } from "../helpers/scratch.js";
import { rssSampler } from "./harness.js";

/** Every `show` of the checks, counted by the size of what it renders (a whole list of roots, or one value). */
const renders = vi.hoisted(() => ({ lists: 0 }));
vi.mock("../../conformance/checks/check.js", async (original) => {
  const real = await original<typeof import("../../conformance/checks/check.js")>();
  return {
    ...real,
    show: (value: unknown, max?: number) => {
      if (Array.isArray(value) && value.length > 100) renders.lists++;
      return real.show(value, max);
    },
  };
});

const MiB = 1024 * 1024;
const dir = useScratch("hostile-check");

/** One captured exchange: a proof list call answered with `result`'s text. */
const exchange = (result: string): string =>
  `{"request":{"jsonrpc":"2.0","id":1,"method":"getMultipleCompressedAccountProofs","params":["1"]},"response":{"jsonrpc":"2.0","id":1,"result":${result}}}`;
const slotLine = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":301002501,"id":1}}`;

/** `n` small objects shaped like account proofs (each fails: no siblings). */
const proofShaped = (n: number): string =>
  `{"context":{"slot":1},"value":[${'{"hash":"1","proof":[],"root":"1","leafIndex":0},'.repeat(n - 1)}{"hash":"1","proof":[],"root":"1","leafIndex":0}]}`;

function write(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe("a number literal longer than any valid one is refused unparsed (item 3)", () => {
  it("check: the line holding a 15,000,000-digit number fails naming it; the next line is checked", async () => {
    const file = write("long-number.jsonl", [slotLine.replace("301002501", "9".repeat(15_000_000)), slotLine]);
    const summary = await checkFile({ file });
    expect(summary.results.map((r) => [r.id, r.status])).toEqual([
      ["line-1", "fail"],
      ["line-2", "pass"],
    ]);
    expect(summary.results[0]!.findings).toEqual([
      expect.objectContaining({
        check: "input",
        status: "fail",
        message: `line 1: not valid JSON: a number literal of 15000000 characters at character ${slotLine.indexOf("301002501")}: longer than the ${MAX_NUMBER_CHARS} any valid value needs (u64: 20, f64: 24); not parsed`,
      }),
    ]);
  }, 60_000);
});

describe("findings are bounded per answer and per case (item 19)", () => {
  it("keeps the first findings, then one per check giving the count left out with the worst status among them", () => {
    const list = new BoundedFindings(2, "answer");
    const f = (status: Finding["status"]): Finding => ({ check: "c", status, message: status });
    for (const s of ["pass", "skip", "skip", "warn", "pass"] as const) list.add(f(s));
    list.add({ check: "d", status: "fail", message: "x" });
    expect(list.done()).toEqual([
      f("pass"),
      f("skip"),
      { check: "c", status: "warn", message: "3 more findings left out (0 failing): at most 2 per answer" },
      { check: "d", status: "fail", message: "1 more finding left out (1 failing): at most 2 per answer" },
    ]);
    expect(list.failed).toBe(true);
  });

  it("check: one answer of 300,000 proof-shaped objects is judged, never crashing, its findings bounded and counted", async () => {
    const summary = await checkFile({ file: write("300k.jsonl", [exchange(proofShaped(300_000))]) });
    const [c] = summary.results;
    expect(c!.status).toBe("fail");
    const proofs = c!.findings.filter((f) => f.check === "proofs");
    expect(proofs.some((f) => f.message.includes("could not run"))).toBe(false);
    expect(c!.findings.length).toBeLessThanOrEqual(MAX_FINDINGS_PER_CASE);
    expect(proofs.length).toBeLessThanOrEqual(MAX_FINDINGS_PER_ANSWER + 4);
    expect(proofs).toContainEqual({
      check: "proofs",
      status: "skip",
      message: `${300_000 - MAX_PROOFS} more proofs were not judged (at most ${MAX_PROOFS} per answer)`,
    });
    expect(proofs).toContainEqual({
      check: "proofs",
      status: "fail",
      message: `${MAX_PROOFS - MAX_FINDINGS_PER_ANSWER} more findings left out (${MAX_PROOFS - MAX_FINDINGS_PER_ANSWER} failing): at most ${MAX_FINDINGS_PER_ANSWER} per answer`,
    });
  }, 60_000);

  it("check: ten answers of 100,000 proof-shaped objects each stay far below what their findings would take", async () => {
    const file = write(
      "10x100k.jsonl",
      Array.from({ length: 10 }, () => exchange(proofShaped(100_000))),
    );
    const rss = rssSampler();
    const summary = await checkFile({ file });
    const growth = rss.stop();
    expect(summary.results).toHaveLength(10);
    for (const r of summary.results) expect(r.findings.length).toBeLessThanOrEqual(MAX_FINDINGS_PER_ANSWER + 8);
    // Unbounded, their million findings took over 1 GB; each 4.9 MB line parses to ~100 MB of objects.
    expect(growth).toBeLessThan(400 * MiB);
  }, 120_000);
});

describe("no list as long as the target makes it is spread as call arguments (item 19)", () => {
  it("diff: 300,000 differences inside one item are listed, not a stack overflow", () => {
    const n = 300_000;
    const paths = differences([Array.from({ length: n }, (_, i) => i)], [Array.from({ length: n }, (_, i) => i + 1)], new Set());
    expect(paths).toHaveLength(n);
    expect(paths[n - 1]).toBe(`0.${n - 1}`);
  });

  it("semantics: a sum whose 100,000 totals and 100,000 parts all disagree is judged and bounded per case", async () => {
    const { methods } = defaultSpec;
    const info = Object.values(methods).find((m) => m.sums && m.pagination)!;
    const sums = info.sums!;
    const n = 100_000;
    /** One page of `n` items holding `key` and `sum` at their dotted paths, and no next cursor. */
    const page = (method: string, key: string, sum: string, tag: string): Exchange => {
      const m = methods[method]!;
      const items = Array.from({ length: n }, (_, i) => {
        const item: Record<string, unknown> = {};
        for (const [path, value] of [
          [key, `${tag}${i}`],
          [sum, 1],
        ] as const) {
          const steps = path.split(".");
          let node = item;
          for (const step of steps.slice(0, -1)) node = (node[step] ??= {}) as Record<string, unknown>;
          node[steps[steps.length - 1]!] = value;
        }
        return item;
      });
      const value = { [m.pagination!.items]: items, [m.pagination!.cursor]: null };
      const body = { jsonrpc: "2.0", id: 1, result: m.hasContext ? { context: { slot: 1 }, value } : value };
      return {
        request: { method: "POST", url: "(test)", headers: {}, body: "" },
        status: 200,
        headers: {},
        text: "",
        bytes: 1,
        body,
        parseError: null,
        error: null,
        startedAt: 0,
        durationMs: 0,
        attempts: 1,
      };
    };
    const target = {
      display: "(test)",
      call: async (method: string) => (method === info.name ? page(method, sums.key.field, sums.sum.field, "a") : page(method, sums.key.of, sums.sum.of, "b")),
    };
    const own = await target.call(info.name);
    const testCase = {
      id: "sums",
      method: info.name,
      description: "",
      params: Object.fromEntries(sums.params.map((p) => [p, "owner"])),
      http: null,
      expect: {
        status: 200,
        error: null,
        result: null,
        every: null,
        semantics: ["balances-sum"],
        paginate: [],
        emptyBody: false,
        batch: null,
        contentType: "application/json",
        envelope: true,
        body: undefined,
      },
      required: true,
      recorded: null,
      tags: [],
      skip: null,
    } as unknown as ConformanceCase;
    const findings = await judge(testCase, own, target, { strict: false, requestId: 1 });
    const semantics = findings.filter((f) => f.check === "semantics");
    expect(semantics.some((f) => f.message.includes("could not run"))).toBe(false);
    expect(findings.length).toBeLessThanOrEqual(MAX_FINDINGS_PER_CASE + 8);
    expect(semantics).toContainEqual(
      expect.objectContaining({ status: "fail", message: expect.stringMatching(/^\d+ more findings left out \(\d+ failing\): at most 200 per case$/) }),
    );
  }, 60_000);
});

describe("the proofs check's work on one answer is linear and bounded (item 20)", () => {
  /** Base58 of 32 bytes below the BN254 field (a zero first byte), distinct per seed. */
  const key = (seed: number): string => {
    const bytes = new Uint8Array(32);
    for (let i = 1; i < 32; i++) bytes[i] = (seed >>> ((i % 4) * 8)) & 0xff;
    bytes[31] = 1;
    return encodeBase58(bytes);
  };

  it("3,000 proofs of one tree with distinct roots and a validity proof of 30,000 entries: roots rendered once, folds and findings capped", async () => {
    // A fresh proofs.js renders through the counting `show`, even if another test file loaded it first.
    vi.resetModules();
    const { proofFindings } = await import("../../conformance/checks/proofs.js");
    const tree = key(0xabcdef);
    const siblings = Array.from({ length: 26 }, (_, i) => key(1_000_000 + i));
    const proofs = Array.from({ length: 3000 }, (_, i) => ({
      hash: key(i),
      proof: siblings,
      root: key(10_000 + i),
      leafIndex: i,
      merkleTree: tree,
      rootSeq: i,
    }));
    const n = 30_000;
    const validity = {
      compressedProof: null,
      roots: Array.from({ length: n }, (_, i) => key(100_000 + i)),
      rootIndices: Array.from({ length: n }, () => 0),
      leafIndices: Array.from({ length: n }, (_, i) => i),
      leaves: Array.from({ length: n }, (_, i) => key(200_000 + i)),
      merkleTrees: Array.from({ length: n }, () => tree),
    };
    let hashes = 0;
    const counted = (a: bigint, b: bigint) => (hashes++, hash2(a, b));
    renders.lists = 0;
    // The validity proof first: with it, 999 proofs fill the MAX_PROOFS objects judged.
    const findings = proofFindings({ context: { slot: 1 }, validity, proofs }, counted);
    // The roots of the tree's proofs (999 judged) are rendered once, not once per validity entry.
    expect(renders.lists).toBe(1);
    expect(hashes).toBeLessThanOrEqual(MAX_FOLDS * 26);
    expect(findings.length).toBeLessThanOrEqual(MAX_FINDINGS_PER_ANSWER + 4);
    expect(findings.map((f) => f.message)).toEqual(
      expect.arrayContaining([
        `${3000 + 1 - MAX_PROOFS} more proofs were not judged (at most ${MAX_PROOFS} per answer)`,
        `${n - MAX_VALIDITY_ENTRIES} more validity-proof entries were not judged (at most ${MAX_VALIDITY_ENTRIES} per answer)`,
        expect.stringMatching(/^\d+ more findings left out \(\d+ failing\): at most 100 per answer$/),
      ]),
    );
    for (const f of findings) expect(`${f.expected ?? ""}${f.actual ?? ""}`.length).toBeLessThan(400);
  }, 60_000);
});
