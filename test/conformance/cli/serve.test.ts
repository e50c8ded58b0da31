/** `photon-conformance serve`: bad --live and --lag values are usage errors, one line each. */
import { describe, expect, it } from "vitest";
import { main } from "../../../conformance/cli/main.js";
import { captured } from "../../helpers/capture.js";

describe("serve --live and --lag", () => {
  it("refuses --lag without --live, an interval no timer keeps and an unbounded lag, in one line each", async () => {
    const r = await captured(main, ["serve", "--port", "0", "--lag", "3"]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("--lag needs --live");
    expect(r.out).not.toMatch(/\n\s+at /);
    // A timer longer than 2^31 - 1 ms would fire after 1 ms; a huge lag would hold every change in memory.
    const long = await captured(main, ["serve", "--port", "0", "--live", "3000000000"]);
    expect(long.code).toBe(2);
    expect(long.out).toContain("--live must be an integer from 1 to 2147483647");
    const deep = await captured(main, ["serve", "--port", "0", "--live", "10", "--lag", "1000000000"]);
    expect(deep.code).toBe(2);
    expect(deep.out).toContain("--lag must be an integer from 0 to 100000");
  });
});
