/**
 * runtime/client.ts `minContextSlot` and walk slots against a scripted server whose slot moves
 * only when the test moves it (hand-made method table): the call tries again until the answer's
 * slot reaches the one asked for, fails with PHOTON_ERR_INDEXER_BEHIND (wanted and last slot)
 * when its deadline or tries run out first, stops at once on abort; the slot method waits for its
 * own value; a method whose answer carries no slot waits for the slot method; walks tell the
 * slot of each page and whether they differ.
 */
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRpcClient, type ClientOptions } from "../../runtime/client.js";
import type { MethodInfo, PaginationInfo } from "../../runtime/contracts.js";
import { ClientErrorCode, PhotonClientError } from "../../runtime/errors.js";
import { isObject } from "../../runtime/json/value.js";
import { Forward } from "../../runtime/transport/forward.js";
import { methodInfo } from "../helpers/method-info.js";
import { type MovingServer, rejectionOf, startMovingServer } from "./moving-rpc-server.js";

const pagination: PaginationInfo = { items: "items", cursor: "cursor", limit: null, order: null, maxLimit: null, defaultLimit: null };
const methods: Record<string, MethodInfo> = {
  getThing: methodInfo("getThing", { hasContext: true, slot: "context.slot" }),
  getSlot: methodInfo("getSlot", { hasParams: false, slot: "" }),
  getHealth: methodInfo("getHealth", { hasParams: false }),
  getQueue: methodInfo("getQueue", { slot: "slot" }),
  listThings: methodInfo("listThings", { hasContext: true, slot: "context.slot", pagination }),
};

let server: MovingServer;

beforeAll(async () => {
  server = await startMovingServer((req, slot) => {
    if (req.method === "getSlot") return slot;
    if (req.method === "getHealth") return "ok";
    if (req.method === "getQueue") return { slot, entries: [] };
    if (req.method === "listThings") {
      // Three pages of two items; the cursor is the index of the next page.
      const at = isObject(req.params) && typeof req.params.cursor === "string" ? Number(req.params.cursor) : 0;
      return { context: { slot }, value: { items: [at * 2, at * 2 + 1], cursor: at < 2 ? String(at + 1) : null } };
    }
    return { context: { slot }, value: { name: "thing" } };
  });
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
  server.slot = 5;
  server.script = () => {};
});

/** Short pauses: the server's slot moves when the script says, not with time. */
const client = (options: Partial<ClientOptions> = {}) =>
  createRpcClient({ url: server.url, retry: false, slotWait: { minDelayMs: 5, maxDelayMs: 20, maxTries: 1000 }, ...options }, { methods, validators: {} });

/**
 * A dispatcher that runs `then` once the first response has been handed to the client and every
 * continuation it started has run (a macrotask later): no clock involved.
 */
function afterFirstAnswer(then: () => void): Dispatcher {
  let fired = false;
  return new Agent().compose(
    (dispatch) => (opts, handler) =>
      dispatch(
        opts,
        new (class extends Forward {
          override onResponseEnd(controller: Parameters<Forward["onResponseEnd"]>[0], trailers: Parameters<Forward["onResponseEnd"]>[1]): void {
            super.onResponseEnd(controller, trailers);
            if (!fired) setImmediate(then);
            fired = true;
          }
        })(handler),
      ),
  );
}

/** Moves the server to `slot` before answering request `n`. */
const advanceAt = (n: number, slot: number | bigint) => {
  server.script = (count) => {
    if (count === n) server.slot = slot;
  };
};

