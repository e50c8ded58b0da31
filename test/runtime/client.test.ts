/**
 * runtime/client.ts `createRpcClient` against a tiny local node:http JSON-RPC server and a
 * hand-made method table (validators compiled with ajv): params checked before anything is
 * sent, results after; `validate: false`; `methodPath`; JSON-RPC errors as `RpcError`, every
 * other failure as `PhotonClientError`; pages/items following the cursor, stopping on a
 * null cursor, a repeated cursor or `maxPages`.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv } from "ajv";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRpcClient, type ClientOptions } from "../../runtime/client.js";
import type { MethodInfo, MethodValidators, PaginationInfo, StandaloneValidate } from "../../runtime/contracts.js";
import { ClientErrorCode, PhotonClientError, RpcError } from "../../runtime/errors.js";
import { methodInfo } from "../helpers/method-info.js";

// ---------------------------------------------------------------------------------------
// The method table: a lookup, a method without params, and two paginated methods (the page
// inside `{context, value}`, and the page as the result itself).

const ajv = new Ajv({ allErrors: true, strict: false });
const compile = (schema: object): StandaloneValidate => ajv.compile(schema) as unknown as StandaloneValidate;
const nullableString = { type: ["string", "null"] };
const page = { type: "object", required: ["items", "cursor"], properties: { items: { type: "array", items: { type: "integer" } }, cursor: nullableString } };
const pageParams = {
  type: "object",
  required: ["owner"],
  additionalProperties: false,
  properties: { owner: { type: "string" }, cursor: nullableString, limit: { type: "integer" } },
};
const pagination: PaginationInfo = { items: "items", cursor: "cursor", limit: "limit", order: null, maxLimit: null, defaultLimit: null };

const info = (name: string, over: Partial<MethodInfo>): MethodInfo => methodInfo(name, over);

const methods: Record<string, MethodInfo> = {
  getThing: info("getThing", { requiredParams: ["id"] }),
  getSlot: info("getSlot", { hasParams: false }),
  listThings: info("listThings", { hasContext: true, pagination }),
  listBare: info("listBare", { pagination }),
};

const validators: Record<string, MethodValidators> = {
  getThing: {
    params: compile({ type: "object", required: ["id"], additionalProperties: false, properties: { id: { type: "string", minLength: 1 } } }),
    result: compile({ type: "object", required: ["name"], properties: { name: { type: "string" } } }),
  },
  getSlot: { params: compile({}), result: compile({ type: "integer" }) },
  listThings: {
    params: compile(pageParams),
    result: compile({ type: "object", required: ["context", "value"], properties: { context: { type: "object" }, value: page } }),
  },
  listBare: { params: compile(pageParams), result: compile(page) },
};

// ---------------------------------------------------------------------------------------
// The server: every request is recorded; `answer` decides each reply from the parsed request.

interface Received {
  readonly url: string;
  readonly body: { jsonrpc: string; id: number; method: string; params?: Record<string, unknown> };
}
interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** A value is sent as JSON; a string as it stands. */
  readonly body: unknown;
}

let server: Server;
let base: string;
let received: Received[] = [];
let answer: (req: Received) => Reply = () => ({ body: null });

/** A JSON-RPC success reply to the request. */
const ok = (req: Received, result: unknown): Reply => ({ body: { jsonrpc: "2.0", id: req.body.id, result } });

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (text += c));
    req.on("end", () => {
      const got: Received = { url: req.url ?? "", body: JSON.parse(text) as Received["body"] };
      received.push(got);
      const reply = answer(got);
      const out = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(out);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  answer = (req) => ok(req, null);
});

const client = (options: Partial<ClientOptions> = {}) => createRpcClient({ url: `${base}/rpc?api=1`, retry: false, ...options }, { methods, validators });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

async function collect<T>(gen: AsyncGenerator<T>): Promise<{ got: T[]; error: unknown }> {
  const got: T[] = [];
  try {
    for await (const x of gen) got.push(x);
  } catch (error) {
    return { got, error };
  }
  return { got, error: null };
}

