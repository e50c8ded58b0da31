/**
 * conformance/checks/schema.ts: the result against its method's generated validator. A field
 * the spec does not know warns (fails under --strict), reported once per path with array
 * indexes generalised; any other mismatch fails with the pointer under /result.
 */
import { describe, expect, it } from "vitest";
import { schemaCheck, schemaFindings } from "../../../conformance/checks/schema.js";
import type { Finding } from "../../../conformance/results.js";
import { methods, methodValidators } from "../../../generated/index.js";
import { caseOf, contextOf, exchangeOf } from "../../helpers/check-context.js";

const KEY = "11111111111111111111111111111111";
const account = (extra: Record<string, unknown> = {}) => ({
  hash: KEY,
  address: null,
  data: null,
  owner: KEY,
  lamports: 1,
  tree: KEY,
  leafIndex: 0,
  seq: null,
  slotCreated: 1,
  ...extra,
});

const byHash = caseOf("method: getCompressedAccount", `params: { hash: "${KEY}" }`);
const byOwner = caseOf("method: getCompressedAccountsByOwner", `params: { owner: "${KEY}" }`);
const answered = (result: unknown) => exchangeOf({ json: { jsonrpc: "2.0", id: 1, result } });
const run = (...args: Parameters<typeof contextOf>) => schemaCheck.run(contextOf(...args)) as Finding[];
const summary = (findings: Finding[]) => findings.map((f) => [f.status, f.message]);

describe("applies", () => {
  it("to cases expecting a result of a method the spec defines", () => {
    expect(schemaCheck.name).toBe("schema");
    expect(schemaCheck.applies(byHash, methods)).toBe(true);
    expect(schemaCheck.applies(caseOf("method: getNoSuchMethod"), methods)).toBe(false);
    for (const other of [
      "expect: { error: -32602 }",
      "expect: { status: 405 }",
      "expect: { emptyBody: true }",
      "expect: { batch: [] }",
      "http: { method: GET }",
    ]) {
      expect(schemaCheck.applies(caseOf("method: getCompressedAccount", other), methods), other).toBe(false);
    }
  });
});

describe("judging the result", () => {
  it("passes a result matching the spec, big integers included", () => {
    expect(run(byHash, answered({ context: { slot: 5 }, value: account() }))).toEqual([
      { check: "schema", status: "pass", message: "result matches the spec" },
    ]);
    const big = exchangeOf({ text: `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":18446744073709551615},"value":null}}` });
    expect(summary(run(byHash, big))).toEqual([["pass", "result matches the spec"]]);
  });

  it("fails a mismatch with the pointer under /result", () => {
    expect(summary(run(byHash, answered({ context: { slot: 5 }, value: account({ owner: "nope" }) })))).toEqual([
      ["fail", "result does not match the spec: /result/value/owner must be a valid pubkey"],
    ]);
    expect(summary(run(byHash, answered({ context: { slot: -1 }, value: null })))[0]![1]).toContain("/result/context/slot");
  });

  it("an unknown field warns, and the result is then judged without it", () => {
    expect(summary(run(byHash, answered({ context: { slot: 5 }, value: account({ extra: 1 }) })))).toEqual([
      ["warn", "field /result/value/extra is not in the spec"],
    ]);
  });

  it("under --strict an unknown field fails", () => {
    expect(summary(run(byHash, answered({ context: { slot: 5 }, value: account({ extra: 1 }) }), { strict: true }))).toEqual([
      ["fail", "field /result/value/extra is not in the spec (--strict)"],
    ]);
  });

  it("an unknown field in every item is reported once, its array index generalised", () => {
    const value = { items: [account({ extra: 1 }), account({ extra: 2 }), account()], cursor: null };
    expect(summary(run(byOwner, answered({ context: { slot: 5 }, value })))).toEqual([["warn", "field /result/value/items/*/extra is not in the spec"]]);
  });

  it("unknown fields and a real mismatch: each unknown field warns and the mismatch fails", () => {
    const value = account({ extra: 1, more: true, lamports: "one" });
    expect(summary(run(byHash, answered({ context: { slot: 5 }, value })))).toEqual([
      ["warn", "field /result/value/extra is not in the spec"],
      ["warn", "field /result/value/more is not in the spec"],
      ["fail", expect.stringMatching(/^result does not match the spec: \/result\/value\/lamports /)],
    ]);
  });

  it("does not change the exchange's body while peeling unknown fields off", () => {
    const exchange = answered({ context: { slot: 5 }, value: account({ extra: 1 }) });
    run(byHash, exchange);
    expect((exchange.body as { result: { value: { extra: number } } }).result.value.extra).toBe(1);
  });

  it("fails an error answer or a reply without a result, naming what came", () => {
    const error = exchangeOf({ json: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params" } } });
    expect(summary(run(byHash, error))).toEqual([["fail", 'expected a result, got error {"code":-32602,"message":"Invalid params"}']]);
    expect(summary(run(byHash, exchangeOf({ json: { jsonrpc: "2.0", id: 1 } })))).toEqual([["fail", "expected a result, no result"]]);
    expect(summary(run(byHash, exchangeOf({ text: "<html>" })))).toEqual([["fail", "expected a result, no result"]]);
  });
});

describe("schema findings' wording", () => {
  it("name the result without a trailing slash", () => {
    const [finding] = schemaFindings(methodValidators.getCompressedAccount.result, 7, false);
    expect(finding!.message).toBe("result does not match the spec: /result must be object");
  });
});
