/**
 * conformance/checks/envelope.ts: a reply is a JSON-RPC 2.0 response (the generated envelope
 * validator) echoing the request's id; a batch is an array of them, each expected reply found
 * by id (by position when ids repeat), a reordered batch passing with a note.
 */
import { describe, expect, it } from "vitest";
import { envelopeCheck, REORDERED_NOTE } from "../../../conformance/checks/envelope.js";
import type { Finding } from "../../../conformance/results.js";
import { caseOf, contextOf, exchangeOf } from "../../helpers/check-context.js";

const single = caseOf("method: getIndexerSlot");
const run = (...args: Parameters<typeof contextOf>) => envelopeCheck.run(contextOf(...args)) as Finding[];
const failures = (findings: Finding[]) => findings.filter((f) => f.status !== "pass").map((f) => [f.message, f.expected, f.actual]);

/** A batch case expecting these replies (YAML flow mappings). */
const batchOf = (...replies: string[]) => caseOf("method: getIndexerSlot", "http: { json: [] }", "expect:", "  batch:", ...replies.map((r) => `    - ${r}`));

describe("applies", () => {
  it("to cases answered with an envelope, not to notifications or raw HTTP probes", () => {
    expect(envelopeCheck.name).toBe("envelope");
    expect(envelopeCheck.applies(single, {})).toBe(true);
    expect(envelopeCheck.applies(caseOf("method: x", "expect: { emptyBody: true }"), {})).toBe(false);
    expect(envelopeCheck.applies(caseOf("method: liveness", "expect: { envelope: false }"), {})).toBe(false);
    expect(envelopeCheck.applies(caseOf("method: liveness", "expect: { contentType: text/plain }"), {})).toBe(false);
  });
});

