/** conformance/reporters/support/curl.ts: the curl line that reproduces an exchange. */
import { describe, expect, it } from "vitest";
import { curlLine } from "../../../../conformance/reporters/support/curl.js";

describe("curl lines", () => {
  it("show the response's status line and headers (-i)", () => {
    expect(curlLine({ method: "POST", url: "http://127.0.0.1:1/", headers: {}, body: "{}" })).toBe("curl -sS -i -X POST 'http://127.0.0.1:1/' --data-raw '{}'");
  });
});
