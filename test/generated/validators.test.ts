import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envelopeValidators, methodValidators, type MethodName } from "../../generated/index.js";
import { parseJson, validate } from "../../runtime/index.js";
import { root } from "../helpers/paths.js";

type Body = { result: any; id: unknown };
const fixture = (name: string): Body => parseJson(readFileSync(join(root, "test", "fixtures", "responses", `${name}.json`), "utf8")) as Body;

const shapes: [string, MethodName][] = [
  ["tokenAccounts", "getCompressedTokenAccountsByOwner"],
  ["accountsByOwner", "getCompressedAccountsByOwner"],
  ["balances", "getCompressedTokenBalancesByOwner"],
  ["signatures", "getCompressionSignaturesForTokenOwner"],
  ["account", "getCompressedAccount"],
  ["accountNull", "getCompressedAccount"],
  ["multiple", "getMultipleCompressedAccounts"],
  ["slot", "getIndexerSlot"],
];

const resultIssues = (method: MethodName, result: unknown) => validate(methodValidators[method].result, result);

describe("generated validators accept real response shapes", () => {
  it.each(shapes)("%s as %s", (name, method) => {
    const body = fixture(name);
    expect(validate(envelopeValidators.response, body)).toEqual([]);
    expect(resultIssues(method, body.result)).toEqual([]);
  });

  it("keeps u64 values above 2^53 exactly (bigint), and accepts them", () => {
    const tokens = fixture("tokenAccounts").result;
    expect(tokens.value.items[1].tokenData.amount).toBe(18446744073709551615n);
    const accounts = fixture("accountsByOwner").result;
    expect(accounts.value.items[0].data.discriminator).toBe(3n * 2n ** 56n);
    expect(accounts.value.items[0].lamports).toBe(9007199254740993n);
    expect(fixture("slot").result).toBe(18446744073709551615n);
  });
});

describe("generated validators reject what real servers never send", () => {
  const mutate = (name: string, edit: (r: any) => void) => {
    const { result } = fixture(name);
    edit(result);
    return result;
  };
  const cases: [string, string, MethodName, (r: any) => void, string, string][] = [
    [
      "a pubkey of 31 bytes",
      "tokenAccounts",
      "getCompressedTokenAccountsByOwner",
      (r) => (r.value.items[0].tokenData.mint = "1111111111111111111111111111111"),
      "/value/items/0/tokenData/mint",
      "format",
    ],
    [
      "bad base58 (0, O, I, l)",
      "accountsByOwner",
      "getCompressedAccountsByOwner",
      (r) => (r.value.items[0].hash = "0OIl" + r.value.items[0].hash.slice(4)),
      "/value/items/0/hash",
      "format",
    ],
    [
      "a 32-byte signature",
      "signatures",
      "getCompressionSignaturesForTokenOwner",
      (r) => (r.value.items[0].signature = r.value.items[0].signature.slice(0, 44)),
      "/value/items/0/signature",
      "format",
    ],
    [
      "u64 overflow",
      "tokenAccounts",
      "getCompressedTokenAccountsByOwner",
      (r) => (r.value.items[1].tokenData.amount = 18446744073709551616n),
      "/value/items/1/tokenData/amount",
      "uint64",
    ],
    ["a negative lamports", "accountsByOwner", "getCompressedAccountsByOwner", (r) => (r.value.items[0].lamports = -1), "/value/items/0/lamports", "uint64"],
    ["a string slot", "signatures", "getCompressionSignaturesForTokenOwner", (r) => (r.value.items[0].slot = "7"), "/value/items/0/slot", "uint64"],
    [
      "a fractional leafIndex",
      "accountsByOwner",
      "getCompressedAccountsByOwner",
      (r) => (r.value.items[0].leafIndex = 1.5),
      "/value/items/0/leafIndex",
      "uint64",
    ],
    ["an omitted null (address)", "account", "getCompressedAccount", (r) => delete r.value.address, "/value/address", "required"],
    [
      "missing tokenData.state",
      "tokenAccounts",
      "getCompressedTokenAccountsByOwner",
      (r) => delete r.value.items[0].tokenData.state,
      "/value/items/0/tokenData/state",
      "required",
    ],
    [
      "an unknown state",
      "tokenAccounts",
      "getCompressedTokenAccountsByOwner",
      (r) => (r.value.items[0].tokenData.state = "closed"),
      "/value/items/0/tokenData/state",
      "enum",
    ],
    [
      "camelCase tokenBalances",
      "balances",
      "getCompressedTokenBalancesByOwner",
      (r) => ((r.value.tokenBalances = r.value.token_balances), delete r.value.token_balances),
      "/value/token_balances",
      "required",
    ],
    ["base64url data", "account", "getCompressedAccount", (r) => (r.value.data.data = "AQID-_8="), "/value/data/data", "format"],
    ["an unknown Account field", "account", "getCompressedAccount", (r) => (r.value.extra = 1), "/value/extra", "additionalProperties"],
    ["a missing cursor", "signatures", "getCompressionSignaturesForTokenOwner", (r) => delete r.value.cursor, "/value/cursor", "required"],
  ];

  it.each(cases)("%s", (_label, name, method, edit, pointer, keyword) => {
    const issues = resultIssues(method, mutate(name, edit));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatchObject({ pointer, keyword });
  });
});

describe("generated params validators", () => {
  const owner = "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m";
  const p = (method: MethodName, params: unknown) => validate(methodValidators[method].params, params);

  it("accepts limit 0 and 1000, null optionals, and filters", () => {
    expect(p("getCompressedTokenAccountsByOwner", { owner, limit: 1000, cursor: null, mint: null })).toEqual([]);
    expect(
      p("getCompressedAccountsByOwner", { owner, limit: 0, filters: [{ memcmp: { offset: 0, bytes: "2" } }], dataSlice: { offset: 0, length: 2 } }),
    ).toEqual([]);
  });

  it("rejects limit 1001 and a huge bigint limit at /limit", () => {
    expect(p("getCompressedTokenAccountsByOwner", { owner, limit: 1001 })[0]).toMatchObject({ pointer: "/limit", keyword: "uint64" });
    expect(p("getCompressedTokenAccountsByOwner", { owner, limit: 10n ** 20n })[0]).toMatchObject({ pointer: "/limit" });
  });

  it("names missing and unknown params", () => {
    expect(p("getCompressedTokenAccountsByOwner", {})[0]).toMatchObject({ pointer: "/owner", keyword: "required" });
    expect(p("getCompressedTokenAccountsByOwner", { owner, bogus: 1 })[0]).toMatchObject({ pointer: "/bogus", keyword: "additionalProperties" });
    expect(p("getCompressedAccountsByOwner", { owner, filters: null })[0]).toMatchObject({ pointer: "/filters" });
  });

  it("validates request and response envelopes", () => {
    expect(validate(envelopeValidators.request, { jsonrpc: "2.0", id: 18446744073709551615n, method: "getIndexerSlot" })).toEqual([]);
    expect(validate(envelopeValidators.request, { jsonrpc: "1.0", id: 1, method: "x" })[0]).toMatchObject({ pointer: "/jsonrpc" });
    expect(validate(envelopeValidators.response, { jsonrpc: "2.0", id: 1, result: 1, error: { code: 1, message: "m" } }).length).toBeGreaterThan(0);
    expect(validate(envelopeValidators.response, { jsonrpc: "2.0", id: 1 }).length).toBeGreaterThan(0);
    expect(validate(envelopeValidators.response, { jsonrpc: "2.0", id: 1, error: { code: "-32000", message: "m" } })[0]).toMatchObject({
      pointer: "/error/code",
    });
  });
});
