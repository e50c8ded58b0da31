import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AjvErrorObject, MethodInfo, MethodValidators, StandaloneValidate } from "../../runtime/contracts.js";
import { RpcError } from "../../runtime/errors.js";
import { createRequestListener, type CallContext, type Handler, type ListenerOptions } from "../../runtime/server.js";
import { type Answer, closeListeners, listen, post, raw } from "../helpers/listener.js";
import { methodInfo } from "../helpers/method-info.js";

vi.setConfig({ testTimeout: 5_000, hookTimeout: 5_000 });

// ---------------------------------------------------------------------------------------------
// A tiny fake method table, validators written by hand (ajv-shaped `.errors`), and handlers.

function info(name: string, hasParams: boolean): MethodInfo {
  // Params are an object, as the generated table's shape says of every method but the list ones.
  const paramShape = hasParams ? { type: "object" as const, closed: false, properties: {}, items: null } : null;
  return methodInfo(name, { hasParams, requiredParams: hasParams ? ["owner"] : [], paramShape });
}

/** A standalone-validate lookalike: returns true, or false with ajv-style errors. */
function fakeValidator(check: (data: unknown) => AjvErrorObject[]): StandaloneValidate {
  const fn: StandaloneValidate = (data: unknown) => {
    const errors = check(data);
    fn.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  return fn;
}

const anything = fakeValidator(() => []);

/** getThing params: { owner: string (required), limit?: number <= 1000 }, no other keys. */
const thingParams = fakeValidator((data) => {
  const d = data as Record<string, unknown>;
  const errs: AjvErrorObject[] = [];
  if (!("owner" in d)) {
    errs.push({
      instancePath: "",
      schemaPath: "#/required",
      keyword: "required",
      params: { missingProperty: "owner" },
      message: "must have required property 'owner'",
    });
  } else if (typeof d.owner !== "string") {
    errs.push({ instancePath: "/owner", schemaPath: "#/properties/owner/type", keyword: "type", params: { type: "string" }, message: "must be string" });
  }
  if ("limit" in d && typeof d.limit === "number" && d.limit > 1000) {
    errs.push({
      instancePath: "/limit",
      schemaPath: "#/properties/limit/maximum",
      keyword: "maximum",
      params: { comparison: "<=", limit: 1000 },
      message: "must be <= 1000",
    });
  }
  for (const k of Object.keys(d)) {
    if (k !== "owner" && k !== "limit") {
      errs.push({
        instancePath: "",
        schemaPath: "#/additionalProperties",
        keyword: "additionalProperties",
        params: { additionalProperty: k },
        message: "must NOT have additional properties",
      });
    }
  }
  return errs;
});

/** getThing result: { value: { owner: string } }. */
const thingResult = fakeValidator((data) => {
  const v = (data as { value?: { owner?: unknown } } | null)?.value;
  return typeof v?.owner === "string"
    ? []
    : [
        {
          instancePath: "/value/owner",
          schemaPath: "#/properties/value/properties/owner/type",
          keyword: "type",
          params: { type: "string" },
          message: "must be string",
        },
      ];
});

const methods: Record<string, MethodInfo> = {
  getThing: info("getThing", true),
  getIndexerSlot: info("getIndexerSlot", false),
  failValidation: info("failValidation", false),
  failWithData: info("failWithData", false),
  crash: info("crash", false),
  crashAsync: info("crashAsync", false),
  slow: info("slow", true),
  nothing: info("nothing", false),
  big: info("big", false),
  notImplemented: info("notImplemented", false),
};

const validators: Record<string, MethodValidators> = {
  getThing: { params: thingParams, result: thingResult },
  getIndexerSlot: { params: anything, result: anything },
  failValidation: { params: anything, result: anything },
  failWithData: { params: anything, result: anything },
  crash: { params: anything, result: anything },
  crashAsync: { params: anything, result: anything },
  slow: { params: anything, result: anything },
  nothing: { params: anything, result: anything },
  big: { params: anything, result: anything },
  notImplemented: { params: anything, result: anything },
};

const U64_MAX = 18446744073709551615n;
const seen: { method: string; params: unknown; ctx: CallContext }[] = [];
const errors: { err: unknown; method: string }[] = [];
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const handlers: Record<string, Handler> = {
  getThing: (params: { owner: string; limit?: number }, ctx) => {
    seen.push({ method: "getThing", params, ctx });
    if (params.owner === "wrong-shape") return { value: { owner: 42 } };
    return { value: { owner: params.owner, amount: U64_MAX, limit: params.limit ?? null } };
  },
  getIndexerSlot: (params: unknown, ctx) => {
    seen.push({ method: "getIndexerSlot", params, ctx });
    return U64_MAX;
  },
  failValidation: () => {
    throw RpcError.validation("Either address or hash must be provided");
  },
  failWithData: () => {
    throw new RpcError(-32001, "Custom", { why: [1, 2n ** 64n - 1n] });
  },
  crash: () => {
    throw new Error("database connection refused: postgres://secret@db");
  },
  crashAsync: async () => {
    await sleep(1);
    throw new Error("async boom");
  },
  slow: async (params: { ms: number; tag: string }) => {
    await sleep(params.ms);
    return params.tag;
  },
  nothing: () => undefined,
  big: () => "x".repeat(300),
  // notImplemented: no handler on purpose.
};

// ---------------------------------------------------------------------------------------------
// Servers and HTTP helpers.

function start(extra: Partial<ListenerOptions> = {}): Promise<string> {
  return listen(
    createRequestListener({
      methods,
      validators,
      handlers,
      onError: (err, ctx) => errors.push({ err, method: ctx.method }),
      ...extra,
    }),
  );
}

const JSON_TYPE = "application/json; charset=utf-8";

function rpc(method: string, params?: unknown, id: string = "1"): string {
  const p = params === undefined ? "" : `,"params":${JSON.stringify(params)}`;
  return `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${p}}`;
}

function expectJson(a: Answer, status: number, body: string): void {
  expect(a.body).toBe(body);
  expect(a.status).toBe(status);
  expect(a.headers["content-type"]).toBe(JSON_TYPE);
  expect(a.headers["access-control-allow-origin"]).toBe("*");
  expect(a.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
}

const ok = (result: string, id = "1") => `{"jsonrpc":"2.0","result":${result},"id":${id}}`;
const err = (code: number, message: string, id = "null", data?: string) =>
  `{"jsonrpc":"2.0","error":{"code":${code},"message":${JSON.stringify(message)}${data === undefined ? "" : `,"data":${data}`}},"id":${id}}`;
const PARSE = err(-32700, "Parse error");
const INVALID_NULL = err(-32600, "Invalid request");

let base: string;

beforeAll(async () => {
  base = await start();
});

afterAll(closeListeners);

// ---------------------------------------------------------------------------------------------

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

describe("malformed bodies", () => {
  it("empty, whitespace-only or not starting with { or [: HTTP 400 -32700", async () => {
    for (const body of ["", "   \n\t", '"abc"', "123", "null", "x{}", "\uFEFF{}"]) {
      expectJson(await post(base, body), 400, PARSE);
    }
  });

  it("starting with { or [ but invalid JSON: HTTP 200 -32700", async () => {
    for (const body of ["{", " \n{bad", "[1,", '{"jsonrpc":"2.0"} x', "[]]", '{"a":"\u0001"}']) {
      expectJson(await post(base, body), 200, PARSE);
    }
    // Invalid UTF-8 inside a string.
    const bytes = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expectJson(await post(base, bytes), 200, PARSE);
  });
});

describe("batches", () => {
  it("answers in request order even when the first handler is the slowest", async () => {
    const body = `[${rpc("slow", { ms: 150, tag: "first" }, "1")},${rpc("slow", { ms: 1, tag: "second" }, "2")},${rpc("getIndexerSlot", undefined, '"3"')}]`;
    const t0 = Date.now();
    const a = await post(base, body);
    expectJson(a, 200, `[${ok('"first"', "1")},${ok('"second"', "2")},${ok("18446744073709551615", '"3"')}]`);
    expect(Date.now() - t0).toBeLessThan(1500);
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

describe("HTTP surface", () => {
  it("OPTIONS is a CORS preflight answer", async () => {
    const a = await raw(base, { method: "OPTIONS", path: "/any", headers: { origin: "http://x", "access-control-request-method": "POST" } });
    expect(a.status).toBe(200);
    expect(a.body).toBe("");
    expect(a.headers["access-control-allow-origin"]).toBe("*");
    expect(a.headers["access-control-allow-methods"]).toBe("POST,GET");
    expect(a.headers["access-control-allow-headers"]).toBe("content-type");
  });

  it("GET /liveness and GET /readiness answer 200 null", async () => {
    for (const path of ["/liveness", "/readiness"]) {
      const a = await raw(base, { method: "GET", path });
      expectJson(a, 200, "null");
    }
  });

  it("liveness and readiness are JSON-RPC methods too", async () => {
    expectJson(await post(base, rpc("liveness", [])), 200, ok("null"));
    expectJson(await post(base, rpc("readiness")), 200, ok("null"));
  });

  it("readiness false or throwing: GET is HTTP 500 -32603, the method is -32000", async () => {
    const notReady = await start({ readiness: () => false });
    expectJson(await raw(notReady, { method: "GET", path: "/readiness" }), 500, err(-32603, "Internal error"));
    expectJson(await raw(notReady, { method: "GET", path: "/liveness" }), 200, "null");
    expectJson(await post(notReady, rpc("readiness")), 200, err(-32000, "Internal server error", "1"));

    errors.length = 0;
    const throwing = await start({
      readiness: async () => {
        await sleep(1);
        throw new Error("SELECT 1 failed");
      },
    });
    expectJson(await raw(throwing, { method: "GET", path: "/readiness" }), 500, err(-32603, "Internal error"));
    expect(errors.map((e) => e.method)).toEqual(["readiness"]);

    const asyncReady = await start({ readiness: async () => true });
    expectJson(await raw(asyncReady, { method: "GET", path: "/readiness" }), 200, "null");
  });

  it("any other verb or path is 405 text/plain", async () => {
    const cases: [string, string][] = [
      ["GET", "/"],
      ["GET", "/liveness?x=1"],
      ["GET", "/readiness/"],
      ["GET", "/getThing"],
      ["PUT", "/"],
      ["DELETE", "/liveness"],
      ["PATCH", "/getThing"],
    ];
    for (const [method, path] of cases) {
      const a = await raw(base, { method, path });
      expect(a.status).toBe(405);
      expect(a.headers["content-type"]).toBe("text/plain");
      expect(a.body).toBe("Used HTTP Method is not allowed. POST or OPTIONS is required\n");
    }
    const head = await raw(base, { method: "HEAD", path: "/liveness" });
    expect(head.status).toBe(405);
  });

  it("POST with a non-JSON content type is 415 text/plain", async () => {
    const variants: Record<string, string>[] = [
      {},
      { "content-type": "text/plain" },
      { "content-type": "application/json; charset=utf8" },
      { "content-type": "application/jsonx" },
    ];
    for (const headers of variants) {
      const a = await post(base, rpc("nothing"), headers);
      expect(a.status).toBe(415);
      expect(a.headers["content-type"]).toBe("text/plain");
      expect(a.body).toBe("Supplied content type is not allowed. Content-Type: application/json is required\n");
    }
  });
});

describe("size limits", () => {
  it("a declared content-length over the default 10 MiB is 413 before the body is read", async () => {
    const a = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: new URL(base).port,
          method: "POST",
          path: "/",
          agent: false,
          headers: { "content-type": "application/json", "content-length": 10485761 },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() });
            req.destroy();
          });
        },
      );
      req.on("error", reject);
      req.write("{");
    });
    expectJson(a, 413, `{"jsonrpc":"2.0","error":{"code":-32701,"message":"Request is too big","data":"Exceeded max limit of 10485760"},"id":null}`);
    expectJson(await post(base, rpc("nothing")), 200, ok("null"));
  });

  it("a small limit applies to the declared length", async () => {
    const small = await start({ maxRequestBytes: 64 });
    const body = rpc("getThing", { owner: "x".repeat(80) });
    expectJson(await post(small, body), 413, err(-32701, "Request is too big", "null", `"Exceeded max limit of 64"`));
    expectJson(await post(small, rpc("nothing")), 200, ok("null"));
  });

  it("a chunked body is counted while streaming: 413 as soon as the limit is passed", async () => {
    const small = await start({ maxRequestBytes: 64 });
    const a = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port: new URL(small).port, method: "POST", path: "/", agent: false, headers: { "content-type": "application/json" } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() });
            req.end();
          });
        },
      );
      req.on("error", reject);
      // 40 + 40 bytes; the body is never finished before the answer arrives.
      req.write(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"${"y".repeat(5)}`);
      setTimeout(() => req.write("z".repeat(40)), 20);
    });
    expect(a.headers["transfer-encoding"]).toBeUndefined();
    expectJson(a, 413, err(-32701, "Request is too big", "null", `"Exceeded max limit of 64"`));
    expectJson(await post(small, rpc("nothing")), 200, ok("null"));
  });

  // jsonrpsee core/src/server/helpers.rs:228-253 (one call) and 284-296 (a batch).
  it("a response over the limit becomes -32702 for its id; an oversized batch is one -32600 with id null", async () => {
    const small = await start({ maxResponseBytes: 200 });
    const tooBig = err(-32702, "Response is too big", "5", `"Exceeded max limit of 200"`);
    expectJson(await post(small, rpc("big", undefined, "5")), 200, tooBig);
    expectJson(await post(small, `[${rpc("big", undefined, "5")},${rpc("nothing", undefined, "6")}]`), 200, `[${tooBig},${ok("null", "6")}]`);
    const many = `[${Array.from({ length: 6 }, (_, i) => rpc("getIndexerSlot", undefined, String(i))).join(",")}]`;
    expectJson(await post(small, many), 200, INVALID_NULL);
  });

  it("a batch answer of exactly the limit in bytes is sent; one byte more is -32600", async () => {
    const body = `[${rpc("nothing", undefined, "1")},${rpc("slow", { ms: 0, tag: "é€" }, "2")}]`;
    const answer = `[${ok("null", "1")},${ok('"é€"', "2")}]`;
    const bytes = Buffer.byteLength(answer);
    expect(bytes).toBeGreaterThan(answer.length);
    expectJson(await post(await start({ maxResponseBytes: bytes }), body), 200, answer);
    expectJson(await post(await start({ maxResponseBytes: bytes - 1 }), body), 200, INVALID_NULL);
    // Counted in characters while the batch runs: the answer is exactly the limit there too.
    const ascii = `[${rpc("nothing", undefined, "1")},${rpc("nothing", undefined, "2")}]`;
    const asciiAnswer = `[${ok("null", "1")},${ok("null", "2")}]`;
    expectJson(await post(await start({ maxResponseBytes: asciiAnswer.length }), ascii), 200, asciiAnswer);
    expectJson(await post(await start({ maxResponseBytes: asciiAnswer.length - 1 }), ascii), 200, INVALID_NULL);
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

describe("robustness", () => {
  it("a client aborting mid-body neither crashes nor blocks the server", async () => {
    const port = Number(new URL(base).port);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc":');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 20);
      });
      socket.on("error", reject);
    });
    // And one whose handler is still running when the client goes away.
    await new Promise<void>((resolve) => {
      const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/", agent: false, headers: { "content-type": "application/json" } });
      req.on("error", () => resolve());
      req.end(rpc("slow", { ms: 50, tag: "gone" }));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 10);
    });
    await sleep(80);
    expectJson(await post(base, rpc("nothing")), 200, ok("null"));
  });

  it("serves many concurrent requests", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => post(base, rpc("slow", { ms: 5, tag: `t${i}` }, String(i)))));
    answers.forEach((a, i) => expectJson(a, 200, ok(`"t${i}"`, String(i))));
  });
});

