/**
 * A listener over a tiny fake method table: validators written by hand (ajv-shaped `.errors`),
 * handlers that record their calls, and the HTTP helpers the listener tests share.
 */
import { afterAll, beforeAll, expect } from "vitest";
import type { AjvErrorObject, MethodInfo, MethodValidators, StandaloneValidate } from "../../../runtime/contracts.js";
import { RpcError } from "../../../runtime/errors.js";
import { createRequestListener, type CallContext, type Handler, type ListenerOptions } from "../../../runtime/server.js";
import { type Answer, closeListeners, listen } from "../../helpers/listener.js";
import { methodInfo } from "../../helpers/method-info.js";

export function info(name: string, hasParams: boolean): MethodInfo {
  // Params are an object, as the generated table's shape says of every method but the list ones.
  const paramShape = hasParams ? { type: "object" as const, closed: false, properties: {}, items: null } : null;
  return methodInfo(name, { hasParams, requiredParams: hasParams ? ["owner"] : [], paramShape });
}

/** A standalone-validate lookalike: returns true, or false with ajv-style errors. */
export function fakeValidator(check: (data: unknown) => AjvErrorObject[]): StandaloneValidate {
  const fn: StandaloneValidate = (data: unknown) => {
    const errors = check(data);
    fn.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  return fn;
}

export const anything = fakeValidator(() => []);

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

export const methods: Record<string, MethodInfo> = {
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

export const validators: Record<string, MethodValidators> = {
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

export const U64_MAX = 18446744073709551615n;
export const seen: { method: string; params: unknown; ctx: CallContext }[] = [];
export const errors: { err: unknown; method: string }[] = [];
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const handlers: Record<string, Handler> = {
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

export function start(extra: Partial<ListenerOptions> = {}): Promise<string> {
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

export const JSON_TYPE = "application/json; charset=utf-8";

export function rpc(method: string, params?: unknown, id: string = "1"): string {
  const p = params === undefined ? "" : `,"params":${JSON.stringify(params)}`;
  return `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${p}}`;
}

export function expectJson(a: Answer, status: number, body: string): void {
  expect(a.body).toBe(body);
  expect(a.status).toBe(status);
  expect(a.headers["content-type"]).toBe(JSON_TYPE);
  expect(a.headers["access-control-allow-origin"]).toBe("*");
  expect(a.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
}

export const ok = (result: string, id = "1") => `{"jsonrpc":"2.0","result":${result},"id":${id}}`;
export const err = (code: number, message: string, id = "null", data?: string) =>
  `{"jsonrpc":"2.0","error":{"code":${code},"message":${JSON.stringify(message)}${data === undefined ? "" : `,"data":${data}`}},"id":${id}}`;
export const PARSE = err(-32700, "Parse error");
export const INVALID_NULL = err(-32600, "Invalid request");

/** The URL of a listener with the default options, started before the file's tests. */
export let base: string;

/** Starts `base` before the file's tests and closes every listener after them. */
export function useListener(): void {
  beforeAll(async () => {
    base = await start();
  });
  afterAll(closeListeners);
}
