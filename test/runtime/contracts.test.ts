/**
 * Validation issues name one cause per pointer: the `anyOf` of a nullable field (ajv reports
 * every branch and then "must match a schema in anyOf") is reduced to the branch that
 * explains the value, and the value itself is named without a trailing slash.
 */
import { describe, expect, it } from "vitest";
import { methodValidators } from "../../generated/index.js";
import { formatIssues, validate } from "../../runtime/index.js";

const OWNER = "7mRkw9NZxxktHhFgYTgEGQhPLZGDqpzuhYxhX36TXqDZ";
const pointers = (issues: ReturnType<typeof validate>) => issues.map((i) => i.pointer);

describe("one cause per pointer", () => {
  it("a nullable string of the right type but the wrong format: its format, not 'must be null'", () => {
    const issues = validate(methodValidators.getCompressedAccount.params, { address: "abc" });
    expect(formatIssues(issues)).toBe("/address must be a valid pubkey");
  });

  it("a nullable field of another type: the types merged into one cause", () => {
    const issues = validate(methodValidators.getCompressedAccount.params, { address: 5 });
    expect(formatIssues(issues)).toBe("/address must be string or null");
    expect(issues[0]!.params.type).toEqual(["string", "null"]);
  });

  it("a nullable object failing inside: the deeper cause only", () => {
    const issues = validate(methodValidators.getCompressedAccountsByOwner.params, { owner: OWNER, dataSlice: { offset: 1 } });
    expect(formatIssues(issues)).toBe("/dataSlice/length missing field `length`");
    const result = validate(methodValidators.getCompressedAccount.result, { context: { slot: 1 }, value: { hash: 5 } });
    expect(pointers(result)).toEqual(["/value/address"]);
    expect(formatIssues(result, "/result")).not.toMatch(/must be null|anyOf/);
  });

  it("each pointer is named once", () => {
    for (const [fn, value] of [
      [methodValidators.getCompressedAccount.params, { address: "abc", hash: 7 }],
      [methodValidators.getCompressedAccountsByOwner.params, { owner: OWNER, cursor: "zz0", dataSlice: { offset: 1 } }],
      [methodValidators.getCompressedAccount.result, { context: { slot: 1 }, value: 7 }],
    ] as const) {
      const named = pointers(validate(fn, value));
      expect(named.length).toBeGreaterThan(0);
      expect(new Set(named).size).toBe(named.length);
    }
  });

  it("the value itself is its root, without a trailing slash", () => {
    const issues = validate(methodValidators.getCompressedAccount.result, 7);
    expect(formatIssues(issues, "/result")).toBe("/result must be object");
    expect(formatIssues(issues)).toBe("/ must be object");
  });
});
