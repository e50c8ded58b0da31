/** JSON-RPC envelopes through the listener: ids, versions, notifications, keys written twice, batches. */
import { describe, expect, it } from "vitest";
import { post } from "../../helpers/listener.js";
import { base, err, errors, expectJson, INVALID_NULL, ok, PARSE, rpc, seen, start, useListener } from "./fake-listener.js";

useListener();

describe("request envelopes", () => {
  it("invalid request with a usable id: -32600 with that id", async () => {
    expectJson(await post(base, `{"jsonrpc":"1.0","id":1,"method":"nothing"}`), 200, err(-32600, "Invalid request", "1"));
    expectJson(await post(base, `{"jsonrpc":"2.0","id":"a"}`), 200, err(-32600, "Invalid request", '"a"'));
    expectJson(await post(base, `{"jsonrpc":"2.0","id":null,"method":5}`), 200, err(-32600, "Invalid request", "null"));
    expectJson(await post(base, `{"id":18446744073709551615,"method":"nothing"}`), 200, err(-32600, "Invalid request", "18446744073709551615"));
  });

  it("invalid request without a usable id: -32700 id null", async () => {
    for (const body of [
      `{"jsonrpc":"1.0","method":"nothing"}`,
      `{"method":"nothing"}`,
      `{}`,
      `{"jsonrpc":"2.0","id":-1}`,
      `{"jsonrpc":"1.0","id":1.5,"method":"nothing"}`,
      `{"jsonrpc":"2.0","id":18446744073709551616}`,
    ]) {
      expectJson(await post(base, body), 200, PARSE);
    }
  });

  it("notifications (no id, or an unusable id) run and are answered with HTTP 200 and an empty body", async () => {
    for (const id of [undefined, "-1", "1.5", "{}", "[1]", "true", "18446744073709551616"]) {
      seen.length = 0;
      const idPart = id === undefined ? "" : `,"id":${id}`;
      const a = await post(base, `{"jsonrpc":"2.0","method":"getThing","params":{"owner":"n"}${idPart}}`);
      expectJson(a, 200, "");
      expect(seen.map((s) => [s.method, s.ctx.id])).toEqual([["getThing", null]]);
    }
    // Failing notifications are silent too.
    expectJson(await post(base, `{"jsonrpc":"2.0","method":"getThing"}`), 200, "");
    expectJson(await post(base, `{"jsonrpc":"2.0","method":"nope"}`), 200, "");
    expectJson(await post(base, `{"jsonrpc":"2.0","method":"failValidation"}`), 200, "");
  });
});

