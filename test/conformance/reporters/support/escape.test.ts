/** conformance/reporters/support/escape.ts: shell quoting of outside values. */
import { describe, expect, it } from "vitest";
import { forShell } from "../../../../conformance/reporters/support/escape.js";

describe("forShell", () => {
  it("a NUL or a lone surrogate in a value is written escaped, never raw", () => {
    expect(forShell("a\u0000b")).toBe("$'a\\x00b'");
    expect(forShell("a\ud800b")).toBe("$'a\\ufffdb'");
    expect(forShell("it's $(x)")).toBe(`'it'\\''s $(x)'`);
  });
});
