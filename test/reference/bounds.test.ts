/**
 * The reference indexer under hostile requests: connections capped, an over-long number literal
 * refused before parsing (-32602, as serde would), a memcmp batch blocking no other connection.
 */
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListener, type Handlers } from "../../generated/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { parseJson } from "../../runtime/index.js";
import { dataset, handlers, profile } from "./fixture.js";

let server: Server;
let url: string;
let memcmpCalls = 0;

beforeAll(async () => {
  const counted: Handlers = {
    ...handlers,
    getCompressedAccountsByOwner: (params, ctx) => {
      memcmpCalls++;
      return handlers.getCompressedAccountsByOwner(params, ctx);
    },
  };
  server = createServer(createListener(counted));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function post(body: string): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await res.text();
  return { status: res.status, json: text === "" ? null : parseJson(text) };
}

describe("reference indexer bounds", () => {
  it("answers a 9 MiB number literal in params with -32602 naming the field, without parsing it", async () => {
    const owner = profile.ownerWithManyAccounts.owner;
    const long = "9".repeat(9 * 1024 * 1024);
    const one = await post(`{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${owner}","limit":${long}}}`);
    expect(one.status).toBe(200);
    expect(one.json.error.code).toBe(-32602);
    expect(one.json.error.data.issues[0].pointer).toBe("/limit");
    // In a batch only its own element fails; a long fraction is refused the same way.
    const batch = await post(
      `[{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${owner}","limit":1.${"0".repeat(100)}}},{"jsonrpc":"2.0","id":2,"method":"getIndexerSlot"}]`,
    );
    expect(batch.json[0].error.code).toBe(-32602);
    expect(batch.json[1].result).toBe(dataset.slot);
  });

  it("serves another connection while a 1.4 MiB batch of memcmp calls runs", async () => {
    const owner = profile.ownerWithManyAccounts.owner;
    const calls: string[] = [];
    for (let i = 0, size = 0; size < 1.4 * 1024 * 1024; i++) {
      // Distinct filters (no memo hit), matching nothing: every call scans all 2500 accounts.
      const bytes = `z${(i + 1).toString(36).replace(/[0lIO]/g, "z")}`;
      const c = `{"jsonrpc":"2.0","id":${i},"method":"getCompressedAccountsByOwner","params":{"owner":"${owner}","filters":[{"memcmp":{"offset":0,"bytes":"${bytes}"}}]}}`;
      calls.push(c);
      size += c.length + 1;
    }
    memcmpCalls = 0;
    const batch = post(`[${calls.join(",")}]`);
    while (memcmpCalls === 0) await new Promise<void>((r) => setImmediate(r));
    const other = await post(`{"jsonrpc":"2.0","id":"x","method":"getIndexerSlot"}`);
    expect(other.json.result).toBe(dataset.slot);
    expect(memcmpCalls).toBeLessThan(calls.length);
    const answers = (await batch).json as { result?: { value: { items: unknown[] } }; error?: unknown }[];
    expect(answers).toHaveLength(calls.length);
    // Every call ran within the default batch budget (each is a few byte comparisons per account).
    expect(answers.filter((a) => a.error !== undefined)).toEqual([]);
  });

  it("closes connections past maxConnections as they are accepted", async () => {
    const ix = await startReferenceIndexer({ data: dataset, port: 0, maxConnections: 2 });
    try {
      const port = Number(new URL(ix.url).port);
      const open = (): Promise<{ closed: Promise<void>; destroy: () => void }> =>
        new Promise((resolve) => {
          const s = connect(port, "127.0.0.1", () => resolve({ closed, destroy: () => s.destroy() }));
          s.on("error", () => {});
          const closed = new Promise<void>((r) => s.once("close", () => r()));
        });
      const held = [await open(), await open()];
      const third = await open();
      await third.closed; // closed by the server at once, nothing sent
      held[0]!.destroy();
      await held[0]!.closed;
      let answered = false;
      for (let i = 0; i < 50 && !answered; i++) {
        answered = await fetch(ix.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}`,
        }).then(
          (r) => r.ok,
          () => false,
        );
        if (!answered) await new Promise((r) => setTimeout(r, 10));
      }
      expect(answered).toBe(true);
      held[1]!.destroy();
    } finally {
      await ix.close();
    }
  });
});
