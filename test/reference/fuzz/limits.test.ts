/**
 * The reference indexer's request and response limits, and two server bugs the fuzzing found:
 * base58 decoding is quadratic, so over-long text is refused before it is decoded; a batch stops
 * running its elements once its answers pass the response limit.
 */
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJson } from "../../../runtime/index.js";
import { MAX_REQUEST_BYTES, profile, REQUEST_TIMEOUT_MS } from "./oracle.js";
import { expectHealthy, fuzzed, setQuiet, useFuzzServer } from "./server.js";

useFuzzServer();

describe("request size", () => {
  it("answers 413 (-32701) to a body over 10 MiB, declared or streamed, and 400 to exactly 10 MiB of whitespace", async () => {
    const post = async (body: Buffer | Readable) => {
      const res = await fuzzed().pool.request({
        path: "/",
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        headersTimeout: REQUEST_TIMEOUT_MS,
        bodyTimeout: REQUEST_TIMEOUT_MS,
      });
      return { status: res.statusCode, json: parseJson(await res.body.text()) as any };
    };
    function* chunks(total: number) {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let left = total; left > 0; left -= chunk.length) yield chunk.subarray(0, Math.min(left, chunk.length));
    }
    const tooBig = { jsonrpc: "2.0", error: { code: -32701, message: "Request is too big", data: `Exceeded max limit of ${MAX_REQUEST_BYTES}` }, id: null };
    // Declared with content-length: refused before the body is read.
    expect(await post(Buffer.alloc(MAX_REQUEST_BYTES + 1, 0x20))).toEqual({ status: 413, json: tooBig });
    // Chunked, no content-length: refused as soon as the limit is passed.
    expect(await post(Readable.from(chunks(MAX_REQUEST_BYTES + 1)))).toEqual({ status: 413, json: tooBig });
    // A real request of 10 MiB + 1 (a string id padded out), also refused.
    const padded = Buffer.from(`{"jsonrpc":"2.0","method":"getIndexerSlot","id":"${"x".repeat(MAX_REQUEST_BYTES)}"}`);
    expect(await post(padded)).toEqual({ status: 413, json: tooBig });
    // Exactly at the limit is read and parsed: all whitespace is HTTP 400 -32700.
    const atLimit = await post(Buffer.alloc(MAX_REQUEST_BYTES, 0x20));
    expect(atLimit).toEqual({ status: 400, json: { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null } });
  }, 30_000);
});

// Each was a real bug: stalled on a 1 MB cursor, or built a 550 MB batch answer before the limit.
describe("regressions found by fuzzing", () => {
  beforeAll(() => {
    setQuiet(true);
  });
  afterAll(() => {
    setQuiet(false);
  });

  async function post(body: string): Promise<{ status: number; json: any }> {
    const res = await fuzzed().pool.request({
      path: "/",
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      headersTimeout: 20_000,
      bodyTimeout: 20_000,
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: parseJson(text) };
  }

  // Decoded whole, a 1 MB cursor would block the event loop for tens of minutes; the request
  // timeout below (20 s, far above a normal answer) is the bound that would be hit.
  it("answers 1 MB base58 cursors with an error instead of decoding them", async () => {
    const cursor = "z".repeat(1_000_000);
    const signatures = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getCompressionSignaturesForTokenOwner", params: { owner: profile.ownerWithNoAccounts, cursor } }),
    );
    expect(signatures.status).toBe(200);
    expect(signatures.json.error).toMatchObject({ code: -32000, message: "Validation Error: Invalid cursor length. Expected 72. Received more than 72." });
    const tokens = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "getCompressedTokenAccountsByOwner", params: { owner: profile.ownerWithNoAccounts, cursor } }),
    );
    expect(tokens.json.error.code).toBe(-32602);
    const memcmp = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "getCompressedAccountsByOwner",
        params: { owner: profile.ownerWithNoAccounts, filters: [{ memcmp: { offset: 0, bytes: cursor } }] },
      }),
    );
    expect(memcmp.json.error.code).toBe(-32602);
  }, 60_000);

  // Built whole, 1,400 calls of one 1000-account page (a 160 KB body) made a 550 MB string:
  // HTTP 500 -32603; 12,000 of them exhausted the heap. Now the batch stops at the limit.
  it("answers a batch whose answer would pass the response limit with -32600, id null (DECISIONS #83)", async () => {
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getCompressedAccountsByOwner", params: { owner: profile.ownerWithManyAccounts.owner } });
    const answer = await post(`[${Array(1400).fill(call).join(",")}]`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid request" },
      id: null,
    });
  }, 60_000);
});

describe("afterwards", () => {
  expectHealthy();
});