// ---------------------------------------------------------------------------------------

describe("call", () => {
  it("POSTs a JSON-RPC 2.0 envelope to the URL as given, with a fresh id per call, and resolves to the result", async () => {
    answer = (req) => ok(req, { name: `thing ${String(req.body.params?.id)}` });
    const rpc = client();
    expect(await rpc.call("getThing", { id: "a" })).toEqual({ name: "thing a" });
    expect(await rpc.call("getThing", { id: "b" })).toEqual({ name: "thing b" });
    expect(received.map((r) => r.url)).toEqual(["/rpc?api=1", "/rpc?api=1"]);
    expect(received[0]!.body).toEqual({ jsonrpc: "2.0", id: 1, method: "getThing", params: { id: "a" } });
    expect(received[1]!.body.id).toBe(2);
  });

  it("sends no params member for a method without params", async () => {
    answer = (req) => ok(req, 42);
    expect(await client().call("getSlot")).toBe(42);
    expect(received[0]!.body).toEqual({ jsonrpc: "2.0", id: 1, method: "getSlot" });
    expect("params" in received[0]!.body).toBe(false);
  });

  it("keeps integers past 2^53 exact (as bigint)", async () => {
    answer = (req) => ({ body: `{"jsonrpc":"2.0","id":${req.body.id},"result":18446744073709551615}` });
    // The hand-made ajv validator knows no bigint (the generated ones do): only the result check is off.
    expect(await client({ validate: { result: false } }).call("getSlot")).toBe(18446744073709551615n);
  });

  it("refuses a method the table does not know, sending nothing", async () => {
    const err = await rejection(client().call("getNothing", {}));
    expect(err).toBeInstanceOf(PhotonClientError);
    expect((err as PhotonClientError).code).toBe(ClientErrorCode.INVALID_PARAMS);
    expect((err as Error).message).toContain('unknown method "getNothing"');
    expect(received).toHaveLength(0);
  });
});

describe("validation", () => {
  it("checks params before sending: nothing reaches the server, and the error names the pointer", async () => {
    const err = (await rejection(client().call("getThing", { id: "", extra: 1 }))) as PhotonClientError;
    expect(err).toBeInstanceOf(PhotonClientError);
    expect(err.code).toBe(ClientErrorCode.INVALID_PARAMS);
    expect(err.message).toMatch(/^getThing: invalid params: /);
    expect(err.message).toContain("/extra");
    expect(err.details).toEqual(expect.arrayContaining([expect.objectContaining({ pointer: "/extra", keyword: "additionalProperties" })]));
    expect(received).toHaveLength(0);
  });

  it("checks the result after receiving, naming the pointer under /result", async () => {
    answer = (req) => ok(req, { name: 5 });
    const err = (await rejection(client().call("getThing", { id: "a" }))) as PhotonClientError;
    expect(err).toBeInstanceOf(PhotonClientError);
    expect(err.code).toBe(ClientErrorCode.INVALID_RESULT);
    expect(err.message).toContain("/result/name");
    expect(received).toHaveLength(1);
  });

  it("`validate: false` sends any params and returns any result", async () => {
    answer = (req) => ok(req, { name: 5 });
    expect(await client({ validate: false }).call("getThing", { nope: true })).toEqual({ name: 5 });
    expect(received[0]!.body.params).toEqual({ nope: true });
  });

  it("`validate: {params: false}` still checks results, and `{result: false}` still checks params", async () => {
    answer = (req) => ok(req, { name: 5 });
    const noParams = (await rejection(client({ validate: { params: false } }).call("getThing", { nope: true }))) as PhotonClientError;
    expect(noParams.code).toBe(ClientErrorCode.INVALID_RESULT);
    expect(received).toHaveLength(1);
    const noResult = (await rejection(client({ validate: { result: false } }).call("getThing", { nope: true }))) as PhotonClientError;
    expect(noResult.code).toBe(ClientErrorCode.INVALID_PARAMS);
    expect(received).toHaveLength(1);
    expect(await client({ validate: { result: false } }).call("getThing", { id: "a" })).toEqual({ name: 5 });
  });
});

