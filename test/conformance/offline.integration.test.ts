/**
 * `photon-conformance check FILE`: captured traffic mixing valid exchanges (real answers of
 * the reference indexer), schema violations, bad envelopes and malformed lines.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../conformance/cli/main.js";
import { CHECK_BOUNDS, checkFile, linesOf } from "../../conformance/offline.js";
import type { CaseResult } from "../../conformance/results.js";
import { renderReport as render } from "../../conformance/reporters/index.js";
import type { CallContext } from "../../runtime/index.js";
import { createReferenceHandlers, datasetProfile, generateDataset, ReferenceStore } from "../../reference/index.js";
import { parseJson, type RpcError, stringifyJson } from "../../runtime/index.js";
import { captured } from "../helpers/capture.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("check");
const file = join(dir, "traffic.jsonl");
const ctx = {} as CallContext;

/** Line number (1-based) → what the line is, for the assertions. */
const lines: { kind: "ok" | "bad"; check?: string; text: string }[] = [];

beforeAll(async () => {
  const dataset = generateDataset();
  const profile = datasetProfile(dataset);
  const h = createReferenceHandlers(new ReferenceStore(dataset));
  const exchange = async (id: number, method: string, params: any, answer?: (r: any) => any) => {
    let response: unknown;
    try {
      const result = await (h as any)[method](params, ctx);
      response = { jsonrpc: "2.0", result: answer ? answer(result) : result, id };
    } catch (err) {
      response = { jsonrpc: "2.0", error: (err as RpcError).toJSON(), id };
    }
    return stringifyJson({ request: { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }, response });
  };
  const t = profile.tokenOwnerWithManyMints;
  // An answer that ignores the mint filter: the request asks for another mint than the items carry.
  const ignoredMint = parseJson(await exchange(8, "getCompressedTokenAccountsByOwner", { owner: t.owner, mint: t.mint })) as {
    request: { params: { mint: string } };
  };
  ignoredMint.request.params.mint = profile.tokenOwnerWith1000TokenAccounts.mint;
  lines.push(
    { kind: "ok", text: await exchange(1, "getCompressedTokenAccountsByOwner", { owner: t.owner, mint: t.mint }) },
    { kind: "ok", text: await exchange(2, "getCompressedAccount", { hash: profile.knownHash }) },
    { kind: "ok", text: await exchange(3, "getMultipleCompressedAccounts", { hashes: [profile.knownHash, profile.unknownHash, profile.knownHash] }) },
    { kind: "ok", text: await exchange(4, "getCompressedTokenBalancesByOwner", { owner: profile.tokenOwnerWithBigAmounts.owner }) },
    { kind: "ok", text: await exchange(5, "getCompressedAccount", {}) }, // a -32000 error answer is a valid exchange
    { kind: "ok", text: await exchange(6, "getIndexerSlot", undefined) },
    {
      kind: "bad",
      check: "schema",
      text: await exchange(7, "getCompressedAccount", { hash: profile.knownHash }, (r) => ({ ...r, value: { ...r.value, lamports: "5" } })),
    },
    { kind: "bad", check: "semantics", text: stringifyJson(ignoredMint) },
    { kind: "bad", check: "envelope", text: `{"request":{"jsonrpc":"2.0","id":9,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":5,"id":10}}` },
    { kind: "bad", check: "input", text: `{"request": {"jsonrpc":` },
    { kind: "bad", check: "input", text: `{"response":{"jsonrpc":"2.0","result":5,"id":1}}` },
    {
      kind: "bad",
      check: "semantics",
      text: await exchange(12, "getMultipleCompressedAccounts", { hashes: [profile.knownHash, profile.unknownHash] }, (r) => ({
        ...r,
        value: { items: r.value.items.filter((i: unknown) => i !== null) },
      })),
    },
  );
  writeFileSync(file, lines.map((l) => l.text).join("\n") + "\n\n");
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("check FILE", () => {
  it("judges each line as one case and reports malformed lines by number", async () => {
    const summary = await checkFile({ file });
    expect(summary.results).toHaveLength(lines.length);
    lines.forEach((line, i) => {
      const result = summary.results[i]!;
      expect(result.id).toBe(`line-${i + 1}`);
      const failed = result.findings.filter((f) => f.status === "fail").map((f) => f.check);
      if (line.kind === "ok") expect(failed, `line ${i + 1}: ${result.findings.map((f) => f.message).join("; ")}`).toEqual([]);
      else expect(failed, `line ${i + 1}`).toContain(line.check);
    });
    expect(summary.results[9]!.findings[0]!.message).toMatch(/^line 10: not valid JSON/);
    expect(summary.passed).toBe(false);
  });

  it("exits 1 and writes one JUnit testcase per exchange, a failure per failed check", async () => {
    const junit = join(dir, "check.xml");
    const { code, stdout: out } = await captured(main, ["check", file, "--reporter", "junit", "--output", junit, "--reporter", "console"]);
    expect(code).toBe(1);
    const xml = readFileSync(junit, "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(lines.length);
    expect(xml).toContain('<testcase name="line-7"');
    expect(xml).toMatch(/<testcase name="line-9"[^>]*>\s*<failure type="envelope"/);
    expect(out).toContain("VERDICT: NOT CONFORMANT");
  });

  it("exits 0 on clean traffic and 2 on a missing file", async () => {
    const clean = join(dir, "clean.jsonl");
    writeFileSync(
      clean,
      lines
        .filter((l) => l.kind === "ok")
        .map((l) => l.text)
        .join("\n"),
    );
    expect((await captured(main, ["check", clean])).code).toBe(0);
    expect((await captured(main, ["check", join(dir, "absent.jsonl")])).code).toBe(2);
  });
});

describe("check FILE stays bounded", () => {
  const okLine = () => lines.find((l) => l.kind === "ok")!.text;

  it("a line longer than the 16 MiB cap is a finding naming it; the lines around it are checked", async () => {
    const huge = join(dir, "huge-line.jsonl");
    const big = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","id":1,"result":"${"a".repeat(17 * 1024 * 1024)}"}}`;
    writeFileSync(huge, [okLine(), big, okLine()].join("\n") + "\n");
    const summary = await checkFile({ file: huge });
    expect(summary.results.map((r) => [r.id, r.status])).toEqual([
      ["line-1", "pass"],
      ["line-2", "fail"],
      ["line-3", "pass"],
    ]);
    expect(summary.results[1]!.findings).toEqual([
      expect.objectContaining({
        check: "input",
        status: "fail",
        message: `line 2: longer than the 16 MiB line cap (${Buffer.byteLength(big)} bytes): not parsed`,
      }),
    ]);
  }, 30_000);

  it("splits lines over chunk boundaries, CRLF included, and drops an over-long line's bytes", async () => {
    async function* chunks(...parts: string[]) {
      for (const p of parts) yield Buffer.from(p);
    }
    const got = [];
    for await (const line of linesOf(chunks("ab", "c\r\nde", "f", "ghijk", "lmn\nx", "y\n\nz"), 8)) got.push(line);
    expect(got).toEqual([
      { n: 1, text: "abc" },
      { n: 2, tooLong: 11 }, // "defghijklmn"
      { n: 3, text: "xy" },
      { n: 4, text: "" },
      { n: 5, text: "z" },
    ]);
  });

  it("is done with each chunk before asking for the next: a source refilling one buffer gives the same lines", async () => {
    const text = "first line\nsecond, longer than a block\r\n\nlast";
    async function* refilled(size: number) {
      const block = Buffer.alloc(size);
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; at += size) {
        const n = bytes.copy(block, 0, at, at + size);
        yield block.subarray(0, n);
        block.fill(0x3f); // overwritten once asked for the next block
      }
    }
    for (const size of [1, 3, 7, 64]) {
      const got = [];
      for await (const line of linesOf(refilled(size), 1024)) got.push(line);
      expect(got).toEqual([
        { n: 1, text: "first line" },
        { n: 2, text: "second, longer than a block" },
        { n: 3, text: "" },
        { n: 4, text: "last" },
      ]);
    }
  });

  it("unreadable input exits 2 naming the file, never 1 and never a crash: a directory, a missing file, a read error", async () => {
    let err = "";
    const check = async (file: string) => {
      const r = await captured(main, ["check", file]);
      err += r.stderr;
      return r.code;
    };
    expect(await check(dir)).toBe(2);
    expect(await check(join(dir, "absent.jsonl"))).toBe(2);
    expect(await check("/proc/self/mem")).toBe(2); // opens, then EIO on the first read
    expect(err).toContain(`${dir}: cannot read the captured traffic: not a file`);
    expect(err).toContain("absent.jsonl: cannot read the captured traffic: ENOENT");
    expect(err).toContain("/proc/self/mem: cannot read the captured traffic: EIO");
    expect(err).not.toContain("unexpected error");
  });

  it("memory is flat in the number of lines: a bounded list of results, every line counted", async () => {
    const N = 200_000;
    const many = join(dir, "many.jsonl");
    const good = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":301002501,"id":1}}\n`;
    const bad = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":301002501,"id":2}}\n`;
    writeFileSync(many, Array.from({ length: N }, (_, i) => (i % 50 === 49 ? bad : good)).join(""));
    let seen = 0;
    const summary = await checkFile({ file: many, onResult: () => void seen++ });
    expect(seen).toBe(N);
    expect(summary.counts).toEqual({ pass: N - N / 50, fail: N / 50, warn: 0, skip: 0, notRun: 0 });
    expect(summary.passed).toBe(false);
    // The first 1000 cases whatever their status, then failures up to 1000 more; the rest counted.
    expect(summary.results.length).toBe(CHECK_BOUNDS.listedFirst + CHECK_BOUNDS.listedProblems);
    expect(summary.results.slice(CHECK_BOUNDS.listedFirst).every((r) => r.status === "fail")).toBe(true);
    expect(summary.tally).toEqual({
      cases: N,
      unlisted: N - summary.results.length,
      byMethod: { getIndexerSlot: { pass: N - N / 50, fail: N / 50, warn: 0, skip: 0, notRun: 0 } },
      byCheck: expect.objectContaining({ envelope: expect.objectContaining({ fail: N / 50 }) }),
    });
    // Reports count every line judged and say how many they list.
    const text = render("console", summary, null);
    expect(text).toContain(`${N} cases (${summary.results.length} listed): ${N - N / 50} passed, ${N / 50} failed`);
    expect(render("markdown", summary, null)).toMatch(new RegExp(`\\| \`getIndexerSlot\` \\| ${N - N / 50} \\| ${N / 50} \\|`));
  }, 60_000);

  it("lists copies of the judged results, equal to what onResult saw (the judging's own objects die young)", async () => {
    const few = join(dir, "few.jsonl");
    const good = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":301002501,"id":1}}\n`;
    const bad = `{"request":{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":"x","id":2}}\n`;
    writeFileSync(few, good + bad + good);
    const judged: CaseResult[] = [];
    const summary = await checkFile({ file: few, onResult: (r) => void judged.push(r) });
    expect(summary.results).toEqual(judged);
    expect(summary.results.map((r) => r.status)).toEqual(["pass", "fail", "pass"]);
    for (const [i, r] of summary.results.entries()) {
      expect(r).not.toBe(judged[i]);
      expect(r.findings).not.toBe(judged[i]!.findings);
      for (const [j, f] of r.findings.entries()) {
        expect(f).not.toBe(judged[i]!.findings[j]);
        expect(Object.keys(f)).toEqual(Object.keys(judged[i]!.findings[j]!));
      }
    }
  });
});
