/** The slot read when scraped: at most once per interval, shared by concurrent scrapes, bounded, never rejecting. */
import { describe, expect, it } from "vitest";
import { SlotSampler, type SlotReader } from "../../../conformance/watch/slot.js";

/** A reader answering `slots` in turn, and the clock the sampler reads (advanced by hand). */
function fixture(answers: readonly (bigint | number | null | Error)[]) {
  let now = 0;
  let calls = 0;
  const read: SlotReader = async () => {
    const a = answers[Math.min(calls++, answers.length - 1)]!;
    if (a instanceof Error) throw a;
    return a;
  };
  const sampler = new SlotSampler(read, { timeoutMs: 1000, minIntervalMs: 1000, now: () => now });
  return { sampler, advance: (ms: number) => (now += ms), calls: () => calls };
}

describe("SlotSampler", () => {
  it("keeps the slot and its rate in slots per second between samples", async () => {
    const f = fixture([100, 100n, 130]);
    await f.sampler.sample();
    expect(f.sampler.current).toEqual({ slot: 100, rate: null, up: true });
    f.advance(2000);
    await f.sampler.sample();
    expect(f.sampler.current).toEqual({ slot: 100, rate: 0, up: true });
    f.advance(10_000);
    await f.sampler.sample();
    expect(f.sampler.current).toEqual({ slot: 130, rate: 3, up: true });
  });

  it("reads at most once per interval, concurrent scrapes sharing one read", async () => {
    const f = fixture([7]);
    await Promise.all([f.sampler.sample(), f.sampler.sample(), f.sampler.sample()]);
    f.advance(999);
    await f.sampler.sample();
    expect(f.calls()).toBe(1);
    f.advance(1);
    await f.sampler.sample();
    expect(f.calls()).toBe(2);
  });

  it("a failed or garbled read says down, keeps the last slot and drops the rate", async () => {
    const f = fixture([5, new Error("refused"), -1, 9]);
    await f.sampler.sample();
    for (const _ of [1, 2]) {
      f.advance(1000);
      await f.sampler.sample();
      expect(f.sampler.current).toEqual({ slot: 5, rate: null, up: false });
    }
    f.advance(1000);
    await f.sampler.sample();
    expect(f.sampler.current).toEqual({ slot: 9, rate: 4 / 3, up: true });
  });

  it("a read that never answers is given up at the deadline", async () => {
    let aborted = false;
    const sampler = new SlotSampler(
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => ((aborted = true), resolve(1)));
        }),
      { timeoutMs: 20 },
    );
    await sampler.sample();
    expect(sampler.current.up).toBe(false);
    expect(aborted).toBe(true);
  });
});