// ---------------------------------------------------------------------------------------------
// Bounds (issue 12 §6): connections, buffered bytes across connections, batch CPU, long numbers.

/** Connects, writes `head` (and `body` if given), and collects what comes back until the socket closes or `until` holds. */
function rawSocket(base: string): { socket: Socket; text: () => string; closed: Promise<void>; wait: (until: (t: string) => boolean) => Promise<string> } {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  socket.on("error", () => {});
  let text = "";
  const waiters: (() => void)[] = [];
  socket.on("data", (c: Buffer) => {
    text += c.toString("latin1");
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => (resolve(), waiters.splice(0).forEach((w) => w()))));
  const wait = async (until: (t: string) => boolean): Promise<string> => {
    while (!until(text) && !socket.destroyed) await new Promise<void>((r) => waiters.push(r));
    return text;
  };
  return { socket, text: () => text, closed, wait };
}

const requestBytes = (body: string, extra = ""): string =>
  `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
/** A complete response: the head and content-length bytes of body. */
const complete = (t: string): boolean => {
  const end = t.indexOf("\r\n\r\n");
  const m = /content-length: (\d+)/i.exec(t);
  return end !== -1 && m !== null && t.length >= end + 4 + Number(m[1]);
};

let spins = 0;
/** A handler that holds the event loop for about 2 ms. */
function spin(): number {
  const until = performance.now() + 2;
  while (performance.now() < until);
  return ++spins;
}
const withSpin = (extra: Partial<ListenerOptions> = {}): Promise<string> =>
  start({
    methods: { ...methods, spin: info("spin", false) },
    validators: { ...validators, spin: { params: anything, result: anything } },
    handlers: { ...handlers, spin },
    ...extra,
  });

describe("listener bounds", () => {
  it("answers requests on connections past maxConnections with 429 and closes them; a freed slot serves again", async () => {
    const url = await start({ maxConnections: 2 });
    const slot = rpc("getIndexerSlot");
    const first = [rawSocket(url), rawSocket(url)];
    for (const c of first) {
      c.socket.write(requestBytes(slot));
      expect(await c.wait(complete)).toMatch(/^HTTP\/1\.1 200/);
    }
    const third = rawSocket(url);
    third.socket.write(requestBytes(slot));
    await third.closed;
    expect(third.text()).toMatch(/^HTTP\/1\.1 429/);
    expect(third.text()).toContain("Too many connections. Please try again later.");
    expect(third.text().toLowerCase()).toContain("connection: close");
    first[0]!.socket.destroy();
    await first[0]!.closed;
    // The server sees the close a moment later; a new connection is then served.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await post(url, slot)).status;
      if (status !== 200) await sleep(10);
    }
    expect(status).toBe(200);
    first[1]!.socket.destroy();
  });

  it("holds at most maxBufferedBytes of unfinished bodies across connections: 503 and close past it, released when a body ends", async () => {
    const KiB = 1024;
    const url = await start({ maxRequestBytes: 1024 * KiB, maxBufferedBytes: 2048 * KiB });
    const prefix = `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","pad":"`;
    const body = prefix + "x".repeat(900 * KiB - prefix.length - 2) + `"}`;
    const head = (n: number) => `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${n}\r\n\r\n`;
    const slow = [rawSocket(url), rawSocket(url), rawSocket(url), rawSocket(url)];
    // Each declares 900 KiB and sends 100 KiB of it: two fit in 2 MiB, the others are refused at once.
    for (const c of slow) c.socket.write(head(body.length) + body.slice(0, 100 * KiB));
    await Promise.all(slow.slice(2).map((c) => c.closed));
    for (const c of slow.slice(2)) {
      expect(c.text()).toMatch(/^HTTP\/1\.1 503/);
      expect(c.text().toLowerCase()).toContain("retry-after: 1");
    }
    expect(slow[0]!.text()).toBe("");
    // A chunked body is counted as it arrives: 300 KiB more does not fit.
    const chunked = rawSocket(url);
    chunked.socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    for (let i = 0; i < 3 && !chunked.socket.destroyed; i++) chunked.socket.write(`${(100 * KiB).toString(16)}\r\n${"x".repeat(100 * KiB)}\r\n`);
    await chunked.closed;
    expect(chunked.text()).toMatch(/^HTTP\/1\.1 503/);
    // The first body ends: answered, and its bytes are free again for a new request.
    slow[0]!.socket.write(body.slice(100 * KiB));
    expect(await slow[0]!.wait(complete)).toMatch(/^HTTP\/1\.1 200/);
    expect((await post(url, body)).status).toBe(200);
    slow[1]!.socket.destroy();
    await slow[1]!.closed;
    await sleep(20);
    expect((await post(url, body)).status).toBe(200);
    slow[0]!.socket.destroy();
  });

  it("refuses maxBufferedBytes below maxRequestBytes", () => {
    expect(() => createRequestListener({ methods, validators, handlers, maxRequestBytes: 2048, maxBufferedBytes: 1024 })).toThrow(
      expect.objectContaining({ code: "PHOTON_ERR_LISTENER_OPTIONS" }),
    );
  });

  it("serves other connections while a heavy batch runs (the batch yields to the event loop)", async () => {
    // A budget far above the batch's time, so that a loaded machine cannot cut it: yielding is the subject here.
    const url = await withSpin({ maxBatchMs: 60_000 });
    spins = 0;
    const n = 300; // about 600 ms of handler time
    const batch = post(url, `[${Array.from({ length: n }, (_, i) => rpc("spin", undefined, String(i))).join(",")}]`);
    while (spins === 0) await new Promise<void>((r) => setImmediate(r));
    const other = await post(url, rpc("getIndexerSlot"));
    const doneWhenAnswered = spins;
    expectJson(other, 200, ok("18446744073709551615"));
    expect(doneWhenAnswered).toBeLessThan(n);
    const answers = JSON.parse((await batch).body) as { result: number }[];
    expect(answers.map((a) => a.result)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it("stops running a batch's elements once its time budget is spent (-32000 in their slots)", async () => {
    const url = await withSpin({ maxBatchMs: 20 });
    spins = 0;
    const calls = Array.from({ length: 100 }, (_, i) => rpc("spin", undefined, String(i)));
    calls.push(`{"jsonrpc":"2.0","method":"spin","params":null}`, `{"jsonrpc":"1.0","id":"bad","method":"spin"}`);
    const answers = JSON.parse((await post(url, `[${calls.join(",")}]`)).body) as { id: unknown; result?: number; error?: { code: number; message: string } }[];
    expect(answers).toHaveLength(101); // the notification gets no slot
    expect(answers[0]).toEqual({ jsonrpc: "2.0", result: 1, id: 0 });
    expect(answers[99]).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Batch time budget of 20 ms spent: call not run" }, id: 99 });
    expect(answers[100]).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: "bad" });
    expect(spins).toBeLessThan(100);
  });

  it("never parses a number literal longer than 40 characters", async () => {
    const long = "9".repeat(9 * 1024 * 1024);
    // In params: replaced by 2^64 before parsing (validators refuse it; this fake one passes it through).
    const a = await post(base, `{"jsonrpc":"2.0","id":1,"method":"getThing","params":{"owner":"o","limit":${long}}}`);
    expect(JSON.parse(a.body.replace(/"limit":(\d+)/, '"limit":"$1"')).result.value.limit).toBe("18446744073709551616");
    // As the id: unusable, so a notification (no answer), as jsonrpsee.
    expectJson(await post(base, `{"jsonrpc":"2.0","id":${long},"method":"getIndexerSlot"}`), 200, "");
    // A run of number characters that is not a number: not JSON.
    expectJson(await post(base, `{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","params":[1-${"1".repeat(50)}]}`), 200, PARSE);
    // Long digit runs inside strings are data, not numbers.
    const digits = "1".repeat(60);
    expectJson(await post(base, rpc("getThing", { owner: digits })), 200, ok(`{"value":{"owner":"${digits}","amount":18446744073709551615,"limit":null}}`));
    // A 40-character literal is still read.
    const forty = `1${"0".repeat(39)}`;
    const b = await post(
      base,
      `[{"jsonrpc":"2.0","id":1,"method":"getThing","params":{"owner":"o","limit":${forty}}},{"jsonrpc":"2.0","id":2,"method":"getThing","params":{"owner":"o","limit":-${long}.5e7}}]`,
    );
    expect(b.body).toContain(`"limit":${forty}`);
    expect(b.body).toContain(`"limit":-18446744073709551616`);
  });
});