// DECISIONS #43: jsonrpsee reads the envelope into serde-derived structs (`Request`, then
// `Notification`, then `InvalidRequest` for the id), which refuse a field written twice.
describe("repeated envelope keys", () => {
  it("a repeated jsonrpc, method or params is -32600 with the id; a repeated id is no request", async () => {
    const invalid1 = err(-32600, "Invalid request", "1");
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","method":"x"}`), 200, invalid1);
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"method":"nothing","m\u0065thod":"nothing"}`), 200, invalid1);
    expectJson(await post(base, `{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"nothing"}`), 200, invalid1);
    const params = `{"jsonrpc":"2.0","id":"a","method":"getThing","params":{"owner":"x"},"params":{"owner":"y"}}`;
    expectJson(await post(base, params), 200, err(-32600, "Invalid request", '"a"'));
    // The value a later key wrote over holds an integer above 2^53.
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"method":"nothing","params":{"a":99999999999999999999},"params":1}`), 200, invalid1);
    // A repeated id: no Request, but a Notification (which has no id field): run, answered with an empty body.
    seen.length = 0;
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"id":2,"method":"getThing","params":{"owner":"d"}}`), 200, "");
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","id":1}`), 200, "");
    expect(seen.map((s) => [s.method, s.ctx.id])).toEqual([
      ["getThing", null],
      ["getIndexerSlot", null],
    ]);
    // Neither a request nor a notification, and no id to read: -32700 id null.
    expectJson(await post(base, `{"jsonrpc":"1.0","id":1,"id":2,"method":"nothing"}`), 200, PARSE);
    expectJson(await post(base, `{"jsonrpc":"2.0","id":7,"id":7,"method":"a","method":"b"}`), 200, PARSE);
    // Keys the structs do not have may repeat.
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"method":"nothing","x":1,"x":2}`), 200, ok("null"));
  });

  it("the result memo's fast path classifies them the same way", async () => {
    const memo = await start({ memoizeResults: { maxEntries: 10 } });
    expectJson(await post(memo, rpc("getIndexerSlot")), 200, ok("18446744073709551615"));
    expectJson(await post(memo, rpc("getIndexerSlot")), 200, ok("18446744073709551615"));
    expectJson(await post(memo, `{"jsonrpc":"2.0","id":1,"id":2,"method":"getIndexerSlot"}`), 200, "");
    expectJson(await post(memo, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","params":[],"params":[]}`), 200, err(-32600, "Invalid request", "1"));
  });

  it("in a batch: -32600 in the slot, with the id unless the id repeats; a notification needs params", async () => {
    seen.length = 0;
    const body = `[${[
      `{"jsonrpc":"2.0","id":1,"method":"nothing","method":"nothing"}`,
      `{"jsonrpc":"2.0","id":2,"id":3,"method":"getIndexerSlot"}`,
      `{"jsonrpc":"2.0","id":4,"id":5,"method":"getThing","params":{"owner":"b"}}`,
      `{"jsonrpc":"2.0","method":"getIndexerSlot"}`,
      `{"jsonrpc":"2.0","method":"getIndexerSlot","id":-1}`,
      `{"jsonrpc":"2.0","method":"getIndexerSlot","params":null}`,
      `{"jsonrpc":"2.0","id":"p","method":"nothing","params":[],"params":{}}`,
      rpc("nothing", undefined, "9"),
    ].join(",")}]`;
    const want = [err(-32600, "Invalid request", "1"), INVALID_NULL, INVALID_NULL, INVALID_NULL, err(-32600, "Invalid request", '"p"'), ok("null", "9")];
    expectJson(await post(base, body), 200, `[${want.join(",")}]`);
    expect(seen.map((s) => [s.method, s.ctx.id])).toEqual([
      ["getThing", null],
      ["getIndexerSlot", null],
    ]);
  });
});

describe("batches", () => {
  it("answers in request order even when the first handler is the slowest", async () => {
    const body = `[${rpc("slow", { ms: 150, tag: "first" }, "1")},${rpc("slow", { ms: 1, tag: "second" }, "2")},${rpc("getIndexerSlot", undefined, '"3"')}]`;
    const a = await post(base, body);
    expectJson(a, 200, `[${ok('"first"', "1")},${ok('"second"', "2")},${ok("18446744073709551615", '"3"')}]`);
  });

  it("invalid elements get -32600 in their slot, notifications get none", async () => {
    const body = `[1,${rpc("nothing", undefined, "1")},{"jsonrpc":"2.0","method":"nothing","params":[]},"x",{"id":7},null,[],{"jsonrpc":"1.0","method":"nothing"},${rpc("nope", undefined, "2")},${rpc("failValidation", undefined, "3")}]`;
    expectJson(
      await post(base, body),
      200,
      `[${INVALID_NULL},${ok("null", "1")},${INVALID_NULL},${err(-32600, "Invalid request", "7")},${INVALID_NULL},${INVALID_NULL},${INVALID_NULL},${err(
        -32601,
        "Method not found",
        "2",
      )},${err(-32000, "Validation Error: Either address or hash must be provided", "3")}]`,
    );
  });

  it("an empty batch is a single -32600 object with id null", async () => {
    expectJson(await post(base, "[]"), 200, INVALID_NULL);
    expectJson(await post(base, " [ ] "), 200, INVALID_NULL);
  });

  it("a batch of only notifications is HTTP 200 with an empty body", async () => {
    seen.length = 0;
    expectJson(
      await post(base, `[{"jsonrpc":"2.0","method":"getThing","params":{"owner":"q"}},{"jsonrpc":"2.0","method":"nothing","id":-5,"params":[]}]`),
      200,
      "",
    );
    expect(seen.map((s) => s.method)).toEqual(["getThing"]);
  });

  it("a batch mixing async crashes and successes stays in order", async () => {
    errors.length = 0;
    const body = `[${rpc("crashAsync", undefined, "1")},${rpc("slow", { ms: 20, tag: "t" }, "2")},${rpc("crash", undefined, "3")}]`;
    expectJson(await post(base, body), 200, `[${err(-32000, "Internal server error", "1")},${ok('"t"', "2")},${err(-32000, "Internal server error", "3")}]`);
    expect(errors.map((e) => e.method).sort()).toEqual(["crash", "crashAsync"]);
  });
});
