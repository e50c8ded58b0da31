/**
 * `diff` judges in time linear in the answers' size: two scripted indexers answer one large
 * getMultipleNewAddressProofs at different slots and root sequences, so every one of about
 * 190,000 paths differs in a field that moves with the root. A judgement looking each difference
 * up in the whole answer again (quadratic) would take hours here; a linear one, seconds.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffTargets } from "../../conformance/compare.js";
import { stringifyJson } from "../../runtime/index.js";
import { useScratch } from "../helpers/scratch.js";

const ITEMS = 4000;
const SIBLINGS = 40;

/** A base58-looking 44-character value, distinct per (side, n). */
const b58 = (side: number, n: number) => `${side}${String(n).padStart(12, "1")}`.padEnd(44, "A").replace(/0/g, "z");

/** One side's answer: each proof at `rootSeq`, its root, siblings and low element drawn from `side`. */
function proofs(side: number, rootSeq: number): unknown[] {
  return Array.from({ length: ITEMS }, (_, i) => ({
    address: b58(9, i),
    higherRangeAddress: b58(side, i * 3 + 1),
    lowElementLeafIndex: i + side,
    lowerRangeAddress: b58(side, i * 3 + 2),
    merkleTree: b58(8, 0),
    nextIndex: i + side + 1,
    proof: Array.from({ length: SIBLINGS }, (_, k) => b58(side, i * SIBLINGS + k + 7)),
    root: b58(side, 0),
    rootSeq,
  }));
}

/** A JSON-RPC server answering every request with the same result at `slot`, its id echoed. */
async function scripted(slot: number, value: unknown[]): Promise<{ url: string; close(): Promise<void> }> {
  const result = stringifyJson({ context: { slot }, value } as never);
  const server: Server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => {
      const id = /"id":\s*(\d+|"[^"]*")/.exec(text)?.[1] ?? "null";
      const body = `{"jsonrpc":"2.0","id":${id},"result":${result}}`;
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

const dir = useScratch("compare-linear");

describe("diff's judgement is linear in the answers' size", () => {
  let ahead: Awaited<ReturnType<typeof scripted>>;
  let behind: Awaited<ReturnType<typeof scripted>>;
  beforeAll(async () => {
    ahead = await scripted(2_000, proofs(1, 501));
    behind = await scripted(1_000, proofs(2, 500));
    mkdirSync(join(dir, "cases", "big"), { recursive: true });
    writeFileSync(
      join(dir, "cases", "big", "proofs.yaml"),
      'description: "A large answer whose every proof moved with the root."\nmethod: getMultipleNewAddressProofs\nparams: ["11111111111111111111111111111111"]\nexpect:\n  result:\n    context.slot: {type: uint64}\n',
    );
  });
  afterAll(async () => {
    await ahead?.close();
    await behind?.close();
  });

  it("gives a verdict on an answer whose every proof moved: inconclusive, one side ahead", async () => {
    const summary = await diffTargets({ url: ahead.url, against: behind.url, casesDir: join(dir, "cases"), fixtures: {} as never, timeoutMs: 60_000 });
    const r = summary.results.find((x) => x.id === "big/proofs")!;
    expect(r.status).toBe("warn");
    expect(r.findings[0]!.message).toMatch(/^inconclusive: the answers differ only in fields that move with the tree's root/);
    // Every differing path was classified; at most 20 are listed, then the count of the rest.
    const more = r.findings.find((f) => /^…and \d+ more differences/.test(f.message))!;
    expect(Number(/\d+/.exec(more.message)![0]) + 20).toBe(ITEMS * (SIBLINGS + 6));
  }, 240_000);
});
