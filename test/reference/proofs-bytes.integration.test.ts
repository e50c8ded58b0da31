/**
 * Account proofs over HTTP with nothing kept (the result memo off, `keptProofBytes: 0`): each proof
 * is written for its answer, its JSON text joined by the forest and handed to the listener
 * (`CallContext.written`); the answer is the string path's, byte for byte, single or in a batch.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { Handlers } from "../../generated/index.js";
import { createListener } from "../../generated/index.js";
import { createReferenceHandlers } from "../../reference/handlers/index.js";
import { ReferenceStore } from "../../reference/store.js";
import { Forest } from "../../reference/trees/forest.js";
import type { CallContext } from "../../runtime/index.js";
import { stringifyJson } from "../../runtime/index.js";
import { dataset } from "./fixture.js";

const store = new ReferenceStore(dataset);
const handlers = createReferenceHandlers(store, {}, new Forest(dataset, { keptProofBytes: 0 })) as Required<Handlers>;
const ctx = {} as CallContext;

describe("account proofs written per answer (memo off, none kept)", () => {
  it("answers single calls and batches as the string path writes them", async () => {
    const v1 = new Set(dataset.trees.filter((t) => t.type === "StateV1").map((t) => t.tree));
    const hashes = dataset.accounts.filter((a) => v1.has(a.tree) && !a.spent).map((a) => a.hash);
    expect(hashes.length).toBeGreaterThan(40);
    const server: Server = createServer(createListener(handlers, { memoizeResults: false }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const post = async (body: string) => (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })).text();
      for (let k = 0; k < 5; k++) {
        const set = Array.from({ length: 8 }, (_, i) => hashes[(k * 5 + i * 7) % hashes.length] as string);
        const many = { jsonrpc: "2.0", id: k, method: "getMultipleCompressedAccountProofs", params: set };
        const one = { jsonrpc: "2.0", id: `s${k}`, method: "getCompressedAccountProof", params: { hash: set[0] } };
        const expectedMany = `{"jsonrpc":"2.0","result":${stringifyJson(handlers.getMultipleCompressedAccountProofs(set, ctx))},"id":${k}}`;
        const expectedOne = `{"jsonrpc":"2.0","result":${stringifyJson(handlers.getCompressedAccountProof({ hash: set[0] as string }, ctx))},"id":"s${k}"}`;
        expect(await post(stringifyJson(many))).toBe(expectedMany);
        expect(await post(stringifyJson(one))).toBe(expectedOne);
        expect(await post(stringifyJson([many, one]))).toBe(`[${expectedMany},${expectedOne}]`);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
