import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { untilEnd, whileLive } from "./test-signal.js";

describe("untilEnd", () => {
  let previous: AbortSignal | undefined;

  it("is live while its test runs", (context) => {
    previous = untilEnd(context);
    expect(previous.aborted).toBe(false);
  });

  it("is aborted once its test has ended", () => {
    expect(previous?.aborted).toBe(true);
  });

  it("stops a fast-check loop at the first run after it fires", async () => {
    const stop = new AbortController();
    let runs = 0;
    const property = fc.asyncProperty(
      fc.nat(),
      whileLive(stop.signal, async () => {
        if (++runs === 3) stop.abort(new Error("ended"));
      }),
    );
    await expect(fc.assert(property, { numRuns: 100, endOnFailure: true })).rejects.toThrow(/failed after 4 tests/);
    expect(runs).toBe(3);
  });
});
