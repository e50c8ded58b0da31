/** A call through the listener: params checked, the handler run, its result or error answered, results validated on demand. */
import { describe, expect, it } from "vitest";
import { post } from "../../helpers/listener.js";
import { base, err, errors, expectJson, JSON_TYPE, ok, rpc, seen, start, U64_MAX, useListener } from "./fake-listener.js";

useListener();

describe("successful calls", () => {
  it("answers with jsonrpsee's key order, content type, CORS header and content-length", async () => {
    const a = await post(base, rpc("getThing", { owner: "alice", limit: 5 }));
    expectJson(a, 200, ok(`{"value":{"owner":"alice","amount":18446744073709551615,"limit":5}}`));
  });

  it("routes POST by the body's method whatever the path and query", async () => {
    for (const path of ["/", "/getIndexerSlot", "/getThing", "/anything/else?api-key=abc"]) {
      const a = await post(base, rpc("getIndexerSlot", undefined, '"p"'), { "content-type": "application/json" }, path);
      expectJson(a, 200, ok("18446744073709551615", '"p"'));
    }
  });

  it("serialises a bigint result (u64::MAX) exactly", async () => {
    const a = await post(base, rpc("getIndexerSlot"));
    expect(a.body).toBe(`{"jsonrpc":"2.0","result":18446744073709551615,"id":1}`);
  });

  it("echoes ids exactly: strings, u64 numbers beyond 2^53, 0, null", async () => {
    const cases = ['"abc"', '"\\u00e9\\n\\"q\\""', "0", "9007199254740993", "18446744073709551615", "null", "42"];
    for (const id of cases) {
      const a = await post(base, rpc("getIndexerSlot", undefined, id));
      const echoed = id === '"\\u00e9\\n\\"q\\""' ? '"é\\n\\"q\\""' : id;
      expectJson(a, 200, ok("18446744073709551615", echoed));
    }
  });

  it("passes id, method and the request to the handler", async () => {
    seen.length = 0;
    await post(base, rpc("getThing", { owner: "bob" }, "18446744073709551615"), { "content-type": "application/json", "x-test": "yes" });
    expect(seen).toHaveLength(1);
    const { ctx, params } = seen[0]!;
    expect(params).toEqual({ owner: "bob" });
    expect(ctx.id).toBe(U64_MAX);
    expect(ctx.method).toBe("getThing");
    expect(ctx.request.headers["x-test"]).toBe("yes");
  });

  it("ignores params of a method without params, whatever they are", async () => {
    for (const params of [undefined, [], null, "x", { a: 1 }, 5]) {
      seen.length = 0;
      const a = await post(base, rpc("getIndexerSlot", params));
      expectJson(a, 200, ok("18446744073709551615"));
      expect(seen[0]!.params).toBeUndefined();
    }
  });

  it("turns a handler returning undefined into result null", async () => {
    expectJson(await post(base, rpc("nothing")), 200, ok("null"));
  });

  it("accepts the three JSON content types, case-insensitively", async () => {
    for (const ct of ["application/json", "Application/JSON", "application/json; charset=utf-8", "APPLICATION/JSON;CHARSET=UTF-8"]) {
      expectJson(await post(base, rpc("nothing"), { "content-type": ct }), 200, ok("null"));
    }
  });

  it("also works through fetch", async () => {
    const r = await fetch(`${base}/x`, { method: "POST", headers: { "content-type": "application/json" }, body: rpc("nothing", undefined, "7") });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe(JSON_TYPE);
    expect(await r.text()).toBe(ok("null", "7"));
  });
});

