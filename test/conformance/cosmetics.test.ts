/**
 * What findings and tables read like: big integers as digits, a missing value as `absent`,
 * paths and pointers without doubled dots or trailing slashes, a per-method table of spec
 * methods only, and curl lines that show the response head.
 */
import { describe, expect, it } from "vitest";
import type { ConformanceCase } from "../../conformance/case-format.js";
import { show, type CheckContext } from "../../conformance/checks/check.js";
import { schemaFindings } from "../../conformance/checks/schema.js";
import { semanticsCheck } from "../../conformance/checks/semantics.js";
import { ABSENT } from "../../conformance/matchers.js";
import type { CaseResult, Exchange, RunSummary, Status } from "../../conformance/model.js";
import { curlLine } from "../../conformance/reporters/support/curl.js";
import { methodStats } from "../../conformance/reporters/support/stats.js";
import { methods, methodValidators } from "../../generated/index.js";

const U64_MAX = 18446744073709551615n;

function exchangeOf(body: unknown): Exchange {
  return {
    request: { method: "POST", url: "http://127.0.0.1:1/", headers: {}, body: "" },
    status: 200,
    headers: {},
    text: "",
    body,
    parseError: null,
    error: null,
    startedAt: 0,
    durationMs: 1,
    attempts: 1,
  };
}

/** A semantics context for a case expecting `result` matchers, answered with `body`. */
function semanticsOf(result: Record<string, unknown>, body: unknown): CheckContext {
  const testCase = { id: "x", method: "getIndexerSlot", params: undefined, expect: { result, every: null, semantics: [] } } as unknown as ConformanceCase;
  return {
    testCase,
    exchange: exchangeOf(body),
    target: { display: "", call: () => Promise.reject(new Error("no call")) },
    methods,
    validators: methodValidators,
    envelope: null!,
    strict: false,
    requestId: 1,
  };
}

describe("values in findings", () => {
  it("big integers are printed as numbers, without an n suffix", () => {
    expect(show(U64_MAX)).toBe("18446744073709551615");
    expect(show({ lamports: U64_MAX, items: [1n, 2] })).toBe('{"lamports":18446744073709551615,"items":[1,2]}');
  });

  it("a missing value is `absent`, never `undefined`", () => {
    expect(show(undefined)).toBe("absent");
    expect(show(ABSENT)).toBe("absent");
  });

  it("a matcher on the whole result says `result`, not `result.`; an absent field's actual is `absent`", async () => {
    const whole = await semanticsCheck.run(semanticsOf({ ".": 5 }, { result: 3 }));
    expect(whole.map((f) => f.message)).toEqual(["result differs"]);
    const missing = await semanticsCheck.run(semanticsOf({ "value.slot": 5 }, { result: { value: {} } }));
    expect(missing.map((f) => [f.message, f.actual])).toEqual([["result.value.slot is absent", "absent"]]);
  });

  it("schema findings name the result without a trailing slash", () => {
    const [finding] = schemaFindings(methodValidators.getCompressedAccount.result, 7, false);
    expect(finding!.message).toBe("result does not match the spec: /result must be object");
  });
});

describe("the per-method table", () => {
  it("lists the spec's methods, protocol cases under (protocol), run-wide cases under (run-wide)", () => {
    const result = (id: string, method: string, status: Status): CaseResult => ({
      id,
      method,
      description: id,
      required: true,
      findings: [],
      exchange: null,
      status,
      durationMs: 0,
    });
    const results = [
      result("slot/indexer-slot", "getIndexerSlot", "pass"),
      result("http/liveness", "liveness", "pass"),
      result("http/readiness", "readiness", "fail"),
      result("protocol/unknown", "getUnknownMethod", "pass"),
      result("line-3", "(batch)", "pass"),
      result("run/slot-order", "*", "pass"),
    ];
    const summary = { results, counts: { pass: 5, fail: 1, warn: 0, skip: 0 } } as unknown as RunSummary;
    const rows = methodStats(summary);
    expect(rows.map((r) => r.method)).toEqual(["getIndexerSlot", "(protocol)", "(run-wide)"]);
    expect(rows[1]!.counts).toEqual({ pass: 3, fail: 1, warn: 0, skip: 0, notRun: 0 });
    expect(rows.every((r) => r.method in methods || r.method.startsWith("("))).toBe(true);
  });

  it("a tally's pseudo-methods join the same rows", () => {
    const blank = { pass: 0, fail: 0, warn: 0, skip: 0 };
    const tally = {
      cases: 9,
      unlisted: 9,
      byCheck: {},
      byMethod: {
        getIndexerSlot: { ...blank, pass: 4 },
        "(batch)": { ...blank, pass: 2 },
        "?": { ...blank, fail: 1 },
        "(not in the spec)": { ...blank, fail: 2 },
      },
    };
    const rows = methodStats({ results: [], tally } as unknown as RunSummary);
    expect(rows.map((r) => [r.method, r.counts.pass, r.counts.fail])).toEqual([
      ["getIndexerSlot", 4, 0],
      ["(protocol)", 2, 3],
    ]);
  });
});

describe("curl lines", () => {
  it("show the response's status line and headers (-i)", () => {
    expect(curlLine({ method: "POST", url: "http://127.0.0.1:1/", headers: {}, body: "{}" })).toBe("curl -sS -i -X POST 'http://127.0.0.1:1/' --data-raw '{}'");
  });
});
