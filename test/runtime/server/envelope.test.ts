import { describe, expect, it } from "vitest";
import { RpcError } from "../../../runtime/errors.js";
import { asRpcError, errorEnvelope, idToText, isUsableId, PARSE_ERROR } from "../../../runtime/server/envelope.js";

describe("JSON-RPC envelopes", () => {
  it("writes error envelopes in jsonrpsee's key order, data only when given", () => {
    expect(errorEnvelope("1", -32601, "Method not found")).toBe('{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":1}');
    expect(errorEnvelope('"a"', -32000, "x", { n: 1n })).toBe('{"jsonrpc":"2.0","error":{"code":-32000,"message":"x","data":{"n":1}},"id":"a"}');
    expect(PARSE_ERROR).toContain('"id":null');
  });

  it("accepts as ids strings, u64 numbers and null only", () => {
    for (const id of ["x", 0, 7, 18446744073709551615n, null]) expect(isUsableId(id)).toBe(true);
    for (const id of [-1, 1.5, -0, 18446744073709551616n, true, {}, []]) expect(isUsableId(id)).toBe(false);
    expect([idToText(null), idToText(5), idToText(2n ** 63n), idToText('q"')]).toEqual(["null", "5", "9223372036854775808", '"q\\""']);
  });

  it("recognises an RpcError also from another copy of the module", () => {
    const foreign = Object.assign(new Error("m"), { name: "RpcError", code: -1 });
    expect(asRpcError(foreign)).toBe(foreign);
    expect(asRpcError(new RpcError(-32000, "x"))).toBeInstanceOf(RpcError);
    expect(asRpcError(new Error("plain"))).toBeUndefined();
  });
});
