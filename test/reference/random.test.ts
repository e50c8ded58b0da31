import { describe, expect, it } from "vitest";
import { Random } from "../../reference/random.js";

describe("Random (sfc32)", () => {
  it("gives a pinned sequence for a seed (the same on every machine)", () => {
    const r = new Random(1, "test");
    expect(Array.from({ length: 4 }, () => r.u32())).toEqual(PINNED_U32);
    expect(Buffer.from(new Random(1, "test").bytes(8)).toString("hex")).toBe(PINNED_BYTES);
  });

  it("separates seeds and streams", () => {
    const first = (seed: number, stream: string) => new Random(seed, stream).u32();
    expect(first(1, "a")).toBe(first(1, "a"));
    expect(new Set([first(1, "a"), first(2, "a"), first(1, "b")]).size).toBe(3);
  });

  it("keeps below/between/skewed in range and fills odd lengths", () => {
    const r = new Random(3);
    for (let i = 0; i < 10_000; i++) {
      expect(r.below(7)).toBeLessThan(7);
      const v = r.between(5, 9);
      expect(v >= 5 && v <= 9).toBe(true);
      expect(r.skewed(100)).toBeLessThan(100);
    }
    const buf = r.fill(new Uint8Array(11), 2, 7);
    expect([buf[0], buf[1], buf[9], buf[10]]).toEqual([0, 0, 0, 0]);
    expect(r.u64() < 2n ** 64n).toBe(true);
  });

  it("shuffles to a permutation", () => {
    const items = Int32Array.from({ length: 100 }, (_, i) => i);
    new Random(9).shuffle(items);
    expect([...items].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect([...items]).not.toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

const PINNED_U32 = [1559523504, 3502563490, 427379627, 2507089845];
const PINNED_BYTES = "b070f45ca2e0c4d0";
