/** `photon-conformance serve`: a port or option it cannot use is a usage error, one line each. */
import { describe, expect, it } from "vitest";
import { main } from "../../../conformance/cli/main.js";
import { MIN_ACCOUNTS } from "../../../reference/dataset.js";
import { startReferenceIndexer } from "../../../reference/serve.js";
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

describe("usage errors, never a stack trace", () => {
  it("serve: a taken port, a port out of range and too few accounts (the minimum is in --help)", async () => {
    const taken = await startReferenceIndexer({ port: 0, accounts: MIN_ACCOUNTS });
    try {
      const port = String(new URL(taken.url).port);
      const busy = await captured(main, ["serve", "--port", port]);
      expect(busy.code).toBe(2);
      expect(busy.out).toBe(`photon-conformance: cannot listen on 127.0.0.1:${port}: the port is already in use (--port 0 picks a free one)\n`);
    } finally {
      await taken.close();
    }
    const high = await captured(main, ["serve", "--port", "99999"]);
    expect(high.code).toBe(2);
    expect(high.out).toContain("--port must be an integer from 0 to 65535");
    const few = await captured(main, ["serve", "--accounts", "100"]);
    expect(few.code).toBe(2);
    expect(few.out).toContain(`--accounts must be an integer >= ${MIN_ACCOUNTS}`);
    const help = await captured(main, ["serve", "--help"]);
    expect(help.out).toContain(`at least ${MIN_ACCOUNTS}`);
    for (const r of [high, few]) expect(r.out).not.toMatch(/\n\s+at /);
  }, 60_000);
});
