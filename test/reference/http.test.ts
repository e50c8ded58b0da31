import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListener } from "../../generated/index.js";
import { U64_MAX } from "../../reference/records.js";
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { call, dataset, handlers, profile } from "./fixture.js";
import { expectedBalances } from "./oracles.js";

let server: Server;
let url: string;
const errors: unknown[] = [];

beforeAll(async () => {
  server = createServer(createListener(handlers, { validateResults: true, onError: (err) => errors.push(err) }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  expect(errors).toEqual([]);
});

async function post(body: unknown): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: stringifyJson(body) });
  const text = await res.text();
  return { status: res.status, text, json: parseJson(text) };
}

const rpc = (method: string, params?: unknown, id: unknown = 1) => post({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });

describe("reference handlers over HTTP", () => {
  it("serve results with u64 values written exactly", async () => {
    const { status, text, json } = await rpc("getCompressedAccount", { hash: profile.accountWithBigLamports.hash });
    expect(status).toBe(200);
    expect(text.startsWith('{"jsonrpc":"2.0","result":{"context":{"slot":')).toBe(true);
    expect(text).toContain('"lamports":18446744073709551615');
    expect(json.result.value.lamports).toBe(U64_MAX);
    expect(json.result.value).toEqual(call("getCompressedAccount", { hash: profile.accountWithBigLamports.hash }).value);
  });

  it("answer getIndexerSlot as stateless.js sends it (params [], id test-account)", async () => {
    const { json } = await rpc("getIndexerSlot", [], "test-account");
    expect(json).toEqual({ jsonrpc: "2.0", result: dataset.slot, id: "test-account" });
  });

  it("reject invalid params with -32602 before the handler, and semantic errors with -32000", async () => {
    const owner = profile.ownerWithManyAccounts.owner;
    expect((await rpc("getCompressedAccountsByOwner", { owner, limit: 1001 })).json.error.code).toBe(-32602);
    expect((await rpc("getCompressedAccountsByOwner", { owner, extra: 1 })).json.error.code).toBe(-32602);
    expect((await rpc("getCompressedAccountsByOwner", { owner: "0OIl" })).json.error.code).toBe(-32602);
    const invalid = await rpc("getCompressedAccountsByOwner", { owner, cursor: profile.unknownHash });
    expect([invalid.status, invalid.json.error]).toEqual([200, { code: -32000, message: "Validation Error: Invalid cursor" }]);
    const neither = await rpc("getCompressedAccount", {});
    expect(neither.json.error).toEqual({ code: -32000, message: "Validation Error: Either address or hash must be provided" });
  });

  it("page through balances with the returned cursor, and answer batches in order", async () => {
    const { owner } = profile.tokenOwnerWithManyMints;
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const { json } = await rpc("getCompressedTokenBalancesByOwner", { owner, limit: 7, ...(cursor === null ? {} : { cursor }) });
      seen.push(...json.result.value.token_balances);
      cursor = json.result.value.cursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(profile.tokenOwnerWithManyMints.mints);
    expect(seen).toEqual(expectedBalances(dataset, owner));
    const batch = await post([
      { jsonrpc: "2.0", id: "a", method: "getIndexerSlot" },
      { jsonrpc: "2.0", id: "b", method: "getMultipleCompressedAccounts", params: { hashes: [profile.knownHash, profile.spentHash] } },
    ]);
    expect(batch.json.map((r: { id: string }) => r.id)).toEqual(["a", "b"]);
    expect(batch.json[1].result.value.items.map((a: { hash: string } | null) => a?.hash ?? null)).toEqual([profile.knownHash, null]);
  });
});