describe("methodPath", () => {
  it("POSTs to <url path>/<method>, keeping the query and dropping trailing slashes", async () => {
    answer = (req) => ok(req, 1);
    await client({ methodPath: true }).call("getSlot");
    await createRpcClient({ url: `${base}/api//?k=v`, retry: false, methodPath: true }, { methods, validators }).call("getSlot");
    await createRpcClient({ url: base, retry: false, methodPath: true }, { methods, validators }).call("getSlot");
    expect(received.map((r) => r.url)).toEqual(["/rpc/getSlot?api=1", "/api/getSlot?k=v", "/getSlot"]);
  });

  it("is off by default: every method goes to the URL as given", async () => {
    answer = (req) => ok(req, 1);
    await client().call("getSlot");
    expect(received[0]!.url).toBe("/rpc?api=1");
  });
});

describe("failures", () => {
  it("a JSON-RPC error answer rejects with RpcError (code, message, data), not PhotonClientError", async () => {
    answer = (req) => ({ body: { jsonrpc: "2.0", id: req.body.id, error: { code: -32602, message: "Invalid params", data: { field: "id" } } } });
    const err = (await rejection(client().call("getThing", { id: "a" }))) as RpcError & { status: number };
    expect(err).toBeInstanceOf(RpcError);
    expect(err).not.toBeInstanceOf(PhotonClientError);
    expect([err.code, err.message, err.data, err.status]).toEqual([-32602, "Invalid params", { field: "id" }, 200]);
  });

  it("an error body on a non-200 status is still an RpcError, carrying the status", async () => {
    answer = () => ({ status: 429, body: { jsonrpc: "2.0", id: null, error: { code: -32429, message: "rate limited" } } });
    const err = (await rejection(client().call("getSlot"))) as RpcError & { status: number };
    expect(err).toBeInstanceOf(RpcError);
    expect([err.code, err.status]).toEqual([-32429, 429]);
  });

  it.each<[string, Reply, string, number | undefined]>([
    ["a non-JSON 200 body", { body: "<html>oops</html>" }, ClientErrorCode.BAD_JSON, 200],
    ["a non-JSON 500 body", { status: 500, body: "upstream failed" }, ClientErrorCode.HTTP_STATUS, 500],
    ["a JSON 500 body without an error", { status: 500, body: { jsonrpc: "2.0", id: 1, result: 1 } }, ClientErrorCode.HTTP_STATUS, 500],
    ["a redirect", { status: 302, headers: { location: "http://example.invalid/" }, body: "" }, ClientErrorCode.REDIRECT, 302],
    ["a reply without jsonrpc 2.0", { body: { id: 1, result: 1 } }, ClientErrorCode.BAD_ENVELOPE, undefined],
    ["a reply with neither result nor error", { body: { jsonrpc: "2.0", id: 1 } }, ClientErrorCode.BAD_ENVELOPE, undefined],
    ["a reply to another id", { body: { jsonrpc: "2.0", id: 99, result: 1 } }, ClientErrorCode.BAD_ENVELOPE, undefined],
  ])("%s rejects with PhotonClientError %s", async (_what, reply, code, status) => {
    answer = () => reply;
    const err = (await rejection(client().call("getSlot"))) as PhotonClientError;
    expect(err).toBeInstanceOf(PhotonClientError);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.message).toMatch(/^getSlot: /);
  });

  it("names the ids of a mismatched reply", async () => {
    answer = () => ({ body: { jsonrpc: "2.0", id: "x", result: 1 } });
    expect(((await rejection(client().call("getSlot"))) as Error).message).toBe('getSlot: response id "x" does not match request id 1');
  });
});