describe("minContextSlot on a method whose answer carries a slot", () => {
  it("tries again until the answer's context.slot reaches it, and returns that answer", async () => {
    advanceAt(3, 12);
    const result = await client().call("getThing", { id: "a" }, { minContextSlot: 10 });
    expect(result).toEqual({ context: { slot: 12 }, value: { name: "thing" } });
    expect(server.requests.map((r) => r.method)).toEqual(["getThing", "getThing", "getThing"]);
  });

  it("reads the slot where the table says (`slot` at the top of a result without context)", async () => {
    advanceAt(2, 10);
    expect(await client().call("getQueue", {}, { minContextSlot: 10 })).toEqual({ slot: 10, entries: [] });
    expect(server.requests).toHaveLength(2);
  });

  it("fails with PHOTON_ERR_INDEXER_BEHIND naming the slot wanted and the last slot seen when the deadline passes first", async () => {
    const err = await rejectionOf(client().call("getThing", { id: "a" }, { minContextSlot: 10, timeoutMs: 1500 }));
    expect(err).toBeInstanceOf(PhotonClientError);
    expect(err).toMatchObject({ code: ClientErrorCode.INDEXER_BEHIND, details: { minContextSlot: 10, lastSlot: 5 } });
    expect((err as Error).message).toMatch(/getThing: the indexer is behind: wanted slot 10, last answer at slot 5 \(its deadline passed/);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it("stops after its tries when they run out before the deadline", async () => {
    const err = await rejectionOf(client({ slotWait: { minDelayMs: 1, maxTries: 3 } }).call("getThing", { id: "tries" }, { minContextSlot: 10, timeoutMs: 0 }));
    expect(err).toMatchObject({ code: ClientErrorCode.INDEXER_BEHIND, details: { lastSlot: 5, tries: 3 } });
    // Its own requests only: the previous test's last one, given up at its deadline, may land late on a busy machine.
    expect(server.requests.filter((r) => isObject(r.params) && r.params.id === "tries")).toHaveLength(3);
  });

  it("stops waiting at once when the caller aborts, and sends nothing more", async () => {
    const controller = new AbortController();
    // Abort after the client has taken the first (behind) answer: it is then pausing a minute.
    const call = client({ dispatcher: afterFirstAnswer(() => controller.abort(new Error("user left"))), slotWait: { minDelayMs: 60_000 } }).call(
      "getThing",
      { id: "a" },
      { minContextSlot: 10, timeoutMs: 0, signal: controller.signal },
    );
    const err = await rejectionOf(call);
    expect(err).toMatchObject({ code: ClientErrorCode.ABORTED });
    expect((err as Error).message).toMatch(/while waiting for slot 10 \(last answer at slot 5\)/);
    expect(server.requests).toHaveLength(1);
  });

  it("compares slots above 2^53 exactly (bigint answers, number or bigint asked)", async () => {
    server.slot = 2n ** 60n;
    advanceAt(2, 2n ** 60n + 1n);
    const result = await client().call("getThing", { id: "a" }, { minContextSlot: 2n ** 60n + 1n });
    expect(result).toMatchObject({ context: { slot: 2n ** 60n + 1n } });
    expect(server.requests).toHaveLength(2);
  });

  it("rejects a minContextSlot that is not a non-negative integer before sending", async () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      await expect(client().call("getThing", { id: "a" }, { minContextSlot: bad })).rejects.toMatchObject({ code: ClientErrorCode.INVALID_OPTIONS });
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("minContextSlot on methods whose answer is the slot or carries none", () => {
  it("the slot method waits for its own value", async () => {
    advanceAt(2, 10);
    expect(await client().call("getSlot", undefined, { minContextSlot: 10 })).toBe(10);
    expect(server.requests).toHaveLength(2);
  });

  it("a method without a slot is called once, after the slot method has reached it", async () => {
    advanceAt(2, 10);
    expect(await client().call("getHealth", undefined, { minContextSlot: 10 })).toBe("ok");
    expect(server.requests.map((r) => r.method)).toEqual(["getSlot", "getSlot", "getHealth"]);
  });

  it("a method without a slot fails with PHOTON_ERR_INDEXER_BEHIND when the slot method stays behind", async () => {
    const err = await rejectionOf(client().call("getHealth", undefined, { minContextSlot: 10, timeoutMs: 1500 }));
    expect(err).toMatchObject({ code: ClientErrorCode.INDEXER_BEHIND, details: { minContextSlot: 10, lastSlot: 5 } });
    expect(server.requests.every((r) => r.method === "getSlot")).toBe(true);
  });
});

describe("walks tell the slot of each page", () => {
  it("items: pages read at different slots set mixedSlots, and slots lists each page's", async () => {
    advanceAt(2, 6);
    const walk = client().items("listThings", {});
    const got: unknown[] = [];
    for await (const item of walk) got.push(item);
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
    expect(walk.slots).toEqual([5, 6, 6]);
    expect(walk.mixedSlots).toBe(true);
  });

  it("pages: a walk read at one slot is not mixed", async () => {
    const walk = client().pages("listThings", {});
    let pages = 0;
    for await (const _ of walk) pages++;
    expect(pages).toBe(3);
    expect(walk.slots).toEqual([5, 5, 5]);
    expect(walk.mixedSlots).toBe(false);
  });

  it("with minContextSlot every page waits for the slot", async () => {
    advanceAt(2, 9);
    const walk = client().items("listThings", {}, { minContextSlot: 9 });
    const got: unknown[] = [];
    for await (const item of walk) got.push(item);
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
    expect(walk.slots).toEqual([9, 9, 9]);
    expect(server.requests).toHaveLength(4);
  });
});
