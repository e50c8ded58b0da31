/**
 * conformance/checks/errors.ts: a negative case gets a JSON-RPC error with the expected
 * integer code, a string message, and the pinned message or pattern when the case has one,
 * whatever the HTTP status.
 */
import { describe, expect, it } from "vitest";
import { errorsCheck } from "../../../conformance/checks/errors.js";
import type { Finding } from "../../../conformance/results.js";
import { caseOf, contextOf, exchangeOf } from "../../helpers/check-context.js";

const invalidParams = caseOf("method: getCompressedAccount", "expect: { error: -32602 }");
const pinned = caseOf(
  "method: getCompressedAccount",
  "expect: { error: { code: -32000, message: 'Validation Error: Either address or hash must be provided' } }",
);
const pattern = caseOf("method: getCompressedAccount", "expect: { error: { code: -32000, messageMatches: '^Validation Error: ' } }");
const errorReply = (error: unknown, status = 200) => exchangeOf({ status, json: { jsonrpc: "2.0", id: 1, error } });
const run = (...args: Parameters<typeof contextOf>) => errorsCheck.run(contextOf(...args)) as Finding[];
const summary = (findings: Finding[]) => findings.map((f) => [f.status, f.message, f.expected, f.actual]);

describe("errors check", () => {
  it("applies only to cases expecting an error", () => {
    expect(errorsCheck.name).toBe("errors");
    expect(errorsCheck.applies(invalidParams, {})).toBe(true);
    expect(errorsCheck.applies(caseOf("method: getIndexerSlot"), {})).toBe(false);
  });

  it("passes the expected code, on any HTTP status", () => {
    expect(run(invalidParams, errorReply({ code: -32602, message: "Invalid params" }))).toEqual([{ check: "errors", status: "pass", message: "error -32602" }]);
    expect(summary(run(invalidParams, errorReply({ code: -32602, message: "x" }, 400)))).toEqual([["pass", "error -32602", undefined, undefined]]);
  });

  it("fails another code, naming both", () => {
    expect(summary(run(invalidParams, errorReply({ code: -32000, message: "Validation Error: x" })))).toEqual([
      ["fail", "wrong error code", "-32602", "-32000"],
    ]);
  });

  it("fails a code that is not an integer, and a message that is not a string, each on its own", () => {
    expect(summary(run(invalidParams, errorReply({ code: "-32602", message: 5 })))).toEqual([
      ["fail", "error.code is not an integer", "integer", '"-32602"'],
      ["fail", "error.message is not a string", "string", "5"],
    ]);
    expect(summary(run(invalidParams, errorReply({ code: -32602.5, message: "m" })))[0]!.slice(0, 2)).toEqual(["fail", "error.code is not an integer"]);
  });

  it("checks a pinned message exactly", () => {
    expect(summary(run(pinned, errorReply({ code: -32000, message: "Validation Error: Either address or hash must be provided" })))).toEqual([
      ["pass", "error -32000", undefined, undefined],
    ]);
    expect(summary(run(pinned, errorReply({ code: -32000, message: "Validation Error: other" })))).toEqual([
      ["pass", "error -32000", undefined, undefined],
      ["fail", "wrong error message", "Validation Error: Either address or hash must be provided", "Validation Error: other"],
    ]);
  });

  it("checks a message pattern", () => {
    expect(summary(run(pattern, errorReply({ code: -32000, message: "Validation Error: limit" })))).toHaveLength(1);
    expect(summary(run(pattern, errorReply({ code: -32000, message: "Internal server error" })))[1]).toEqual([
      "fail",
      "error message does not match",
      "/^Validation Error: /",
      "Internal server error",
    ]);
  });

  it("without a pinned message, any string message passes", () => {
    expect(summary(run(invalidParams, errorReply({ code: -32602, message: "" })))).toEqual([["pass", "error -32602", undefined, undefined]]);
  });

  it("fails a result, a non-JSON body or another shape instead of an error, saying what came", () => {
    expect(summary(run(invalidParams, exchangeOf({ json: { jsonrpc: "2.0", id: 1, result: { value: null } } })))).toEqual([
      ["fail", 'expected JSON-RPC error -32602, got a result {"value":null}', "-32602", undefined],
    ]);
    expect(summary(run(invalidParams, exchangeOf({ status: 502, text: "Bad Gateway" })))[0]![1]).toBe("expected JSON-RPC error -32602, got a non-JSON body");
    expect(summary(run(invalidParams, exchangeOf({ json: { jsonrpc: "2.0", id: 1, error: "bad" } })))[0]![1]).toBe(
      'expected JSON-RPC error -32602, got {"jsonrpc":"2.0","id":1,"error":"bad"}',
    );
    expect(summary(run(invalidParams, exchangeOf({ json: [1] })))[0]![1]).toBe("expected JSON-RPC error -32602, got [1]");
  });

  it("cuts a long result in the message", () => {
    const [finding] = run(invalidParams, exchangeOf({ json: { jsonrpc: "2.0", id: 1, result: "x".repeat(500) } }));
    expect(finding!.message.length).toBeLessThan(150);
    expect(finding!.message.endsWith("…")).toBe(true);
  });
});
