/**
 * The generated client's `minContextSlot` and walk slots against a server whose slot moves only
 * when the test moves it: waits, PHOTON_ERR_INDEXER_BEHIND at the deadline, mixed-slot pages named.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "../../generated/index.js";
import { ClientErrorCode, encodeBase58, isObject } from "../../runtime/index.js";
import { type MovingServer, rejectionOf, startMovingServer } from "../runtime/moving-rpc-server.js";

const key = (n: number) => encodeBase58(new Uint8Array(32).fill(n));
const signature = (n: number) => ({ signature: encodeBase58(new Uint8Array(64).fill(n)), slot: n, blockTime: 1714081554 + n });

let server: MovingServer;

beforeAll(async () => {
  server = await startMovingServer((req, slot) => {
    switch (req.method) {
      case "getIndexerSlot":
        return slot;
      case "getIndexerHealth":
        return "ok";
      case "getCompressionSignaturesForOwner": {
        // Two pages of one signature each; the cursor is the index of the next page.
        const at = isObject(req.params) && typeof req.params.cursor === "string" ? Number(req.params.cursor) : 0;
        return { context: { slot }, value: { items: [signature(at + 1)], cursor: at === 0 ? "1" : null } };
      }
      default:
        return { context: { slot }, value: null };
    }
  });
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
  server.slot = 100;
  server.script = () => {};
});

const photon = () => createClient({ url: server.url, retry: false, slotWait: { minDelayMs: 5, maxDelayMs: 20, maxTries: 1000 } });

/** Moves the server to `slot` before answering request `n`. */
const advanceAt = (n: number, slot: number) => {
  server.script = (count) => {
    if (count === n) server.slot = slot;
  };
};

describe("the generated client waits for the indexer", () => {
  it("getCompressedAccount with minContextSlot answers from the slot asked for", async () => {
    advanceAt(3, 105);
    const { context } = await photon().getCompressedAccount({ hash: key(1) }, { minContextSlot: 105 });
    expect(context.slot).toBe(105);
    expect(server.requests).toHaveLength(3);
  });

  it("fails with PHOTON_ERR_INDEXER_BEHIND when the deadline passes first", async () => {
    const err = await rejectionOf(photon().getCompressedAccount({ hash: key(1) }, { minContextSlot: 105, timeoutMs: 1500 }));
    expect(err).toMatchObject({ code: ClientErrorCode.INDEXER_BEHIND, details: { minContextSlot: 105, lastSlot: 100 } });
  });

  it("getIndexerSlot waits for its own value; getIndexerHealth (no slot in its answer) waits for getIndexerSlot", async () => {
    advanceAt(2, 105);
    expect(await photon().getIndexerSlot({ minContextSlot: 105 })).toBe(105);
    server.requests.length = 0;
    server.slot = 100;
    advanceAt(2, 106);
    expect(await photon().getIndexerHealth({ minContextSlot: 106 })).toBe("ok");
    expect(server.requests.map((r) => r.method)).toEqual(["getIndexerSlot", "getIndexerSlot", "getIndexerHealth"]);
  });
});

describe("generated iterators tell the slot of each page", () => {
  it("mixedSlots is true when the walk's pages came from different slots", async () => {
    advanceAt(2, 101);
    const walk = photon().iterateCompressionSignaturesForOwner({ owner: key(2) });
    const got: number[] = [];
    for await (const item of walk) got.push(Number(item.slot));
    expect(got).toEqual([1, 2]);
    expect(walk.slots).toEqual([100, 101]);
    expect(walk.mixedSlots).toBe(true);
  });

  it("mixedSlots is false when every page came from one slot", async () => {
    const walk = photon().iterateCompressionSignaturesForOwner({ owner: key(2) });
    for await (const _ of walk);
    expect(walk.slots).toEqual([100, 100]);
    expect(walk.mixedSlots).toBe(false);
  });
});
