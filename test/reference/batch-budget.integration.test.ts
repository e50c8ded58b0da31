/**
 * The reference's batch time budget (the listener's default 2 s) holds against a slow prover: a
 * batch of validity proofs, each waiting on a prover that answers in 1.5 s, is answered once the
 * budget is spent (the first proof, the second cut in flight, the rest not run), not after every
 * prover call in turn.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MethodName } from "../../generated/index.js";
import type { AccountRecord, TreeRecord } from "../../reference/records.js";
import { startReferenceIndexer, type ReferenceIndexer } from "../../reference/serve.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { dataset } from "./fixture.js";

const PROVER_MS = 1500;
const hex = (v: bigint) => `0x${v.toString(16).padStart(64, "0")}`;
/** A gnark answer the reference converts: G = (1, 2) of BN254's G1 for A and C. */
const GNARK = JSON.stringify({
  ar: [hex(1n), hex(2n)],
  bs: [
    [hex(7n), hex(8n)],
    [hex(9n), hex(10n)],
  ],
  krs: [hex(1n), hex(2n)],
});

const validityMethod: MethodName = "getValidityProof";
const treeOf = (key: string) => dataset.trees.find((t) => t.tree === key) as TreeRecord;
const account = dataset.accounts.find((a) => !a.spent && treeOf(a.tree).type === "StateV1") as AccountRecord;

let prover: Server;
let reference: ReferenceIndexer;
let proverCalls = 0;

beforeAll(async () => {
  prover = createServer((req, res) => {
    proverCalls++;
    req.resume();
    req.on("end", () => setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(GNARK), PROVER_MS));
  });
  prover.listen(0, "127.0.0.1");
  await once(prover, "listening");
  const { port } = prover.address() as AddressInfo;
  reference = await startReferenceIndexer({ port: 0, data: dataset, proverUrl: `http://127.0.0.1:${port}` });
  // Trees built first: the budget is to be spent waiting on the prover, not hashing.
  await reference.warmed;
}, 120_000);

afterAll(async () => {
  // The call cut in flight still waits on the prover: let it end before the servers close.
  await new Promise((resolve) => setTimeout(resolve, PROVER_MS));
  await reference?.close();
  prover?.closeAllConnections();
  prover?.close();
});

describe("the reference's batch budget with a slow prover", () => {
  it("answers a batch of 6 validity proofs within the 2 s budget (plus the slice), not after 6 × 1.5 s", async () => {
    const batch = Array.from({ length: 6 }, (_, id) => ({ jsonrpc: "2.0", id, method: validityMethod, params: { hashes: [account.hash] } }));
    const res = await fetch(reference.url, { method: "POST", headers: { "content-type": "application/json" }, body: stringifyJson(batch) });
    const slots = parseJson(await res.text()) as { id: number; result?: unknown; error?: { code: number; message: string } }[];
    expect(slots.map((s) => s.id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slots[0]?.error).toBeUndefined();
    expect(slots[0]?.result).toMatchObject({ value: { leaves: [account.hash] } });
    expect(slots[1]?.error).toEqual({ code: -32000, message: "Batch time budget of 2000 ms spent: call not finished" });
    for (const s of slots.slice(2)) expect(s.error).toEqual({ code: -32000, message: "Batch time budget of 2000 ms spent: call not run" });
    expect(proverCalls).toBe(2);
  }, 30_000);
});
