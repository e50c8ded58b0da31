/**
 * conformance/checks/http.ts: the status, an empty body for a notification, the media type,
 * a JSON body, the case's `expect.body` matcher, and a transport that answered.
 */
import { describe, expect, it } from "vitest";
import { httpCheck } from "../../../conformance/checks/http.js";
import type { Finding } from "../../../conformance/results.js";
import { caseOf, contextOf, exchangeOf } from "../../helpers/check-context.js";

const slotCase = caseOf("method: getIndexerSlot");
const run = (...args: Parameters<typeof contextOf>) => httpCheck.run(contextOf(...args)) as Finding[];
const failures = (findings: Finding[]) => findings.filter((f) => f.status !== "pass").map((f) => [f.message, f.expected, f.actual]);

describe("http check", () => {
  it("is named http and applies to every case", () => {
    expect(httpCheck.name).toBe("http");
    expect(httpCheck.applies(slotCase, {})).toBe(true);
    expect(httpCheck.applies(caseOf("method: anything", "expect: { error: -32601 }"), {})).toBe(true);
  });

  it("passes a 200 JSON answer: status, media type and body, each its own finding", () => {
    const findings = run(slotCase, exchangeOf({ json: { jsonrpc: "2.0", id: 1, result: 5 } }));
    expect(findings.map((f) => [f.check, f.status, f.message])).toEqual([
      ["http", "pass", "HTTP 200"],
      ["http", "pass", "Content-Type application/json"],
      ["http", "pass", "body is JSON"],
    ]);
  });

  it("fails another status, naming both", () => {
    expect(failures(run(slotCase, exchangeOf({ status: 500, json: {} })))).toEqual([["unexpected HTTP status", "200", "500"]]);
    const notAllowed = caseOf("method: liveness", "http: { method: GET }", "expect: { status: 405, envelope: false }");
    expect(failures(run(notAllowed, exchangeOf({ status: 405, json: {} })))).toEqual([]);
    expect(failures(run(notAllowed, exchangeOf({ status: 200, json: {} })))).toEqual([["unexpected HTTP status", "405", "200"]]);
  });

  it("compares the media type without parameters or case", () => {
    for (const type of ["application/json", "Application/JSON; charset=utf-8", " application/json ;charset=UTF-8"]) {
      expect(failures(run(slotCase, exchangeOf({ headers: { "content-type": type }, json: {} }))), type).toEqual([]);
    }
  });

  it("fails another media type, or none, naming what came", () => {
    expect(failures(run(slotCase, exchangeOf({ headers: { "content-type": "text/html" }, json: {} })))).toEqual([
      ["Content-Type is not application/json", "application/json", "text/html"],
    ]);
    expect(failures(run(slotCase, exchangeOf({ headers: {}, json: {} })))).toEqual([["Content-Type is not application/json", "application/json", "(none)"]]);
  });

  it("fails a body that is not JSON, with the parser's reason", () => {
    const [failure] = failures(run(slotCase, exchangeOf({ text: "<html>" })));
    expect(failure![0]).toMatch(/^body is not JSON: /);
    expect(failures(run(slotCase, exchangeOf({ text: "" })))).toEqual([["body is not JSON: empty body", undefined, undefined]]);
  });

  it("a case expecting another media type skips the JSON check and matches the text", () => {
    const probe = caseOf(
      "method: liveness",
      "http: { method: GET, path: /liveness, origin: true }",
      "expect: { contentType: text/plain, envelope: false, body: ok }",
    );
    const good = run(probe, exchangeOf({ headers: { "content-type": "text/plain; charset=utf-8" }, text: "ok" }));
    expect(good.map((f) => f.message)).toEqual(["HTTP 200", "Content-Type text/plain", "body as expected"]);
    expect(failures(run(probe, exchangeOf({ headers: { "content-type": "text/plain" }, text: "degraded" })))).toEqual([["body differs", '"ok"', '"degraded"']]);
  });

  it("matches expect.body against the parsed JSON", () => {
    const c = caseOf("method: getIndexerSlot", "expect: { body: { type: object } }");
    expect(failures(run(c, exchangeOf({ json: { a: 1 } })))).toEqual([]);
    expect(failures(run(c, exchangeOf({ json: [1] })))).toEqual([["body is not object", '{"type":"object"}', "[1]"]]);
  });

  it("a notification wants an empty body, and judges nothing else", () => {
    const note = caseOf("method: getIndexerSlot", "http: { json: { jsonrpc: '2.0', method: getIndexerSlot } }", "expect: { emptyBody: true }");
    const empty = run(note, exchangeOf({ text: "", headers: {} }));
    expect(empty.map((f) => [f.status, f.message])).toEqual([
      ["pass", "HTTP 200"],
      ["pass", "empty body (notification)"],
    ]);
    expect(failures(run(note, exchangeOf({ json: { jsonrpc: "2.0", id: null, result: 1 } })))).toEqual([
      ["a notification must get an empty body", "empty", "38 bytes"],
    ]);
  });

  it("a transport failure is one failing finding naming the error", () => {
    const findings = run(slotCase, exchangeOf({ error: "timed out after 30000 ms [PHOTON_ERR_TIMEOUT]" }));
    expect(findings).toEqual([{ check: "http", status: "fail", message: "no answer: timed out after 30000 ms [PHOTON_ERR_TIMEOUT]" }]);
  });
});