describe("errors from methods and params", () => {
  it("unknown method: -32601 with the id", async () => {
    expectJson(await post(base, rpc("getNope", {}, '"u"')), 200, err(-32601, "Method not found", '"u"'));
    expectJson(await post(base, rpc("toString")), 200, err(-32601, "Method not found", "1"));
    expectJson(await post(base, rpc("__proto__")), 200, err(-32601, "Method not found", "1"));
  });

  it("a table method without a handler is not registered (-32601)", async () => {
    expectJson(await post(base, rpc("notImplemented")), 200, err(-32601, "Method not found", "1"));
  });

  it("params missing, null, array or scalar: -32602 in serde's words (absent params read as null)", async () => {
    for (const [params, unexpected] of [
      [undefined, "null"],
      [null, "null"],
      [[], "sequence"],
      [["alice"], "sequence"],
      ["alice", 'string "alice"'],
      [3, "integer `3`"],
    ] as const) {
      const message = `invalid type: ${unexpected}, expected a map`;
      expectJson(await post(base, rpc("getThing", params)), 200, err(-32602, message, "1", JSON.stringify({ issues: [{ pointer: "", message }] })));
    }
  });

  it("validator failures: serde's message for the first, every one's JSON pointer in data", async () => {
    const over = "invalid value: integer `1001`, expected a value less than or equal to 1000";
    expectJson(
      await post(base, rpc("getThing", { owner: "a", limit: 1001 })),
      200,
      err(-32602, over, "1", `{"issues":[{"pointer":"/limit","message":"${over}"}]}`),
    );
    expectJson(
      await post(base, rpc("getThing", { limit: 2000, extra: true })),
      200,
      err(
        -32602,
        "missing field `owner`",
        "1",
        `{"issues":[{"pointer":"/owner","message":"missing field \`owner\`"},{"pointer":"/limit","message":"invalid value: integer \`2000\`, expected a value less than or equal to 1000"},{"pointer":"/extra","message":"unknown field \`extra\`"}]}`,
      ),
    );
  });

  it("a thrown RpcError is the answer (data only when defined, bigint-safe)", async () => {
    expectJson(await post(base, rpc("failValidation")), 200, err(-32000, "Validation Error: Either address or hash must be provided", "1"));
    expectJson(await post(base, rpc("failWithData")), 200, err(-32001, "Custom", "1", `{"why":[1,18446744073709551615]}`));
  });

  it("a handler crash is -32000 `Internal server error`, reported to onError, and the server keeps serving", async () => {
    errors.length = 0;
    expectJson(await post(base, rpc("crash")), 200, err(-32000, "Internal server error", "1"));
    expectJson(await post(base, rpc("crashAsync", undefined, '"z"')), 200, err(-32000, "Internal server error", '"z"'));
    expect(errors.map((e) => [e.method, (e.err as Error).message])).toEqual([
      ["crash", "database connection refused: postgres://secret@db"],
      ["crashAsync", "async boom"],
    ]);
    expectJson(await post(base, rpc("getIndexerSlot")), 200, ok("18446744073709551615"));
  });

  it("a throwing onError does not take the server down", async () => {
    const b = await start({
      onError: () => {
        throw new Error("logger broke");
      },
    });
    expectJson(await post(b, rpc("crash")), 200, err(-32000, "Internal server error", "1"));
    expectJson(await post(b, rpc("nothing")), 200, ok("null"));
  });
});

describe("validateResults", () => {
  it("a result failing its validator is -32603 with the issues in data", async () => {
    const strict = await start({ validateResults: true });
    expectJson(await post(strict, rpc("getThing", { owner: "fine" })), 200, ok(`{"value":{"owner":"fine","amount":18446744073709551615,"limit":null}}`));
    expectJson(
      await post(strict, rpc("getThing", { owner: "wrong-shape" })),
      200,
      err(
        -32603,
        "Internal error: result does not match its schema: /value/owner must be string",
        "1",
        `{"issues":[{"pointer":"/value/owner","message":"must be string"}]}`,
      ),
    );
    // Off by default.
    expectJson(await post(base, rpc("getThing", { owner: "wrong-shape" })), 200, ok(`{"value":{"owner":42}}`));
  });
});
