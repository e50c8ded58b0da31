/**
 * runtime/errors.ts: the coded-error base (`PhotonError`, `InternalError`, `internalError`,
 * `isCoded`), the JSON-RPC catalogue and `RpcError` (a wire value, deliberately not a
 * `PhotonError`), and the client's catalogue with `PhotonClientError`.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ClientErrorCode,
  type ClientErrorCodeValue,
  type CodeOf,
  InternalError,
  internalError,
  isCoded,
  PhotonClientError,
  PhotonError,
  RpcCode,
  RpcError,
  RpcMessage,
} from "../../runtime/errors.js";

describe("PhotonError", () => {
  it("carries a string code and the message, and is an Error", () => {
    const err = new PhotonError("PHOTON_X_ERR_Y", "went wrong");
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe("PhotonError");
    expect(err.code).toBe("PHOTON_X_ERR_Y");
    expect(err.message).toBe("went wrong");
    expect(err.cause).toBeUndefined();
    expect("cause" in err).toBe(false);
  });

  it("keeps a cause when given one", () => {
    const cause = new Error("root");
    expect(new PhotonError("C", "m", { cause }).cause).toBe(cause);
  });

  it("an area's class narrows `code` to its catalogue (CodeOf), keeping the base's behaviour", () => {
    const AreaCode = { ONE: "PHOTON_AREA_ERR_ONE", TWO: "PHOTON_AREA_ERR_TWO" } as const;
    class AreaError extends PhotonError<CodeOf<typeof AreaCode>> {}
    const err = new AreaError(AreaCode.TWO, "m");
    expectTypeOf(err.code).toEqualTypeOf<"PHOTON_AREA_ERR_ONE" | "PHOTON_AREA_ERR_TWO">();
    expectTypeOf(new PhotonClientError(ClientErrorCode.ABORTED, "m").code).toEqualTypeOf<ClientErrorCodeValue>();
    expect(err).toBeInstanceOf(PhotonError);
    expect(err.name).toBe("PhotonError"); // a subclass names itself by overriding `name`
    expect(err.toValue()).toEqual({ code: "PHOTON_AREA_ERR_TWO", message: "m" });
  });

  it("is an error value ({code, message}) for exchanges and results", () => {
    expect(new PhotonError("C", "m", { cause: new Error("x") }).toValue()).toEqual({ code: "C", message: "m" });
  });
});

describe("internal errors", () => {
  it("internalError builds an InternalError, a PhotonError with the area's code", () => {
    const err = internalError(ClientErrorCode.INTERNAL, "invariant broken");
    expect(err).toBeInstanceOf(InternalError);
    expect(err).toBeInstanceOf(PhotonError);
    expect(err.name).toBe("InternalError");
    expect(err.code).toBe("PHOTON_ERR_INTERNAL");
    expect(err.message).toBe("invariant broken");
    expect("cause" in err).toBe(false);
  });

  it("keeps the cause it is given", () => {
    const cause = new TypeError("t");
    expect(internalError("X_INTERNAL", "m", cause).cause).toBe(cause);
  });
});

describe("isCoded", () => {
  it("accepts a PhotonError of any area and an RpcError", () => {
    expect(isCoded(new PhotonError("A", "m"))).toBe(true);
    expect(isCoded(new PhotonClientError(ClientErrorCode.TIMEOUT, "m"))).toBe(true);
    expect(isCoded(internalError("I", "m"))).toBe(true);
    expect(isCoded(new RpcError(-32602, "m"))).toBe(true);
  });

  it("refuses plain errors and look-alike values", () => {
    expect(isCoded(new Error("m"))).toBe(false);
    expect(isCoded(Object.assign(new Error("m"), { code: "PHOTON_ERR_TIMEOUT" }))).toBe(false);
    expect(isCoded({ code: "C", message: "m" })).toBe(false);
    expect(isCoded(null)).toBe(false);
    expect(isCoded("PHOTON_ERR_TIMEOUT")).toBe(false);
  });
});

describe("the JSON-RPC catalogue", () => {
  it("has the codes the real indexer (jsonrpsee) sends", () => {
    // JSON-RPC 2.0's own codes, jsonrpsee's -32000 for application errors and its size codes.
    const { PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR, CALL_EXECUTION_FAILED, OVERSIZED_REQUEST, OVERSIZED_RESPONSE } =
      RpcCode;
    expect([PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR]).toEqual([-32700, -32600, -32601, -32602, -32603]);
    expect([CALL_EXECUTION_FAILED, OVERSIZED_REQUEST, OVERSIZED_RESPONSE]).toEqual([-32000, -32701, -32702]);
    expect(Object.keys(RpcCode)).toHaveLength(8);
  });

  it("has a message for every code", () => {
    expect(Object.keys(RpcMessage).sort()).toEqual(Object.keys(RpcCode).sort());
    expect(RpcMessage.INVALID_PARAMS).toBe("Invalid params");
    expect(RpcMessage.CALL_EXECUTION_FAILED).toBe("Internal server error");
  });
});

describe("RpcError", () => {
  it("is a JSON-RPC error value with an integer code, not a PhotonError", () => {
    const err = new RpcError(RpcCode.METHOD_NOT_FOUND, "Method not found");
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PhotonError);
    expect(err.name).toBe("RpcError");
    expect(err.code).toBe(-32601);
    expect(err.data).toBeUndefined();
  });

  it("serialises as the wire's error object, with data only when there is some", () => {
    expect(new RpcError(-32600, "Invalid request").toJSON()).toEqual({ code: -32600, message: "Invalid request" });
    expect(JSON.parse(JSON.stringify(new RpcError(-32602, "bad", { at: "/owner" })))).toEqual({ code: -32602, message: "bad", data: { at: "/owner" } });
    expect(new RpcError(-32602, "bad", null).toJSON()).toEqual({ code: -32602, message: "bad", data: null });
  });

  it("validation() is Photon's application error: -32000 `Validation Error: …`", () => {
    const err = RpcError.validation("limit must be at most 1000");
    expect(err.toJSON()).toEqual({ code: -32000, message: "Validation Error: limit must be at most 1000" });
  });

  it("invalidParams() is -32602 with the detail as message and optional data", () => {
    expect(RpcError.invalidParams("missing field `owner`").toJSON()).toEqual({ code: -32602, message: "missing field `owner`" });
    expect(RpcError.invalidParams("x", [1]).data).toEqual([1]);
  });
});

describe("the client catalogue", () => {
  it("names every code PHOTON_ERR_<KEY>, each once", () => {
    const entries = Object.entries(ClientErrorCode);
    expect(entries.length).toBeGreaterThanOrEqual(14);
    for (const [key, code] of entries) expect(code).toBe(`PHOTON_ERR_${key}`);
    expect(new Set(Object.values(ClientErrorCode)).size).toBe(entries.length);
  });

  it("holds the codes callers branch on", () => {
    for (const key of [
      "TIMEOUT",
      "ABORTED",
      "NETWORK",
      "HTTP_STATUS",
      "BODY_TOO_LARGE",
      "BAD_JSON",
      "BAD_ENVELOPE",
      "INVALID_PARAMS",
      "INVALID_RESULT",
      "REDIRECT",
      "RETRIES_EXHAUSTED",
      "CURSOR_REPEATED",
      "INDEXER_BEHIND",
      "INVALID_OPTIONS",
      "INTERNAL",
    ]) {
      expect(ClientErrorCode, key).toHaveProperty(key);
    }
  });
});

describe("PhotonClientError", () => {
  it("is a PhotonError with a client code", () => {
    const err = new PhotonClientError(ClientErrorCode.HTTP_STATUS, "HTTP 500");
    expect(err).toBeInstanceOf(PhotonError);
    expect(err.name).toBe("PhotonClientError");
    expect(err.code).toBe("PHOTON_ERR_HTTP_STATUS");
    expect(err.toValue()).toEqual({ code: "PHOTON_ERR_HTTP_STATUS", message: "HTTP 500" });
  });

  it("sets status, details and cause only when given", () => {
    const bare = new PhotonClientError(ClientErrorCode.NETWORK, "m");
    expect([bare.status, bare.details, bare.cause]).toEqual([undefined, undefined, undefined]);
    expect("cause" in bare).toBe(false);
    const cause = new Error("ECONNRESET");
    const full = new PhotonClientError(ClientErrorCode.INVALID_RESULT, "m", { status: 200, details: [{ pointer: "/x" }], cause });
    expect(full.status).toBe(200);
    expect(full.details).toEqual([{ pointer: "/x" }]);
    expect(full.cause).toBe(cause);
  });
});

describe("optional fields are own properties only when given", () => {
  it("RpcError without data and PhotonClientError without status/details carry no undefined-valued keys", () => {
    expect(Object.keys(new RpcError(-32600, "x"))).not.toContain("data");
    expect(Object.keys(new RpcError(-32600, "x", { a: 1 }))).toContain("data");
    const keys = Object.keys(new PhotonClientError("PHOTON_ERR_NETWORK", "m"));
    expect(keys).not.toContain("status");
    expect(keys).not.toContain("details");
    expect(Object.keys(new PhotonClientError("PHOTON_ERR_NETWORK", "m", { status: 502, details: 1 }))).toEqual(expect.arrayContaining(["status", "details"]));
  });
});