describe("pages and items", () => {
  /** Serves `all` in pages of `size`, the cursor being the index of the next item. */
  function serveList(all: number[], size: number, wrap: (value: object) => unknown = (value) => ({ context: { slot: 1 }, value })) {
    answer = (req) => {
      const from = Number(req.body.params?.cursor ?? 0);
      const items = all.slice(from, from + size);
      const next = from + size < all.length ? String(from + size) : null;
      return ok(req, wrap({ items, cursor: next }));
    };
  }

  it("follows the cursor page by page until it is null, yielding each page's value", async () => {
    serveList([1, 2, 3, 4, 5], 2);
    const { got, error } = await collect(client().pages("listThings", { owner: "o" }));
    expect(error).toBeNull();
    expect(got).toEqual([
      { items: [1, 2], cursor: "2" },
      { items: [3, 4], cursor: "4" },
      { items: [5], cursor: null },
    ]);
    expect(received.map((r) => r.body.params)).toEqual([{ owner: "o" }, { owner: "o", cursor: "2" }, { owner: "o", cursor: "4" }]);
  });

  it("items yields every item of every page, in order", async () => {
    serveList([1, 2, 3, 4, 5, 6, 7], 3);
    expect((await collect(client().items("listThings", { owner: "o", limit: 3 }))).got).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(received.every((r) => r.body.params?.limit === 3)).toBe(true);
  });

  it("starts from the cursor given in params", async () => {
    serveList([1, 2, 3, 4, 5], 2);
    expect((await collect(client().items("listThings", { owner: "o", cursor: "2" }))).got).toEqual([3, 4, 5]);
  });

  it("reads the page from the result itself when the method has no context", async () => {
    serveList([1, 2, 3], 2, (value) => value);
    expect((await collect(client().items("listBare", { owner: "o" }))).got).toEqual([1, 2, 3]);
  });

  it("stops with CURSOR_REPEATED when the server hands back a cursor it gave before", async () => {
    answer = (req) => ok(req, { context: {}, value: { items: [received.length], cursor: received.length === 1 ? "a" : received.length === 2 ? "b" : "a" } });
    const { got, error } = await collect(client().items("listThings", { owner: "o" }));
    expect(got).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(PhotonClientError);
    expect((error as PhotonClientError).code).toBe(ClientErrorCode.CURSOR_REPEATED);
    expect((error as Error).message).toContain("cursor a twice");
    expect(received).toHaveLength(3);
  });

  it("stops after maxPages pages although the cursor goes on", async () => {
    serveList(
      Array.from({ length: 50 }, (_, i) => i),
      5,
    );
    const { got, error } = await collect(client().pages("listThings", { owner: "o" }, { maxPages: 3 }));
    expect(error).toBeNull();
    expect(got).toHaveLength(3);
    expect(received).toHaveLength(3);
    expect(got.at(-1)).toEqual({ items: [10, 11, 12, 13, 14], cursor: "15" });
  });

  it("validates each page's params and result like a call", async () => {
    answer = (req) => ok(req, { context: {}, value: { items: ["not an integer"], cursor: null } });
    const { error } = await collect(client().items("listThings", { owner: "o" }));
    expect((error as PhotonClientError).code).toBe(ClientErrorCode.INVALID_RESULT);
    const bad = await collect(client().items("listThings", { owner: 5 } as Record<string, unknown>));
    expect((bad.error as PhotonClientError).code).toBe(ClientErrorCode.INVALID_PARAMS);
    expect(received).toHaveLength(1);
  });

  it("refuses a method that is not paginated, sending nothing", async () => {
    const { error } = await collect(client().pages("getThing", { id: "a" }));
    expect(error).toBeInstanceOf(PhotonClientError);
    expect((error as PhotonClientError).code).toBe(ClientErrorCode.INVALID_PARAMS);
    expect((error as Error).message).toBe("getThing is not paginated");
    expect(received).toHaveLength(0);
  });
});