describe("one reply", () => {
  it("passes a result or an error envelope echoing the id", () => {
    expect(run(single, exchangeOf({ json: { jsonrpc: "2.0", id: 1, result: 5 } }))).toEqual([{ check: "envelope", status: "pass", message: "valid envelope" }]);
    expect(failures(run(single, exchangeOf({ json: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params" } } })))).toEqual([]);
  });

  it("compares ids by value (a bigint id equals its number) and ignores the id when the request had none", () => {
    expect(failures(run(single, exchangeOf({ json: { jsonrpc: "2.0", id: "a", result: 5 } }), { requestId: "a" }))).toEqual([]);
    expect(failures(run(single, exchangeOf({ text: '{"jsonrpc":"2.0","id":18446744073709551615,"result":1}' }), { requestId: 18446744073709551615n }))).toEqual(
      [],
    );
    expect(failures(run(single, exchangeOf({ json: { jsonrpc: "2.0", id: 99, result: 5 } }), { requestId: undefined }))).toEqual([]);
  });

  it("fails an id that does not echo the request's", () => {
    expect(failures(run(single, exchangeOf({ json: { jsonrpc: "2.0", id: 2, result: 5 } })))).toEqual([["id does not echo the request's", "1", "2"]]);
    expect(failures(run(single, exchangeOf({ json: { jsonrpc: "2.0", id: "1", result: 5 } })))).toEqual([["id does not echo the request's", "1", '"1"']]);
  });

  it.each<[string, unknown]>([
    ["without jsonrpc", { id: 1, result: 5 }],
    ["with jsonrpc 1.0", { jsonrpc: "1.0", id: 1, result: 5 }],
    ["with both result and error", { jsonrpc: "2.0", id: 1, result: 5, error: { code: 1, message: "m" } }],
    ["with neither result nor error", { jsonrpc: "2.0", id: 1 }],
    ["with a fractional error code", { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } }],
    ["with an error without a message", { jsonrpc: "2.0", id: 1, error: { code: -32600 } }],
    ["that is an array", [{ jsonrpc: "2.0", id: 1, result: 5 }]],
  ])("fails a reply %s, showing the body", (_what, body) => {
    const findings = run(single, exchangeOf({ json: body }));
    expect(findings).toHaveLength(1);
    expect(findings[0]!.status).toBe("fail");
    expect(findings[0]!.message).toMatch(/^not a JSON-RPC 2\.0 response: \//);
    expect(findings[0]!.actual).toBe(JSON.stringify(body));
  });

  it("judges nothing when the body is not JSON (the http check reports that)", () => {
    expect(run(single, exchangeOf({ text: "<html>" }))).toEqual([]);
    expect(run(single, exchangeOf({ error: "reset" }))).toEqual([]);
  });
});

describe("batches", () => {
  const reply = (id: unknown, result: unknown = 1) => ({ jsonrpc: "2.0", id, result });

  it("an answer that is not an array fails at once", () => {
    expect(failures(run(batchOf("{id: 1, result: 1}"), exchangeOf({ json: reply(1) })))).toEqual([
      ["a batch must be answered with an array", "array", '{"jsonrpc":"2.0","id":1,"result":1}'],
    ]);
  });

  it("checks every reply's envelope and each expectation, matched by id", () => {
    const c = batchOf("{id: 1, result: {type: uint64}}", "{id: 2, error: -32601}");
    const findings = run(c, exchangeOf({ json: [reply(1, 7), { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found" } }] }));
    expect(failures(findings)).toEqual([]);
    expect(findings.map((f) => f.message)).toEqual([
      "batch reply 0: valid envelope",
      "batch reply 1: valid envelope",
      "batch reply to request 0: id as expected",
      "batch reply to request 0: result as expected",
      "batch reply to request 1: id as expected",
      "batch reply to request 1: error.code as expected",
    ]);
  });

  it("a reordered batch passes, with a note for the run", () => {
    const findings = run(batchOf("{id: 1, result: 10}", "{id: 2, result: 20}"), exchangeOf({ json: [reply(2, 20), reply(1, 10)] }));
    expect(failures(findings)).toEqual([]);
    expect(findings.filter((f) => f.note)).toEqual([{ check: "envelope", status: "pass", message: REORDERED_NOTE, note: true }]);
  });

  it("a request whose id no reply carries fails, naming the id", () => {
    const findings = run(batchOf("{id: 1, result: 10}", "{id: 2, result: 20}"), exchangeOf({ json: [reply(1, 10), reply(3, 20)] }));
    expect(failures(findings)).toEqual([["batch request 1: no reply carries its id", "2", "absent"]]);
  });

  it("a wrong expectation names the reply, the path and both values", () => {
    const findings = run(batchOf("{id: 1, result.value: 10}"), exchangeOf({ json: [reply(1, { value: 11 })] }));
    expect(failures(findings)).toEqual([["batch reply to request 0: result.value differs", "10", "11"]]);
  });

  it("repeated ids are matched by position, and a mismatch says order matters", () => {
    const c = batchOf("{id: 7, result: 1}", "{id: 7, result: 2}");
    expect(failures(run(c, exchangeOf({ json: [reply(7, 1), reply(7, 2)] })))).toEqual([]);
    expect(failures(run(c, exchangeOf({ json: [reply(7, 2), reply(7, 1)] })))).toEqual([
      ["batch reply 0: result differs (replies must keep request order)", "1", "2"],
      ["batch reply 1: result differs (replies must keep request order)", "2", "1"],
    ]);
  });

  it("the wrong number of replies fails after checking the envelopes it got", () => {
    const findings = run(batchOf("{id: 1, result: 1}", "{id: 2, result: 2}"), exchangeOf({ json: [reply(1), { id: 2 }, reply(3)] }));
    expect(findings.map((f) => [f.status, f.message.split(":")[0]])).toEqual([
      ["pass", "batch reply 0"],
      ["fail", "batch reply 1"],
      ["pass", "batch reply 2"],
      ["fail", "wrong number of batch replies"],
    ]);
    expect(findings.at(-1)).toMatchObject({ expected: "2", actual: "3" });
    const short = run(batchOf("{id: 1, result: 1}", "{id: 2, result: 2}"), exchangeOf({ json: [reply(1)] }));
    expect(failures(short)).toEqual([["wrong number of batch replies", "2", "1"]]);
  });

  it("an expected entry that is not a mapping is the case's fault, reported as such", () => {
    const findings = run(batchOf("5"), exchangeOf({ json: [reply(1)] }));
    expect(failures(findings)).toEqual([["batch reply 0: the case's entry is not a mapping", undefined, undefined]]);
  });
});
