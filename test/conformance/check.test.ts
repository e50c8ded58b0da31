/**
 * `photon-conformance check FILE`: captured traffic mixing valid exchanges (real answers of
 * the reference indexer), schema violations, bad envelopes and malformed lines.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../conformance/cli.js";
import { checkFile } from "../../conformance/check.js";
import type { CallContext } from "../../runtime/index.js";
import { createReferenceHandlers, datasetProfile, generateDataset, ReferenceStore } from "../../reference/index.js";
import { parseJson, RpcError, stringifyJson } from "../../runtime/index.js";
import { scratch } from "../helpers/paths.js";

const dir = join(scratch, "check");
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
  const ignoredMint = parseJson(await exchange(8, "getCompressedTokenAccountsByOwner", { owner: t.owner, mint: t.mint })) as { request: { params: { mint: string } } };
  ignoredMint.request.params.mint = profile.tokenOwnerWith1000TokenAccounts.mint;
  lines.push(
    { kind: "ok", text: await exchange(1, "getCompressedTokenAccountsByOwner", { owner: t.owner, mint: t.mint }) },
    { kind: "ok", text: await exchange(2, "getCompressedAccount", { hash: profile.knownHash }) },
    { kind: "ok", text: await exchange(3, "getMultipleCompressedAccounts", { hashes: [profile.knownHash, profile.unknownHash, profile.knownHash] }) },
    { kind: "ok", text: await exchange(4, "getCompressedTokenBalancesByOwner", { owner: profile.tokenOwnerWithBigAmounts.owner }) },
    { kind: "ok", text: await exchange(5, "getCompressedAccount", {}) }, // a -32000 error answer is a valid exchange
    { kind: "ok", text: await exchange(6, "getIndexerSlot", undefined) },
    { kind: "bad", check: "schema", text: await exchange(7, "getCompressedAccount", { hash: profile.knownHash }, (r) => ({ ...r, value: { ...r.value, lamports: "5" } })) },
    { kind: "bad", check: "semantics", text: stringifyJson(ignoredMint) },
    { kind: "bad", check: "envelope", text: `{"request":{"jsonrpc":"2.0","id":9,"method":"getIndexerSlot"},"response":{"jsonrpc":"2.0","result":5,"id":10}}` },
    { kind: "bad", check: "input", text: `{"request": {"jsonrpc":` },
    { kind: "bad", check: "input", text: `{"response":{"jsonrpc":"2.0","result":5,"id":1}}` },
    { kind: "bad", check: "semantics", text: await exchange(12, "getMultipleCompressedAccounts", { hashes: [profile.knownHash, profile.unknownHash] }, (r) => ({ ...r, value: { items: r.value.items.filter((i: unknown) => i !== null) } })) },
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
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
    let out = "";
    const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
    const e = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const junit = join(dir, "check.xml");
    try {
      expect(await main(["check", file, "--reporter", "junit", "--output", junit, "--reporter", "console"])).toBe(1);
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
    const xml = readFileSync(junit, "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(lines.length);
    expect(xml).toContain('<testcase name="line-7"');
    expect(xml).toMatch(/<testcase name="line-9"[^>]*>\s*<failure type="envelope"/);
    expect(out).toContain("VERDICT: NOT CONFORMANT");
  });

  it("exits 0 on clean traffic and 2 on a missing file", async () => {
    const clean = join(dir, "clean.jsonl");
    writeFileSync(clean, lines.filter((l) => l.kind === "ok").map((l) => l.text).join("\n"));
    const o = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const e = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await main(["check", clean])).toBe(0);
      expect(await main(["check", join(dir, "absent.jsonl")])).toBe(2);
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
  });
});
