/** conformance/checks/check.ts `show`: values in findings, big integers as digits, a missing value as `absent`. */
import { describe, expect, it } from "vitest";
import { show } from "../../../conformance/checks/check.js";
import { ABSENT } from "../../../conformance/matchers.js";

const U64_MAX = 18446744073709551615n;

describe("values in findings", () => {
  it("big integers are printed as numbers, without an n suffix", () => {
    expect(show(U64_MAX)).toBe("18446744073709551615");
    expect(show({ lamports: U64_MAX, items: [1n, 2] })).toBe('{"lamports":18446744073709551615,"items":[1,2]}');
  });

  it("a missing value is `absent`, never `undefined`", () => {
    expect(show(undefined)).toBe("absent");
    expect(show(ABSENT)).toBe("absent");
  });
});
