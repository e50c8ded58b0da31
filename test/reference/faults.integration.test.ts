/** The fault switches of startReferenceIndexer: a rate limit with Retry-After, and latency. */
import { describe, expect, it } from "vitest";
import { createClient } from "../../generated/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { ClientErrorCode, parseJson, postJson } from "../../runtime/index.js";

describe("fault switches", () => {
  it("--rate-limit answers HTTP 429 with a JSON-RPC error body and Retry-After, which a client waits out", async () => {
    const indexer = await startReferenceIndexer({ port: 0, accounts: 12_000, rateLimit: 2 });
    try {
      const body = '{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}';
      const answers = await Promise.all([1, 2, 3].map(() => postJson(indexer.url, body, { retry: false })));
      const limited = answers.filter((a) => a.status === 429);
      expect(limited).toHaveLength(1);
      expect(limited[0]!.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
      expect(parseJson(limited[0]!.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32429, message: "Exceeded rate limit." }, id: null });
      // Three calls in the same second as the three above: all limited, all retried after Retry-After.
      const client = createClient({ url: indexer.url, retry: { retries: 3, maxDelayMs: 2000 } });
      const slots = await Promise.all([client.getIndexerSlot(), client.getIndexerSlot(), client.getIndexerSlot()]);
      expect(slots).toEqual([indexer.store.slot, indexer.store.slot, indexer.store.slot]);
    } finally {
      await indexer.close();
    }
  }, 20_000);

  it("--latency delays every answer (a client with a shorter timeout gives up)", async () => {
    const indexer = await startReferenceIndexer({ port: 0, accounts: 12_000, latencyMs: 400 });
    try {
      const impatient = createClient({ url: indexer.url, timeoutMs: 50, retry: false });
      await expect(impatient.getIndexerSlot()).rejects.toMatchObject({ code: ClientErrorCode.TIMEOUT });
      const patient = createClient({ url: indexer.url, timeoutMs: 5000 });
      expect(await patient.getIndexerSlot()).toBe(indexer.store.slot);
    } finally {
      await indexer.close();
    }
  }, 20_000);
});
