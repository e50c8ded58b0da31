import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { Handlers, Result } from "../../generated/index.js";
import { createListener } from "../../generated/index.js";
import { createReferenceHandlers } from "../../reference/handlers/index.js";
import { ReferenceStore } from "../../reference/store.js";
import type { CallContext } from "../../runtime/index.js";
import { isEncoded, stringifyJson } from "../../runtime/index.js";
import { dataset, expectedOwnerAccounts, profile, wire } from "./fixture.js";

// A store of its own: its item cache starts empty here, whatever other tests ran.
const store = new ReferenceStore(dataset);
const handlers = createReferenceHandlers(store) as Required<Handlers>;
const byOwner = (params: Parameters<Required<Handlers>["getCompressedAccountsByOwner"]>[0]) =>
  handlers.getCompressedAccountsByOwner(params, ctx) as Result<"getCompressedAccountsByOwner">;
const ctx = {} as CallContext;
/** A deep copy with plain data only (bigints kept, kept JSON text dropped): what the uncached handlers returned. */
const plain = <T>(value: T): T => structuredClone(value);

type Page = { value: { items: unknown[]; cursor: string | null } };
const calls: [string, (cursor: string | null) => Page][] = [
  [
    "getCompressedAccountsByOwner",
    (cursor) => handlers.getCompressedAccountsByOwner({ owner: profile.ownerWithManyAccounts.owner, limit: 700, cursor }, ctx) as Page,
  ],
  [
    "getCompressedAccountsByOwnerV2",
    (cursor) => handlers.getCompressedAccountsByOwnerV2({ owner: profile.ownerWithManyAccounts.owner, limit: 700, cursor }, ctx) as Page,
  ],
  [
    "getCompressedTokenAccountsByOwner",
    (cursor) => handlers.getCompressedTokenAccountsByOwner({ owner: profile.tokenOwnerWithBigAmounts.owner, cursor }, ctx) as Page,
  ],
  [
    "getCompressedTokenAccountsByOwnerV2",
    (cursor) => handlers.getCompressedTokenAccountsByOwnerV2({ owner: profile.tokenOwnerWithBigAmounts.owner, cursor }, ctx) as Page,
  ],
  [
    "getCompressedTokenAccountsByDelegate",
    (cursor) => handlers.getCompressedTokenAccountsByDelegate({ delegate: profile.delegateWithManyAccounts.delegate, cursor }, ctx) as Page,
  ],
];

describe("pages of cached items (each record's item built once, its JSON kept)", () => {
  it.each(calls)("%s: every page, cold and warm, is byte for byte the plain serialisation", (_method, page) => {
    let texts = "";
    for (const pass of ["cold", "warm"]) {
      let cursor: string | null = null;
      let pages = 0;
      do {
        const result = page(cursor);
        expect(result.value.items.length, pass).toBeGreaterThan(0);
        expect(result.value.items.every(isEncoded), pass).toBe(true);
        const text = stringifyJson(result);
        expect(text, pass).toBe(stringifyJson(plain(result)));
        if (pass === "cold") texts += text;
        else expect(texts.includes(text)).toBe(true);
        cursor = result.value.cursor;
        pages++;
      } while (cursor !== null && pages < 10);
    }
    // The owners chosen hold u64 values above 2^53 (lamports, discriminator, token amounts).
    const big = [...texts.matchAll(/:(\d{16,})[,}\]]/g)].map((m) => BigInt(m[1] as string));
    expect(big.some((n) => n > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
  });

  it("serves the same items as freshly built ones, and slices are not cached", () => {
    const owner = profile.ownerWithManyAccounts.owner;
    const { items } = byOwner({ owner, limit: 1000 }).value;
    expect(stringifyJson(items)).toBe(stringifyJson(expectedOwnerAccounts(owner).slice(0, 1000).map(wire)));
    const sliced = byOwner({ owner, limit: 5, dataSlice: { offset: 0, length: 1 } }).value.items;
    expect(sliced.some(isEncoded)).toBe(false);
  });

  it("answers over HTTP as the plain path writes them, with the result memo off", async () => {
    const server: Server = createServer(createListener(handlers, { memoizeResults: false }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const params = { owner: profile.ownerWithManyAccounts.owner, limit: 100 };
      const body = stringifyJson({ jsonrpc: "2.0", id: 7, method: "getCompressedAccountsByOwner", params });
      for (let round = 0; round < 2; round++) {
        const text = await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })).text();
        const expected = plain(handlers.getCompressedAccountsByOwner(params, ctx));
        expect(text).toBe(`{"jsonrpc":"2.0","result":${stringifyJson(expected)},"id":7}`);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("answers pages at cursors all over a list, in any order, byte for byte (V1 and V2, memo off)", async () => {
    // A store of its own: its items are first written by these out-of-order pages.
    const own = createReferenceHandlers(new ReferenceStore(dataset)) as Required<Handlers>;
    const server: Server = createServer(createListener(own, { memoizeResults: false }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const owner = profile.ownerWithManyAccounts.owner;
      const hashes = expectedOwnerAccounts(owner).map((a) => a.hash);
      const starts = [hashes.length - 3, 500, 0, 499, 17, 250, 501, 1, hashes.length - 120];
      for (const method of ["getCompressedAccountsByOwner", "getCompressedAccountsByOwnerV2"] as const) {
        for (const [k, at] of starts.entries()) {
          const params = { owner, limit: 96 + (k % 5), ...(at === 0 ? {} : { cursor: hashes[at - 1] as string }) };
          const body = stringifyJson({ jsonrpc: "2.0", id: k, method, params });
          const text = await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })).text();
          const expected = plain(handlers[method](params, ctx));
          expect(text).toBe(`{"jsonrpc":"2.0","result":${stringifyJson(expected)},"id":${k}}`);
        }
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
