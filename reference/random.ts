/**
 * A small seeded PRNG (sfc32, seeded through cyrb128) for the dataset generator.
 *
 * Only 32-bit integer operations (`Math.imul`, shifts, `>>> 0`) feed the state, so the
 * same seed and stream give the same sequence on every machine and Node version.
 * Floats are derived from those integers with exact IEEE arithmetic.
 */
import { internalError } from "@photon-indexer-kit/runtime";
import { RefErrorCode } from "./errors.js";

/** cyrb128: four 32-bit seeds from a string. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const TWO_POW_32 = 4294967296;

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator for `seed`; distinct `stream` names give independent sequences. */
  constructor(seed: number | string, stream = "") {
    [this.a, this.b, this.c, this.d] = cyrb128(`${seed}/${stream}`);
    for (let i = 0; i < 16; i++) this.u32();
  }

  /** The next unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.u32() / TWO_POW_32;
  }

  /** An integer in [0, n), for 1 ≤ n ≤ 2^32. */
  below(n: number): number {
    return Math.min(n - 1, Math.floor(this.float() * n));
  }

  /** An integer in [min, max], both inclusive (a span below 2^32). */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** An index in [0, n) skewed towards 0 (P(i) falls off like 1/sqrt(i)): a few large, many small. */
  skewed(n: number): number {
    const u = this.float();
    return Math.min(n - 1, Math.floor(u * u * n));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw internalError(RefErrorCode.INTERNAL, "pick from an empty list");
    return items[this.below(items.length)] as T;
  }

  /** Fills `target[offset, offset+length)` with random bytes. */
  fill(target: Uint8Array, offset = 0, length = target.length - offset): Uint8Array {
    let i = offset;
    const end = offset + length;
    while (i + 4 <= end) {
      const x = this.u32();
      target[i++] = x & 0xff;
      target[i++] = (x >>> 8) & 0xff;
      target[i++] = (x >>> 16) & 0xff;
      target[i++] = x >>> 24;
    }
    if (i < end) {
      let x = this.u32();
      while (i < end) {
        target[i++] = x & 0xff;
        x >>>= 8;
      }
    }
    return target;
  }

  bytes(length: number): Uint8Array {
    return this.fill(new Uint8Array(length));
  }

  /** An unsigned 64-bit integer as bigint, uniform over [0, 2^64). */
  u64(): bigint {
    return (BigInt(this.u32()) << 32n) | BigInt(this.u32());
  }

  /** Shuffles in place (Fisher–Yates). */
  shuffle<T extends { length: number; [i: number]: unknown }>(items: T): T {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}
