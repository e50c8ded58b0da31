import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY, NO_RETRY, policyOf } from "../../../runtime/transport/options.js";
import { splitUserinfo } from "../../../runtime/transport/userinfo.js";

describe("transport options", () => {
  it("resolves retry options to a policy, ignoring unusable numbers", () => {
    expect(policyOf(undefined)).toBe(DEFAULT_POLICY);
    expect(policyOf(false)).toBe(NO_RETRY);
    expect(policyOf({ retries: 2.7, minDelayMs: -1, maxDelayMs: Number.NaN, budgetMs: -5 })).toMatchObject({
      retries: 2,
      minDelayMs: 200,
      maxDelayMs: 5000,
      budgetMs: Infinity,
    });
  });

  it("turns URL userinfo into Basic auth and leaves other URLs alone", () => {
    expect(splitUserinfo("http://h/")).toBeUndefined();
    expect(splitUserinfo("http://a%40b:p%3A@h/x?k=1")).toEqual({ url: "http://h/x?k=1", authorization: `Basic ${Buffer.from("a@b:p:").toString("base64")}` });
  });
});
